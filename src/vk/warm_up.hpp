// The warm-up before a timing, for the tuner (vk/tuning.cpp) and the benchmarks (tools/, and
// bench/cufft), apart so that unit tests can drive it with made-up timings. No Vulkan in here.
#pragma once

#include <cmath>
#include <cstdint>

namespace twiddle::vk {

// A warm-up's batches: back-to-back runs for at least `seconds`, then on until two batches of at
// least 20 ms run at the same speed per run (within 2%), for at most `seconds` more; none for 0
// seconds. GPUs lower their clocks while the host works between cases (compiling the next case's
// kernels) and raise them only under sustained load: without a warm-up the first case of a sweep
// ran at full clock and the rest several times slower, and after fixed 0.3 s warm-ups the H200's
// clock was now and then still climbing from 420-540 MHz, and a case timed at a third of its
// speed (bench/RESULTS.md, thirty-second run). Use:
//   for (WarmUp w(seconds); w.running();) w.ran(seconds_the_batch_took, seconds_since_start);
// running a batch of w.batch() runs before each ran().
class WarmUp {
public:
    explicit WarmUp(double seconds) : seconds_(seconds), running_(seconds > 0) {}
    bool running() const { return running_; }
    uint32_t batch() const { return batch_; }
    void ran(double batch_seconds, double elapsed_seconds);

private:
    double seconds_;
    bool running_;
    uint32_t batch_ = 1;
    double last_per_run_ = 0;  // of the last batch of at least 20 ms, at the current size
};

inline void WarmUp::ran(double batch_seconds, double elapsed_seconds) {
    constexpr double kSteadyBatch = 0.02, kSteadyTolerance = 0.02;
    constexpr uint32_t kMaxBatch = 4096;
    if (batch_seconds < kSteadyBatch && batch_ < kMaxBatch) {
        batch_ *= 2;
        last_per_run_ = 0;
    } else {
        const double per_run = batch_seconds / batch_;
        const bool steady =
            last_per_run_ > 0 && std::abs(per_run - last_per_run_) <= kSteadyTolerance * last_per_run_;
        last_per_run_ = per_run;
        if (elapsed_seconds >= seconds_ && steady) running_ = false;
    }
    if (elapsed_seconds >= 2 * seconds_) running_ = false;
}

}  // namespace twiddle::vk
