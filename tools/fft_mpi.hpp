// twiddle fft --mpi and bench --mpi (cmd_fft_mpi.cpp, bench_mpi.cpp; in builds with MPI).
#pragma once

#include <cstdint>
#include <string>

namespace twiddle::cli {

struct FftMpiArgs {
    std::string in, out;
    bool has_axes = false;
    std::string axes;
    bool inverse = false;
    bool real = false;
    uint64_t n = 0;
    std::string norm = "backward";
};

// Initializes MPI if it is not yet, at MPI_THREAD_FUNNELED: DistPlan's worker thread copies to and
// from the device while the calling thread makes the MPI calls.
void init_mpi();

// Initializes MPI (init_mpi), runs the transform on every rank of MPI_COMM_WORLD, finalizes
// MPI. Returns the exit status; rank 0 has printed the one-line error where it is not 0.
int run_fft_mpi(const FftMpiArgs& args);

}  // namespace twiddle::cli
