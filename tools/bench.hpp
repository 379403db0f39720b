// What the modes of `twiddle bench` share: their arguments, GPU timing, the buffers of a sweep,
// the cases (input drawn once, reference of the first and last rows) and the result files.
#pragma once

#include <vulkan/vulkan.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "twiddle/twiddle.hpp"
#include "vk/warm_up.hpp"

namespace twiddle::cli {

struct BenchArgs {
    bool quick = false;
    uint32_t total_log2 = 26;  // complex values per case
    uint32_t min_log2 = 3, max_log2 = 24;
    std::vector<uint64_t> lengths;    // overrides the sweep
    std::vector<std::string> shapes;  // multi-dimensional cases, transformed over every axis
    uint32_t reps = 20;
    double warm_up = 1.0;  // seconds of back-to-back runs before each timing (at least; see --warmup)
    double max_error = 0;  // 0: 5e-7 in f32, 1e-14 in f64
    bool f64 = false;
    bool real = false;  // r2c (numpy rfftn over every axis) instead of complex transforms
    // The inverse transforms instead (c2c inverse, with `real` c2r), unnormalized as cuFFT's and
    // FFTW's (Normalization::forward), from an input that is a real array's spectrum.
    bool inverse = false;
    bool kernel_stats = false;
    bool pass_times = false;            // also time each pass of multi-pass plans
    std::vector<uint32_t> copy_shared;  // shared-memory footprints to time the copy with
    Options options;
    std::string strategy = "auto";
    std::string out;
    // Spherical-harmonic Fourier stages instead of the transforms: NLATxNPHIxMMAX each.
    std::vector<std::string> sht;
    uint64_t fields = 1;
    std::string sht_passes = "auto";  // automatic, one or two (sht::Passes)
    // Convolutions instead: the shape of one transform each, batched to 2^total values.
    std::vector<std::string> convolve;
    // Side by side with other libraries (bench_compare.cpp), and where the plot goes.
    bool compare = false;
    std::string plot;
    uint32_t fftw_threads = 0;  // 0: one per hardware thread
    bool vkfft_lut = false;     // VkFFT's twiddle tables (useLUT) instead of its sines and cosines
    // Plan creation time instead (bench_plan_time.cpp).
    bool plan_time = false;
    uint32_t plan_reps = 5;
    // Distributed transforms on the ranks of mpirun instead (bench_mpi.cpp, builds with MPI).
    bool mpi = false;
};

void run_compare(const BenchArgs& args);
void run_plan_time(const BenchArgs& args);
void run_bench_mpi(const BenchArgs& args);

double median(std::vector<double> v);

// Times `record` reps times in one submission a round, with a barrier before each interval, after
// `warm_up` seconds of back-to-back runs and until their speed is steady (at most 2 x `warm_up`),
// in vk::kTimedRounds such rounds, and returns each round's median milliseconds.
vk::RoundMedians time_rounds(const Context& ctx, uint32_t reps, double warm_up,
                             const std::function<void(VkCommandBuffer)>& record);
// The same, the lowest round's median: the case's time.
double time_median(const Context& ctx, uint32_t reps, double warm_up,
                   const std::function<void(VkCommandBuffer)>& record);

// The bytes the yardstick copy moves: `wanted` rounded down to whole 16-byte words, at least one
// word and at most what one binding may hold (the storage-buffer range).
uint64_t copy_bytes(const Context& ctx, uint64_t wanted);
// The same for 2^total_log2 complex values in the cases' precision (f64 or f32).
uint64_t copy_bytes(const Context& ctx, uint32_t total_log2, bool f64);
// Bandwidth of a plain copy of `bytes` (read + written), the yardstick of every case.
double copy_gbps(const Context& ctx, uint64_t bytes, uint32_t reps, double warm_up,
                 uint32_t shared_bytes = 0);

// The device buffers every case uses: allocated once, for the largest case, so that cases do not
// churn device memory between them. Scratch grows when a case needs more (Bluestein's takes two
// arrays 2 to 4 times longer than its data).
struct Buffers {
    Buffer in, out;
    std::optional<Buffer> scratch;
    Buffers(const Context& ctx, uint64_t bytes)
        : in(ctx, bytes), out(ctx, bytes), scratch(std::in_place, ctx, bytes) {}
    const Buffer& scratch_of(const Context& ctx, uint64_t bytes);
};

// One case: `batch` arrays of `shape`, one after another, each transformed over all of its axes in
// `direction`, complex to complex or (real) real to half spectrum (forward) and back (inverse, c2r;
// unnormalized both ways), out of place, packed. The batch fills 2^total values (at least one
// array).
struct BenchCase {
    std::vector<uint64_t> shape;
    bool real = false;
    Precision precision = Precision::f32;
    Direction direction = Direction::forward;
    uint64_t n = 1, batch = 1;

    BenchCase(std::vector<uint64_t> shape, bool real, Precision precision, uint32_t total_log2,
              Direction direction = Direction::forward);
    // The arrays of the case, `count` of them, as one batched problem.
    FftDesc problem(uint64_t count) const;
    uint64_t input_bytes() const;   // of the whole batch
    uint64_t output_bytes() const;  // of the whole batch
    std::string name() const;       // "1024", "256x256"
    const char* kind() const;       // "c2c", "r2c" or "c2r"
};

// A case's input, drawn once, and the long-double reference of its first and last rows (at most
// 2^15 values each), so that the first and the last workgroups of any implementation are checked.
// A c2r case's input is made the spectrum of a real array (Hermitian where the half spectrum holds
// both of a pair of mirrored points), so that every library's c2r has one right answer.
class CaseData {
public:
    explicit CaseData(const BenchCase& c);
    // The whole batch's input, packed: input_bytes() of floats (or doubles with f64).
    const void* input() const { return input_.data(); }
    // Relative L2 error of an output that `read(dst, offset, bytes)` copies out, byte offsets into
    // the packed output of the whole batch.
    double check(const std::function<void(void* dst, uint64_t offset, uint64_t bytes)>& read) const;

private:
    BenchCase case_;
    std::vector<unsigned char> input_;
    uint64_t rows_ = 0, out_words_ = 0;  // rows checked at each end; words of T per output row
    std::vector<std::complex<double>> want_;
};

// A CSV field: quoted, with quotes doubled, where it holds a comma or a quote (RFC 4180).
std::string csv_field(const std::string& text);

// A number that may be missing (NaN: an error not measured, a ratio not taken): as a CSV field,
// empty where it is not finite; in JSON, null there.
std::string csv_number(double v);
nlohmann::json json_number(double v);

// Throws twiddle::Error when every case's status says "unsupported: ...": a run that measured
// nothing (a strategy or precision the device lacks) fails with the first reason, after its rows
// were printed and written. Runs where some cases ran keep their unsupported rows and succeed.
void require_some_case_ran(const std::vector<std::string>& statuses);

// Writes `path`: for a .json path the device, its driver, the fields of `extra` (the copy kernel's
// bandwidth, say) and `cases`; else `csv` (a header line, then rows) with the device and driver
// as two more columns.
void write_results_file(const std::string& path, const DeviceCaps& caps, nlohmann::json cases,
                        const std::string& csv, const nlohmann::json& extra);

}  // namespace twiddle::cli
