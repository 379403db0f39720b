// The logical planner, without a device: geometry within the device's limits, buffer routes,
// validation, and the decomposition executed in long double against a reference DFT.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/unit_root.hpp"
#include "cpu/reference.hpp"
#include "test_caps.hpp"
#include "twiddle/error.hpp"
#include "twiddle/logical_plan.hpp"

namespace twiddle {
namespace {

using testing::h200_caps;
using testing::lavapipe_caps;

std::vector<cpu::cld> random_row(size_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> d(-1, 1);
    std::vector<cpu::cld> v(n);
    for (auto& x : v) x = {d(gen), d(gen)};
    return v;
}

double rel_error(const std::vector<cpu::cld>& a, const std::vector<cpu::cld>& b) {
    long double num = 0, den = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        num += std::norm(a[i] - b[i]);
        den += std::norm(b[i]);
    }
    return static_cast<double>(std::sqrt(num / den));
}

void check_geometry(const LogicalPlan& p, const DeviceCaps& caps) {
    uint64_t product = 1, span = 1;
    for (const Pass& pass : p.passes) {
        const PassKernel& k = pass.kernel;
        EXPECT_EQ(k.span, span);
        uint64_t stages = 1;
        for (const Stage& s : k.stages) {
            EXPECT_EQ(s.span, stages);
            stages *= s.radix;
            // Every stage's butterflies fit the registers; in a uniform kernel, evenly.
            EXPECT_LE(k.groups(s.radix) * s.radix, k.points_per_thread);
            if (k.uniform()) {
                EXPECT_EQ(k.points_per_thread % s.radix, 0u);
            }
        }
        EXPECT_EQ(stages, k.radix);
        EXPECT_LE(k.points_per_thread, 32u);
        // Pass twiddles need the uniform layout.
        if (k.span > 1) {
            EXPECT_TRUE(k.uniform());
        }
        EXPECT_EQ(k.workgroup_size, k.columns_per_workgroup * k.threads_per_column);
        EXPECT_LE(k.workgroup_size, caps.max_workgroup_invocations);
        EXPECT_LE(k.shared_bytes, caps.max_shared_memory_bytes);
        EXPECT_EQ(pass.columns, p.desc.batch() * (p.desc.length() / k.radix));
        EXPECT_EQ(pass.tiles, (pass.columns + k.columns_per_workgroup - 1) / k.columns_per_workgroup);
        EXPECT_LE(pass.workgroups, pass.tiles);
        EXPECT_EQ(k.prefetch, pass.workgroups < pass.tiles);  // workgroups loop only when fewer than tiles
        product *= k.radix;
        span *= k.radix;
    }
    EXPECT_EQ(product, p.desc.length());
}

TEST(Planner, GeometryFitsDeviceLimitsForEveryPowerOfTwo) {
    for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()})
        for (uint32_t bits = 0; (uint64_t(8) << bits) <= caps.max_storage_buffer_range && bits <= 27;
             ++bits) {
            const uint64_t n = uint64_t(1) << bits;
            SCOPED_TRACE(caps.name + " N=" + std::to_string(n));
            const LogicalPlan p = plan(FftDesc(n, 1), caps);
            check_geometry(p, caps);
        }
}

// Convolution plans: one pass for a one-pass length, three for 2D with the contiguous dim's pass
// fused, and none where a pass does not complete its dims, needs most of the shared memory, or the
// problem is real or laid out differently on its two sides.
TEST(Planner, ConvolutionPlans) {
    const LogicalPlan one = plan_convolution(FftDesc(4096, 1u << 14), h200_caps());
    ASSERT_EQ(one.passes.size(), 1u);
    EXPECT_TRUE(one.passes[0].kernel.convolution);
    EXPECT_TRUE(one.convolution);
    EXPECT_EQ(one.out_of_place[0].src, BufferRole::input);
    EXPECT_EQ(one.out_of_place[0].dst, BufferRole::output);
    const LogicalPlan two_d = plan_convolution(FftDesc::nd({64, 1024, 1024}, {-2, -1}), h200_caps());
    ASSERT_EQ(two_d.passes.size(), 3u);
    EXPECT_FALSE(two_d.passes[0].kernel.convolution);
    EXPECT_TRUE(two_d.passes[1].kernel.convolution);
    EXPECT_FALSE(two_d.passes[1].kernel.vectorized);  // the rows, not the strided columns
    EXPECT_EQ(two_d.passes[0].dim, two_d.passes[2].dim);
    EXPECT_TRUE(two_d.passes[0].kernel.vectorized);
    for (size_t i = 1; i < 3; ++i) EXPECT_EQ(two_d.out_of_place[i].src, BufferRole::output);
    EXPECT_EQ(two_d.scratch_bytes(Placement::out_of_place), 0u);
    EXPECT_THROW(plan_convolution(FftDesc(8192, 1u << 13), h200_caps()),
                 UnsupportedError);  // all shared memory
    EXPECT_THROW(plan_convolution(FftDesc(1u << 16, 1024), h200_caps()), UnsupportedError);  // span > 1
    EXPECT_THROW(plan_convolution(FftDesc(1009, 64), h200_caps()), UnsupportedError);        // Bluestein
    EXPECT_THROW(plan_convolution(FftDesc::r2c(4096, 64), h200_caps()), UnsupportedError);
    EXPECT_THROW(plan_convolution(FftDesc::guru({Dim{64, 1, 2}}, {Dim{8, 64, 128}}), h200_caps()),
                 UnsupportedError);
}

TEST(Planner, WorkgroupsLoopOverTilesOnlyWhenThereAreMany) {
    const LogicalPlan few = plan(FftDesc(256, 64), h200_caps());
    EXPECT_FALSE(few.passes[0].kernel.prefetch);
    EXPECT_EQ(few.passes[0].workgroups, few.passes[0].tiles);
    const LogicalPlan many = plan(FftDesc(256, 1u << 18), h200_caps());
    EXPECT_TRUE(many.passes[0].kernel.prefetch);
    EXPECT_EQ(many.passes[0].workgroups, many.passes[0].tiles / 4);
    // One pass with all of the shared memory: 8 tiles each. But no looping where two tiles would
    // not fit in registers: 16384 points in one pass.
    const Pass full = plan(FftDesc(8192, 1u << 13), h200_caps()).passes[0];
    EXPECT_TRUE(full.kernel.prefetch);
    EXPECT_EQ(full.workgroups, full.tiles / 8);
    EXPECT_FALSE(plan(FftDesc(16384, 1u << 12), h200_caps()).passes[0].kernel.prefetch);
    // An explicit choice holds at any size; 1 turns looping off.
    const LogicalPlan three = plan(FftDesc(256, 100), h200_caps(), Options{.tiles_per_workgroup = 3});
    EXPECT_TRUE(three.passes[0].kernel.prefetch);
    EXPECT_EQ(three.passes[0].workgroups, (three.passes[0].tiles + 2) / 3);
    const LogicalPlan one = plan(FftDesc(256, 1u << 18), h200_caps(), Options{.tiles_per_workgroup = 1});
    EXPECT_FALSE(one.passes[0].kernel.prefetch);
}

// A join read from memory loops over tiles only where they take at most 32 KiB and, in one pass,
// where its invocations hold 32 points; a split loops, as do the first passes of several.
TEST(Planner, JoinLoopsOnlyOverSmallerTiles) {
    const auto first_pass = [](const FftDesc& desc, size_t passes = 1, const Options& options = {}) {
        const LogicalPlan p = plan(desc, h200_caps(), options);
        EXPECT_EQ(p.passes.size(), passes) << p.summary();
        return p.passes[0];
    };
    const Pass c2r = first_pass(FftDesc::c2r(16384, 1u << 12));
    EXPECT_TRUE(c2r.kernel.join_load);
    EXPECT_FALSE(c2r.kernel.prefetch);
    EXPECT_EQ(c2r.workgroups, c2r.tiles);
    const Pass r2c = first_pass(FftDesc::r2c(16384, 1u << 12));
    EXPECT_TRUE(r2c.kernel.split_store);
    EXPECT_TRUE(r2c.kernel.prefetch);
    for (uint64_t n : {128u, 1000u, 8192u}) {
        const Pass fewer = first_pass(FftDesc::c2r(n, (1u << 26) / n));
        EXPECT_TRUE(fewer.kernel.join_load && fewer.kernel.points_per_thread < 32) << n;
        EXPECT_FALSE(fewer.kernel.prefetch) << n;
        EXPECT_EQ(fewer.workgroups, fewer.tiles) << n;
        EXPECT_TRUE(first_pass(FftDesc::r2c(n, (1u << 26) / n)).kernel.prefetch) << n;
    }
    const Pass thirty_two = first_pass(FftDesc::c2r(2048, 1u << 15));
    EXPECT_TRUE(thirty_two.kernel.join_load);
    EXPECT_EQ(thirty_two.kernel.points_per_thread, 32u);
    EXPECT_TRUE(thirty_two.kernel.prefetch);
    EXPECT_LT(thirty_two.workgroups, thirty_two.tiles);
    const Pass several = first_pass(FftDesc::c2r(65536, 1u << 10), 2);
    EXPECT_TRUE(several.kernel.join_load);
    EXPECT_TRUE(several.kernel.prefetch);
    // Explicit choices still hold; join through shared memory loops but over big tiles.
    EXPECT_TRUE(
        first_pass(FftDesc::c2r(16384, 1u << 12), 1, Options{.tiles_per_workgroup = 4}).kernel.prefetch);
    EXPECT_TRUE(
        first_pass(FftDesc::c2r(8192, 1u << 13), 1, Options{.tiles_per_workgroup = 4}).kernel.prefetch);
    const Options shared{.join_through_shared_memory = true};
    EXPECT_TRUE(first_pass(FftDesc::c2r(8192, 1u << 13), 1, shared).kernel.prefetch);
    EXPECT_FALSE(first_pass(FftDesc::c2r(16384, 1u << 12), 1, shared).kernel.prefetch);
}

// A one-pass join that loops over tiles takes its mirrors through subgroup shuffles
// (PassKernel::join_lanes); one that does not loop, or has too few invocations per column, reads
// them from memory, as do kernels without shuffles and join through shared memory.
TEST(Planner, JoinThroughShufflesOnlyWhereItLoops) {
    const uint64_t batch = uint64_t(1) << 15;
    auto first = [&](uint64_t n, const Options& o = {}) {
        return plan(FftDesc::c2r(n, batch), h200_caps(), o).passes.front().kernel;
    };
    const PassKernel k = first(2048);
    EXPECT_TRUE(k.prefetch);
    EXPECT_EQ(k.join_lanes, 32u);
    for (uint64_t n : {256u, 512u, 4096u, 16384u}) {
        EXPECT_FALSE(first(n).prefetch) << n;
        EXPECT_EQ(first(n).join_lanes, 0u) << n;
    }
    EXPECT_EQ(first(4096, Options{.tiles_per_workgroup = 4}).join_lanes, 32u);
    EXPECT_EQ(first(2048, Options{.subgroup_shuffles = false}).join_lanes, 0u);
    const PassKernel shared = first(2048, Options{.join_through_shared_memory = true});
    EXPECT_TRUE(shared.join_exchange);
    EXPECT_EQ(shared.join_lanes, 0u);
    EXPECT_EQ(first(64).join_lanes, 0u);  // one invocation per column
    // Looping, with 8 invocations per column: too few.
    const PassKernel few = first(256, Options{.tiles_per_workgroup = 4});
    EXPECT_TRUE(few.prefetch && few.threads_per_column == 8);
    EXPECT_EQ(few.join_lanes, 0u);
    // r2c's split keeps its own lanes.
    EXPECT_EQ(plan(FftDesc::r2c(2048, batch), h200_caps()).passes.front().kernel.join_lanes, 0u);
}

// One-pass plans take their tiles interleaved; the passes of longer plans sweep forward and
// backward in turn, convolutions too.
TEST(Planner, PassesAlternateTheirTileOrder) {
    auto orders = [](const LogicalPlan& p) {
        std::vector<TileOrder> out;
        for (const Pass& pass : p.passes) out.push_back(pass.kernel.tile_order);
        return out;
    };
    using enum TileOrder;
    EXPECT_EQ(orders(plan(FftDesc(1024, 1u << 16), h200_caps())), std::vector{interleaved});
    EXPECT_EQ(orders(plan(FftDesc::nd({64, 1024, 1024}, {1, 2}), h200_caps())),
              (std::vector{forward, backward}));
    EXPECT_EQ(orders(plan(FftDesc(1u << 24, 4), h200_caps())), (std::vector{forward, backward, forward}));
    const LogicalPlan conv = plan_convolution(FftDesc::nd({64, 1024, 1024}, {1, 2}), h200_caps());
    ASSERT_EQ(conv.passes.size(), 3u);
    EXPECT_EQ(orders(conv), (std::vector{forward, backward, forward}));
}

TEST(Planner, LoopingKernelsHoldTheirStageTwiddlesWhereRegistersAllow) {
    auto held = [](uint64_t n, Precision p = Precision::f32) {
        const LogicalPlan lp = plan(FftDesc(n, (1u << 26) / n).with_precision(p), h200_caps());
        EXPECT_EQ(lp.passes.size(), 1u) << n;
        return lp.passes[0].kernel.prefetch && lp.passes[0].kernel.twiddles_in_registers;
    };
    EXPECT_TRUE(held(1000));   // two twiddled stages of ten points: 76 words
    EXPECT_TRUE(held(8192));   // all of the shared memory: one workgroup per multiprocessor anyway
    EXPECT_FALSE(held(100));   // one twiddled stage
    EXPECT_FALSE(held(2048));  // 124 words
    EXPECT_FALSE(held(4096));
    EXPECT_FALSE(held(1000, Precision::f64));  // 152 words
    // Not without looping.
    EXPECT_FALSE(plan(FftDesc(1000, 64), h200_caps()).passes[0].kernel.twiddles_in_registers);
}

TEST(Planner, TransformsWithinOneSubgroupWaitOnTheSubgroup) {
    struct Want {
        uint64_t n;
        uint32_t points_per_thread;
        bool subgroup;
    };
    // H200: 32-wide subgroups. 1024 takes 32 points per invocation, so that a transform lies in
    // one subgroup, as 512 does with 16; 32 takes one invocation per transform, with no exchange
    // between stages.
    for (const Want& w :
         {Want{16, 16, false}, Want{32, 32, false}, Want{64, 8, true}, Want{256, 16, true},
          Want{512, 16, true}, Want{1024, 32, true}, Want{2048, 16, false}, Want{4096, 16, false}}) {
        const PassKernel k = plan(FftDesc(w.n, 8), h200_caps()).passes[0].kernel;
        EXPECT_EQ(k.points_per_thread, w.points_per_thread) << w.n;
        EXPECT_EQ(k.subgroup_exchanges, w.subgroup) << w.n;
    }
    const Options off{.subgroup_barriers = false};
    EXPECT_FALSE(plan(FftDesc(512, 8), h200_caps(), off).passes[0].kernel.subgroup_exchanges);
    EXPECT_EQ(plan(FftDesc(1024, 8), h200_caps(), off).passes[0].kernel.points_per_thread, 16u);
    DeviceCaps no_subgroups = h200_caps();
    no_subgroups.subgroup_operations.clear();
    EXPECT_FALSE(plan(FftDesc(512, 8), no_subgroups).passes[0].kernel.subgroup_exchanges);
    // Multi-pass columns interleave across the workgroup: never.
    for (const Pass& p : plan(FftDesc(1u << 16, 1), h200_caps()).passes)
        EXPECT_FALSE(p.kernel.subgroup_exchanges);
}

// Strategy::subgroups: plain one-pass power-of-two kernels exchange through shuffles: every one
// whose columns lie in one subgroup, and those whose columns span whole subgroups where remaps
// through shared memory leave at least one exchange to shuffles. Their lane swaps and remaps bring
// each stage's point bits into registers, keep every bit in one place, swap only lane bits
// within a subgroup, and leave the lanes holding the lowest bits for the stores.
TEST(Planner, SubgroupShuffleExchanges) {
    const Options subgroups{.strategy = Strategy::subgroups};
    size_t shuffled = 0, across = 0;
    for (const DeviceCaps& caps : {h200_caps(), testing::lavapipe_caps()})
        for (Precision precision : {Precision::f32, Precision::f64})
            for (uint32_t max_radix : {0u, 8u, 4u})
                for (uint32_t bits = 0; bits <= 14; ++bits) {
                    const LogicalPlan p =
                        plan(FftDesc(uint64_t(1) << bits, 8).with_precision(precision), caps,
                             Options{.max_radix = max_radix, .strategy = Strategy::subgroups});
                    for (const Pass& pass : p.passes) {
                        const PassKernel& k = pass.kernel;
                        const uint32_t tpc = k.threads_per_column;
                        SCOPED_TRACE(p.summary() + " on " + caps.name);
                        const bool eligible =
                            p.passes.size() == 1 && k.points_contiguous && k.stages.size() > 1 && tpc >= 2;
                        if (!eligible) {
                            EXPECT_TRUE(k.lane_swaps.empty());
                        } else if (tpc <= caps.subgroup_size) {
                            EXPECT_FALSE(k.lane_swaps.empty());
                        }
                        if (k.lane_swaps.empty()) {
                            EXPECT_TRUE(k.lane_remaps.empty());
                            continue;
                        }
                        ++shuffled;
                        if (tpc > caps.subgroup_size) ++across;
                        EXPECT_LT(k.lane_remaps.size() + 1, k.stages.size());
                        const uint32_t n = std::countr_zero(k.radix), t = std::countr_zero(tpc);
                        const uint32_t g = std::min(t, uint32_t(std::countr_zero(caps.subgroup_size)));
                        for (const LaneSwap& sw : k.lane_swaps) {
                            EXPECT_LT(sw.lane_bit, g);
                            EXPECT_LT(sw.reg_bit, n - t);
                            EXPECT_LT(sw.stage, k.stages.size());
                        }
                        for (const LaneRemap& rm : k.lane_remaps) {
                            EXPECT_GT(rm.stage, 0u);
                            EXPECT_LT(rm.stage, k.stages.size());
                        }
                        const auto layouts = lane_layouts(k);
                        ASSERT_EQ(layouts.size(), k.stages.size() + 1);
                        for (size_t s = 0; s < layouts.size(); ++s) {
                            std::vector<uint8_t> places = layouts[s];
                            std::sort(places.begin(), places.end());
                            for (uint32_t b = 0; b < n; ++b) EXPECT_EQ(places[b], b) << "stage " << s;
                            if (s == k.stages.size()) break;
                            const uint32_t kr = std::countr_zero(k.stages[s].radix);
                            for (uint32_t b = n - kr; b < n; ++b)
                                EXPECT_GE(layouts[s][b], t) << "stage " << s;
                        }
                        for (uint32_t b = 0; b < t; ++b) EXPECT_LT(layouts.back()[b], t);
                    }
                }
    EXPECT_GE(shuffled, 16u);
    EXPECT_GE(across, 8u);
    // lavapipe's f64 kernels of radices of 8 that fft_test's SubgroupsAcross transforms.
    for (uint64_t n : {256u, 512u, 1024u})
        EXPECT_FALSE(plan(FftDesc(n, 8).with_precision(Precision::f64), testing::lavapipe_caps(),
                          Options{.max_radix = 8, .strategy = Strategy::subgroups})
                         .passes.at(0)
                         .kernel.lane_remaps.empty())
            << n;
    // The H200's f32 one-pass kernels of 2048 to 16384 points (two exchanges, 128 to 512
    // invocations per column): one remap, and the other exchange through shuffles.
    for (uint64_t n : {2048u, 4096u, 8192u, 16384u}) {
        const PassKernel k = plan(FftDesc(n, 8), h200_caps(), subgroups).passes.at(0).kernel;
        EXPECT_EQ(k.stages.size(), 3u) << n;
        EXPECT_EQ(k.lane_remaps.size(), 1u) << n;
        EXPECT_FALSE(k.lane_swaps.empty()) << n;
    }
    // Under automatic, only kernels of one swap (H200: f64 N = 32, one swap of 8 registers),
    // where the device has shuffles.
    const FftDesc f64_32 = FftDesc(32, 8).with_precision(Precision::f64);
    EXPECT_EQ(plan(f64_32, h200_caps()).passes[0].kernel.lane_swaps.size(), 1u);
    EXPECT_TRUE(plan(FftDesc(256, 8), h200_caps()).passes[0].kernel.lane_swaps.empty());
    EXPECT_FALSE(plan(FftDesc(256, 8), h200_caps(), subgroups).passes[0].kernel.lane_swaps.empty());
    // No subgroup shuffles: Strategy::subgroups is refused, automatic plans without them.
    DeviceCaps no_shuffles = h200_caps();
    std::erase(no_shuffles.subgroup_operations, "shuffle");
    EXPECT_THROW(plan(FftDesc(256, 8), no_shuffles, subgroups), UnsupportedError);
    EXPECT_TRUE(plan(f64_32, no_shuffles).passes[0].kernel.lane_swaps.empty());
    // Strategy::portable: no subgroup operation in any kernel, complex or real.
    const Options portable{.strategy = Strategy::portable};
    for (const FftDesc& d : {FftDesc(32, 8).with_precision(Precision::f64), FftDesc(512, 8), FftDesc(1024, 8),
                             FftDesc(1u << 16, 1), FftDesc::r2c(4096, 8), FftDesc::r2c(1u << 16, 2)})
        for (const Pass& pass : plan(d, h200_caps(), portable).passes) {
            EXPECT_FALSE(pass.kernel.subgroup_exchanges);
            EXPECT_EQ(pass.kernel.split_lanes, 0u);
            EXPECT_TRUE(pass.kernel.lane_swaps.empty());
        }
}

// f64 keeps 16 points per invocation where f32 takes 32 (measured in f32 only), and does not
// loop over tiles of more than 64 KiB.
// A strided dim of 2048 points takes one pass in f64, with 2 columns per workgroup (4 do not fit
// half the shared memory there), in 2D transforms of any kind; f32 keeps 4 columns, and other f64
// lengths keep theirs: 1024 one pass of 4 columns, 4096 two passes.
TEST(Planner, DoubleStridedDimsOf2048TakeOnePass) {
    // The passes over the strided dim, as (points, columns per workgroup).
    auto strided = [](const FftDesc& desc) {
        std::vector<std::pair<uint32_t, uint32_t>> out;
        for (const Pass& q : plan(desc, h200_caps()).passes)
            if (q.kernel.vectorized) out.emplace_back(q.kernel.radix, q.kernel.columns_per_workgroup);
        return out;
    };
    using Passes = std::vector<std::pair<uint32_t, uint32_t>>;
    for (uint64_t rows : {2048u, 1024u, 256u}) {
        const uint64_t images = (uint64_t(1) << 24) / (2048 * rows);
        for (Transform t : {Transform::c2c, Transform::r2c, Transform::c2r}) {
            const std::vector<uint64_t> shape = {images, 2048, rows};
            const FftDesc desc = t == Transform::c2c   ? FftDesc::nd(shape, {1, 2})
                                 : t == Transform::r2c ? FftDesc::r2c_nd(shape, {1, 2})
                                                       : FftDesc::c2r_nd(shape, {1, 2});
            EXPECT_EQ(strided(FftDesc(desc).with_precision(Precision::f64)), (Passes{{2048, 2}})) << rows;
            EXPECT_EQ(strided(desc), (Passes{{2048, 4}})) << rows;
        }
    }
    EXPECT_EQ(strided(FftDesc::nd({64, 1024, 1024}, {1, 2}).with_precision(Precision::f64)),
              (Passes{{1024, 4}}));
    EXPECT_EQ(strided(FftDesc::nd({4, 4096, 1024}, {1, 2}).with_precision(Precision::f64)).size(), 2u);
}

TEST(Planner, DoublePrecisionKeepsSixteenPointsPerInvocation) {
    for (uint64_t n : {32u, 512u, 1024u, 4096u, 8192u, 1u << 20}) {
        const LogicalPlan p = plan(FftDesc(n, 8).with_precision(Precision::f64), h200_caps());
        for (const Pass& pass : p.passes)
            EXPECT_EQ(pass.kernel.points_per_thread, std::min<uint64_t>(16, pass.kernel.radix)) << n;
    }
    const auto pass_of = [](uint64_t n, uint64_t batch) {
        return plan(FftDesc(n, batch).with_precision(Precision::f64), h200_caps()).passes.at(0);
    };
    EXPECT_TRUE(pass_of(4096, 1u << 13).kernel.prefetch);  // 64 KiB tiles
    const Pass halves = pass_of(8192, 1u << 12);           // 128 KiB tiles
    EXPECT_EQ(halves.kernel.exchange_rounds, 4u);
    EXPECT_FALSE(halves.kernel.prefetch);
}

// Pass twiddle steps split into two tables of about sqrt(span) entries for long spans, so the
// table stays small next to the data even for one transform of 2^27 points.
TEST(Planner, TwiddleTablesStaySmall) {
    for (uint32_t bits : {16u, 20u, 24u, 27u}) {
        const LogicalPlan p = plan(FftDesc(uint64_t(1) << bits, 1), h200_caps());
        EXPECT_LT(p.twiddles.size(), 1u << 16) << bits;  // 512 KiB, against 64 MiB or more of data
        const PassKernel& last = p.passes.back().kernel;
        EXPECT_EQ(last.step_split<last.span, last.span> 4096) << bits;
    }
}

TEST(Planner, OnePassWhereTheTransformFitsAWorkgroup) {
    // By default a workgroup keeps within half the device's shared memory (Options), except that
    // a transform that fits one workgroup only with all of it still gets one pass.
    EXPECT_EQ(plan(FftDesc(2048, 8), lavapipe_caps()).passes[0].kernel.shared_bytes, 8704u);
    EXPECT_EQ(plan(FftDesc(4096, 8), lavapipe_caps()).passes.size(), 1u);
    EXPECT_EQ(plan(FftDesc(4096, 8), lavapipe_caps()).passes[0].kernel.shared_bytes, 17408u);
    // Beyond that, one pass of one column that exchanges half of its points at a time.
    const PassKernel halves = plan(FftDesc(8192, 8), lavapipe_caps()).passes.at(0).kernel;
    EXPECT_EQ(halves.radix, 8192u);
    EXPECT_EQ(halves.exchange_rounds, 4u);
    EXPECT_EQ(halves.columns_per_workgroup, 1u);
    EXPECT_EQ(halves.shared_bytes, 17408u);
    EXPECT_EQ(plan(FftDesc(16384, 8), lavapipe_caps()).passes.size(), 2u);
    EXPECT_EQ(plan(FftDesc(4096, 8), h200_caps()).passes.size(), 1u);
    EXPECT_EQ(plan(FftDesc(8192, 8), h200_caps()).passes.size(), 1u);
    EXPECT_EQ(plan(FftDesc(8192, 8), h200_caps()).passes[0].kernel.points_per_thread, 32u);
    EXPECT_EQ(
        plan(FftDesc(8192, 8), h200_caps(), Options{.max_radix = 16}).passes[0].kernel.points_per_thread,
        16u);
    // A caller's limit: halves rather than two passes, as long as they fit.
    const LogicalPlan limited = plan(FftDesc(8192, 8), h200_caps(), Options{.max_shared_memory = 24576});
    ASSERT_EQ(limited.passes.size(), 1u);
    EXPECT_EQ(limited.passes[0].kernel.exchange_rounds, 4u);
    EXPECT_EQ(plan(FftDesc(16384, 8), h200_caps(), Options{.max_shared_memory = 24576}).passes.size(), 2u);
    EXPECT_EQ(plan(FftDesc(16384, 8), h200_caps()).passes.size(), 1u);
    EXPECT_EQ(plan(FftDesc(16384, 8), h200_caps()).passes[0].kernel.exchange_rounds, 4u);
    EXPECT_EQ(plan(FftDesc(32768, 8), h200_caps()).passes.size(), 2u);
    // Two passes, with 4-column tiles where wider ones do not fit, rather than three of 16
    // (2^19, 2^20); not beyond. Their last pass takes all of the shared memory, for tiles twice
    // as wide.
    const LogicalPlan p19 = plan(FftDesc(1u << 19, 1), h200_caps());
    ASSERT_EQ(p19.passes.size(), 2u);
    EXPECT_EQ(p19.passes[0].kernel.radix, 1024u);
    EXPECT_EQ(p19.passes[0].kernel.columns_per_workgroup, 4u);
    EXPECT_EQ(p19.passes[1].kernel.radix, 512u);
    EXPECT_EQ(p19.passes[1].kernel.columns_per_workgroup, 16u);
    const LogicalPlan p20 = plan(FftDesc(1u << 20, 1), h200_caps());
    ASSERT_EQ(p20.passes.size(), 2u);
    EXPECT_EQ(p20.passes[0].kernel.columns_per_workgroup, 4u);
    EXPECT_LE(p20.passes[0].kernel.shared_bytes, h200_caps().max_shared_memory_bytes / 2);
    EXPECT_EQ(p20.passes[1].kernel.columns_per_workgroup, 8u);
    EXPECT_GT(p20.passes[1].kernel.shared_bytes, h200_caps().max_shared_memory_bytes / 2);
    // Not in f64 (where it lost), nor under a caller's shared-memory limit.
    for (const Pass& pass : plan(FftDesc(1u << 18, 1).with_precision(Precision::f64), h200_caps()).passes)
        EXPECT_LE(pass.kernel.shared_bytes, h200_caps().max_shared_memory_bytes / 2);
    for (const Pass& pass :
         plan(FftDesc(1u << 20, 1), h200_caps(), Options{.max_shared_memory = 24576}).passes)
        EXPECT_LE(pass.kernel.shared_bytes, 24576u);
    EXPECT_EQ(plan(FftDesc(1u << 21, 1), h200_caps()).passes.size(), 3u);
    EXPECT_EQ(plan(FftDesc(1u << 20, 1), h200_caps(), Options{.columns_per_workgroup = 16}).passes.size(),
              3u);
    EXPECT_EQ(plan(FftDesc(1u << 18, 1), h200_caps()).passes.size(), 2u);
    EXPECT_EQ(plan(FftDesc(1u << 27, 1), h200_caps()).passes.size(), 3u);
    // Multi-pass kernels exchange one component per round, even where both fit; those of
    // power-of-two transforms take 32 columns where they fit, the others 16.
    const LogicalPlan p21 = plan(FftDesc(1u << 21, 1), h200_caps());
    ASSERT_EQ(p21.passes.size(), 3u);
    for (const Pass& pass : p21.passes) {
        EXPECT_EQ(pass.kernel.radix, 128u);
        EXPECT_EQ(pass.kernel.columns_per_workgroup, 32u);
        EXPECT_EQ(pass.kernel.exchange_rounds, 2u);
    }
    EXPECT_EQ(plan(FftDesc(32768, 8), h200_caps()).passes[1].kernel.columns_per_workgroup, 32u);
    const LogicalPlan p22 = plan(FftDesc(1u << 22, 1), h200_caps());
    ASSERT_EQ(p22.passes.size(), 3u);
    EXPECT_EQ(p22.passes[0].kernel.columns_per_workgroup, 16u);  // 32 x 256 points do not fit
    EXPECT_EQ(p22.passes[1].kernel.columns_per_workgroup, 32u);
    const LogicalPlan bluestein = plan(FftDesc(10007, 64), h200_caps());
    ASSERT_EQ(bluestein.passes.size(), 4u);
    for (const Pass& pass : bluestein.passes) {
        EXPECT_EQ(pass.kernel.columns_per_workgroup, 16u);
        EXPECT_EQ(pass.kernel.exchange_rounds, 2u);
    }
}

TEST(Planner, RoutesChainFromInputToOutput) {
    for (uint32_t forced : {2u, 4u, 16u})
        for (uint32_t bits = 1; bits <= 12; ++bits) {
            const LogicalPlan p = plan(FftDesc(uint64_t(1) << bits, 3), lavapipe_caps(), Options{forced});
            for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
                SCOPED_TRACE("bits " + std::to_string(bits) + " forced " + std::to_string(forced) + " " +
                             std::string(to_string(placement)));
                const auto& routes = p.routes(placement);
                ASSERT_EQ(routes.size(), p.passes.size());
                const BufferRole first =
                    placement == Placement::in_place ? BufferRole::output : BufferRole::input;
                EXPECT_EQ(routes.front().src, first);
                EXPECT_EQ(routes.back().dst, BufferRole::output);
                bool uses_scratch = false;
                for (size_t i = 0; i < routes.size(); ++i) {
                    if (i > 0) {
                        EXPECT_EQ(routes[i].src, routes[i - 1].dst);
                    }
                    EXPECT_NE(routes[i].dst, BufferRole::input);  // the input is never written
                    // Only the last pass (span * radix == length) may read what it writes.
                    if (i + 1 < routes.size()) {
                        EXPECT_NE(routes[i].src, routes[i].dst);
                    }
                    uses_scratch |=
                        routes[i].src == BufferRole::scratch || routes[i].dst == BufferRole::scratch;
                }
                EXPECT_EQ(p.scratch_bytes(placement) > 0, uses_scratch);
                EXPECT_EQ(p.scratch_bytes(placement), uses_scratch ? p.desc.bytes() : 0);
            }
            if (p.passes.size() <= 2) {
                EXPECT_EQ(p.scratch_bytes(Placement::out_of_place), 0u);
            }
        }
}

// Lengths whose prime factors are 2 to 13: one pass where they fit (uniform where some register
// count holds every prime, else not: 4095 = 3^2 5 7 13), the fewest passes otherwise.
TEST(Planner, SmoothLengths) {
    for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()})
        for (uint64_t n : {3,    5,    6,    7,    9,    10,    11,    12,    13,     15,      100,
                           1000, 1001, 1536, 4095, 6000, 10000, 30030, 65520, 177147, 1000000, 5000000})
            for (Precision precision : {Precision::f32, Precision::f64}) {
                const LogicalPlan p = plan(FftDesc(n, n > 1000000 ? 1 : 3).with_precision(precision), caps);
                SCOPED_TRACE(p.summary() + " on " + caps.name);
                check_geometry(p, caps);
                for (const Pass& pass : p.passes) EXPECT_EQ(pass.kernel.kind, KernelKind::stockham);
            }
    EXPECT_EQ(plan(FftDesc(1000), h200_caps()).summary(), "1000 = 10 x 10 x 10 in 1 pass");
    EXPECT_EQ(plan(FftDesc(1000000), h200_caps()).passes.size(), 2u);
    // Layouts are chosen among those whose invocations fit a workgroup: 9801 = 3^4 11^2 takes
    // one pass on 545 invocations of up to 22 registers (the cheapest layout needed 1089).
    const LogicalPlan p9801 = plan(FftDesc(9801), h200_caps());
    ASSERT_EQ(p9801.passes.size(), 1u);
    EXPECT_LE(p9801.passes[0].kernel.workgroup_size, 1024u);
    // 4095 = 3^2 5 7 13 has no uniform layout: 3 x 7 x 13 x 15 on 158 invocations, where the
    // radix-15 stage's 273 butterflies take two groups, the second only on invocations below
    // 273 - 158.
    const PassKernel k = plan(FftDesc(4095), h200_caps()).passes[0].kernel;
    EXPECT_FALSE(k.uniform());
    EXPECT_EQ(plan(FftDesc(4095), h200_caps()).summary(), "4095 = 3 x 7 x 13 x 15 in 1 pass");
    EXPECT_EQ(k.threads_per_column, 158u);
    EXPECT_EQ(k.groups(15), 2u);
    EXPECT_EQ(k.groups(3), 9u);
    // Uniform where it takes no more stages than the primes packed into radices up to 16.
    EXPECT_EQ(plan(FftDesc(6000), h200_caps()).summary(), "6000 = 2 x 10 x 10 x 30 in 1 pass");
}

// Strategy::dft takes the direct sum for any length up to kMaxDirectLength. A transform longer
// than one workgroup's outputs adds a copy pass, so that it can run in place.
TEST(Planner, DirectSum) {
    const Options dft{.strategy = Strategy::dft};
    const LogicalPlan prime = plan(FftDesc(17, 5), h200_caps(), dft);
    ASSERT_EQ(prime.passes.size(), 1u);
    EXPECT_EQ(prime.passes[0].kernel.kind, KernelKind::direct);
    EXPECT_EQ(prime.summary(), "17 = direct sum in 1 pass");
    EXPECT_EQ(prime.scratch_bytes(Placement::in_place), 0u);
    EXPECT_EQ(prime.passes[0].workgroups, 5u);
    const LogicalPlan forced = plan(FftDesc(4096), h200_caps(), dft);
    EXPECT_EQ(forced.passes[0].kernel.kind, KernelKind::direct);
    const LogicalPlan big = plan(FftDesc(10007, 2), lavapipe_caps(), dft);
    ASSERT_EQ(big.passes.size(), 2u);
    EXPECT_GT(big.passes[0].kernel.output_blocks, 1u);
    EXPECT_EQ(big.passes[0].workgroups, 2u * big.passes[0].kernel.output_blocks);
    EXPECT_EQ(big.passes[1].columns, 2u * 10007);
    EXPECT_EQ(big.summary(), "10007 = direct sum, copy in 2 passes");
    EXPECT_EQ(big.twiddles.size(), 10007u);
    EXPECT_THROW(plan(FftDesc(1u << 17), h200_caps(), dft), UnsupportedError);
    EXPECT_EQ(parse_strategy("dft"), Strategy::dft);
    EXPECT_EQ(parse_strategy("auto"), Strategy::automatic);
    EXPECT_EQ(parse_strategy("portable"), Strategy::portable);
    EXPECT_EQ(parse_strategy("subgroups"), Strategy::subgroups);
    EXPECT_THROW(parse_strategy("fftw"), Error);
    EXPECT_THROW(plan(FftDesc(16), h200_caps(), Options{.strategy = static_cast<Strategy>(5)}), Error);
}

// Lengths with a prime factor above 31 take Bluestein's algorithm, except primes that Rader's
// takes (Planner.Rader): two transforms through the smallest power of two, or three or five
// times one, of at least 2N - 1 points, in two scratch regions.
TEST(Planner, Bluestein) {
    // 83 - 1 = 2 x 41: not for Rader's register butterflies.
    const LogicalPlan small = plan(FftDesc(83, 5), h200_caps());
    EXPECT_EQ(small.summary(), "83 = Bluestein, twice 192 = 8 x 24 in 2 passes");
    ASSERT_EQ(small.spectra.size(), 1u);
    EXPECT_EQ(small.spectra[0].m, 192u);
    EXPECT_EQ(small.spectra[0].generator, 0u);
    EXPECT_EQ(small.scratch_bytes(Placement::out_of_place), 2u * 5 * 192 * 8);
    EXPECT_TRUE(small.passes[0].kernel.chirp_load && small.passes[0].kernel.spectrum_store);
    EXPECT_TRUE(small.passes[1].kernel.chirp_store);
    EXPECT_EQ(small.out_of_place.front().src, BufferRole::input);
    EXPECT_EQ(small.in_place.front().src, BufferRole::output);
    EXPECT_EQ(small.out_of_place.back().dst, BufferRole::output);
    // Primes up to 31 have butterflies of their own.
    EXPECT_EQ(plan(FftDesc(31), h200_caps()).summary(), "31 = 31 in 1 pass");
    // 2 * 10007 - 1 = 20013: 20480 = 5 x 2^12 rather than 24576 = 3 x 2^13 or 32768.
    const LogicalPlan prime = plan(FftDesc(10007), h200_caps());
    EXPECT_EQ(prime.passes.front().kernel.length, 20480u);
    // A strided prime dim with a caller's tile width.
    for (uint32_t columns : {1u, 2u, 32u})
        EXPECT_NO_THROW(plan(FftDesc::nd({17, 64}), h200_caps(), Options{.columns_per_workgroup = columns}));
    // Scratch over the storage-buffer range: refused when planned.
    EXPECT_THROW(plan(FftDesc(10007, 6706).with_precision(Precision::f64), h200_caps()), UnsupportedError);
    EXPECT_NO_THROW(plan(FftDesc(10007, 6706), h200_caps()));
    // Primes to 10^6 and beyond, products of two large primes or a square of one, and a prime
    // that Rader's algorithm does not take times 2 or 65537 times 2 (a Rader prime times a smooth
    // length: Planner.RaderFirst).
    for (uint64_t n :
         {65537u, 999983u, 1000003u, 1009u * 1013u, 37u * 41u, 37u * 37u, 2u * 1009u, 2u * 65537u})
        EXPECT_EQ(plan(FftDesc(n), h200_caps()).passes.front().kernel.chirp_length, n) << n;
}

// A length n = p m with one prime factor p that Rader's algorithm takes and an m > 1 without
// prime factors above 31, however short: Rader's pass over the columns of the Stockham pass
// of span 1 (rows of p points at stride m, batched over the m columns, stored at t p + r in the
// output's layout), then Stockham passes of span p onward for m, in the multi-pass layout.
TEST(Planner, RaderFirst) {
    const LogicalPlan small = plan(FftDesc(1184, 5), h200_caps());  // 37 x 32
    EXPECT_EQ(small.summary(), "1184 = (Rader 37, twice 36 = 3 x 12) x (2 x 16) in 2 passes");
    ASSERT_EQ(small.passes.size(), 2u);
    const PassKernel& rader = small.passes[0].kernel;
    EXPECT_EQ(rader.rader_prime, 37u);
    EXPECT_EQ(rader.span, 1u);
    EXPECT_EQ(small.passes[0].columns, 160u);  // 32 columns of each of five transforms
    EXPECT_EQ(rader.src_stride, 32u);
    EXPECT_EQ(rader.dst_stride, 1u);
    EXPECT_EQ(rader.place(1).src, 1u);  // column t = 1 from point 1, to point 37
    EXPECT_EQ(rader.place(1).dst, 37u);
    EXPECT_EQ(rader.place(32).src, 1184u);  // the next transform
    EXPECT_EQ(rader.place(32).dst, 1184u);
    const PassKernel& last = small.passes[1].kernel;
    EXPECT_EQ(last.length, 1184u);
    EXPECT_EQ(last.span, 37u);
    EXPECT_EQ(last.radix, 32u);
    EXPECT_FALSE(last.points_contiguous);
    // Its rows, 37 points apart, are not aligned: 64 columns to a workgroup, for runs of 512
    // bytes of them (16 by default for lengths other than powers of two).
    EXPECT_EQ(last.columns_per_workgroup, 64u);
    EXPECT_EQ(plan(FftDesc(2368, 3), h200_caps()).passes[1].kernel.columns_per_workgroup, 64u);
    EXPECT_EQ(small.scratch_bytes(Placement::out_of_place), 0u);  // the last pass works in place
    ASSERT_EQ(small.spectra.size(), 1u);
    EXPECT_EQ(small.spectra[0].n, 37u);
    // Its results lie densely (t p + r, transform after transform), so its tiles are stored
    // through shared memory as one run; its reads, 32 points apart, are not staged.
    EXPECT_TRUE(rader.packed_dst());
    EXPECT_FALSE(rader.packed_src());
    EXPECT_TRUE(rader.staged_store);
    EXPECT_FALSE(rader.staged_load);

    EXPECT_EQ(plan(FftDesc(1048575), h200_caps()).summary(),
              "1048575 = (Rader 41, twice 40 = 2 x 20) x (5 x 15) x (31) x (11) in 4 passes");
    const LogicalPlan wide = plan(FftDesc(41 * 1024, 2), h200_caps());
    EXPECT_EQ(wide.summary(), "41984 = (Rader 41, twice 40 = 2 x 20) x (32 x 32) in 2 passes");
    // Its pass of 1024 points would take tiles of 4 columns in half of the shared memory; it
    // takes all of it, for 8.
    EXPECT_EQ(wide.passes[1].kernel.columns_per_workgroup, 8u);
    EXPECT_GT(wide.passes[1].kernel.shared_bytes, h200_caps().max_shared_memory_bytes / 2);
    // Along a strided dim, the rows taken side by side; in f64; the half transform of a real one.
    const LogicalPlan strided = plan(FftDesc::nd({1184, 64}, {0}), h200_caps());
    EXPECT_EQ(strided.passes.front().kernel.rader_prime, 37u);
    EXPECT_TRUE(strided.passes.front().kernel.vectorized);
    EXPECT_EQ(
        plan(FftDesc(1110).with_precision(Precision::f64), h200_caps()).passes.front().kernel.rader_prime,
        37u);
    const LogicalPlan real = plan(FftDesc::r2c(4736, 3), h200_caps());
    EXPECT_EQ(real.summary(),
              "r2c 4736 = half 2368 = (Rader 37, twice 36 = 3 x 12) x (4 x 16), split in 3 passes");
    // The half transforms' rows are 2369 points apart, so only the 64 columns of one are a run:
    // 64 of them to a workgroup, not 85, and stored staged.
    const PassKernel& half = real.passes.front().kernel;
    EXPECT_FALSE(half.packed_dst());
    EXPECT_EQ(half.columns_per_workgroup, 64u);
    EXPECT_TRUE(half.staged_store);
    // 2^20 - 1: runs of 25575 columns, 93 = 3 x 31 to a workgroup.
    const LogicalPlan odd = plan(FftDesc::r2c(2097150, 2), h200_caps());
    EXPECT_EQ(odd.passes.front().kernel.columns_per_workgroup, 93u);
    EXPECT_TRUE(odd.passes.front().kernel.staged_store);
    // However short: 2 x 37, 41 x 24, 27 x 37 (Bluestein's transforms took them before, and ran
    // slower since Rader's pass stores staged tiles).
    for (uint64_t n : {2u * 37u, 41u * 24u, 27u * 37u}) {
        const LogicalPlan short_plan = plan(FftDesc(n, 3), h200_caps());
        EXPECT_EQ(short_plan.passes.front().kernel.rader_prime, n % 37 == 0 ? 37u : 41u) << n;
        EXPECT_EQ(short_plan.passes.front().kernel.chirp_length, 0u) << n;
        EXPECT_EQ(short_plan.scratch_bytes(Placement::out_of_place), 0u) << n;
    }
    EXPECT_EQ(plan(FftDesc(74), h200_caps()).summary(),
              "74 = (Rader 37, twice 36 = 3 x 12) x (2) in 2 passes");
}

// Primes above 31 whose p - 1 the butterflies take, and whose transform of p - 1 points fits
// one pass (uniform, or below 1000 points), take Rader's algorithm: one pass, no scratch, a
// spectrum table of p - 1 entries.
TEST(Planner, Rader) {
    const LogicalPlan small = plan(FftDesc(37, 5), h200_caps());
    EXPECT_EQ(small.summary(), "37 = Rader, twice 36 = 3 x 12 in 1 pass");
    ASSERT_EQ(small.passes.size(), 1u);
    const PassKernel& k = small.passes[0].kernel;
    EXPECT_EQ(k.rader_prime, 37u);
    EXPECT_EQ(k.rader_generator, 2u);  // the smallest primitive root mod 37
    EXPECT_EQ(k.row_points(), 37u);
    EXPECT_EQ(small.passes[0].columns, 5u);
    EXPECT_EQ(small.scratch_bytes(Placement::out_of_place), 0u);
    EXPECT_EQ(small.scratch_bytes(Placement::in_place), 0u);
    ASSERT_EQ(small.spectra.size(), 1u);
    EXPECT_EQ(small.spectra[0].n, 37u);
    EXPECT_EQ(small.spectra[0].m, 36u);
    EXPECT_EQ(small.spectra[0].generator, 2u);
    EXPECT_EQ(k.place(3).src, 3u * 37);  // packed rows of p points
    EXPECT_TRUE(k.packed_src() && k.packed_dst());
    for (uint64_t p : {41u, 43u, 97u, 211u, 401u, 4001u})
        EXPECT_EQ(plan(FftDesc(p), h200_caps()).passes.front().kernel.rader_prime, p) << p;
    // Non-uniform layouts of p - 1 from 1000 points on: Bluestein's algorithm.
    for (uint64_t p : {1009u, 1021u, 2017u, 7681u})
        EXPECT_EQ(plan(FftDesc(p), h200_caps()).passes.front().kernel.chirp_length, p) << p;
    // In f64 and along a strided dim (taken side by side).
    EXPECT_EQ(plan(FftDesc(97).with_precision(Precision::f64), h200_caps()).passes.front().kernel.rader_prime,
              97u);
    const LogicalPlan strided = plan(FftDesc::nd({41, 64}, {0}), h200_caps());
    EXPECT_EQ(strided.passes.front().kernel.rader_prime, 41u);
    EXPECT_TRUE(strided.passes.front().kernel.vectorized);
    // A caller's max_pass_length below p - 1 leaves the prime to Bluestein's algorithm.
    EXPECT_EQ(
        plan(FftDesc(97), h200_caps(), Options{.max_pass_length = 64}).passes.front().kernel.chirp_length,
        97u);
    // Too long for one pass of p - 1 points, or p - 1 with a prime factor above 31: Bluestein.
    EXPECT_EQ(plan(FftDesc(40961), h200_caps()).passes.front().kernel.chirp_length, 40961u);
    EXPECT_EQ(plan(FftDesc(83), h200_caps()).passes.front().kernel.chirp_length, 83u);
}

// One-pass lengths other than powers of two whose first fit takes 250 invocations or more aim
// for 64 instead (H200: 100 points at 92% of copy with 60 against 82% with 510); smaller first
// fits, powers of two (but Planner.ShortWorkgroups's) and Rader's kernels keep theirs.
TEST(Planner, MixedWorkgroups) {
    auto kernel = [](uint64_t n) { return plan(FftDesc(n, 1000), h200_caps()).passes.front().kernel; };
    EXPECT_EQ(kernel(100).workgroup_size, 60u);  // 6 columns of 10 invocations
    EXPECT_EQ(kernel(1000).workgroup_size, 100u);
    EXPECT_EQ(kernel(1536).workgroup_size, 128u);  // the first fit: 2 columns of 64
    EXPECT_EQ(kernel(400).workgroup_size, 240u);
    EXPECT_EQ(kernel(512).workgroup_size, 256u);  // a power of two: 2 columns of 32 (shared memory)
    EXPECT_EQ(kernel(37).workgroup_size, 255u);   // Rader's
    // A caller's workgroup size is kept.
    EXPECT_EQ(plan(FftDesc(100, 1000), h200_caps(), Options{.workgroup_size = 512})
                  .passes.front()
                  .kernel.workgroup_size,
              510u);
}

// One-pass 1D c2c kernels of 8 to 256 points (powers of two, f32, unit strides) aim for 64
// invocations on GPUs (H200: 1.5-3.3% faster than 512); 32 points taken whole, other lengths, f64,
// r2c's half transform, 2D rows, strided rows, a caller's radix or workgroup size, convolutions and
// CPU devices keep the planner's other rules.
TEST(Planner, ShortWorkgroups) {
    auto first = [](const FftDesc& d, const Options& o = {}, const DeviceCaps& caps = h200_caps()) {
        return plan(d, caps, o).passes.front().kernel;
    };
    const uint64_t batch = uint64_t(1) << 16;
    auto strided = [&](uint64_t n) { return FftDesc::guru({{n, 2, 2}}, {{batch, 2 * n, 2 * n}}); };
    for (uint64_t n : {8u, 16u, 64u, 128u, 256u}) {
        const PassKernel k = first(FftDesc(n, batch));
        EXPECT_EQ(k.workgroup_size, 64u) << n;
        EXPECT_EQ(k.radix, n) << n;  // still one pass
        // The same problem without the rule, each way: as with a workgroup size of 512.
        const uint32_t other = first(FftDesc(n, batch), Options{.workgroup_size = 512}).workgroup_size;
        EXPECT_NE(other, 64u) << n;
        EXPECT_EQ(
            first(FftDesc(n, batch), {}, testing::lavapipe_caps()).workgroup_size,
            first(FftDesc(n, batch), Options{.workgroup_size = 512}, testing::lavapipe_caps()).workgroup_size)
            << n;
        EXPECT_EQ(first(strided(n)).workgroup_size,
                  first(strided(n), Options{.workgroup_size = 512}).workgroup_size)
            << n;
        EXPECT_NE(first(FftDesc(n, batch), Options{.max_radix = 16}).workgroup_size, 64u) << n;
        if (n >= 64) {  // shorter columns are staged, which no convolution kernel takes
            const LogicalPlan conv = plan_convolution(FftDesc(n, batch), h200_caps(), {});
            EXPECT_EQ(conv.passes.front().kernel.workgroup_size, other) << n;
        }
    }
    for (uint64_t n : {2u, 4u, 32u, 512u})
        EXPECT_EQ(first(FftDesc(n, batch)).workgroup_size,
                  first(FftDesc(n, batch), Options{.workgroup_size = 512}).workgroup_size)
            << n;
    EXPECT_EQ(first(FftDesc(64, batch).with_precision(Precision::f64)).workgroup_size, 256u);
    EXPECT_EQ(first(FftDesc::r2c(256, batch)).workgroup_size,
              first(FftDesc::r2c(256, batch), Options{.workgroup_size = 512}).workgroup_size);
    // 64 x 256 x 256: the rows' pass is the last.
    EXPECT_EQ(plan(FftDesc::nd({64, 256, 256}, {1, 2}), h200_caps()).passes.back().kernel.workgroup_size,
              256u);
    EXPECT_EQ(first(FftDesc(64, batch), Options{.workgroup_size = 128}).workgroup_size, 128u);
}

TEST(Planner, RejectsWhatItCannotDo) {
    DeviceCaps no_f64 = h200_caps();
    no_f64.shader_float64 = false;
    EXPECT_THROW(plan(FftDesc(1024).with_precision(Precision::f64), no_f64), UnsupportedError);
    EXPECT_NO_THROW(plan(FftDesc(1024).with_precision(Precision::f64), h200_caps()));
    // 2^25 complex floats are 256 MiB, over lavapipe's 128 MiB storage-buffer range.
    EXPECT_THROW(plan(FftDesc(1u << 25), lavapipe_caps()), UnsupportedError);
    EXPECT_THROW(plan(FftDesc(1u << 12, 1u << 13), lavapipe_caps()), UnsupportedError);
    EXPECT_THROW(plan(FftDesc(64), h200_caps(), Options{3}), Error);
    EXPECT_THROW(plan(FftDesc(64), h200_caps(), Options{1}), Error);
    // Where a caller's tuning limits leave no kernel that fits, the message names them.
    try {
        plan(FftDesc(16384, 3), lavapipe_caps(), Options{.columns_per_workgroup = 4096});
        ADD_FAILURE() << "no error";
    } catch (const UnsupportedError& e) {
        EXPECT_NE(std::string(e.what()).find("(Options.columns_per_workgroup = 4096)"), std::string::npos)
            << e.what();
    }
}

TEST(Planner, DescValidation) {
    EXPECT_THROW(FftDesc(0), Error);
    EXPECT_THROW(FftDesc(16, 0), Error);
    EXPECT_THROW(FftDesc(16).with_batch(0), Error);
    EXPECT_THROW(FftDesc(uint64_t(1) << 40, uint64_t(1) << 30), Error);
    EXPECT_THROW(FftDesc(16).with_normalization(static_cast<Normalization>(7)), Error);
    EXPECT_THROW(FftDesc(16).with_precision(static_cast<Precision>(9)), Error);
    try {
        FftDesc(16, 0);
        FAIL() << "no exception";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("batch"), std::string::npos);
    }
    EXPECT_EQ(FftDesc(16, 3).bytes(), 16u * 3 * 8);
}

// Small dims of powers of two that lie together in memory take one pass, one group of stages per
// dim (spans starting again at 1), slowest first.
// An enum argument outside its type, from a cast integer, is refused with one message form
// that names the argument, the enum and the integer, wherever it enters.
TEST(Planner, CastEnumValuesAreNamedInTheirMessage) {
    const auto message = [](const auto& call) -> std::string {
        try {
            call();
        } catch (const Error& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_EQ(message([] { FftDesc(16).with_precision(static_cast<Precision>(9)); }),
              "FftDesc.precision is not a Precision value (9)");
    EXPECT_EQ(message([] { FftDesc(16).with_normalization(static_cast<Normalization>(-1)); }),
              "FftDesc.normalization is not a Normalization value (-1)");
    EXPECT_EQ(message([] { FftDesc::r2c(16, 1, static_cast<RealLayout>(2)); }),
              "FftDesc: layout is not a RealLayout value (2)");
    EXPECT_EQ(message([] { plan(FftDesc(64), h200_caps(), Options{.strategy = static_cast<Strategy>(4)}); }),
              "Options.strategy is not a Strategy value (4)");
    EXPECT_EQ(message([] { plan(FftDesc(64), h200_caps()).scratch_bytes(static_cast<Placement>(7)); }),
              "scratch_bytes: placement is not a Placement value (7)");
    EXPECT_EQ(message([] { scale_factor(Normalization::ortho, static_cast<Direction>(2), 8); }),
              "scale_factor: direction is not a Direction value (2)");
    // The factor itself: backward scales the inverse, forward the forward transform, ortho both.
    for (Direction d : {Direction::forward, Direction::inverse}) {
        EXPECT_DOUBLE_EQ(scale_factor(Normalization::backward, d, 64),
                         d == Direction::inverse ? 1.0 / 64 : 1.0);
        EXPECT_DOUBLE_EQ(scale_factor(Normalization::forward, d, 64),
                         d == Direction::forward ? 1.0 / 64 : 1.0);
        EXPECT_DOUBLE_EQ(scale_factor(Normalization::ortho, d, 64), 0.125);
    }
}

TEST(Planner, SmallDimsTogether) {
    const LogicalPlan cube = plan(FftDesc::nd({8, 8, 8}), h200_caps());
    ASSERT_EQ(cube.passes.size(), 1u);
    EXPECT_EQ(cube.passes[0].dim, 0);
    EXPECT_EQ(cube.passes[0].dim_count, 3u);
    EXPECT_EQ(cube.summary(), "8 x 8 x 8: dims 0-2 = 8; 8; 8 in 1 pass");
    EXPECT_EQ(cube.scratch_bytes(Placement::out_of_place), 0u);
    // After a dim of 3, and over a batch dim.
    EXPECT_EQ(plan(FftDesc::nd({3, 32, 64}), h200_caps()).summary(),
              "3 x 32 x 64: dims 1-2 = 2 x 16; 4 x 16, dim 0 = 3 in 2 passes");
    EXPECT_EQ(plan(FftDesc::nd({7, 16, 16}, {1, 2}), h200_caps()).passes.size(), 1u);
    // Not together: over the one-pass limit, other than powers of two, dims apart in memory.
    EXPECT_EQ(plan(FftDesc::nd({256, 256}), h200_caps()).passes.size(), 2u);
    // Dims apart in memory go the most strided first: that pass reads the input, the contiguous
    // dim's pass comes last.
    const LogicalPlan two_d = plan(FftDesc::nd({4, 1024, 1024}, {1, 2}), h200_caps());
    ASSERT_EQ(two_d.passes.size(), 2u);
    EXPECT_EQ(two_d.passes[0].dim, 0);
    EXPECT_EQ(two_d.passes[0].kernel.src_stride, 1024u);
    EXPECT_EQ(two_d.passes[1].dim, 1);
    EXPECT_EQ(two_d.passes[1].kernel.src_stride, 1u);
    EXPECT_EQ(two_d.summary(), "1024 x 1024: dim 0 = 32 x 32, dim 1 = 32 x 32 in 2 passes");
    const LogicalPlan three_d = plan(FftDesc::nd({128, 128, 128}), h200_caps());
    ASSERT_EQ(three_d.passes.size(), 3u);
    for (int d = 0; d < 3; ++d) EXPECT_EQ(three_d.passes[d].dim, d);
    EXPECT_EQ(plan(FftDesc::nd({12, 10}), h200_caps()).passes.size(), 2u);
    EXPECT_EQ(plan(FftDesc::nd({16, 3, 16}, {0, 2}), h200_caps()).passes.size(), 2u);
    EXPECT_EQ(plan(FftDesc::guru({{16, 20, 20}, {16, 1, 1}}), h200_caps()).passes.size(), 2u);
}

TEST(Planner, NdAndGuruDescs) {
    // numpy's axes: negative from the end, the rest batch, strides of the C-order array.
    const FftDesc d = FftDesc::nd({2, 3, 4}, {0, -1});
    EXPECT_EQ(d.dims(), (std::vector<Dim>{{2, 12, 12}, {4, 1, 1}}));
    EXPECT_EQ(d.batch_dims(), (std::vector<Dim>{{3, 4, 4}}));
    EXPECT_EQ(d.length(), 8u);
    EXPECT_EQ(d.batch(), 3u);
    EXPECT_EQ(FftDesc::nd({5, 6}).dims().size(), 2u);
    EXPECT_THROW(FftDesc::nd({}), Error);
    EXPECT_THROW(FftDesc::nd({4, 0}), Error);
    EXPECT_THROW(FftDesc::nd({4, 4}, {2}), Error);
    EXPECT_THROW(FftDesc::nd({4, 4}, {-3}), Error);
    EXPECT_THROW(FftDesc::nd({4, 4}, {0, -2}), Error);
    EXPECT_THROW(FftDesc::guru({}), Error);
    EXPECT_THROW(FftDesc::guru({{0, 1, 1}}), Error);
    EXPECT_THROW(FftDesc::guru({{4, 1, 1}}, {{0, 4, 4}}), Error);
    // Output elements that would overlap: a stride inside the extent of a smaller one.
    EXPECT_THROW(FftDesc::guru({{4, 1, 1}}, {{3, 4, 2}}), Error);
    EXPECT_THROW(FftDesc::guru({{4, 1, 0}}, {{3, 4, 4}}), Error);
    // Input elements may repeat; one-point dims may have any stride.
    EXPECT_NO_THROW(FftDesc::guru({{4, 1, 1}}, {{3, 0, 4}}));
    EXPECT_NO_THROW(FftDesc::guru({{4, 1, 1}, {1, 0, 0}}));
    // Padded rows: extents count to one past the last element.
    const FftDesc padded = FftDesc::guru({{3, 10, 8}, {5, 1, 1}});
    EXPECT_EQ(padded.input_elements(), 25u);
    EXPECT_EQ(padded.output_elements(), 21u);
    EXPECT_FALSE(padded.same_layouts());
    EXPECT_TRUE(FftDesc::nd({3, 5}).same_layouts());
    // with_batch follows each transform's extent.
    EXPECT_EQ(FftDesc::guru({{3, 10, 8}, {5, 1, 1}}).with_batch(4).batch_dims(),
              (std::vector<Dim>{{4, 25, 21}}));
}

// Multi-dimensional plans and general layouts, executed in long double on the CPU with the
// plan's layouts and routes, against the reference of each dim's lines.
// Runs `p` on the CPU in both directions and placements (in place where the layouts allow)
// against the reference over its desc's dims, on the output layout's elements.
void check_layout_executor(const LogicalPlan& p, uint32_t seed) {
    const FftDesc& desc = p.desc;
    const auto in = random_row(desc.input_elements(), seed);
    std::vector<std::complex<double>> in64(in.begin(), in.end()), want(desc.output_elements());
    for (Direction d : {Direction::forward, Direction::inverse}) {
        cpu::reference_nd(in64, want, desc, d);
        const double scale = scale_factor(desc.normalization(), d, desc.length());
        std::vector<cpu::cld> expected(want.begin(), want.end());
        for (auto& v : expected) v *= scale;
        for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
            if (placement == Placement::in_place && !desc.same_layouts()) continue;
            auto got = cpu::execute(p, in, d, placement);
            std::vector<cpu::cld> a, b;
            for (uint64_t e : cpu::logical_indices(desc, false)) {
                a.push_back(got[e]);
                b.push_back(expected[e]);
            }
            EXPECT_LT(rel_error(a, b), 1e-15) << to_string(d) << " " << to_string(placement);
        }
    }
}

TEST(PlanExecutor, LayoutsAndDims) {
    const std::vector<FftDesc> descs = {
        FftDesc::nd({6, 8}),
        FftDesc::nd({5, 64, 3}, {1}),
        FftDesc::nd({4, 6, 10}, {0, 2}),
        FftDesc::nd({17, 12}),
        FftDesc::nd({1, 7}),
        FftDesc::nd({1, 1, 1}),
        FftDesc::guru({{12, 16, 14}, {10, 1, 1}}, {{2, 200, 180}}),
        FftDesc::guru({{64, 8, 8}}, {{8, 1, 1}}),
        FftDesc::guru({{30, 1, 20}}, {{20, 30, 1}}),
        FftDesc::guru({{256, 3, 2}}, {{3, 1, 512}}),
        FftDesc::nd({8, 8, 8}),
        FftDesc::nd({3, 32, 16}),
        FftDesc::nd({2, 64, 4}, {1, 2}),
    };
    for (uint32_t forced : {0u, 16u})
        for (const FftDesc& desc : descs) {
            const LogicalPlan p = plan(desc, lavapipe_caps(), Options{.max_pass_length = forced});
            SCOPED_TRACE(p.summary() + " forced " + std::to_string(forced));
            check_layout_executor(p, uint32_t(desc.input_elements()) + forced);
        }
}

// A caller's max_radix below what a length's primes need (every uniform layout's registers are a
// multiple of each of them) takes the least that holds them in strided and multi-pass kernels,
// as in one contiguous pass.
TEST(PlanExecutor, MaxRadixBelowALengthsPrimes) {
    const std::vector<std::pair<FftDesc, Options>> cases = {
        {FftDesc::nd({5, 3}), {.max_radix = 4}},
        {FftDesc::nd({5, 3}, {0}), {.max_radix = 4}},
        {FftDesc::nd({12, 30}), {.max_radix = 2}},
        {FftDesc(10, 3), {.max_pass_length = 8, .max_radix = 2}},
        {FftDesc(20, 3), {.max_pass_length = 16, .max_radix = 4}},
        {FftDesc(1000, 2), {.max_pass_length = 16, .max_radix = 8}},
    };
    for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()})
        for (const auto& [desc, options] : cases) {
            const LogicalPlan p = plan(desc, caps, options);
            SCOPED_TRACE(p.summary());
            for (const Pass& pass : p.passes) {
                EXPECT_LE(pass.kernel.workgroup_size, caps.max_workgroup_invocations);
                EXPECT_LE(pass.kernel.shared_bytes, caps.max_shared_memory_bytes);
                if (std::has_single_bit(pass.kernel.radix)) {
                    EXPECT_LE(pass.kernel.points_per_thread, options.max_radix);
                }
            }
            check_layout_executor(p, uint32_t(desc.input_elements()));
        }
}

TEST(Planner, RealDescs) {
    // numpy's rfftn: the last of the axes halved (moved last among the dims), n / 2 + 1 points
    // on the complex side; strides in each side's own elements.
    const FftDesc r = FftDesc::r2c_nd({3, 6, 10}, {2, 0});  // axis 0 halved: 2 points
    EXPECT_EQ(r.transform(), Transform::r2c);
    EXPECT_EQ(r.dims(), (std::vector<Dim>{{10, 1, 1}, {3, 60, 60}}));
    EXPECT_EQ(r.batch_dims(), (std::vector<Dim>{{6, 10, 10}}));
    EXPECT_EQ(r.input_elements(), 180u);
    EXPECT_EQ(r.output_elements(), 120u);
    EXPECT_EQ(r.input_bytes(), 180u * 4);
    EXPECT_EQ(r.output_bytes(), 120u * 8);
    EXPECT_EQ(r.length(), 30u);
    EXPECT_FALSE(r.same_layouts());
    EXPECT_EQ(FftDesc::r2c_nd({3, 6, 10}).dims(), (std::vector<Dim>{{3, 60, 36}, {6, 10, 6}, {10, 1, 1}}));
    const FftDesc c = FftDesc::c2r(9, 4);
    EXPECT_EQ(c.dims(), (std::vector<Dim>{{9, 1, 1}}));
    EXPECT_EQ(c.batch_dims(), (std::vector<Dim>{{4, 5, 9}}));
    EXPECT_EQ(c.input_bytes(), 4u * 5 * 8);
    EXPECT_EQ(c.output_bytes(), 4u * 9 * 4);
    // The padded layout shares one buffer: rows of 2 (n / 2 + 1) reals.
    const FftDesc padded = FftDesc::r2c(9, 4, RealLayout::padded);
    EXPECT_EQ(padded.batch_dims(), (std::vector<Dim>{{4, 10, 5}}));
    EXPECT_TRUE(padded.same_layouts());
    EXPECT_TRUE(FftDesc::c2r_nd({4, 6, 8}, {}, RealLayout::padded).same_layouts());
    EXPECT_EQ(FftDesc::r2c(9, 4).with_batch(2).batch_dims(), (std::vector<Dim>{{2, 9, 5}}));
    // Not in place where the complex side's rows overlap (c2r may read an element twice): rows of
    // 5 complex points 4 apart, though the real strides are twice the complex ones.
    EXPECT_NO_THROW(FftDesc::guru({{8, 1, 1}}, {{3, 4, 8}}, Transform::c2r));
    EXPECT_FALSE(FftDesc::guru({{8, 1, 1}}, {{3, 4, 8}}, Transform::c2r).same_layouts());
    EXPECT_TRUE(FftDesc::guru({{8, 1, 1}}, {{3, 5, 10}}, Transform::c2r).same_layouts());
    EXPECT_THROW(FftDesc::r2c_nd({4, 6}, {0}, RealLayout::padded), Error);
    EXPECT_THROW(FftDesc::r2c(0), Error);
    EXPECT_THROW(FftDesc::c2r(8, 0), Error);
    EXPECT_THROW(FftDesc::guru({{4, 1, 1}}, {}, static_cast<Transform>(5)), Error);
    // Output overlap is checked with the output's extents: 5 complex points per row of 8 reals.
    EXPECT_THROW(FftDesc::guru({{8, 1, 1}}, {{2, 8, 4}}, Transform::r2c), Error);
    EXPECT_NO_THROW(FftDesc::guru({{8, 1, 1}}, {{2, 8, 5}}, Transform::r2c));
}

// Real plans: even lengths with unit real stride take the half-length transform and split or
// join; the others go through n complex points in scratch.
TEST(Planner, RealPlans) {
    // One pass where the half-length transform fits one, split or join fused into it.
    EXPECT_EQ(plan(FftDesc::r2c(4096, 8), h200_caps()).summary(),
              "r2c 4096 = half 2048 = 8 x 16 x 16 with split in 1 pass");
    EXPECT_EQ(plan(FftDesc::c2r(4096, 8), h200_caps()).summary(),
              "c2r 4096 = half 2048 = 8 x 16 x 16 with join in 1 pass");
    EXPECT_TRUE(plan(FftDesc::r2c(4096, 8), h200_caps()).passes[0].kernel.split_store);
    // Split fused into the last of several passes, whose tiles take mirrored columns.
    const LogicalPlan big = plan(FftDesc::r2c(1 << 20, 8), h200_caps());
    EXPECT_EQ(big.summary(), "r2c 1048576 = half 524288 = (32 x 32) x (16 x 32) with split in 2 passes");
    EXPECT_TRUE(big.passes.back().kernel.split_store);
    // Its tiles take 32 columns where they fit (not here: 32 x 512 points; 16 with all of the
    // shared memory, the last of two narrow passes), as at 65536, whose first pass keeps 16.
    EXPECT_EQ(big.passes.back().kernel.columns_per_workgroup, 16u);
    const LogicalPlan r65536 = plan(FftDesc::r2c(65536, 8), h200_caps());
    ASSERT_EQ(r65536.passes.size(), 2u);
    EXPECT_EQ(r65536.passes[0].kernel.columns_per_workgroup, 16u);
    EXPECT_EQ(r65536.passes[1].kernel.columns_per_workgroup, 32u);
    // Plain c2c transforms of a power-of-two length take 32 columns in passes where they fit
    // (Planner.OnePassWhereTheTransformFitsAWorkgroup).
    // m-major spectra of several passes: vectorized passes, split apart.
    const LogicalPlan m_major =
        plan(FftDesc::guru({{65536, 1, 64}}, {{64, 65536, 1}}, Transform::r2c), h200_caps());
    EXPECT_EQ(m_major.passes.back().kernel.kind, KernelKind::real);
    EXPECT_TRUE(m_major.passes.front().kernel.vectorized);
    // 2^21: the last pass's 8 columns (in all of the shared memory) take split; not where its
    // tiles would have fewer than 8 columns (4 within half of the shared memory).
    EXPECT_EQ(plan(FftDesc::r2c(1 << 21, 2), h200_caps()).summary(),
              "r2c 2097152 = half 1048576 = (32 x 32) x (32 x 32) with split in 2 passes");
    EXPECT_EQ(plan(FftDesc::r2c(1 << 21, 2), h200_caps(), Options{.max_shared_memory = 24576}).summary(),
              "r2c 2097152 = half 1048576 = (32 x 32) x (32 x 32), split in 3 passes");
    EXPECT_EQ(big.scratch_bytes(Placement::out_of_place),
              plan(FftDesc(1 << 19, 8), h200_caps()).scratch_bytes(Placement::out_of_place));
    // Else a pass of its own: split after Bluestein's transform (a prime half length).
    EXPECT_EQ(plan(FftDesc::r2c(2 * 10007, 8), h200_caps()).passes.back().kernel.real_step, RealStep::split);
    EXPECT_EQ(plan(FftDesc::r2c(2 * 10007, 8), h200_caps()).passes.back().kernel.kind, KernelKind::real);
    // Join into the first of several passes, whose columns read each point with its mirror; a
    // pass of its own before Bluestein's transform.
    const LogicalPlan c2r_long = plan(FftDesc::c2r(1 << 20, 8), h200_caps());
    EXPECT_EQ(c2r_long.summary(), "c2r 1048576 = half 524288 = (32 x 32) x (16 x 32) with join in 2 passes");
    EXPECT_TRUE(c2r_long.passes.front().kernel.join_load);
    EXPECT_FALSE(c2r_long.passes.back().kernel.join_load);
    EXPECT_EQ(c2r_long.out_of_place.front().src, BufferRole::input);
    EXPECT_EQ(plan(FftDesc::c2r(2 * 10007, 8), h200_caps()).passes.front().kernel.real_step, RealStep::join);
    EXPECT_EQ(plan(FftDesc::r2c(7, 8), h200_caps()).summary(), "r2c 7 = widen, 7, crop in 3 passes");
    EXPECT_EQ(plan(FftDesc::c2r(7, 8), h200_caps()).summary(), "c2r 7 = mirror, 7, narrow in 3 passes");
    EXPECT_EQ(plan(FftDesc::r2c(4096, 8), h200_caps()).scratch_bytes(Placement::out_of_place), 0u);
    // A strided halved dim cannot read its reals as pairs.
    EXPECT_EQ(plan(FftDesc::guru({{8, 2, 1}}, {{3, 1, 5}}, Transform::r2c), h200_caps()).summary(),
              "r2c 8 = widen, 8, crop in 3 passes");
    // c2r of several dims: the other dims first, into scratch, then the halved one with join.
    const LogicalPlan c = plan(FftDesc::c2r_nd({6, 8}), h200_caps());
    EXPECT_EQ(c.summary(), "c2r 6 x 8: dim 0 = 6, dim 1 = half 4 = 4 with join in 2 passes");
    EXPECT_EQ(c.out_of_place.front().src, BufferRole::input);
    EXPECT_EQ(c.out_of_place.front().dst, BufferRole::scratch);
    EXPECT_EQ(c.out_of_place.back().dst, BufferRole::output);
    for (const LogicalPlan& p : {c, plan(FftDesc::r2c(4096, 8), h200_caps())})
        for (const Pass& pass : p.passes) EXPECT_GE(pass.workgroups, 1u);
}

// A real plan holds the twiddle tables of the kernels it keeps: a fused candidate the planner
// tried and dropped leaves none behind. Where split takes a pass of its own, they are the
// half-length transform's, as a complex plan of the same layout holds them, then split's roots.
TEST(Planner, RealPlansHoldOnlyTheirKernelsTwiddles) {
    const uint64_t batch = 8;
    for (uint64_t n : {uint64_t(20000), uint64_t(1) << 19, uint64_t(2 * 10007)}) {
        const uint64_t half = n / 2;
        const LogicalPlan real = plan(FftDesc::r2c(n, batch), h200_caps());
        ASSERT_EQ(real.passes.back().kernel.real_step, RealStep::split) << n;
        std::vector<TwiddleEntry> expected =
            plan(FftDesc::guru({{half, 1, 1}}, {{batch, half, half + 1}}), h200_caps()).twiddles;
        for (uint32_t k = 0; k <= n / 4; ++k) expected.push_back({k, static_cast<uint32_t>(n)});
        EXPECT_EQ(real.twiddles.size(), expected.size()) << n;
        EXPECT_TRUE(real.twiddles == expected) << n;
    }
}

// r2c rows of 128 and 256 reals take radix 4, so that split's pairs spread over more
// invocations; other lengths, c2r and a caller's radix keep the planner's other rules.
TEST(Planner, ShortRealRowsTakeRadixFour) {
    const uint64_t batch = uint64_t(1) << 16;
    auto first = [&](const FftDesc& d, const Options& o = {}) {
        return plan(d, h200_caps(), o).passes.front().kernel;
    };
    for (uint64_t n : {128u, 256u}) {
        const PassKernel k = first(FftDesc::r2c(n, batch));
        EXPECT_TRUE(k.split_store) << n;
        EXPECT_EQ(k.points_per_thread, 4u) << n;
        EXPECT_EQ(k.threads_per_column, n / 8) << n;
        EXPECT_EQ(first(FftDesc::r2c(n, batch), Options{.max_radix = 8}).points_per_thread, 8u) << n;
        EXPECT_EQ(first(FftDesc::r2c(n, batch).with_precision(Precision::f64)).points_per_thread, 4u) << n;
        EXPECT_GT(first(FftDesc::c2r(n, batch)).points_per_thread, 4u) << n;
        // The rows' pass of 2D r2c too.
        EXPECT_EQ(plan(FftDesc::r2c_nd({64, n}), h200_caps()).passes.front().kernel.points_per_thread, 4u)
            << n;
    }
    for (uint64_t n : {64u, 512u, 1024u}) EXPECT_GT(first(FftDesc::r2c(n, batch)).points_per_thread, 4u) << n;
    // Halves between 64 and 128 points that are no powers of two keep the layout of their complex
    // transform.
    auto radices = [](const PassKernel& k) {
        std::vector<uint32_t> r;
        for (const Stage& st : k.stages) r.push_back(st.radix);
        return r;
    };
    for (uint64_t n : {162u, 200u, 250u}) {
        const PassKernel k = first(FftDesc::r2c(n, batch));
        EXPECT_TRUE(k.split_store) << n;
        EXPECT_EQ(radices(k), radices(first(FftDesc(n / 2, batch)))) << n;
    }
}

// A one-pass r2c kernel whose rows lie in one invocation each does not loop over tiles, as with
// Options::tiles_per_workgroup = 1; longer rows do.
TEST(Planner, OneInvocationRealRowsDoNotLoop) {
    // Batches of enough tiles to loop (kMinLoopingTiles).
    for (Precision p : {Precision::f32, Precision::f64})
        for (uint64_t n : {4u, 16u, 32u, 64u}) {
            const FftDesc desc = FftDesc::r2c(n, uint64_t(1) << 22).with_precision(p);
            const LogicalPlan dflt = plan(desc, h200_caps()),
                              one = plan(desc, h200_caps(), {.tiles_per_workgroup = 1});
            const Pass& pass = dflt.passes.front();
            if (pass.kernel.threads_per_column != 1) {
                EXPECT_TRUE(p == Precision::f64 && n == 64) << n;  // 2 x 16: two invocations per row
                EXPECT_TRUE(pass.kernel.prefetch) << n;
                continue;
            }
            EXPECT_TRUE(pass.kernel.split_store) << n;
            EXPECT_FALSE(pass.kernel.prefetch) << n;
            EXPECT_EQ(pass.workgroups, pass.tiles) << n;
            EXPECT_EQ(pass.kernel, one.passes.front().kernel) << n;
            // A caller's tiles still loop.
            EXPECT_TRUE(plan(desc, h200_caps(), {.tiles_per_workgroup = 4}).passes.front().kernel.prefetch)
                << n;
        }
    EXPECT_FALSE(plan(FftDesc::r2c_nd({16384, 64, 64}, {1, 2}), h200_caps()).passes.front().kernel.prefetch);
    EXPECT_TRUE(plan(FftDesc::r2c_nd({16384, 64, 64}, {1, 2}), h200_caps(), {.tiles_per_workgroup = 4})
                    .passes.front()
                    .kernel.prefetch);
    EXPECT_TRUE(plan(FftDesc::r2c(128, uint64_t(1) << 22), h200_caps()).passes.front().kernel.prefetch);
    EXPECT_TRUE(plan(FftDesc(32, uint64_t(1) << 22), h200_caps()).passes.front().kernel.prefetch);
}

// The passes over a real transform's other dims take one tile per workgroup, as with
// Options::tiles_per_workgroup = 1 there: c2r's always, r2c's unless one holds 32 points per
// invocation. The halved dim's pass and complex transforms keep their defaults.
TEST(Planner, RealOtherDimsTakeOneTile) {
    auto others = [](const LogicalPlan& p) {
        std::vector<const Pass*> out;
        for (const Pass& q : p.passes)
            if (q.kernel.vectorized) out.push_back(&q);
        return out;
    };
    for (uint64_t n : {64u, 128u, 256u, 512u, 1024u}) {
        const uint64_t images = (uint64_t(1) << 26) / (n * n);  // enough tiles to loop (kMinLoopingTiles)
        for (Transform t : {Transform::r2c, Transform::c2r}) {
            const FftDesc desc = t == Transform::r2c ? FftDesc::r2c_nd({images, n, n}, {1, 2})
                                                     : FftDesc::c2r_nd({images, n, n}, {1, 2});
            const LogicalPlan p = plan(desc, h200_caps());
            ASSERT_EQ(others(p).size(), 1u) << n;
            const Pass& q = *others(p).front();
            const bool wide = q.kernel.points_per_thread >= 32;
            EXPECT_EQ(q.kernel.prefetch, t == Transform::r2c && wide) << n;
            if (!q.kernel.prefetch) {
                EXPECT_EQ(q.workgroups, q.tiles) << n;
            }
            // A caller's tiles loop.
            EXPECT_TRUE(others(plan(desc, h200_caps(), {.tiles_per_workgroup = 4})).front()->kernel.prefetch)
                << n;
        }
        // Complex 2D transforms loop.
        const LogicalPlan c = plan(FftDesc::nd({images, n, n}, {1, 2}), h200_caps());
        if (!others(c).empty()) {
            EXPECT_TRUE(others(c).front()->kernel.prefetch) << n;
        }
    }
    // An r2c pass of 32 points per invocation loops (1024^2 on the H200's caps).
    const LogicalPlan wide = plan(FftDesc::r2c_nd({64, 1024, 1024}, {1, 2}), h200_caps());
    EXPECT_EQ(others(wide).front()->kernel.points_per_thread, 32u);
    EXPECT_TRUE(others(wide).front()->kernel.prefetch);
    // f64 passes hold 16 points at most: r2c passes of 512 points or more and c2r passes of 1024
    // or more loop, shorter ones do not.
    for (uint64_t n : {128u, 256u, 512u, 1024u})
        for (Transform t : {Transform::r2c, Transform::c2r}) {
            const uint64_t images = (uint64_t(1) << 26) / (n * n);
            const FftDesc d = t == Transform::r2c ? FftDesc::r2c_nd({images, n, n}, {1, 2})
                                                  : FftDesc::c2r_nd({images, n, n}, {1, 2});
            const LogicalPlan p = plan(FftDesc(d).with_precision(Precision::f64), h200_caps());
            ASSERT_EQ(others(p).size(), 1u) << n;
            const Pass& q = *others(p).front();
            EXPECT_LE(q.kernel.points_per_thread, 16u) << n;
            EXPECT_EQ(q.kernel.prefetch, n >= (t == Transform::r2c ? 512u : 1024u))
                << n << " " << to_string(t);
        }
    // Per pass: of r2c 1024 x 64 x 64's other dims, the 1024-point pass (32 points per invocation)
    // loops and the 64-point one does not.
    const LogicalPlan mixed = plan(FftDesc::r2c_nd({16, 1024, 64, 64}, {1, 2, 3}), h200_caps());
    bool looped = false, launched = false;
    for (const Pass* q : others(mixed)) {
        (q->kernel.points_per_thread >= 32 ? looped : launched) = true;
        EXPECT_EQ(q->kernel.prefetch, q->kernel.points_per_thread >= 32) << q->kernel.radix;
    }
    EXPECT_TRUE(looped && launched);
    // Two passes over the other dim of 4096^2, and 3D: none loops.
    for (const FftDesc& d :
         {FftDesc::r2c_nd({4, 4096, 4096}, {1, 2}), FftDesc::c2r_nd({4, 4096, 4096}, {1, 2}),
          FftDesc::r2c_nd({64, 64, 64, 64}, {1, 2, 3})}) {
        const LogicalPlan p = plan(d, h200_caps());
        EXPECT_GE(others(p).size(), 2u);
        for (const Pass* q : others(p)) EXPECT_FALSE(q->kernel.prefetch);
    }
}

// c2r rows of 64 reals join and transform 8 points per invocation, four invocations per row,
// where their 32-point complex transform alone takes a row per invocation.
TEST(Planner, ShortInverseRealRowsTakeRadixEight) {
    const uint64_t batch = uint64_t(1) << 16;
    auto first = [&](const FftDesc& d, const Options& o = {}) {
        return plan(d, h200_caps(), o).passes.front().kernel;
    };
    for (Precision p : {Precision::f32, Precision::f64}) {
        const PassKernel k = first(FftDesc::c2r(64, batch).with_precision(p));
        EXPECT_TRUE(k.join_load);
        EXPECT_EQ(k.points_per_thread, 8u);
        EXPECT_EQ(k.threads_per_column, 4u);
    }
    EXPECT_EQ(first(FftDesc(32, batch)).threads_per_column, 1u);
    EXPECT_EQ(first(FftDesc::r2c(64, batch)).threads_per_column, 1u);
    EXPECT_EQ(first(FftDesc::c2r(64, batch), Options{.max_radix = 32}).threads_per_column, 1u);
    // Options::radix (teaching) keeps its steps; an m-major spectrum (join across columns) its
    // row per invocation.
    for (const Stage& st : first(FftDesc::c2r(64, batch), Options{.radix = 2}).stages)
        EXPECT_EQ(st.radix, 2u);
    const PassKernel across = first(FftDesc::guru({{64, 4096, 1}}, {{4096, 1, 64}}, Transform::c2r));
    EXPECT_TRUE(across.spectrum_across_columns);
    EXPECT_EQ(across.threads_per_column, 1u);
    // The rows' pass of irfftn too.
    EXPECT_EQ(plan(FftDesc::c2r_nd({256, 64}), h200_caps()).passes.back().kernel.points_per_thread, 8u);
    for (uint64_t n : {32u, 128u, 256u}) EXPECT_NE(first(FftDesc::c2r(n, batch)).threads_per_column, 4u) << n;
}

// Real plans executed in long double against numpy's rfftn and irfftn, both placements where
// the layout allows, with passes forced short.
TEST(PlanExecutor, RealTransforms) {
    const std::vector<FftDesc> descs = {
        FftDesc::r2c(1, 2),
        FftDesc::c2r(1, 2),
        FftDesc::r2c(2, 3),
        FftDesc::c2r(2, 3),
        FftDesc::r2c(12, 3),
        FftDesc::c2r(12, 3),
        FftDesc::r2c(15, 2),
        FftDesc::c2r(15, 2),
        FftDesc::r2c(256, 2),
        FftDesc::c2r(256, 2),
        FftDesc::r2c(74, 2),
        FftDesc::c2r(194, 2),
        FftDesc::r2c(10, 3, RealLayout::padded),
        FftDesc::c2r(11, 3, RealLayout::padded),
        FftDesc::r2c_nd({3, 6, 10}),
        FftDesc::c2r_nd({3, 6, 10}),
        FftDesc::r2c_nd({5, 7, 9}, {0, 1}),
        FftDesc::c2r_nd({5, 7, 9}, {2, 0}),
        FftDesc::r2c_nd({4, 6}, {}, RealLayout::padded),
        FftDesc::c2r_nd({4, 7}, {}, RealLayout::padded),
        FftDesc::guru({{12, 1, 1}}, {{4, 15, 9}}, Transform::r2c),
        FftDesc::guru({{12, 1, 1}}, {{4, 9, 15}}, Transform::c2r),
    };
    for (uint32_t forced : {0u, 4u})
        for (const FftDesc& desc : descs) {
            const LogicalPlan p = plan(desc, lavapipe_caps(), Options{.max_pass_length = forced});
            SCOPED_TRACE(p.summary() + " forced " + std::to_string(forced));
            const Direction d = desc.transform() == Transform::r2c ? Direction::forward : Direction::inverse;
            const auto in =
                random_row(cpu::buffer_slots(desc, true), uint32_t(desc.input_elements()) + forced);
            std::vector<std::complex<double>> in64(in.begin(), in.end()),
                want(cpu::buffer_slots(desc, false));
            cpu::reference_nd(in64, want, desc, d);
            const long double scale = scale_factor(desc.normalization(), d, desc.length());
            for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
                if (placement == Placement::in_place && !desc.same_layouts()) continue;
                const auto got = cpu::execute(p, in, d, placement);
                std::vector<cpu::cld> a, b;
                for (size_t e = 0; e < want.size(); ++e) {
                    a.push_back(got[e]);
                    b.push_back(cpu::cld(want[e]) * scale);
                }
                EXPECT_LT(rel_error(a, b), 1e-15) << to_string(placement);
            }
        }
}

// The decomposition, executed in long double with the plan's own index arithmetic and twiddle
// tables, matches the reference DFT to long-double rounding, both directions.
void check_executor(const LogicalPlan& p, const std::vector<cpu::cld>& in, double bound = 1e-16) {
    const uint64_t n = p.desc.length(), batch = p.desc.batch();
    for (Direction d : {Direction::forward, Direction::inverse}) {
        const auto got = cpu::execute(p, in, d);
        std::vector<cpu::cld> want;
        for (uint64_t b = 0; b < batch; ++b) {
            auto row = cpu::reference_dft(std::span(in).subspan(b * n, n), d);
            if (d == Direction::inverse)
                for (auto& v : row) v /= static_cast<long double>(n);
            want.insert(want.end(), row.begin(), row.end());
        }
        EXPECT_LT(rel_error(got, want), bound) << to_string(d);
    }
}

TEST(PlanExecutor, MatchesReferenceForEveryPassSplit) {
    for (uint32_t forced : {0u, 2u, 4u, 16u, 64u, 256u})
        for (uint32_t bits = 0; bits <= 14; ++bits) {
            const uint64_t n = uint64_t(1) << bits, batch = 3;
            const LogicalPlan p = plan(FftDesc(n, batch), lavapipe_caps(), Options{forced});
            SCOPED_TRACE(p.summary() + " forced " + std::to_string(forced));
            const auto in = random_row(n * batch, bits * 31 + forced);
            check_executor(p, in);
        }
}

// The same for lengths that are not powers of two: one pass, forced passes, non-uniform stages,
// and the direct sum with its copy pass.
TEST(PlanExecutor, MatchesReferenceForMixedRadicesAndTheDirectSum) {
    for (uint32_t forced : {0u, 16u, 64u})
        for (uint64_t n : {3, 6, 12, 15, 60, 100, 210, 1001, 4095, 2310, 97, 2 * 1031}) {
            const uint64_t batch = 2;
            const LogicalPlan p =
                plan(FftDesc(n, batch), lavapipe_caps(), Options{.max_pass_length = forced});
            SCOPED_TRACE(p.summary() + " forced " + std::to_string(forced));
            const auto in = random_row(n * batch, uint32_t(n) * 7 + forced);
            check_executor(p, in);
        }
}

// Every length from 1 to 1024 (butterflies, several passes where forced, Bluestein), planned for
// lavapipe and executed on the CPU against the reference: the device tests sample the lengths
// whose kernels are costly to compile.
TEST(PlanExecutor, EveryLengthUpTo1024) {
    for (uint64_t n = 1; n <= 1024; ++n) {
        const LogicalPlan p =
            plan(FftDesc(n, 2), lavapipe_caps(), Options{.max_pass_length = n % 5 == 0 ? 16u : 0u});
        SCOPED_TRACE(p.summary());
        // A few lengths (117, 123) come to 1.06e-16, still a hundred times below f64's bound.
        check_executor(p, random_row(2 * n, static_cast<uint32_t>(n)), 2e-16);
    }
}

TEST(PlanExecutor, NormalizationModes) {
    const uint64_t n = 256;
    const auto in = random_row(n, 5);
    const auto raw = cpu::reference_dft(in, Direction::forward);
    for (auto [norm, factor] :
         {std::pair{Normalization::backward, 1.0L}, std::pair{Normalization::ortho, 1.0L / 16},
          std::pair{Normalization::forward, 1.0L / 256}}) {
        const LogicalPlan p = plan(FftDesc(n).with_normalization(norm), h200_caps());
        auto want = raw;
        for (auto& v : want) v *= factor;
        EXPECT_LT(rel_error(cpu::execute(p, in, Direction::forward), want), 1e-17);
    }
}

// The reference itself against the definition, summed term by term: the radix-2 path (64), the
// mixed-radix path (15, 60), a small prime (61), Bluestein (67, 2 * 67) and small odd factors split
// off ahead of it (3 * 67, 2 * 3 * 71), every bin, both directions.
TEST(Reference, MatchesTheDefinition) {
    for (size_t n : {64u, 15u, 60u, 61u, 67u, 134u, 201u, 426u})
        for (Direction d : {Direction::forward, Direction::inverse}) {
            const auto in = random_row(n, 9);
            const long double sign = d == Direction::forward ? -1 : 1;
            std::vector<cpu::cld> sum(n);
            for (size_t k = 0; k < n; ++k)
                for (size_t j = 0; j < n; ++j) {
                    const long double a = sign * 2 * 3.141592653589793238462643383279502884L *
                                          static_cast<long double>(j * k % n) / n;
                    sum[k] += in[j] * cpu::cld(std::cos(a), std::sin(a));
                }
            EXPECT_LT(rel_error(cpu::reference_dft(in, d), sum), 1e-17) << n;
        }
}

// Rows over the cache's size take the four-step form, n = n1 x n2 (8192: 128 x 64, 2^14: 128 x 128,
// 2^15: 256 x 128), on several threads from 2^16 (2^17: 512 x 256). Its output X_{k1 + n1 k2} is row
// k1's point k2, rows transformed 16 at a time: bins from every such group, at every place in a
// group and spread over k2, and the spectrum's ends, against the definition summed term by term
// through unit_root, both directions. (Each bin reads every column, so the columns' groups are
// covered too.)
TEST(Reference, LongRowsMatchTheDefinition) {
    for (int bits : {13, 14, 15, 17})
        for (Direction d : {Direction::forward, Direction::inverse}) {
            const size_t n = size_t(1) << bits, n2 = size_t(1) << (bits / 2), n1 = n / n2;
            const auto in = random_row(n, 11);
            const auto got = cpu::reference_dft(in, d);
            ASSERT_EQ(got.size(), n);
            std::vector<size_t> bins{0, 1, n / 2, n - 1};
            for (size_t g = 0; g < n1 / 16; ++g) bins.push_back(16 * g + g % 16 + n1 * (g * 37 % n2));
            std::vector<cpu::cld> want, have;
            for (size_t k : bins) {
                cpu::cld sum = 0;
                for (size_t j = 0; j < n; ++j) {
                    const cpu::cld w = unit_root(j * k % n, n);
                    sum += in[j] * (d == Direction::forward ? w : std::conj(w));
                }
                want.push_back(sum);
                have.push_back(got[k]);
            }
            // The sum's own rounding grows as sqrt(n): 1.2e-18 at 8192, 5.6e-18 at 2^17.
            EXPECT_LT(rel_error(have, want), 3e-20 * std::sqrt(static_cast<double>(n))) << n;
        }
}

// Every bin of the four-step form, exactly: one point per column j (the n1-point column
// transforms then see a point each, and every twiddle W_n^{j k1} is taken) at a random row, so
// that X_k = sum_j x_j W_n^{p_j k} takes O(n n2) terms of a table of the n roots.
TEST(Reference, LongRowsOfOnePointPerColumnMatchEveryBin) {
    for (int bits : {13, 14, 15, 17})
        for (Direction d : {Direction::forward, Direction::inverse}) {
            const size_t n = size_t(1) << bits, n2 = size_t(1) << (bits / 2), n1 = n / n2;
            const auto values = random_row(n2, static_cast<uint32_t>(bits));
            std::mt19937 gen(static_cast<uint32_t>(bits));
            std::vector<cpu::cld> in(n);
            std::vector<size_t> at(n2);
            for (size_t j = 0; j < n2; ++j) {
                at[j] = gen() % n1 * n2 + j;
                in[at[j]] = values[j];
            }
            std::vector<cpu::cld> roots(n);
            for (size_t k = 0; k < n; ++k)
                roots[k] = d == Direction::forward ? unit_root(k, n) : std::conj(unit_root(k, n));
            std::vector<cpu::cld> want(n);
            for (size_t k = 0; k < n; ++k)
                for (size_t j = 0; j < n2; ++j) want[k] += values[j] * roots[at[j] * k % n];
            EXPECT_LT(rel_error(cpu::reference_dft(in, d), want), 1e-18) << n;
        }
}

}  // namespace
}  // namespace twiddle
