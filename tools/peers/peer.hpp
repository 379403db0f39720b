// A library that `twiddle bench --compare` runs the cases with: twiddle itself, VkFFT on the same
// Vulkan device, cuFFT on the same GPU (loaded at run time, where present) and FFTW on the CPU.
// Each runs one case at a time: prepare (a plan, for a case whose input is in place), run once
// (for the accuracy check), read the output, time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bench.hpp"

namespace twiddle::cli {

class Peer {
public:
    virtual ~Peer() = default;

    virtual std::string name() const = 0;
    // Empty where the library can run; else why it cannot ("libcufft.so.* not found").
    virtual std::string unavailable() const { return {}; }
    // What it runs on and which version, for the results.
    virtual std::string detail() const = 0;

    // Makes the plan for `c`. Vulkan peers read their input from the harness's Buffers::in, which
    // holds data.input() by then; the others copy data.input() where they need it. Returns "" or
    // the status of a case the library does not run ("unsupported: ..."); throws on errors.
    virtual std::string prepare(const BenchCase& c, const CaseData& data) = 0;
    // Runs the transform once and waits for it.
    virtual void run() = 0;
    // Copies `bytes` of the packed output, from byte `offset`, into `dst`.
    virtual void read_output(void* dst, uint64_t offset, uint64_t bytes) = 0;
    // Median milliseconds of `reps` runs after `warm_up` seconds of runs: GPU time (timestamps,
    // events) for GPU libraries, wall time for CPU ones.
    virtual double time_ms(uint32_t reps, double warm_up) = 0;
    // Frees what prepare() made.
    virtual void release() = 0;
};

// VkFFT on the context's device, reading Buffers::in and writing Buffers::out; `lut`: with its
// tables of twiddles (useLUT), not sines and cosines computed in the kernels.
std::unique_ptr<Peer> make_vkfft_peer(const Context& ctx, Buffers& buffers, bool lut);
// cuFFT through the CUDA runtime, both loaded with dlopen, on the CUDA device whose UUID is the
// Vulkan device's.
std::unique_ptr<Peer> make_cufft_peer(const Context& ctx);
// FFTW on the CPU with `threads` threads (0: one per hardware thread).
std::unique_ptr<Peer> make_fftw_peer(uint32_t threads);

// twiddle's Plan on the harness's buffers, with the planner's options; `twiddle bench` without
// --compare runs it alone.
class TwiddlePeer final : public Peer {
public:
    TwiddlePeer(const Context& ctx, Buffers& buffers, const Options& options);

    std::string name() const override { return "twiddle"; }
    std::string detail() const override;
    std::string prepare(const BenchCase& c, const CaseData& data) override;
    void run() override;
    void read_output(void* dst, uint64_t offset, uint64_t bytes) override;
    double time_ms(uint32_t reps, double warm_up) override;
    // The same timing with each round's median (time_ms is the fastest).
    vk::RoundMedians round_medians(uint32_t reps, double warm_up);
    // Milliseconds of each pass: the median time of the first p passes less that of the first
    // p - 1 (Plan::record_first_passes), so each figure is a difference of two medians.
    std::vector<double> pass_times_ms(uint32_t reps, double warm_up);
    void release() override { plan_.reset(); }

    const Plan& plan() const { return *plan_; }

private:
    void record(VkCommandBuffer cmd) const;

    const Context& ctx_;
    Buffers& buffers_;
    Options options_;
    std::optional<Plan> plan_;
    Direction direction_ = Direction::forward;
    BufferView in_, out_, scratch_;
};

}  // namespace twiddle::cli
