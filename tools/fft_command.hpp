// twiddle fft: its arguments, checks and transform of an array in memory (cmd_fft.cpp), which
// twiddle fft --mpi also runs on each rank's slab; and the entry points of twiddle fft --mpi and
// bench --mpi (cmd_fft_mpi.cpp, bench_mpi.cpp; in builds with MPI).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "npy.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

// twiddle fft's arguments that say which transform it runs, and on which files.
struct FftArgs {
    std::string in, out;
    bool has_axes = false;  // false: the last axis alone, as numpy.fft.fft
    std::string axes;
    bool inverse = false;
    bool real = false;
    uint64_t n = 0;  // --n: irfft's output length along the halved axis (0: 2 (m - 1))
    std::string norm = "backward";
};

// Checks `array` and `args` as twiddle fft does (its one-line errors, naming args.in) and
// returns the axes it transforms: each in [0, rank), in the order given (a real transform halves
// the last of them); the last axis without --axes, every axis in order for --axes all.
std::vector<int> check_fft(const FftArgs& args, const npy::NpyArray& array);

// The shape of the real signal of a real transform of an array of `shape`: an inverse one's
// `halved` axis of m points has --n points, or 2 (m - 1). Other transforms keep the shape.
std::vector<uint64_t> signal_shape(const FftArgs& args, std::vector<uint64_t> shape, size_t halved);

// `array` with axis `axis` cropped or zero-padded to `extent` points, as irfft does to its input.
npy::NpyArray fit_axis(const npy::NpyArray& array, size_t axis, uint64_t extent);

// twiddle fft's result for `array` (check_fft, then the transform on one device): complex64 or
// complex128 out, float32 or float64 for an inverse real transform. `device` gives the context
// to run on; it is called once, and only when there is something to transform.
npy::NpyArray fft_of(const FftArgs& args, const npy::NpyArray& array, const Options& options,
                     const std::function<const Context&()>& device);

// Writes fft_of's result to `path` atomically (npy::write_npy_atomic).
void write_npy(const std::string& path, const npy::NpyArray& array);

// Initializes MPI if it is not yet (MPI_THREAD_FUNNELED: only the calling thread makes MPI calls).
void init_mpi();

// Initializes MPI (init_mpi), runs the transform on every rank of MPI_COMM_WORLD, finalizes
// MPI. Returns the exit status; rank 0 has printed the one-line error where it is not 0.
int run_fft_mpi(const FftArgs& args);

}  // namespace twiddle::cli
