// Real transforms on the device against the long-double reference: r2c and c2r (numpy's rfft,
// irfft, rfftn and irfftn), short lengths and longer ones of each algorithm (one pass,
// several passes, Rader's, Bluestein's, odd lengths through the general path), batched, N-D with
// the halved axis anywhere, the padded in-place layout, guru layouts, f32 and f64. Every output
// element is written and nothing else is; the input of an out-of-place transform is unchanged.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "cpu/reference.hpp"
#include "device_test.hpp"
#include "vk/context_state.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;
using testing::kPoison;

// Relative L2 against the reference: f32 for lengths whose prime factors are at most 31, and for
// the others (Rader's and Bluestein's algorithms); f64.
constexpr double kBound = 5e-7;
constexpr double kBoundLargePrimes = 1e-6;
constexpr double kBound64 = 1e-14;

bool smooth(uint64_t n) {
    if (n == 0) return true;
    for (uint64_t p = 2; p <= 31; ++p)
        while (n % p == 0) n /= p;
    return n == 1;
}

// Runs `desc` on the device (out of place with a poisoned output, or in place) and compares the
// output layout's elements with the reference; the other elements keep the poison (out of place)
// or the input (in place). Buffers are words of `Real`: reals on a real side, complex values as
// two words on a complex one. Returns the output words. `context`: the test device's, unless given.
template <typename Real>
std::vector<Real> check_real(const FftDesc& desc, Placement placement, const Options& options = {},
                             const std::vector<Real>* input = nullptr, Context* context = nullptr) {
    Context& ctx = context ? *context : testing::device();
    const Plan plan(ctx, desc, options);
    SCOPED_TRACE(plan.logical().summary() + ", batch " + std::to_string(desc.batch()) + ", " +
                 std::string(to_string(placement)));
    bool smooth_dims = true;
    for (const Dim& d : desc.dims()) smooth_dims = smooth_dims && smooth(d.n) && smooth(d.n / 2);
    const double bound = std::is_same_v<Real, double> ? kBound64 : smooth_dims ? kBound : kBoundLargePrimes;
    const Direction dir = desc.transform() == Transform::r2c ? Direction::forward : Direction::inverse;
    const uint64_t in_words = desc.input_bytes() / sizeof(Real),
                   out_words = desc.output_bytes() / sizeof(Real);
    const uint64_t words = std::max(in_words, out_words);

    // The logical elements of each side, as word indices.
    auto word_set = [&](bool in) {
        std::vector<bool> set(words, false);
        const bool real = in ? desc.input_real() : desc.output_real();
        for (uint64_t e : cpu::logical_indices(desc, in)) {
            if (real) {
                set[e] = true;
            } else {
                set[2 * e] = set[2 * e + 1] = true;
            }
        }
        return set;
    };
    const auto in_set = word_set(true), out_set = word_set(false);

    std::vector<Real> x(words, 0);
    if (input) {
        x = *input;
        x.resize(words, 0);
    } else {
        std::mt19937 gen(static_cast<uint32_t>(in_words * 7 + out_words));
        std::uniform_real_distribution<Real> d(-1, 1);
        for (uint64_t w = 0; w < in_words; ++w) x[w] = in_set[w] ? d(gen) : Real(0.25);
    }
    // The reference in the CPU's slots: two words to a complex value.
    auto slots = [](const std::vector<Real>& w, uint64_t count) {
        std::vector<std::complex<double>> s((count + 1) / 2);
        for (uint64_t i = 0; i < count; ++i)
            i % 2 ? s[i / 2].imag(static_cast<double>(w[i])) : s[i / 2].real(static_cast<double>(w[i]));
        return s;
    };
    const uint64_t in_count = desc.input_real() ? desc.input_elements() : 2 * desc.input_elements();
    const uint64_t out_count = desc.output_real() ? desc.output_elements() : 2 * desc.output_elements();
    std::vector<std::complex<double>> want((out_count + 1) / 2);
    cpu::reference_nd(slots(x, in_count), want, desc, dir);
    const double scale = scale_factor(desc.normalization(), dir, desc.length());

    // The output buffer has as many words again after the layout's extent, poisoned: a stray
    // write there (a band-limited spectrum's points k >= m, say) fails the test too.
    Buffer in(ctx, std::max<uint64_t>(in_words, 1) * sizeof(Real)), out(ctx, 2 * words * sizeof(Real));
    out.fill(kPoison);
    if (placement == Placement::in_place) {
        out.upload(x.data(), words * sizeof(Real));
        plan.execute(out.view(0, words * sizeof(Real)), out.view(0, words * sizeof(Real)), dir);
    } else {
        in.upload(x.data(), in_words * sizeof(Real));
        plan.execute(in.view(), out.view(0, words * sizeof(Real)), dir);
        std::vector<Real> after(in_words);
        in.download(after.data(), in_words * sizeof(Real));
        EXPECT_TRUE(std::equal(after.begin(), after.end(), x.begin())) << "input was modified";
    }
    std::vector<Real> got(2 * words);
    out.download(got.data(), 2 * words * sizeof(Real));
    long double num = 0, den = 0;
    size_t unwritten = 0, touched = 0;
    for (uint64_t w = 0; w < 2 * words; ++w) {
        if (w < out_words && out_set[w]) {
            const double v = w % 2 ? want[w / 2].imag() : want[w / 2].real();
            num += (got[w] - v * scale) * (got[w] - v * scale);
            den += v * scale * v * scale;
            unwritten += testing::poisoned_words(&got[w], sizeof(Real)) > 0;
        } else if (placement == Placement::in_place && w < words) {
            touched += w < in_words && !in_set[w] && std::memcmp(&got[w], &x[w], sizeof(Real)) != 0;
        } else {
            touched += testing::poisoned_words(&got[w], sizeof(Real)) != sizeof(Real) / 4;
        }
    }
    got.resize(words);
    EXPECT_EQ(unwritten, 0u) << "output elements never written";
    EXPECT_EQ(touched, 0u) << "elements outside the output layout changed";
    const double err = den > 0 ? static_cast<double>(std::sqrt(num / den)) : static_cast<double>(num);
    EXPECT_LE(err, bound);
    return got;
}

class Real : public DeviceTest {};

// Every length to 24, and the lengths to 64 whose halves are primes or 32: each step and each
// small kernel shape (whole columns in one invocation, staged tiles, direct loads).
TEST_F(Real, EveryLengthTo24AndSomeTo64) {
    std::vector<uint64_t> lengths;
    for (uint64_t n = 1; n <= 24; ++n) lengths.push_back(n);
    for (uint64_t n : {26ull, 29ull, 31ull, 34ull, 38ull, 46ull, 58ull, 62ull, 63ull, 64ull})
        lengths.push_back(n);
    for (uint64_t n : lengths) {
        for (Transform t : {Transform::r2c, Transform::c2r}) {
            const FftDesc desc = t == Transform::r2c ? FftDesc::r2c(n, 3) : FftDesc::c2r(n, 3);
            check_real<float>(desc, Placement::out_of_place);
        }
    }
    // c2r 64 at radix 8 (four invocations per row) in both precisions, in a partial last tile.
    check_real<float>(FftDesc::c2r(64, 37), Placement::out_of_place);
    check_real<double>(FftDesc::c2r(64, 37).with_precision(Precision::f64), Placement::out_of_place);
}

TEST_F(Real, LongerLengths) {
    // One pass, several passes (lavapipe's one-pass limit is 4096 points), the general path
    // (odd), halves of Rader's (2 x 37, 2 x 97) and Bluestein's (2 x 499) lengths.
    for (uint64_t n : {74ull, 97ull, 100ull, 128ull, 194ull, 998ull, 1000ull, 1024ull, 4095ull, 8192ull,
                       65536ull, 1ull << 20}) {
        const uint64_t batch = std::max<uint64_t>(1, (1u << 17) / n);
        check_real<float>(FftDesc::r2c(n, batch), Placement::out_of_place);
        check_real<float>(FftDesc::c2r(n, batch), Placement::out_of_place);
    }
}

// Halves whose length takes Rader's pass first (2368 = 37 x 64, 1107 = 41 x 27). That pass writes
// its tiles as one run through shared memory where they are one (PassKernel::staged_store): in
// r2c 4736 a run is the 64 columns of one half, whose rows are padded to 2369 points, so its
// workgroups take 64 columns; in c2r 4736 the halves lie densely, and the last of its tiles of 85
// columns is partial. r2c 2214's runs of 27 columns are not staged.
TEST_F(Real, RaderFirstHalves) {
    for (uint64_t n : {4736ull, 2214ull}) {
        check_real<float>(FftDesc::r2c(n, 3), Placement::out_of_place);
        check_real<float>(FftDesc::c2r(n, 3), Placement::out_of_place);
    }
}

// A split fused into one pass pairs its points through subgroup shuffles (PassKernel::split_lanes)
// where columns have 16 invocations or more: blocks of lanes as wide as the subgroup (8 on
// lavapipe), one or several per column, one or several columns per workgroup, band-limited
// spectra, f64. A context that claims subgroups four times as wide gets blocks its lane check
// must refuse, and exchanges through shared memory instead. Each against the reference; the
// shared-memory split too (Options::subgroup_shuffles = false).
TEST_F(Real, SplitThroughShuffles) {
    Context& ctx = testing::device();
    const uint32_t lanes = ctx.caps().subgroup_size;
    if (!ctx.caps().has_subgroup_operation("shuffle")) GTEST_SKIP() << "no subgroup shuffles";
    const Options shared{.subgroup_shuffles = false};
    for (uint64_t n : {256ull, 512ull, 8192ull}) {
        const FftDesc desc = FftDesc::r2c(n, 9);
        const PassKernel k = Plan(ctx, desc).logical().passes.at(0).kernel;
        SCOPED_TRACE(n);
        ASSERT_TRUE(k.split_store);
        EXPECT_EQ(k.split_lanes, k.threads_per_column >= 2 * PassKernel::kSplitRun
                                     ? std::min(k.threads_per_column, lanes)
                                     : 0);
        EXPECT_EQ(Plan(ctx, desc, shared).logical().passes.at(0).kernel.split_lanes, 0u);
        check_real<float>(desc, Placement::out_of_place);
        check_real<float>(desc, Placement::out_of_place, shared);
        for (uint64_t m : {uint64_t(1), n / 8 + 3, n / 2})
            check_real<float>(FftDesc::r2c(n, 3).with_spectrum_length(m), Placement::out_of_place);
    }
    check_real<float>(FftDesc::r2c(512, 5, RealLayout::padded), Placement::in_place);
    check_real<double>(FftDesc::r2c(1024, 5).with_precision(Precision::f64), Placement::out_of_place);
    check_real<double>(FftDesc::r2c(256, 5).with_precision(Precision::f64), Placement::out_of_place);
    // Looping over tiles, such kernels hold their stage twiddles in registers
    // (PassKernel::twiddles_in_registers), the last stage's read for the dealt butterflies (ip).
    const Options looping{.tiles_per_workgroup = 3};
    for (uint64_t n : {8192ull, 16384ull}) {
        const FftDesc desc = FftDesc::r2c(n, 7);
        const PassKernel k = Plan(ctx, desc, looping).logical().passes.at(0).kernel;
        SCOPED_TRACE(n);
        EXPECT_TRUE(k.split_lanes > 0 && k.twiddles_in_registers);
        check_real<float>(desc, Placement::out_of_place, looping);
    }

    Context pretend(ContextOptions{.validation = true});
    pretend.state()->caps.subgroup_size = 4 * lanes;
    const FftDesc desc = FftDesc::r2c(2048, 9);
    ASSERT_GT(Plan(pretend, desc).logical().passes.at(0).kernel.split_lanes, lanes);
    check_real<float>(desc, Placement::out_of_place, {}, nullptr, &pretend);
    for (const auto& m : pretend.take_validation_messages()) ADD_FAILURE() << "validation: " << m;
}

// Split fused into the last of several passes (PassKernel::split_store with span > 1): tiles of
// mirrored columns, of 2 to 32 columns, looping over tiles or not, band-limited, in place in the
// padded layout, f64; and a length whose last pass holds a column per invocation (512 = 32 x
// 16: the split's exchange is that pass's only use of shared memory). Spectra band-limited
// below n / 2 points go through scratch and split apart.
TEST_F(Real, SplitInLastPass) {
    Context& ctx = testing::device();
    auto fused = [&](const FftDesc& desc, const Options& o) {
        const LogicalPlan p = Plan(ctx, desc, o).logical();
        return p.passes.size() > 1 && p.passes.back().kernel.split_store;
    };
    for (uint32_t columns : {0u, 2u, 4u, 32u})
        for (uint32_t tiles : {0u, 3u}) {
            const Options o{
                .max_pass_length = 64, .columns_per_workgroup = columns, .tiles_per_workgroup = tiles};
            SCOPED_TRACE(std::to_string(columns) + " columns, " + std::to_string(tiles) + " tiles");
            ASSERT_TRUE(fused(FftDesc::r2c(4096, 3), o));
            check_real<float>(FftDesc::r2c(4096, 3), Placement::out_of_place, o);
        }
    const Options two{.max_pass_length = 64};
    for (uint64_t m : {uint64_t(1), uint64_t(200), uint64_t(2048)})
        check_real<float>(FftDesc::r2c(4096, 3).with_spectrum_length(m), Placement::out_of_place, two);
    check_real<float>(FftDesc::r2c(4096, 3, RealLayout::padded), Placement::in_place, two);
    check_real<double>(FftDesc::r2c(4096, 3).with_precision(Precision::f64), Placement::out_of_place, two);
    EXPECT_FALSE(fused(FftDesc::r2c(4096, 3).with_spectrum_length(200), two));
    const Options whole_columns{.max_pass_length = 32};
    ASSERT_TRUE(fused(FftDesc::r2c(1024, 5), whole_columns));
    check_real<float>(FftDesc::r2c(1024, 5), Placement::out_of_place, whole_columns);
}

// Join fused into the first of several passes (PassKernel::join_load with columns strided by T):
// each point read with its mirror from the spectrum's rows, at several tile widths, looping over
// tiles or not, band-limited (points k >= m are 0), in place in the padded layout, f64, and rows
// strided as a 2D problem's.
TEST_F(Real, JoinInFirstPass) {
    Context& ctx = testing::device();
    auto fused = [&](const FftDesc& desc, const Options& o) {
        const LogicalPlan p = Plan(ctx, desc, o).logical();
        return p.passes.size() > 1 && p.passes.front().kernel.join_load &&
               p.passes.front().kernel.columns_per_transform() > 1;
    };
    for (uint32_t columns : {0u, 2u, 4u, 32u})
        for (uint32_t tiles : {0u, 3u}) {
            const Options o{
                .max_pass_length = 64, .columns_per_workgroup = columns, .tiles_per_workgroup = tiles};
            SCOPED_TRACE(std::to_string(columns) + " columns, " + std::to_string(tiles) + " tiles");
            ASSERT_TRUE(fused(FftDesc::c2r(4096, 3), o));
            check_real<float>(FftDesc::c2r(4096, 3), Placement::out_of_place, o);
        }
    const Options two{.max_pass_length = 64};
    for (uint64_t m : {uint64_t(1), uint64_t(200), uint64_t(2048), uint64_t(2049)}) {
        ASSERT_TRUE(fused(FftDesc::c2r(4096, 3).with_spectrum_length(m), two)) << m;
        check_real<float>(FftDesc::c2r(4096, 3).with_spectrum_length(m), Placement::out_of_place, two);
    }
    check_real<float>(FftDesc::c2r(4096, 3, RealLayout::padded), Placement::in_place, two);
    check_real<double>(FftDesc::c2r(4096, 3).with_precision(Precision::f64), Placement::out_of_place, two);
    check_real<float>(FftDesc::c2r(1000, 4), Placement::out_of_place, Options{.max_pass_length = 32});
    check_real<float>(FftDesc::c2r_nd({5, 2048}), Placement::out_of_place, two);
}

// Options::join_through_shared_memory: join fused into one pass takes each point's mirror from
// the tile in shared memory (PassKernel::join_exchange): columns of several invocations, one or
// several per workgroup, looping over tiles or not, exchanging both components, one at a time or
// half of the points at a time, with workgroup barriers only, band-limited, lengths other than
// powers of two (some with a partial last group of invocations), in place in the padded layout,
// and f64. Without the option, the mirrors come from memory.
TEST_F(Real, JoinThroughSharedMemory) {
    Context& ctx = testing::device();
    auto check = [&](const FftDesc& desc, Options o, uint32_t rounds = 0) {
        o.join_through_shared_memory = true;
        const PassKernel k = Plan(ctx, desc, o).logical().passes.at(0).kernel;
        SCOPED_TRACE(std::to_string(desc.dims().back().n) + " points, m = " +
                     std::to_string(desc.spectrum_length()) + ": " + std::to_string(k.threads_per_column) +
                     " invocations per column, " + std::to_string(k.columns_per_workgroup) + " columns, " +
                     std::to_string(k.exchange_rounds) + " rounds");
        ASSERT_TRUE(k.join_load && k.join_exchange && k.threads_per_column > 1);
        if (rounds) {
            ASSERT_EQ(k.exchange_rounds, rounds);
        }
        if (desc.precision() == Precision::f64)
            check_real<double>(desc, Placement::out_of_place, o);
        else
            check_real<float>(desc, o.max_shared_memory ? Placement::in_place : Placement::out_of_place, o);
    };
    // 64: four invocations per row at radix 8 (Options::max_radix), in both precisions.
    for (uint64_t n : {64ull, 128ull, 256ull, 1000ull, 2048ull, 8192ull})
        for (uint32_t tiles : {1u, 3u}) check(FftDesc::c2r(n, 7), Options{.tiles_per_workgroup = tiles});
    check(FftDesc::c2r(64, 7).with_precision(Precision::f64), Options{});
    // Lengths whose first stage leaves the last group of invocations partial (Slot::guard).
    for (uint64_t n : {78ull, 1870ull, 3740ull}) check(FftDesc::c2r(n, 5), Options{});
    check(FftDesc::c2r(512, 5), Options{.subgroup_barriers = false});
    // One component at a time, then half of the points at a time, in place.
    check(FftDesc::c2r(4096, 3, RealLayout::padded), Options{.max_shared_memory = 12288}, 2);
    check(FftDesc::c2r(4096, 3, RealLayout::padded), Options{.max_shared_memory = 8192}, 4);
    for (uint64_t m : {1ull, 5ull, 255ull, 256ull, 257ull})
        check(FftDesc::c2r(512, 5).with_spectrum_length(m), Options{});
    check(FftDesc::c2r(4096, 3).with_precision(Precision::f64), Options{});
    EXPECT_FALSE(Plan(ctx, FftDesc::c2r(2048, 7)).logical().passes.at(0).kernel.join_exchange);
}

// A one-pass join that loops over tiles takes each point's mirror through subgroup shuffles
// (PassKernel::join_lanes) where columns have 16 invocations or more: blocks of lanes as wide as
// the subgroup (8 on lavapipe), first stages of one or several butterflies per invocation (2 x 16
// x 16, 4 x 8 x 24; one per invocation: 32 x 32, c2r 2048's on a GPU), band-limited spectra, in
// place in the padded layout, f64. A context that claims subgroups four times as wide fails the
// lane check and shuffles through shared memory. Each against the reference.
TEST_F(Real, JoinThroughShuffles) {
    Context& ctx = testing::device();
    if (!ctx.caps().has_subgroup_operation("shuffle")) GTEST_SKIP() << "no subgroup shuffles";
    const uint32_t lanes = ctx.caps().subgroup_size;
    const Options looping{.tiles_per_workgroup = 3};
    auto lanes_of = [&](const FftDesc& desc, const Options& o, Context& c) {
        return Plan(c, desc, o).logical().passes.at(0).kernel.join_lanes;
    };
    for (uint64_t n : {1024ull, 1536ull, 2048ull, 8192ull}) {
        const FftDesc desc = FftDesc::c2r(n, 9);
        const PassKernel k = Plan(ctx, desc, looping).logical().passes.at(0).kernel;
        SCOPED_TRACE(n);
        ASSERT_TRUE(k.join_load && k.prefetch && k.threads_per_column >= 2 * PassKernel::kSplitRun);
        EXPECT_EQ(k.join_lanes, std::min(k.threads_per_column, lanes));
        check_real<float>(desc, Placement::out_of_place, looping);
        if (n == 2048)
            for (uint64_t m : {uint64_t(1), n / 8 + 3})
                check_real<float>(FftDesc::c2r(n, 5).with_spectrum_length(m), Placement::out_of_place,
                                  looping);
        // Without shuffles, join reads the mirrors from memory.
        Options plain = looping;
        plain.subgroup_shuffles = false;
        EXPECT_EQ(lanes_of(desc, plain, ctx), 0u);
    }
    // 32 x 32: a first stage of one butterfly per invocation, with 32 invocations per column.
    const Options wide{.max_radix = 32, .tiles_per_workgroup = 3};
    const FftDesc c2048 = FftDesc::c2r(2048, 9);
    const PassKernel k32 = Plan(ctx, c2048, wide).logical().passes.at(0).kernel;
    ASSERT_EQ(k32.stages.front().radix * k32.threads_per_column, k32.radix);
    EXPECT_GT(k32.join_lanes, 0u);
    check_real<float>(c2048, Placement::out_of_place, wide);
    check_real<float>(FftDesc::c2r(2048, 5, RealLayout::padded), Placement::in_place, looping);
    const FftDesc f64 = FftDesc::c2r(2048, 5).with_precision(Precision::f64);
    ASSERT_GT(lanes_of(f64, looping, ctx), 0u);
    check_real<double>(f64, Placement::out_of_place, looping);
    // Kernels that do not loop read the mirrors from memory.
    EXPECT_EQ(lanes_of(FftDesc::c2r(2048, 5), Options{.tiles_per_workgroup = 1}, ctx), 0u);

    Context pretend(ContextOptions{.validation = true});
    pretend.state()->caps.subgroup_size = 4 * lanes;
    const FftDesc desc = FftDesc::c2r(1024, 9);
    ASSERT_GT(lanes_of(desc, looping, pretend), lanes);
    check_real<float>(desc, Placement::out_of_place, looping, nullptr, &pretend);
    for (const auto& m : pretend.take_validation_messages()) ADD_FAILURE() << "validation: " << m;
}

TEST_F(Real, PaddedInPlace) {
    for (uint64_t n : {1ull, 2ull, 7ull, 16ull, 30ull, 1000ull, 8192ull}) {
        check_real<float>(FftDesc::r2c(n, 5, RealLayout::padded), Placement::in_place);
        check_real<float>(FftDesc::c2r(n, 5, RealLayout::padded), Placement::in_place);
        // The padded layout out of place: the pad words are no output elements.
        check_real<float>(FftDesc::c2r(n, 5, RealLayout::padded), Placement::out_of_place);
    }
    check_real<float>(FftDesc::r2c_nd({6, 10, 16}, {}, RealLayout::padded), Placement::in_place);
    check_real<float>(FftDesc::c2r_nd({6, 10, 16}, {}, RealLayout::padded), Placement::in_place);
    check_real<float>(FftDesc::c2r_nd({3, 5, 9}, {0, 2}, RealLayout::padded), Placement::in_place);
}

TEST_F(Real, Shapes) {
    struct Case {
        std::vector<uint64_t> shape;
        std::vector<int> axes;
    };
    const std::vector<Case> cases = {
        {{8, 16}, {}},      {{5, 7}, {}},        {{1, 8}, {}},      {{8, 1}, {}},
        {{3, 6, 10}, {}},   {{4, 9, 6}, {0, 2}}, {{6, 10}, {1, 0}}, {{5, 7, 9}, {-3, -2}},
        {{2, 64, 32}, {1}}, {{64, 64}, {}},      {{7, 9, 11}, {}},  {{16, 3, 8, 4}, {1, 2, 3}},
    };
    for (const auto& c : cases) {
        check_real<float>(FftDesc::r2c_nd(c.shape, c.axes), Placement::out_of_place);
        check_real<float>(FftDesc::c2r_nd(c.shape, c.axes), Placement::out_of_place);
    }
}

TEST_F(Real, GuruLayouts) {
    // Rows of 12 reals every 15 (embedded), their half spectra every 9; a batch dim innermost.
    check_real<float>(FftDesc::guru({{12, 1, 1}}, {{4, 15, 9}}, Transform::r2c), Placement::out_of_place);
    check_real<float>(FftDesc::guru({{12, 1, 1}}, {{4, 9, 15}}, Transform::c2r), Placement::out_of_place);
    check_real<float>(FftDesc::guru({{10, 3, 3}}, {{3, 1, 1}}, Transform::r2c), Placement::out_of_place);
    check_real<float>(FftDesc::guru({{10, 3, 3}}, {{3, 1, 1}}, Transform::c2r), Placement::out_of_place);
    // A 2D transform whose rows are strided in the real array (stride 2 along the halved dim).
    check_real<float>(FftDesc::guru({{4, 40, 6}, {8, 2, 1}}, {}, Transform::r2c), Placement::out_of_place);
    check_real<float>(FftDesc::guru({{4, 6, 40}, {8, 1, 2}}, {}, Transform::c2r), Placement::out_of_place);
}

TEST_F(Real, Normalizations) {
    for (Normalization norm : {Normalization::ortho, Normalization::forward}) {
        check_real<float>(FftDesc::r2c(48, 4).with_normalization(norm), Placement::out_of_place);
        check_real<float>(FftDesc::c2r_nd({6, 10}).with_normalization(norm), Placement::out_of_place);
    }
}

TEST_F(Real, DirectSum) {
    const Options dft{.strategy = Strategy::dft};
    for (uint64_t n : {9ull, 16ull, 50ull}) {
        check_real<float>(FftDesc::r2c(n, 3), Placement::out_of_place, dft);
        check_real<float>(FftDesc::c2r(n, 3), Placement::out_of_place, dft);
    }
    check_real<float>(FftDesc::c2r_nd({6, 10}), Placement::out_of_place, dft);
}

TEST_F(Real, DoublePrecision) {
    for (uint64_t n : {1ull, 6ull, 7ull, 64ull, 97ull, 1000ull, 4096ull}) {
        check_real<double>(FftDesc::r2c(n, 3).with_precision(Precision::f64), Placement::out_of_place);
        check_real<double>(FftDesc::c2r(n, 3).with_precision(Precision::f64), Placement::out_of_place);
    }
    check_real<double>(FftDesc::r2c_nd({6, 10, 8}).with_precision(Precision::f64), Placement::out_of_place);
    check_real<double>(FftDesc::c2r_nd({5, 7, 9}, {0, 1}, RealLayout::packed).with_precision(Precision::f64),
                       Placement::out_of_place);
    check_real<double>(FftDesc::c2r(30, 4, RealLayout::padded).with_precision(Precision::f64),
                       Placement::in_place);
}

TEST_F(Real, RoundTrip) {
    // irfftn(rfftn(x)) == x, through the device's own output.
    for (const auto& shape : std::vector<std::vector<uint64_t>>{{3, 256}, {6, 10, 7}, {4, 1000}}) {
        uint64_t count = 1;
        for (uint64_t e : shape) count *= e;
        std::mt19937 gen(static_cast<uint32_t>(count));
        std::uniform_real_distribution<float> d(-1, 1);
        std::vector<float> x(count);
        for (float& v : x) v = d(gen);
        const auto spectrum = check_real<float>(FftDesc::r2c_nd(shape), Placement::out_of_place, {}, &x);
        const auto back = check_real<float>(FftDesc::c2r_nd(shape), Placement::out_of_place, {}, &spectrum);
        double num = 0, den = 0;
        for (uint64_t i = 0; i < count; ++i) {
            num += (back[i] - x[i]) * (back[i] - x[i]);
            den += x[i] * x[i];
        }
        EXPECT_LE(std::sqrt(num / den), 1e-6) << "round trip";
    }
}

// Band-limited complex sides (FftDesc::spectrum_length): r2c keeps the first m points, c2r reads
// the points beyond m as 0, as numpy.fft.irfft(a[:m], n). Each path: the split and join fused
// into one pass and taken across columns (m-major spectra, as twiddle::sht lays them out), split
// through scratch after several passes, the general path (odd n, and RealPath::full_length), 2D.
TEST_F(Real, BandLimited) {
    // 4096: the m-major split takes four transforms per workgroup, exchanging half of the points
    // at a time (lavapipe).
    for (uint64_t n : {2ull, 16ull, 64ull, 100ull, 1024ull, 4096ull, 45ull, 16384ull}) {
        for (uint64_t m : {uint64_t(1), n / 4 + 1, n / 2, n / 2 + 1}) {
            check_real<float>(FftDesc::r2c(n, 3).with_spectrum_length(m), Placement::out_of_place);
            check_real<float>(FftDesc::c2r(n, 3).with_spectrum_length(m), Placement::out_of_place);
            // m-major: point k of row b at k * rows + b on the complex side.
            const uint64_t rows = 5;
            check_real<float>(
                FftDesc::guru({{n, 1, rows}}, {{rows, n, 1}}, Transform::r2c).with_spectrum_length(m),
                Placement::out_of_place);
            check_real<float>(
                FftDesc::guru({{n, rows, 1}}, {{rows, 1, n}}, Transform::c2r).with_spectrum_length(m),
                Placement::out_of_place);
        }
    }
    // Across columns with persistent workgroups (tiles prefetched) and exchanges one component at
    // a time, in partial tiles (37 rows).
    const Options looped{.max_shared_memory = 3000, .tiles_per_workgroup = 3};
    for (uint64_t m : {uint64_t(1), uint64_t(200), uint64_t(513)}) {
        check_real<float>(FftDesc::guru({{1024, 1, 37}}, {{37, 1024, 1}}, Transform::r2c, m),
                          Placement::out_of_place, looped);
        check_real<float>(FftDesc::guru({{1024, 37, 1}}, {{37, 1, 1024}}, Transform::c2r, m),
                          Placement::out_of_place, looped);
    }
    const Options full{.real_path = RealPath::full_length};
    check_real<float>(FftDesc::r2c(64, 3).with_spectrum_length(20), Placement::out_of_place, full);
    check_real<float>(FftDesc::c2r(64, 3).with_spectrum_length(20), Placement::out_of_place, full);
    check_real<float>(FftDesc::r2c_nd({6, 40}).with_spectrum_length(7), Placement::out_of_place);
    check_real<float>(FftDesc::c2r_nd({6, 40}).with_spectrum_length(7), Placement::out_of_place);
    check_real<double>(FftDesc::guru({{256, 8, 1}}, {{8, 1, 256}}, Transform::c2r)
                           .with_spectrum_length(100)
                           .with_precision(Precision::f64),
                       Placement::out_of_place);
    check_real<double>(FftDesc::guru({{256, 1, 8}}, {{8, 256, 1}}, Transform::r2c)
                           .with_spectrum_length(100)
                           .with_precision(Precision::f64),
                       Placement::out_of_place);
    EXPECT_THROW(FftDesc::r2c(16, 1).with_spectrum_length(0), Error);
    EXPECT_THROW(FftDesc::r2c(16, 1).with_spectrum_length(10), Error);
    EXPECT_THROW(FftDesc(16, 1).with_spectrum_length(4), Error);
    EXPECT_FALSE(FftDesc::r2c(16, 1, RealLayout::padded).with_spectrum_length(4).same_layouts());
    // Raising m where the rows were packed for fewer points would overlap them.
    FftDesc packed = FftDesc::r2c(16).with_spectrum_length(3).with_batch(4);
    EXPECT_THROW(packed.with_spectrum_length(9), Error);
    EXPECT_EQ(packed.spectrum_length(), 3u);
}

TEST_F(Real, Errors) {
    Context& ctx = testing::device();
    const Plan r2c(ctx, FftDesc::r2c(16, 2)), c2r(ctx, FftDesc::c2r(16, 2));
    Buffer real(ctx, 2 * 16 * 4), spectrum(ctx, 2 * 9 * 8);
    EXPECT_THROW(r2c.execute(real, spectrum, Direction::inverse), Error);
    EXPECT_THROW(c2r.execute(spectrum, real, Direction::forward), Error);
    // Too small: the real array holds 32 reals, not 18 complex values.
    EXPECT_THROW(c2r.execute(real, real, Direction::inverse), Error);
    // In place needs the padded layout.
    Buffer both(ctx, 2 * 9 * 8);
    EXPECT_THROW(r2c.execute(both, both, Direction::forward), Error);
    EXPECT_THROW(FftDesc::r2c_nd({4, 6}, {0}, RealLayout::padded), Error);
    EXPECT_THROW(FftDesc::r2c(0, 1), Error);
    EXPECT_THROW(FftDesc::c2r_nd({4, 0}), Error);
}

}  // namespace
}  // namespace twiddle
