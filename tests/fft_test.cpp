// Batched 1D complex transforms on the device against the long-double reference: every power of
// two up to 2^22 in f32 and a range up to 2^20 in f64, both directions, in place and out of
// place, every element written, nothing written past the output.
#include <algorithm>
#include <cstring>
#include <random>

#include "cpu/reference.hpp"
#include "device_test.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;
using testing::kPoison;

constexpr double kBound = 5e-7;        // relative L2 against the reference, f32
constexpr double kRoundTrip = 1e-6;    // forward then inverse against the input
constexpr uint64_t kGuardBytes = 256;  // poisoned bytes past the output that must stay poisoned

struct Case {
    uint32_t bits;
    Placement placement;
};

class PowerOfTwo : public DeviceTest, public ::testing::WithParamInterface<Case> {};

// Random batch for 2^bits points, keeping the whole problem near 2^20 elements at most.
uint64_t batch_for(uint32_t bits, std::mt19937& gen) {
    const uint64_t most = std::max<uint64_t>(1, (uint64_t(1) << 20) >> bits);
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

TEST_P(PowerOfTwo, MatchesReferenceBothDirections) {
    const auto [bits, placement] = GetParam();
    std::mt19937 gen(1234 + bits * 2 + (placement == Placement::in_place));
    const uint64_t n = uint64_t(1) << bits, batch = batch_for(bits, gen);
    Context& ctx = testing::device();
    const Plan plan(ctx, FftDesc(n, batch));
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
        EXPECT_LE(err, kBound) << to_string(dir);
    }
}

TEST_P(PowerOfTwo, RoundTrip) {
    const auto [bits, placement] = GetParam();
    std::mt19937 gen(99 + bits);
    const uint64_t n = uint64_t(1) << bits, batch = batch_for(bits, gen);
    Context& ctx = testing::device();
    const Plan plan(ctx, FftDesc(n, batch));
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
        for (Placement p : {Placement::out_of_place, Placement::in_place}) out.push_back({bits, p});
    return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    return "N" + std::to_string(uint64_t(1) << info.param.bits) + "_" +
           std::string(to_string(info.param.placement));
}

INSTANTIATE_TEST_SUITE_P(Fft, PowerOfTwo, ::testing::ValuesIn(cases(22)), case_name);

// f64: the same checks, against the long-double reference at 1e-14, on devices with
// shaderFloat64 (lavapipe has it).
class DoublePrecision : public DeviceTest, public ::testing::WithParamInterface<Case> {};

constexpr double kBound64 = 1e-14;

TEST_P(DoublePrecision, MatchesReferenceBothDirections) {
    const auto [bits, placement] = GetParam();
    Context& ctx = testing::device();
    if (!ctx.caps().shader_float64) GTEST_SKIP() << "the device lacks shaderFloat64";
    std::mt19937 gen(4321 + bits * 2 + (placement == Placement::in_place));
    const uint64_t n = uint64_t(1) << bits, batch = batch_for(bits, gen);
    const Plan plan(ctx, FftDesc(n, batch).with_precision(Precision::f64));
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

INSTANTIATE_TEST_SUITE_P(Fft, DoublePrecision, ::testing::ValuesIn(cases(20, 14, 2)), case_name);

}  // namespace
}  // namespace twiddle
