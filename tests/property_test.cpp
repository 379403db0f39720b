// Reference-free properties of the transform at sizes too large for the reference (2^23, 2^24:
// lavapipe's whole storage-buffer range), and a seeded sweep of planner options and dispatch
// shapes against the reference.
#include <random>

#include "core/unit_root.hpp"
#include "cpu/reference.hpp"
#include "device_test.hpp"
#include "vk/context_state.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;
using cf = std::complex<float>;

class Large : public DeviceTest, public ::testing::WithParamInterface<uint32_t> {
protected:
    std::vector<cf> transform(const Plan& plan, Buffer& buf, const std::vector<cf>& x,
                              Direction dir = Direction::forward) {
        buf.upload(x.data(), plan.desc().bytes());
        plan.execute(buf, buf, dir);
        std::vector<cf> out(x.size());
        buf.download(out.data(), plan.desc().bytes());
        return out;
    }
};

double rel(const std::vector<std::complex<double>>& a, const std::vector<std::complex<double>>& b) {
    return cpu::relative_l2(a, b);
}

TEST_P(Large, ImpulseShiftLinearityParseval) {
    const uint64_t n = uint64_t(1) << GetParam();
    Context& ctx = testing::device();
    if ((n * 8) > ctx.caps().max_storage_buffer_range) GTEST_SKIP() << "over the device's buffer range";
    const Plan plan(ctx, FftDesc(n));
    Buffer buf(ctx, plan.desc().bytes());
    std::mt19937 gen(GetParam());
    // Bins checked against closed forms: every 4099th (prime) bin, about 2000-4000 of them.
    std::vector<uint64_t> bins;
    for (uint64_t k = 0; k < n; k += 4099) bins.push_back(k);

    // Impulse at p: X_k = W^{pk}.
    const uint64_t p = gen() % n;
    std::vector<cf> x(n);
    x[p] = 1;
    auto X = transform(plan, buf, x);
    std::vector<std::complex<double>> got, want;
    for (uint64_t k : bins) {
        got.push_back(X[k]);
        const auto w = unit_root((p * k) % n, n);
        want.emplace_back(double(w.real()), double(w.imag()));
    }
    EXPECT_LE(rel(got, want), 5e-7) << "impulse";

    // Parseval: sum |X|^2 = N sum |x|^2.
    const auto a = testing::random_complex(n, gen());
    const auto b = testing::random_complex(n, gen());
    const auto A = transform(plan, buf, a), B = transform(plan, buf, b);
    long double ex = 0, eX = 0;
    for (uint64_t i = 0; i < n; ++i) {
        ex += std::norm(std::complex<long double>(a[i]));
        eX += std::norm(std::complex<long double>(A[i]));
    }
    EXPECT_NEAR(static_cast<double>(eX / (ex * n)), 1.0, 1e-6) << "Parseval";

    // Linearity: F(2a - 3b) = 2 F(a) - 3 F(b).
    std::vector<cf> c(n);
    for (uint64_t i = 0; i < n; ++i) c[i] = 2.0f * a[i] - 3.0f * b[i];
    const auto C = transform(plan, buf, c);
    got.assign(C.begin(), C.end());
    want.resize(n);
    for (uint64_t i = 0; i < n; ++i)
        want[i] = 2.0 * std::complex<double>(A[i]) - 3.0 * std::complex<double>(B[i]);
    EXPECT_LE(rel(got, want), 1e-6) << "linearity";

    // Shift by s: F(a[(j - s) mod N])_k = W^{sk} F(a)_k.
    const uint64_t s = gen() % n;
    std::vector<cf> shifted(n);
    for (uint64_t j = 0; j < n; ++j) shifted[(j + s) % n] = a[j];
    const auto S = transform(plan, buf, shifted);
    got.clear();
    want.clear();
    for (uint64_t k : bins) {
        got.push_back(S[k]);
        const auto w = unit_root((s * k) % n, n);
        want.push_back(std::complex<double>(double(w.real()), double(w.imag())) * std::complex<double>(A[k]));
    }
    EXPECT_LE(rel(got, want), 1e-6) << "shift";

    // Round trip.
    const auto back = transform(plan, buf, A, Direction::inverse);
    EXPECT_LE(cpu::relative_l2(back, testing::widen(a)), 1e-6) << "round trip";
}

INSTANTIATE_TEST_SUITE_P(Fft, Large, ::testing::Values(23u, 24u),
                         [](const auto& info) { return "N2e" + std::to_string(info.param); });

// One transform, both directions and placements, against the reference.
void check(const Context& ctx, const FftDesc& desc, const Options& options, uint32_t seed) {
    const Plan plan(ctx, desc, options);
    const uint64_t n = desc.length(), batch = desc.batch(), bytes = desc.bytes();
    SCOPED_TRACE(plan.logical().summary() + ", batch " + std::to_string(batch));
    const auto x = testing::random_complex(n * batch, seed);
    Buffer in(ctx, bytes), out(ctx, bytes);
    for (Direction dir : {Direction::forward, Direction::inverse})
        for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
            std::vector<std::complex<double>> want(n * batch);
            cpu::reference_dft(testing::widen(x), want, n, batch, dir);
            for (auto& v : want) v *= scale_factor(desc.normalization(), dir, n);
            out.fill(testing::kPoison);
            if (placement == Placement::in_place) {
                out.upload(x.data(), bytes);
                plan.execute(out, out, dir);
            } else {
                in.upload(x.data(), bytes);
                plan.execute(in, out, dir);
            }
            std::vector<cf> got(n * batch);
            out.download(got.data(), bytes);
            EXPECT_LE(cpu::relative_l2(got, want), 5e-7) << to_string(dir) << " " << to_string(placement);
        }
}

void check(const FftDesc& desc, const Options& options, uint32_t seed) {
    check(testing::device(), desc, options, seed);
}

class Shapes : public DeviceTest {};

// More workgroups than one dispatch dimension allows (lavapipe: 65535), so the grid is 2D.
TEST_F(Shapes, TwoDimensionalDispatch) {
    check(FftDesc(1, 70001), Options{.workgroup_size = 1}, 1);
    check(FftDesc(2, 70001), Options{.workgroup_size = 2}, 2);
}

// Multi-pass columns of one workgroup that belong to different transforms.
TEST_F(Shapes, WorkgroupsSpanningTransforms) {
    check(FftDesc(8, 30001), Options{.max_pass_length = 2}, 3);
    check(FftDesc(64, 777), Options{.max_pass_length = 4, .columns_per_workgroup = 32}, 4);
}

// Workgroups that loop over tiles and prefetch the next, with a partial last tile and a tile
// count the loop stride does not divide: one-pass with direct and with staged loads, and
// multi-pass, for powers of two and other lengths.
TEST_F(Shapes, WorkgroupsLoopingOverTiles) {
    check(FftDesc(256, 1001), Options{.tiles_per_workgroup = 3}, 5);
    check(FftDesc(8, 5003), Options{.tiles_per_workgroup = 3}, 6);
    check(FftDesc(4096, 37), Options{.max_pass_length = 64, .tiles_per_workgroup = 5}, 7);
    check(FftDesc(32, 500), Options{.tiles_per_workgroup = 100}, 8);  // one workgroup does all
    check(FftDesc(8192, 7), Options{.tiles_per_workgroup = 3}, 9);    // exchanges in halves
    // Lengths other than powers of two: uniform with direct and with staged loads, non-uniform
    // (guarded loads of the first stage's registers), and multi-pass.
    check(FftDesc(100, 301), Options{.tiles_per_workgroup = 3}, 10);
    check(FftDesc(12, 2001), Options{.tiles_per_workgroup = 3}, 11);
    check(FftDesc(4095, 5), Options{.tiles_per_workgroup = 2}, 12);
    check(FftDesc(10000, 9), Options{.tiles_per_workgroup = 3}, 13);
    // The passes of a multi-pass plan sweep forward and backward (TileOrder) in groups of
    // workgroups: here 251 workgroups per pass, two groups, the second partial, and a tile count
    // the loop does not divide.
    const Options sweeping{.max_pass_length = 8, .tiles_per_workgroup = 3};
    const LogicalPlan swept = plan(FftDesc(64, 3003), testing::device().caps(), sweeping);
    ASSERT_EQ(swept.passes.size(), 2u);
    EXPECT_GT(swept.passes[1].workgroups, 128u);
    EXPECT_EQ(swept.passes[1].kernel.tile_order, TileOrder::backward);
    check(FftDesc(64, 3003), sweeping, 1000);
    // Stage twiddles held in registers across the tiles (PassKernel::twiddles_in_registers):
    // uniform with one butterfly per stage (1000 = 10 x 10 x 10) and with several (216), not
    // uniform (297 = 3 x 9 x 11), Rader's two transforms of 250 points (251), and spans that are
    // powers of two (512 = 8 x 8 x 8).
    for (const uint64_t n : {1000u, 216u, 297u, 251u, 512u}) {
        const Options looping{.max_radix = n == 512 ? 8u : 0u, .tiles_per_workgroup = 3};
        const LogicalPlan p = plan(FftDesc(n, 301), testing::device().caps(), looping);
        ASSERT_EQ(p.passes.size(), 1u) << n;
        EXPECT_TRUE(p.passes[0].kernel.twiddles_in_registers) << n;
        check(FftDesc(n, 301), looping, 14 + uint32_t(n));
    }
}

// Exchanges within subgroups, and their fallback: with the device's real subgroup size (8 on
// lavapipe) columns of up to 8 invocations take subgroup barriers; a context that claims
// subgroups of 32 gets kernels for columns of 16 and 32 invocations, whose lane check must
// fail on this device and fall back to workgroup barriers. Both against workgroup barriers
// only.
TEST_F(Shapes, SubgroupExchanges) {
    const uint32_t real = testing::device().caps().subgroup_size;
    for (uint64_t n : {32u, 64u, 128u, 256u, 512u}) {
        const PassKernel k = plan(FftDesc(n, 1), testing::device().caps()).passes[0].kernel;
        EXPECT_EQ(k.subgroup_exchanges, k.stages.size() > 1 && k.radix / k.points_per_thread <= real) << n;
        check(FftDesc(n, 77), Options{}, 20 + uint32_t(n));
        check(FftDesc(n, 77), Options{.subgroup_barriers = false}, 20 + uint32_t(n));
    }
    Context pretend(ContextOptions{.validation = true});
    pretend.state()->caps.subgroup_size = 4 * real;
    for (uint64_t n : {32u * real, 64u * real}) {  // 16 points per invocation: 2 and 4 subgroups' worth
        const PassKernel k = plan(FftDesc(n, 1), pretend.caps()).passes[0].kernel;
        ASSERT_TRUE(k.subgroup_exchanges) << n;
        ASSERT_GT(k.radix / k.points_per_thread, real) << n;
        check(pretend, FftDesc(n, 77), Options{}, 30 + uint32_t(n));
    }
    for (const auto& m : pretend.take_validation_messages()) ADD_FAILURE() << "validation: " << m;
}

// Exchanges through subgroup shuffles (Strategy::subgroups) against the reference: columns of 2
// to 8 invocations (lavapipe's subgroups are 8 wide), with staged loads and stores (columns of 2),
// looping over tiles; and their fallback: a context that claims subgroups 4 times wider gets
// shuffle kernels for columns of 16 and 32 invocations (256 and 1024 points), whose lane check fails on this
// device, so that they exchange through shared memory. Columns that span several subgroups,
// with remaps through shared memory, likewise.
TEST_F(Shapes, SubgroupShuffles) {
    const DeviceCaps& caps = testing::device().caps();
    const Options subgroups{.strategy = Strategy::subgroups};
    for (uint64_t n : {16u, 64u, 256u})
        for (uint32_t radix : {0u, 8u})
            for (uint32_t tiles : {0u, 3u}) {
                const Options o{
                    .max_radix = radix, .tiles_per_workgroup = tiles, .strategy = Strategy::subgroups};
                check(FftDesc(n, 77), o, 60 + uint32_t(n) + radix + tiles);
            }
    EXPECT_FALSE(plan(FftDesc(64, 1), caps, subgroups).passes[0].kernel.lane_swaps.empty());
    const PassKernel two =
        plan(FftDesc(16, 1), caps, Options{.max_radix = 8, .strategy = Strategy::subgroups}).passes[0].kernel;
    EXPECT_FALSE(two.lane_swaps.empty());
    EXPECT_TRUE(two.staged_load && two.staged_store);

    // Columns that span several subgroups: shuffles within a subgroup, remaps through shared
    // memory where a stage needs bits from lanes of other subgroups; looping over tiles and not,
    // and exchanging in halves under a shared-memory limit.
    for (uint64_t n : {128u, 512u, 2048u})
        for (uint32_t radix : {4u, 8u})
            for (uint32_t tiles : {0u, 3u}) {
                const Options o{
                    .max_radix = radix, .tiles_per_workgroup = tiles, .strategy = Strategy::subgroups};
                const PassKernel k = plan(FftDesc(n, 1), caps, o).passes.at(0).kernel;
                ASSERT_GT(k.threads_per_column, caps.subgroup_size) << n << " " << radix;
                ASSERT_FALSE(k.lane_remaps.empty()) << n << " " << radix;
                ASSERT_FALSE(k.lane_swaps.empty()) << n << " " << radix;
                check(FftDesc(n, 21), o, 80 + radix + tiles + uint32_t(n));
            }
    const Options halves{.max_radix = 8, .max_shared_memory = 3 * 1024, .strategy = Strategy::subgroups};
    const PassKernel in_halves = plan(FftDesc(1024, 1), caps, halves).passes.at(0).kernel;
    ASSERT_EQ(in_halves.exchange_rounds, 4u);
    ASSERT_FALSE(in_halves.lane_remaps.empty());
    check(FftDesc(1024, 5), halves, 90);

    Context pretend(ContextOptions{.validation = true});
    pretend.state()->caps.subgroup_size = 4 * caps.subgroup_size;
    for (uint64_t n : {32u * caps.subgroup_size, 128u * caps.subgroup_size}) {
        const PassKernel k = plan(FftDesc(n, 1), pretend.caps(), subgroups).passes[0].kernel;
        ASSERT_FALSE(k.lane_swaps.empty()) << n;
        ASSERT_GT(k.threads_per_column, caps.subgroup_size) << n;
        check(pretend, FftDesc(n, 77), subgroups, 70 + uint32_t(n));
    }
    // Radix-2 columns across the claimed subgroups of 32: remaps, and swaps of lane bits beyond
    // this device's subgroups, so that the lane check fails and they go through shared memory.
    const Options twos{.max_radix = 2, .strategy = Strategy::subgroups};
    const PassKernel across = plan(FftDesc(512, 1), pretend.caps(), twos).passes[0].kernel;
    ASSERT_FALSE(across.lane_remaps.empty());
    ASSERT_GT(across.threads_per_column, pretend.caps().subgroup_size);
    ASSERT_TRUE(std::any_of(across.lane_swaps.begin(), across.lane_swaps.end(),
                            [&](const LaneSwap& sw) { return (1u << sw.lane_bit) >= caps.subgroup_size; }));
    check(pretend, FftDesc(512, 21), twos, 95);
    for (const auto& m : pretend.take_validation_messages()) ADD_FAILURE() << "validation: " << m;
}

// One-pass kernels that exchange half of the points at a time, under a caller's shared-memory
// limit, for several butterfly sizes (stages with one and with several butterflies per
// invocation), looping over tiles and not.
TEST_F(Shapes, ExchangesInHalves) {
    for (uint64_t n : {1024u, 4096u, 8192u})
        for (uint32_t radix : {8u, 16u, 32u})
            for (uint32_t tiles : {1u, 3u}) {
                const Options o{.max_radix = radix,
                                .max_shared_memory = static_cast<uint32_t>(n * 3),
                                .tiles_per_workgroup = tiles};
                const PassKernel k = plan(FftDesc(n, 1), testing::device().caps(), o).passes.at(0).kernel;
                ASSERT_EQ(k.exchange_rounds, 4u) << n << " " << radix;
                check(FftDesc(n, 7), o, 50 + radix + tiles + uint32_t(n));
            }
}

// The H200's plan shapes (24 KiB of shared memory per workgroup), reproduced on this device.
TEST_F(Shapes, H200Geometry) {
    for (uint32_t bits : {12u, 13u, 16u, 18u, 20u})
        check(FftDesc(uint64_t(1) << bits, std::max<uint64_t>(1, 4096 >> bits)),
              Options{.max_shared_memory = 24576}, bits);
}

// Random planner options: every combination the planner accepts computes the same transform.
TEST_F(Shapes, RandomOptions) {
    std::mt19937 gen(2026);
    auto pick = [&](std::initializer_list<uint32_t> v) { return *(v.begin() + gen() % v.size()); };
    int planned = 0;
    for (int i = 0; i < 40; ++i) {
        const uint32_t bits = gen() % 14;
        const uint64_t batch = 1 + gen() % std::max<uint64_t>(1, 20000 >> bits);
        Options o;
        o.max_pass_length = pick({0, 2, 4, 8, 32, 128, 1024});
        o.max_radix = pick({0, 2, 4, 8, 16, 32});
        o.workgroup_size = pick({0, 1, 4, 32, 64, 128, 512});
        o.columns_per_workgroup = pick({0, 1, 2, 4, 8, 16, 32});
        o.max_shared_memory = pick({0, 4096, 8192, 24576});
        o.tiles_per_workgroup = pick({0, 1, 2, 3, 5});
        o.subgroup_barriers = gen() % 2;
        const auto norm = pick({0, 1, 2});
        const FftDesc desc =
            FftDesc(uint64_t(1) << bits, batch).with_normalization(static_cast<Normalization>(norm));
        try {
            (void)plan(desc, testing::device().caps(), o);
        } catch (const UnsupportedError&) {
            continue;  // no kernel fits these limits: fine, the planner said so
        }
        ++planned;
        check(desc, o, 100 + i);
    }
    EXPECT_GE(planned, 30);
}

}  // namespace
}  // namespace twiddle
