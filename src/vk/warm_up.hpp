// The warm-up before a timing, for the tuner (vk/tuning.cpp) and the benchmarks (tools/, and
// bench/cufft), apart so that unit tests can drive it with made-up timings. No Vulkan in here:
// vk::warm_up (vk/tuning.hpp) runs it on a context.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace twiddle::vk {

// A warm-up's batches: back-to-back runs for at least `seconds`, then on until a batch runs at the
// speed per run of a batch that ended at least kSteadyWindow earlier (within kSteadyTolerance), for
// at most `seconds` more, checked after each batch (so the last batch may overrun); none for 0
// seconds. Batches double from one run while they take under kSteadyBatch, up to kMaxBatch runs;
// only batches of at least kSteadyBatch (or of kMaxBatch runs) are compared, at one size.
//
// Why: GPUs lower their clocks while the host works between cases (compiling the next case's
// kernels) and raise them only under sustained load: without a warm-up the first case of a sweep
// ran at full clock and the rest several times slower, and after fixed 0.3 s warm-ups the H200's
// clock was now and then still climbing from 420-540 MHz, and a case timed at a third of its
// speed (bench/RESULTS.md, thirty-second run). Comparing batches a window apart rather than
// neighbours also catches a slow climb.
//
// Use (elapsed_seconds must grow from batch to batch, or the warm-up may not end):
//   for (WarmUp w(seconds); w.running();) w.ran(seconds_the_batch_took, seconds_since_start);
// running a batch of w.batch() runs before each ran().
class WarmUp {
public:
    static constexpr double kSteadyBatch = 0.02, kSteadyWindow = 0.1, kSteadyTolerance = 0.02;
    static constexpr uint32_t kMaxBatch = 4096;

    explicit WarmUp(double seconds) : seconds_(seconds), running_(seconds > 0) {}
    bool running() const { return running_; }
    uint32_t batch() const { return batch_; }
    void ran(double batch_seconds, double elapsed_seconds);

private:
    struct Timed {
        double ended;    // seconds since the start
        double per_run;  // seconds
    };
    double seconds_;
    bool running_;
    uint32_t batch_ = 1;
    std::vector<Timed> timed_;  // the compared batches at the current size, oldest first
};

inline void WarmUp::ran(double batch_seconds, double elapsed_seconds) {
    if (batch_seconds < kSteadyBatch && batch_ < kMaxBatch) {
        batch_ *= 2;
        timed_.clear();
    } else {
        const double per_run = batch_seconds / batch_;
        // The latest batch that ended a window before this one.
        const Timed* earlier = nullptr;
        for (const Timed& t : timed_)
            if (t.ended <= elapsed_seconds - kSteadyWindow) earlier = &t;
        const bool steady =
            earlier && std::abs(per_run - earlier->per_run) <= kSteadyTolerance * earlier->per_run;
        timed_.push_back({elapsed_seconds, per_run});
        if (elapsed_seconds >= seconds_ && steady) running_ = false;
    }
    if (elapsed_seconds >= 2 * seconds_) running_ = false;
}

// A benchmark's time of a case: kTimedRounds rounds, each a warm-up (WarmUp) and then the timed
// runs, and the lowest of the rounds' medians. `round` runs one round and returns its median.
//
// Why: on the H200 a case's timing now and then ran at a third of its speed after a steady
// warm-up of 0.2-1 s, while the same plan on the same buffers, timed again right after in the
// same process, ran at full speed (bench/RESULTS.md, forty-fifth run); cuFFT's cases had such
// outliers too. One round more, with its own warm-up, takes the slow spell out of the figure, and
// the rounds' medians kept beside it show where one came (twiddle bench's round_ms).
inline constexpr int kTimedRounds = 2;

// Each round's median, in the order the rounds ran.
struct RoundMedians {
    std::array<double, kTimedRounds> ms{};
    // The case's time.
    double fastest() const { return *std::min_element(ms.begin(), ms.end()); }
};

template <typename Round>
RoundMedians timed_rounds(Round&& round) {
    RoundMedians rounds;
    for (double& ms : rounds.ms) ms = round();
    return rounds;
}

}  // namespace twiddle::vk
