// The spherical-harmonic Fourier stage (twiddle::sht) on the device against a long-double
// reference of its band-limited sums: both directions, both strategies, radix 2 and 4 and the
// complex path, odd and non-power-of-two nphi, mmax at its limit, nlat = 1, batches of fields, f32
// and f64; the round trip; fft against dft; the support query; and the errors.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/reference.hpp"
#include "device_test.hpp"
#include "twiddle/sht.hpp"

namespace twiddle {
namespace {

using cld = std::complex<long double>;
using testing::DeviceTest;
using testing::kPoison;

constexpr double kBound32 = 1e-6;
constexpr double kBound64 = 1e-14;

std::string name(const sht::Grid& g, const sht::StageOptions& o) {
    return "nlat " + std::to_string(g.nlat) + ", nphi " + std::to_string(g.nphi) + ", mmax " +
           std::to_string(g.mmax) + ", fields " + std::to_string(g.fields) + ", " +
           std::string(to_string(g.precision)) + ", " + std::string(sht::to_string(o.strategy)) + ", radix " +
           std::to_string(o.fft.max_radix) + ", " + std::string(to_string(o.fft.real_path)) + ", passes " +
           std::to_string(static_cast<int>(o.passes));
}

// Synthesis in long double: the Hermitian spectrum of each row, X_0 = Re F_0, X_m = F_m and
// X_{nphi-m} = conj(F_m) for 1 <= m <= mmax, 0 elsewhere, through the CPU's reference transform
// (e^{+}, unnormalized).
std::vector<long double> reference_synthesis(const sht::Grid& g, const std::vector<cld>& fm) {
    std::vector<long double> spat(g.spatial_elements());
    std::vector<cld> row(g.nphi);
    for (uint64_t f = 0; f < g.fields; ++f)
        for (uint64_t lat = 0; lat < g.nlat; ++lat) {
            const cld* F = &fm[f * (g.mmax + 1) * g.nlat + lat];
            std::fill(row.begin(), row.end(), cld(0));
            row[0] = F[0].real();
            for (uint64_t m = 1; m <= g.mmax; ++m) {
                row[m] = F[m * g.nlat];
                row[g.nphi - m] = std::conj(F[m * g.nlat]);
            }
            const auto x = cpu::reference_dft(row, Direction::inverse);
            for (uint64_t j = 0; j < g.nphi; ++j) spat[(f * g.nlat + lat) * g.nphi + j] = x[j].real();
        }
    return spat;
}

// Analysis: F_m = sum_j x_j e^{-2 pi i mj/nphi}, m <= mmax, of the CPU's reference transform.
std::vector<cld> reference_analysis(const sht::Grid& g, const std::vector<long double>& spat) {
    std::vector<cld> fm(g.spectral_elements());
    std::vector<cld> row(g.nphi);
    for (uint64_t f = 0; f < g.fields; ++f)
        for (uint64_t lat = 0; lat < g.nlat; ++lat) {
            for (uint64_t j = 0; j < g.nphi; ++j) row[j] = spat[(f * g.nlat + lat) * g.nphi + j];
            const auto X = cpu::reference_dft(row, Direction::forward);
            for (uint64_t m = 0; m <= g.mmax; ++m) fm[(f * (g.mmax + 1) + m) * g.nlat + lat] = X[m];
        }
    return fm;
}

// Runs one direction on the device with a poisoned destination, at byte offset `offset` of its
// buffers, with as many bytes again after the view; returns the destination's words. Every
// destination element must be written, and nothing before or after the view.
template <typename Real>
std::vector<Real> run(const sht::FourierStage& stage, bool synthesis, const std::vector<Real>& source,
                      uint64_t offset = 0) {
    Context& ctx = testing::device();
    const sht::Grid& g = stage.grid();
    const uint64_t src_bytes = synthesis ? g.spectral_bytes() : g.spatial_bytes();
    const uint64_t dst_bytes = synthesis ? g.spatial_bytes() : g.spectral_bytes();
    Buffer src(ctx, offset + src_bytes), dst(ctx, offset + 2 * dst_bytes);
    src.upload(source.data(), src_bytes, offset);
    dst.fill(kPoison);
    if (synthesis)
        stage.synthesize(src.view(offset), dst.view(offset, dst_bytes));
    else
        stage.analyze(src.view(offset), dst.view(offset, dst_bytes));
    std::vector<Real> got(dst_bytes / sizeof(Real)), after(src_bytes / sizeof(Real));
    dst.download(got.data(), dst_bytes, offset);
    src.download(after.data(), src_bytes, offset);
    EXPECT_EQ(testing::poisoned_words(got.data(), dst_bytes), 0u) << "destination elements never written";
    EXPECT_TRUE(after == source) << "source was modified";
    if (offset > 0) {
        std::vector<Real> head(offset / sizeof(Real));
        dst.download(head.data(), offset);
        EXPECT_EQ(testing::poisoned_words(head.data(), offset), offset / 4) << "written before the view";
    }
    std::vector<Real> tail(dst_bytes / sizeof(Real));
    dst.download(tail.data(), dst_bytes, offset + dst_bytes);
    EXPECT_EQ(testing::poisoned_words(tail.data(), dst_bytes), dst_bytes / 4) << "written after the view";
    return got;
}

// Random fm (Im F_0 = 0, which synthesis ignores) and spat of a grid, as words.
template <typename Real>
std::vector<Real> random_words(uint64_t count, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<Real> d(-1, 1);
    std::vector<Real> w(count);
    for (Real& x : w) x = d(gen);
    return w;
}

template <typename Real>
std::vector<Real> random_fm(const sht::Grid& g, uint32_t seed) {
    auto w = random_words<Real>(2 * g.spectral_elements(), seed);
    for (uint64_t f = 0; f < g.fields; ++f)
        for (uint64_t lat = 0; lat < g.nlat; ++lat) w[2 * (f * (g.mmax + 1) * g.nlat + lat) + 1] = 0;
    return w;
}

template <typename Real>
double rel_l2(const std::vector<Real>& got, const std::vector<long double>& want) {
    long double num = 0, den = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        num += (got[i] - want[i]) * (got[i] - want[i]);
        den += want[i] * want[i];
    }
    return den > 0 ? double(std::sqrt(num / den)) : double(num);
}

// Both directions of `grid` against the references.
template <typename Real>
void check_stage(sht::Grid grid, const sht::StageOptions& options = {}) {
    grid.precision = std::is_same_v<Real, double> ? Precision::f64 : Precision::f32;
    SCOPED_TRACE(name(grid, options));
    const double bound = std::is_same_v<Real, double> ? kBound64 : kBound32;
    const sht::FourierStage stage(testing::device(), grid, options);
    const auto seed = static_cast<uint32_t>(grid.nphi * 131 + grid.mmax);

    const auto fm = random_fm<Real>(grid, seed);
    std::vector<cld> fm_ld(grid.spectral_elements());
    for (size_t i = 0; i < fm_ld.size(); ++i) fm_ld[i] = cld(fm[2 * i], fm[2 * i + 1]);
    const auto spat = run(stage, true, fm);
    EXPECT_LE(rel_l2(spat, reference_synthesis(grid, fm_ld)), bound) << "synthesis";

    const auto x = random_words<Real>(grid.spatial_elements(), seed + 1);
    const auto got = run(stage, false, x);
    const auto want = reference_analysis(grid, std::vector<long double>(x.begin(), x.end()));
    std::vector<long double> want_words;
    for (const cld& v : want) want_words.insert(want_words.end(), {v.real(), v.imag()});
    EXPECT_LE(rel_l2(got, want_words), bound) << "analysis";
}

class Sht : public DeviceTest {};

// The grids every strategy runs: powers of two with mmax at its limit (one pass of the half-length
// transform with the m-major change fused in), nlat = 1, a few orders only, nphi not a power of
// two (100, 1000; 202 = 2 x 101 takes Rader's algorithm), odd nphi (the complex path), nphi 1
// and 2, batches of fields.
const std::vector<sht::Grid> kGrids = {
    {.nlat = 16, .nphi = 64, .mmax = 31},
    {.nlat = 1, .nphi = 2048, .mmax = 1023},
    {.nlat = 9, .nphi = 256, .mmax = 5},
    {.nlat = 33, .nphi = 100, .mmax = 49, .fields = 2},
    {.nlat = 7, .nphi = 1000, .mmax = 300},
    {.nlat = 5, .nphi = 202, .mmax = 100},
    {.nlat = 6, .nphi = 129, .mmax = 64},
    {.nlat = 3, .nphi = 97, .mmax = 20, .fields = 3},
    {.nlat = 4, .nphi = 1, .mmax = 0},
    {.nlat = 4, .nphi = 2, .mmax = 0},
    {.nlat = 5, .nphi = 64, .mmax = 20, .fields = 3},
    // Four rows per workgroup in analysis, exchanging half of the points at a time (lavapipe).
    {.nlat = 6, .nphi = 4096, .mmax = 2047},
};

TEST_F(Sht, Fft) {
    for (const auto& g : kGrids) check_stage<float>(g);
    // Several passes on lavapipe (over its one-pass limit), several fields.
    check_stage<float>({.nlat = 3, .nphi = 16384, .mmax = 8191, .fields = 2});
}

TEST_F(Sht, RadixAndComplexPath) {
    for (const auto& g : {kGrids[0], kGrids[2], kGrids[3]}) {
        check_stage<float>(g, {.fft = {.max_radix = 2}});
        check_stage<float>(g, {.fft = {.max_radix = 4}});
        check_stage<float>(g, {.fft = {.real_path = RealPath::full_length}});
    }
}

TEST_F(Sht, Dft) {
    for (const auto& g : kGrids) check_stage<float>(g, {.strategy = sht::Strategy::dft});
}

TEST_F(Sht, DoublePrecision) {
    for (const auto& g : {kGrids[0], kGrids[3], kGrids[6]}) {
        check_stage<double>(g);
        check_stage<double>(g, {.strategy = sht::Strategy::dft});
    }
}

// The relative L2 error of analysis(synthesis(F)) against nphi F, for a band-limited F with
// Im F_0 = 0, through the device alone.
double round_trip_error(const sht::FourierStage& stage) {
    const sht::Grid& g = stage.grid();
    const auto fm = random_fm<float>(g, 7);
    const auto back = run(stage, false, run(stage, true, fm));
    double num = 0, den = 0;
    for (size_t i = 0; i < fm.size(); ++i) {
        const double want = double(fm[i]) * double(g.nphi);
        num += (back[i] - want) * (back[i] - want);
        den += want * want;
    }
    return std::sqrt(num / den);
}

// Two stages of one grid agree on the same input in both directions, with views that start
// inside their buffers (anywhere on a complex element).
void expect_stages_agree(const sht::FourierStage& first, const sht::FourierStage& second) {
    const sht::Grid& g = first.grid();
    const auto fm = random_fm<float>(g, 11);
    const auto x = random_words<float>(g.spatial_elements(), 12);
    for (bool synthesis : {true, false}) {
        const auto& source = synthesis ? fm : x;
        const auto a = run(first, synthesis, source, 24), b = run(second, synthesis, source, 40);
        double num = 0, den = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            num += (a[i] - b[i]) * (a[i] - b[i]);
            den += double(b[i]) * b[i];
        }
        EXPECT_LE(std::sqrt(num / den), 2 * kBound32) << (synthesis ? "synthesis" : "analysis");
    }
}

TEST_F(Sht, RoundTrip) {
    for (const auto& g : {kGrids[1], kGrids[4], kGrids[6]}) {
        SCOPED_TRACE(name(g, {}));
        EXPECT_LE(round_trip_error(sht::FourierStage(testing::device(), g)), kBound32);
    }
}

TEST_F(Sht, FftAgainstDft) {
    for (const auto& g : {kGrids[0], kGrids[3], kGrids[4], kGrids[7]}) {
        SCOPED_TRACE(name(g, {}));
        expect_stages_agree(sht::FourierStage(testing::device(), g),
                            sht::FourierStage(testing::device(), g, {.strategy = sht::Strategy::dft}));
    }
}

// The four-step form (Passes::two): column pairs of every kind (pair 0 only at nphi 64; a number
// of columns not a power of two at 384), latitudes not a multiple of a workgroup's block of 16,
// nlat = 1, a few orders only and mmax at its limit, fields, f64; against one pass, and the
// round trip.
TEST_F(Sht, TwoPasses) {
    const sht::StageOptions two{.passes = sht::Passes::two};
    const std::vector<sht::Grid> grids = {
        {.nlat = 37, .nphi = 128, .mmax = 63},    {.nlat = 32, .nphi = 256, .mmax = 20, .fields = 2},
        {.nlat = 5, .nphi = 384, .mmax = 191},    {.nlat = 1, .nphi = 1024, .mmax = 0},
        {.nlat = 40, .nphi = 8192, .mmax = 4095}, {.nlat = 3, .nphi = 64, .mmax = 31},
    };
    for (const auto& g : grids) check_stage<float>(g, two);
    check_stage<double>(grids[0], two);
    check_stage<double>(grids[2], two);
    const auto support = sht::support(testing::device().caps(), grids[0], two);
    EXPECT_EQ(support[0].synthesis.passes, 2u);
    EXPECT_EQ(support[0].analysis.passes, 2u);
    EXPECT_NE(support[0].analysis.summary.find("four-step"), std::string::npos)
        << support[0].analysis.summary;

    const sht::FourierStage two_pass(testing::device(), grids[1], two);
    expect_stages_agree(two_pass,
                        sht::FourierStage(testing::device(), grids[1], {.passes = sht::Passes::one}));
    EXPECT_LE(round_trip_error(two_pass), kBound32);
    // nphi must be a multiple of 64.
    EXPECT_THROW(sht::FourierStage(testing::device(), {.nlat = 4, .nphi = 100, .mmax = 49}, two),
                 UnsupportedError);
}

// Passes::automatic chooses per direction: at nphi 4096 synthesis in one pass, analysis in two;
// from 8192 both in two; below 4096 both in one; one wherever the options select a variant of the
// rows' one plan.
TEST_F(Sht, AutomaticPasses) {
    const Context& ctx = testing::device();
    auto passes = [&](const sht::Grid& g) {
        const auto s = sht::support(ctx.caps(), g);
        return std::pair{s[0].synthesis.passes, s[0].analysis.passes};
    };
    EXPECT_EQ(passes({.nlat = 8, .nphi = 2048, .mmax = 1023}), std::pair(size_t(1), size_t(1)));
    EXPECT_EQ(passes({.nlat = 8, .nphi = 8192, .mmax = 4095}), std::pair(size_t(2), size_t(2)));
    const sht::Grid mixed{.nlat = 9, .nphi = 4096, .mmax = 2047};
    EXPECT_EQ(passes(mixed), std::pair(size_t(1), size_t(2)));
    check_stage<float>(mixed, {});
    const sht::FourierStage stage(ctx, mixed);
    EXPECT_LE(round_trip_error(stage), kBound32);
    // Where the four-step form cannot apply (nphi not a multiple of 64), or the options ask for
    // a radix or the complex path (variants of the one plan), the planner's plan.
    const sht::Grid wide{.nlat = 2, .nphi = 8192, .mmax = 4095};
    for (const auto& [g, options] :
         {std::pair{sht::Grid{.nlat = 2, .nphi = 8200, .mmax = 4099}, sht::StageOptions{}},
          {wide, {.fft = {.max_radix = 4}}},
          {wide, {.fft = {.real_path = RealPath::full_length}}}}) {
        const auto s = sht::support(ctx.caps(), g, options);
        ASSERT_TRUE(s[0].supported) << s[0].reason;
        EXPECT_EQ(s[0].synthesis.summary.find("four-step"), std::string::npos) << s[0].synthesis.summary;
        EXPECT_EQ(s[0].analysis.summary.find("four-step"), std::string::npos) << s[0].analysis.summary;
    }
    // Two passes cannot take the complex path.
    EXPECT_THROW(sht::FourierStage(ctx, wide,
                                   {.passes = sht::Passes::two, .fft = {.real_path = RealPath::full_length}}),
                 Error);
}

TEST_F(Sht, Support) {
    const sht::Grid g{.nlat = 64, .nphi = 1024, .mmax = 511};
    const auto all = sht::support(testing::device().caps(), g);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].strategy, sht::Strategy::fft);
    EXPECT_TRUE(all[0].supported) << all[0].reason;
    // The half-length transform of 512 points fits one workgroup on every device twiddle runs on.
    EXPECT_EQ(all[0].synthesis.passes, 1u);
    EXPECT_EQ(all[0].analysis.passes, 1u);
    EXPECT_GT(all[0].analysis.workgroup_size, 0u);
    EXPECT_LE(all[0].analysis.shared_bytes, testing::device().caps().max_shared_memory_bytes);
    EXPECT_NE(all[0].analysis.summary.find("split"), std::string::npos) << all[0].analysis.summary;
    EXPECT_EQ(all[1].strategy, sht::Strategy::dft);
    EXPECT_TRUE(all[1].supported) << all[1].reason;
    // Radix 2 takes more stages.
    const auto radix2 = sht::support(testing::device().caps(), g, {.fft = {.max_radix = 2}});
    EXPECT_NE(radix2[0].analysis.summary, all[0].analysis.summary);
    // f64 needs shaderFloat64.
    DeviceCaps no_f64 = testing::device().caps();
    no_f64.shader_float64 = false;
    const auto f64 = sht::support(no_f64, {.nlat = 4, .nphi = 16, .mmax = 7, .precision = Precision::f64});
    EXPECT_FALSE(f64[0].supported);
    EXPECT_FALSE(f64[1].supported);
    EXPECT_FALSE(f64[1].reason.empty());
}

TEST_F(Sht, Errors) {
    Context& ctx = testing::device();
    EXPECT_THROW(sht::FourierStage(ctx, {.nlat = 4, .nphi = 16, .mmax = 8}), Error);  // mmax >= nphi / 2
    EXPECT_THROW(sht::FourierStage(ctx, {.nlat = 0, .nphi = 16, .mmax = 3}), Error);
    EXPECT_THROW(sht::FourierStage(ctx, {.nlat = 4, .nphi = 0, .mmax = 0}), Error);
    EXPECT_THROW(sht::FourierStage(ctx, {.nlat = 4, .nphi = 16, .mmax = 3, .fields = 0}), Error);
    EXPECT_THROW(sht::FourierStage(ctx, {.nlat = 4, .nphi = 16, .mmax = 3}, {.fft = {.max_radix = 3}}),
                 Error);
    EXPECT_THROW(sht::support(ctx.caps(), {.nlat = 4, .nphi = 7, .mmax = 4}), Error);
    EXPECT_THROW(sht::support(ctx.caps(), {.nlat = 4, .nphi = 7, .mmax = uint64_t(1) << 63}), Error);
    EXPECT_THROW(sht::parse_strategy("fast"), Error);
    EXPECT_THROW(sht::FourierStage(ctx, {.nlat = 4, .nphi = 16, .mmax = 7}, {.passes = sht::Passes(7)}),
                 Error);
    EXPECT_THROW(sht::support(ctx.caps(), {.nlat = 4, .nphi = 16, .mmax = 7}, {.passes = sht::Passes(7)}),
                 Error);
    for (auto strategy : {sht::Strategy::fft, sht::Strategy::dft}) {
        const sht::Grid g{.nlat = 4, .nphi = 16, .mmax = 7};
        const sht::FourierStage stage(ctx, g, {.strategy = strategy});
        Buffer fm(ctx, g.spectral_bytes()), spat(ctx, g.spatial_bytes()), small(ctx, g.spatial_bytes() - 8);
        fm.fill(kPoison);
        EXPECT_THROW(stage.synthesize(fm, small), Error);
        EXPECT_THROW(stage.analyze(small, fm), Error);
        Buffer wide(ctx, g.spatial_bytes() + 8);
        EXPECT_THROW(stage.analyze(wide.view(4, g.spatial_bytes()), fm.view()),
                     Error);  // not on a complex element
        // fm and spat overlapping in one buffer.
        Buffer both(ctx, g.spectral_bytes() + g.spatial_bytes());
        EXPECT_THROW(stage.synthesize(both.view(0, g.spectral_bytes()), both.view(8, g.spatial_bytes())),
                     Error);
        std::vector<float> words(g.spectral_bytes() / 4);
        fm.download(words.data(), g.spectral_bytes());
        EXPECT_EQ(testing::poisoned_words(words.data(), g.spectral_bytes()), words.size())
            << "fm was touched";
    }
}

}  // namespace
}  // namespace twiddle
