// The warm-up rule of the tuner and the benchmarks (src/vk/warm_up.hpp), driven with made-up
// batch timings.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "vk/warm_up.hpp"

namespace twiddle::vk {
namespace {

struct Warmed {
    double seconds = 0;  // how long the warm-up lasted
    int batches = 0;
    uint32_t largest_batch = 0;
};

// Runs a warm-up of `seconds` against a device whose run takes `per_run(elapsed)` seconds. Fails
// the test (rather than hanging) if it runs more than 100000 batches.
Warmed warm(double seconds, const std::function<double(double)>& per_run) {
    Warmed out;
    for (WarmUp w(seconds); w.running(); ++out.batches) {
        if (out.batches == 100000) {
            ADD_FAILURE() << "the warm-up did not end";
            break;
        }
        out.largest_batch = std::max(out.largest_batch, w.batch());
        const double took = w.batch() * per_run(out.seconds);
        out.seconds += took;
        w.ran(took, out.seconds);
    }
    return out;
}

TEST(WarmUp, NoneForZeroSeconds) {
    const Warmed w = warm(0, [](double) { return 1e-3; });
    EXPECT_EQ(w.seconds, 0);
    EXPECT_EQ(w.batches, 0);
}

TEST(WarmUp, BatchesGrowWhileShortUpToTheirLimit) {
    WarmUp w(1.0);
    EXPECT_EQ(w.batch(), 1u);
    w.ran(1e-4, 1e-4);
    EXPECT_EQ(w.batch(), 2u);
    w.ran(2e-4, 3e-4);
    EXPECT_EQ(w.batch(), 4u);
    w.ran(0.05, 0.05);  // long enough: the size stays
    EXPECT_EQ(w.batch(), 4u);
    EXPECT_TRUE(w.running());
    // Runs of a microsecond: batches stop at WarmUp::kMaxBatch runs.
    EXPECT_EQ(warm(0.3, [](double) { return 1e-6; }).largest_batch, WarmUp::kMaxBatch);
    // Runs just under kSteadyBatch: one doubling, so no batch takes twice kSteadyBatch.
    EXPECT_EQ(warm(0.3, [](double) { return 0.0199; }).largest_batch, 2u);
    // Runs of kSteadyBatch or longer stay one to a batch.
    EXPECT_EQ(warm(0.3, [](double) { return 0.02; }).largest_batch, 1u);
}

TEST(WarmUp, StopsSoonAfterItsSecondsAtASteadySpeed) {
    const double lasted = warm(0.3, [](double) { return 1e-3; }).seconds;
    EXPECT_GE(lasted, 0.3);
    EXPECT_LT(lasted, 0.35);
}

// A clock that climbs for 0.5 s after the warm-up starts: runs three times as long at first, then
// faster until full speed. A fixed 0.4 s warm-up would end while they still sped up; this one ends
// a window after the climb.
TEST(WarmUp, WaitsForAClimbingClock) {
    auto climbing = [](double t) { return t < 0.5 ? 3e-3 - 4e-3 * t : 1e-3; };
    const double lasted = warm(0.4, climbing).seconds;
    EXPECT_GE(lasted, 0.5 + WarmUp::kSteadyWindow);
    EXPECT_LT(lasted, 0.7);
}

// A slow climb, 2% per 50 ms: neighbouring batches differ by less than the tolerance, batches a
// window apart by more, so the warm-up goes on to its limit.
TEST(WarmUp, WaitsForASlowClimb) {
    auto slow = [](double t) { return 2e-3 / (1 + 0.4 * t); };
    const double lasted = warm(0.3, slow).seconds;
    EXPECT_GE(lasted, 0.6);
    EXPECT_LT(lasted, 0.65);
}

// Batches of 16 runs take just over kSteadyBatch until 0.32 s, then just under it, so the batch
// doubles. Per run the two speeds agree within the tolerance, but batches are compared at one size
// only (a batch's fixed costs differ with its size): the warm-up waits a window of batches of 32.
TEST(WarmUp, ComparesBatchesOfOneSize) {
    auto step = [](double t) { return t < 0.32 ? 1.26e-3 : 1.24e-3; };
    const Warmed w = warm(0.35, step);
    EXPECT_EQ(w.largest_batch, 32u);
    EXPECT_GE(w.seconds, 0.32 + WarmUp::kSteadyWindow);
    EXPECT_LT(w.seconds, 0.5);
}

TEST(WarmUp, LastsAtMostTwiceItsSeconds) {
    // Ever slower runs, never steady: the warm-up ends at twice its seconds (plus the last batch).
    const Warmed w = warm(0.3, [](double t) { return 1e-3 * (1 + t); });
    EXPECT_GE(w.seconds, 0.6);
    EXPECT_LT(w.seconds, 0.65);
}

// A slow first round (a slow spell of the GPU that outlasted the warm-up) or a slow last one: every
// round runs, its median is kept in the order run, and the case's time is the faster round's.
TEST(TimedRounds, KeepsEveryRoundAndTakesTheLowest) {
    for (const std::vector<double>& medians :
         {std::vector<double>{3.1, 0.82}, std::vector<double>{0.82, 3.1}}) {
        size_t rounds = 0;
        const RoundMedians timed = timed_rounds([&] { return medians[rounds++ % medians.size()]; });
        EXPECT_EQ(rounds, size_t(kTimedRounds));
        EXPECT_EQ(std::vector<double>(timed.ms.begin(), timed.ms.end()), medians);
        EXPECT_EQ(timed.fastest(), 0.82);
    }
}

}  // namespace
}  // namespace twiddle::vk
