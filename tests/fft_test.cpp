// Batched 1D complex transforms on the device against the long-double reference: every power of
// two up to 2^22 and every 31-smooth length up to 1024 (and larger ones of each radix) in f32,
// a range in f64, both directions, in place and out of place, every element written, nothing
// written past the output.
#include <algorithm>
#include <bit>
#include <cstring>
#include <random>

#include "cpu/reference.hpp"
#include "device_test.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;
using testing::kPoison;

constexpr double kBound = 5e-7;             // relative L2 against the reference, f32
constexpr double kBoundLargePrimes = 1e-6;  // the same, lengths with a prime factor above 31
constexpr double kBound64 = 1e-14;          // the same, f64
constexpr double kRoundTrip = 1e-6;         // forward then inverse against the input
constexpr uint64_t kGuardBytes = 256;       // poisoned bytes past the output that must stay poisoned

struct Case {
    uint64_t n;
    Placement placement;
    Strategy strategy = Strategy::automatic;
    uint32_t max_radix = 0;  // Options::max_radix
};

class Lengths : public DeviceTest, public ::testing::WithParamInterface<Case> {};

// Whether n's prime factors are all at most `largest` (31: the register butterflies).
bool smooth(uint64_t n, uint64_t largest = 31) {
    for (uint64_t p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31})
        while (p <= largest && n % p == 0) n /= p;
    return n == 1;
}

// Random batch for n points, keeping the whole problem near 2^20 elements at most, and 2^18 for
// lengths with a prime factor above 31, whose Bluestein transforms are 2 to 5 times longer.
uint64_t batch_for(uint64_t n, std::mt19937& gen) {
    const uint64_t most = std::max<uint64_t>(1, (uint64_t(1) << (smooth(n) ? 20 : 18)) / n);
    return std::uniform_int_distribution<uint64_t>(1, std::min<uint64_t>(most, 300))(gen);
}

// Uploads `x` and transforms it: from `in` into the start of `out`, or in place there.
void execute_placed(const Plan& plan, Buffer& in, Buffer& out, const void* x, Placement placement,
                    Direction dir) {
    const uint64_t bytes = plan.desc().bytes();
    Buffer& target = placement == Placement::in_place ? out : in;
    target.upload(x, bytes);
    plan.execute(placement == Placement::in_place ? out.view(0, bytes) : in.view(), out.view(0, bytes), dir);
}

// Downloads the `bytes` of output into `got`, and checks that nothing past them was written
// and, out of place, that every output element was. In place the upload overwrote the poison:
// there the accuracy check alone catches an element left unwritten.
template <typename T>
void download_checked(const Buffer& out, uint64_t bytes, Placement placement, std::vector<T>& got) {
    std::vector<uint8_t> raw(bytes + kGuardBytes);
    out.download(raw.data(), raw.size());
    std::memcpy(got.data(), raw.data(), bytes);
    if (placement == Placement::out_of_place) {
        EXPECT_EQ(testing::poisoned_words(raw.data(), bytes), 0u) << "unwritten output elements";
    }
    EXPECT_EQ(testing::poisoned_words(raw.data() + bytes, kGuardBytes), kGuardBytes / 4)
        << "written past the output";
}

TEST_P(Lengths, MatchesReferenceBothDirections) {
    const auto [n, placement, strategy, max_radix] = GetParam();
    std::mt19937 gen(1234 + n * 2 + (placement == Placement::in_place));
    const uint64_t batch = batch_for(n, gen);
    Context& ctx = testing::device();
    const Plan plan(ctx, FftDesc(n, batch), Options{.max_radix = max_radix, .strategy = strategy});
    SCOPED_TRACE(plan.logical().summary() + ", batch " + std::to_string(batch) + ", " +
                 std::string(to_string(placement)));
    const uint64_t bytes = plan.desc().bytes();

    Buffer in(ctx, bytes), out(ctx, bytes + kGuardBytes);
    for (Direction dir : {Direction::forward, Direction::inverse}) {
        const auto x = testing::random_complex(n * batch, gen());
        std::vector<std::complex<double>> want(n * batch);
        cpu::reference_dft(testing::widen(x), want, n, batch, dir);
        if (dir == Direction::inverse)
            for (auto& v : want) v /= static_cast<double>(n);

        out.fill(kPoison);
        std::vector<std::complex<float>> got(n * batch);
        execute_placed(plan, in, out, x.data(), placement, dir);
        if (placement == Placement::out_of_place) {
            // The input of an out-of-place transform is left as it was.
            std::vector<std::complex<float>> after(n * batch);
            in.download(after.data(), bytes);
            EXPECT_TRUE(std::equal(after.begin(), after.end(), x.begin())) << "input was modified";
        }
        download_checked(out, bytes, placement, got);
        const double err = cpu::relative_l2(got, want);
        EXPECT_LE(err, smooth(n) ? kBound : kBoundLargePrimes) << to_string(dir);
    }
}

TEST_P(Lengths, RoundTrip) {
    const auto [n, placement, strategy, max_radix] = GetParam();
    std::mt19937 gen(99 + n);
    const uint64_t batch = batch_for(n, gen);
    Context& ctx = testing::device();
    const Plan plan(ctx, FftDesc(n, batch), Options{.max_radix = max_radix, .strategy = strategy});
    const uint64_t bytes = plan.desc().bytes();
    const auto x = testing::random_complex(n * batch, gen());
    Buffer a(ctx, bytes), b(ctx, bytes);
    a.upload(x.data(), bytes);
    if (placement == Placement::in_place) {
        plan.execute(a, a, Direction::forward);
        plan.execute(a, a, Direction::inverse);
    } else {
        plan.execute(a, b, Direction::forward);
        plan.execute(b, a, Direction::inverse);
    }
    std::vector<std::complex<float>> back(n * batch);
    a.download(back.data(), bytes);
    EXPECT_LE(cpu::relative_l2(back, testing::widen(x)), kRoundTrip);
}

// Both placements of 2^bits points for bits = 0..last, every `step`-th from `sparse_from` on.
std::vector<Case> cases(uint32_t last, uint32_t sparse_from = 64, uint32_t step = 1) {
    std::vector<Case> out;
    for (uint32_t bits = 0; bits <= last; bits += bits < sparse_from ? 1 : step)
        for (Placement p : {Placement::out_of_place, Placement::in_place})
            out.push_back({uint64_t(1) << bits, p});
    return out;
}

// Lengths with prime factors 2 to 31 that are not powers of two: every one up to 1024 whose
// factors are at most 13 and every fourth of the others out of place (every seventh in place
// too; PlanExecutor.EveryLengthUpTo1024 runs all of their plans on the CPU), and longer ones that
// take several passes, a non-uniform stage layout (4095 = 3^2 5 7 13), or powers of each odd
// radix.
std::vector<Case> smooth_cases() {
    std::vector<Case> out;
    // Those with a prime factor 17 to 31, every fourth (each compiles a kernel of its own).
    uint32_t large = 0;
    for (uint64_t n = 3; n <= 1024; ++n) {
        if (!smooth(n) || std::has_single_bit(n)) continue;
        if (!smooth(n, 13) && large++ % 4 != 0) continue;
        out.push_back({n, Placement::out_of_place});
        if (n % 7 == 0) out.push_back({n, Placement::in_place});
    }
    for (uint64_t n : {1536, 2310, 4095, 6000, 10000, 30030, 65520, 161051, 177147, 390625, 1000000, 4352,
                       17017, 29791, 1114112})
        for (Placement p : {Placement::out_of_place, Placement::in_place}) out.push_back({n, p});
    return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    return "N" + std::to_string(info.param.n) + "_" + std::string(to_string(info.param.placement));
}

INSTANTIATE_TEST_SUITE_P(PowerOfTwo, Lengths, ::testing::ValuesIn(cases(22)), case_name);
// The other strategies over the one-pass lengths where they differ from automatic on lavapipe:
// exchanges through subgroup shuffles (its subgroups of 8 hold the columns of up to 8
// invocations: 16 to 256 points), and no subgroup operation (columns of up to 8 invocations
// wait on subgroup barriers under automatic).
std::vector<Case> strategy_cases(std::initializer_list<uint64_t> lengths, Strategy strategy,
                                 uint32_t max_radix = 0) {
    std::vector<Case> out;
    for (uint64_t n : lengths)
        for (Placement p : {Placement::out_of_place, Placement::in_place})
            out.push_back({n, p, strategy, max_radix});
    return out;
}
INSTANTIATE_TEST_SUITE_P(Subgroups, Lengths,
                         ::testing::ValuesIn(strategy_cases({16, 32, 64, 128, 256}, Strategy::subgroups)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Portable, Lengths,
                         ::testing::ValuesIn(strategy_cases({64, 128, 256}, Strategy::portable)), case_name);
INSTANTIATE_TEST_SUITE_P(Smooth, Lengths, ::testing::ValuesIn(smooth_cases()), case_name);

// Lengths with a prime factor above 31: primes whose p - 1 the butterflies take in one pass go
// through Rader's algorithm, and so do such primes times a length without prime factors above
// 31 (Rader's pass first); the others go through Bluestein's. Every one up to 128 (in
// place instead of out of place for every third), every eighth up to 1024 (each length compiles kernels of
// its own, about 8 s on lavapipe for Bluestein's; PlanExecutor.EveryLengthUpTo1024 runs the plans of all of
// them on the CPU), then primes for Rader's up to 4001 (one pass of 4000 points), Rader's prime times 1024
// and times 3 x 5^2 x 11 x 31 (2^20 - 1, three passes after it), and, for Bluestein's, primes and products of
// two primes to primes above 10^6 (transforms of 2^21 points, several passes each).
std::vector<Case> large_prime_cases() {
    std::vector<Case> out;
    uint32_t count = 0;
    for (uint64_t n = 17; n <= 1024; ++n)
        if (!smooth(n) && (n <= 128 || count++ % 8 == 0))
            out.push_back({n, n <= 128 && n % 3 == 0 ? Placement::in_place : Placement::out_of_place});
    for (uint64_t n : {211, 401, 4001, 41 * 1024, 1048575, 1021, 1031, 1147, 2062, 4099, 10007, 101 * 103,
                       65537, 999983, 1000003})
        for (Placement p : {Placement::out_of_place, Placement::in_place}) out.push_back({n, p});
    return out;
}

INSTANTIATE_TEST_SUITE_P(LargePrimes, Lengths, ::testing::ValuesIn(large_prime_cases()), case_name);

// The direct sum (Strategy::dft) on the device against the fast transforms on the device, and
// against the reference: an independent check of both. f32 and f64.
class DirectSum : public DeviceTest, public ::testing::WithParamInterface<uint64_t> {};

TEST_P(DirectSum, AgreesWithTheFastTransforms) {
    const uint64_t n = GetParam();
    Context& ctx = testing::device();
    std::mt19937 gen(77 + n);
    const uint64_t batch = std::max<uint64_t>(1, 200000 / (n * n));
    for (Precision precision : {Precision::f32, Precision::f64}) {
        if (precision == Precision::f64 && !ctx.caps().shader_float64) continue;
        const FftDesc desc = FftDesc(n, batch).with_precision(precision);
        const Plan fast(ctx, desc), direct(ctx, desc, Options{.strategy = Strategy::dft});
        SCOPED_TRACE(fast.logical().summary() + " against " + direct.logical().summary() + " in " +
                     std::string(to_string(precision)));
        // One point is a copy, whatever the strategy.
        if (n > 1) {
            ASSERT_EQ(direct.logical().passes[0].kernel.kind, KernelKind::direct);
        }
        std::uniform_real_distribution<double> d(-1.0, 1.0);
        std::vector<std::complex<double>> x(n * batch), want(n * batch);
        for (auto& v : x) v = {d(gen), d(gen)};
        cpu::reference_dft(x, want, n, batch, Direction::forward);
        const double bound = precision == Precision::f32 ? 1e-6 : kBound64;
        auto run = [&](const Plan& plan) {
            Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
            std::vector<std::complex<double>> got(n * batch);
            if (precision == Precision::f32) {
                std::vector<std::complex<float>> xf(x.begin(), x.end()), gf(n * batch);
                in.upload(xf.data(), desc.bytes());
                plan.execute(in, out, Direction::forward);
                out.download(gf.data(), desc.bytes());
                got.assign(gf.begin(), gf.end());
            } else {
                in.upload(x.data(), desc.bytes());
                plan.execute(in, out, Direction::forward);
                out.download(got.data(), desc.bytes());
            }
            return got;
        };
        const auto a = run(fast), b = run(direct);
        EXPECT_LE(cpu::relative_l2(a, want), bound);
        EXPECT_LE(cpu::relative_l2(b, want), bound);
        EXPECT_LE(cpu::relative_l2(a, b), 2 * bound);
    }
}

INSTANTIATE_TEST_SUITE_P(Fft, DirectSum, ::testing::Values(1, 2, 16, 60, 100, 1000, 1024, 2048, 4095));

// f64: the same checks, against the long-double reference at 1e-14, on devices with
// shaderFloat64 (lavapipe has it).
class DoublePrecision : public DeviceTest, public ::testing::WithParamInterface<Case> {};

TEST_P(DoublePrecision, MatchesReferenceBothDirections) {
    const auto [n, placement, strategy, max_radix] = GetParam();
    Context& ctx = testing::device();
    if (!ctx.caps().shader_float64) GTEST_SKIP() << "the device lacks shaderFloat64";
    std::mt19937 gen(4321 + n * 2 + (placement == Placement::in_place));
    const uint64_t batch = batch_for(n, gen);
    const Plan plan(ctx, FftDesc(n, batch).with_precision(Precision::f64),
                    Options{.max_radix = max_radix, .strategy = strategy});
    SCOPED_TRACE(plan.logical().summary() + ", batch " + std::to_string(batch) + ", " +
                 std::string(to_string(placement)));
    const uint64_t bytes = plan.desc().bytes();
    ASSERT_EQ(bytes, n * batch * 16);

    Buffer in(ctx, bytes), out(ctx, bytes + kGuardBytes);
    for (Direction dir : {Direction::forward, Direction::inverse}) {
        std::uniform_real_distribution<double> d(-1.0, 1.0);
        std::vector<std::complex<double>> x(n * batch), want(n * batch), got(n * batch);
        for (auto& v : x) v = {d(gen), d(gen)};
        cpu::reference_dft(x, want, n, batch, dir);
        if (dir == Direction::inverse)
            for (auto& v : want) v /= static_cast<double>(n);

        out.fill(kPoison);
        execute_placed(plan, in, out, x.data(), placement, dir);
        download_checked(out, bytes, placement, got);
        EXPECT_LE(cpu::relative_l2(got, want), kBound64) << to_string(dir);
    }
}

// f64 lengths: powers of two, and smooth ones of one pass, non-uniform stages and two passes.
std::vector<Case> cases64() {
    std::vector<Case> out = cases(20, 14, 2);
    // Mixed radices, a prime butterfly, Rader's (97, 401; first of several passes: 37 x 30, 41 x
    // 1024) and Bluestein's lengths (one pass and several).
    for (uint64_t n : {3, 100, 1000, 4095, 10000, 29, 97, 401, 1110, 41984, 10007, 65537})
        for (Placement p : {Placement::out_of_place, Placement::in_place}) out.push_back({n, p});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Fft, DoublePrecision, ::testing::ValuesIn(cases64()), case_name);
INSTANTIATE_TEST_SUITE_P(Subgroups, DoublePrecision,
                         ::testing::ValuesIn(strategy_cases({32, 64, 128}, Strategy::subgroups)), case_name);
// Columns that span several of lavapipe's 8-wide subgroups (radices of 8: 32 to 128 invocations),
// which exchange through shuffles and remaps through shared memory.
INSTANTIATE_TEST_SUITE_P(SubgroupsAcross, DoublePrecision,
                         ::testing::ValuesIn(strategy_cases({256, 512, 1024}, Strategy::subgroups, 8)),
                         case_name);

}  // namespace
}  // namespace twiddle
