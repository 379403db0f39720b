// The warm-up rule of the tuner and the benchmarks (src/vk/warm_up.hpp), driven with made-up
// batch timings.
#include <gtest/gtest.h>

#include <functional>

#include "vk/warm_up.hpp"

namespace twiddle::vk {
namespace {

// Runs a warm-up of `seconds` against a device whose run takes `per_run(elapsed)` seconds;
// returns the seconds it lasted. `batches` counts the batches it ran.
double warm(double seconds, const std::function<double(double)>& per_run, int* batches = nullptr) {
    double elapsed = 0;
    int count = 0;
    for (WarmUp w(seconds); w.running(); ++count) {
        const double took = w.batch() * per_run(elapsed);
        elapsed += took;
        w.ran(took, elapsed);
    }
    if (batches) *batches = count;
    return elapsed;
}

TEST(WarmUp, NoneForZeroSeconds) {
    int batches = -1;
    EXPECT_EQ(warm(
                  0, [](double) { return 1e-3; }, &batches),
              0);
    EXPECT_EQ(batches, 0);
}

TEST(WarmUp, ShortRunsGrowTheirBatches) {
    WarmUp w(1.0);
    EXPECT_EQ(w.batch(), 1u);
    w.ran(1e-4, 1e-4);
    EXPECT_EQ(w.batch(), 2u);
    w.ran(2e-4, 3e-4);
    EXPECT_EQ(w.batch(), 4u);
    w.ran(0.05, 0.05);  // long enough: the size stays
    EXPECT_EQ(w.batch(), 4u);
    EXPECT_TRUE(w.running());
}

TEST(WarmUp, StopsSoonAfterItsSecondsAtASteadySpeed) {
    const double lasted = warm(0.3, [](double) { return 1e-3; });
    EXPECT_GE(lasted, 0.3);
    EXPECT_LT(lasted, 0.4);
}

// A clock that climbs for 0.5 s after the warm-up starts: runs slow down by 3x, then speed up to
// full over that time. A fixed 0.3 s warm-up would end while they still sped up.
TEST(WarmUp, WaitsForAClimbingClock) {
    auto climbing = [](double t) { return t < 0.5 ? 3e-3 - 4e-3 * t : 1e-3; };
    const double lasted = warm(0.3, climbing);
    EXPECT_GE(lasted, 0.5);
    EXPECT_LT(lasted, 0.6);
}

TEST(WarmUp, LastsAtMostTwiceItsSeconds) {
    // Every batch 5% faster than the last: never steady.
    double speed = 1e-3;
    const double lasted = warm(0.3, [&](double) { return speed *= 0.95; });
    EXPECT_GE(lasted, 0.6);
    EXPECT_LT(lasted, 0.7);
}

}  // namespace
}  // namespace twiddle::vk
