// Multi-dimensional transforms and general layouts on the device against the long-double
// reference: numpy fftn semantics over any subset of axes (odd and length-1 extents, negative
// axes, dims needing several passes or the direct sum), FFTW-guru layouts (padded, embedded,
// transposed, batch innermost), in place and out of place, both directions, f32 and f64. Every
// output element is written and nothing else is: gaps in the output layout keep their contents.
#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "cpu/reference.hpp"
#include "device_test.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;
using testing::kPoison;

constexpr double kBound = 5e-7;     // relative L2 against the reference, f32
constexpr double kBound64 = 1e-14;  // the same, f64

std::string shape_name(const std::vector<uint64_t>& shape) {
    std::string s;
    for (uint64_t n : shape) s += (s.empty() ? "" : "x") + std::to_string(n);
    return s;
}

// Runs `desc` forward and inverse on the device, out of place (with a poisoned output) or in
// place, and compares the output layout's elements with the reference; elements outside the
// output layout must keep the poison (out of place) or the input (in place).
template <typename Real>
void check_transform(const FftDesc& desc, Placement placement, const Options& options = {}) {
    using Cx = std::complex<Real>;
    Context& ctx = testing::device();
    const Plan plan(ctx, desc, options);
    SCOPED_TRACE(plan.logical().summary() + ", batch " + std::to_string(desc.batch()) + ", " +
                 std::string(to_string(placement)));
    const double bound = std::is_same_v<Real, float> ? kBound : kBound64;
    const uint64_t in_n = desc.input_elements(), out_n = desc.output_elements();
    std::mt19937 gen(static_cast<uint32_t>(in_n * 7 + out_n));
    const auto inside = cpu::logical_indices(desc, false);
    std::vector<bool> is_output(out_n, false);
    for (uint64_t e : inside) is_output[e] = true;

    Buffer in(ctx, in_n * sizeof(Cx)), out(ctx, out_n * sizeof(Cx));
    for (Direction dir : {Direction::forward, Direction::inverse}) {
        const auto x32 = testing::random_complex(std::max(in_n, out_n), gen());
        const std::vector<Cx> x(x32.begin(), x32.end());
        std::vector<std::complex<double>> want(out_n);
        cpu::reference_nd(std::vector<std::complex<double>>(x.begin(), x.begin() + in_n), want, desc, dir);
        const double scale = scale_factor(desc.normalization(), dir, desc.length());
        for (auto& v : want) v *= scale;

        if (placement == Placement::in_place) {
            out.upload(x.data(), out_n * sizeof(Cx));
            plan.execute(out, out, dir);
        } else {
            in.upload(x.data(), in_n * sizeof(Cx));
            out.fill(kPoison);
            plan.execute(in, out, dir);
            std::vector<Cx> after(in_n);
            in.download(after.data(), in_n * sizeof(Cx));
            EXPECT_TRUE(std::equal(after.begin(), after.end(), x.begin())) << "input was modified";
        }
        std::vector<Cx> got(out_n);
        out.download(got.data(), out_n * sizeof(Cx));
        std::vector<Cx> got_inside;
        std::vector<std::complex<double>> want_inside;
        size_t unwritten = 0, touched = 0;
        for (uint64_t e = 0; e < out_n; ++e) {
            if (is_output[e]) {
                got_inside.push_back(got[e]);
                want_inside.push_back(want[e]);
                unwritten += testing::poisoned_words(&got[e], sizeof(Cx)) > 0;
            } else if (placement == Placement::in_place) {
                touched += got[e] != x[e];
            } else {
                touched += testing::poisoned_words(&got[e], sizeof(Cx)) != sizeof(Cx) / 4;
            }
        }
        EXPECT_EQ(unwritten, 0u) << "unwritten output elements, " << to_string(dir);
        EXPECT_EQ(touched, 0u) << "elements outside the output layout changed, " << to_string(dir);
        EXPECT_LE(cpu::relative_l2(std::span<const Cx>(got_inside), want_inside), bound) << to_string(dir);
    }
}

struct NdCase {
    std::vector<uint64_t> shape;
    std::vector<int> axes;  // empty: all
};

std::string nd_name(const ::testing::TestParamInfo<NdCase>& info) {
    std::string s = "S" + shape_name(info.param.shape) + "_A";
    if (info.param.axes.empty()) s += "all";
    for (int a : info.param.axes) s += (a < 0 ? "m" + std::to_string(-a) : std::to_string(a)) + "_";
    return s;
}

class Shapes : public DeviceTest, public ::testing::WithParamInterface<NdCase> {};

TEST_P(Shapes, OutOfPlace) {
    check_transform<float>(FftDesc::nd(GetParam().shape, GetParam().axes), Placement::out_of_place);
}

TEST_P(Shapes, InPlace) {
    check_transform<float>(FftDesc::nd(GetParam().shape, GetParam().axes), Placement::in_place);
}

// Dims of every kind: one pass contiguous and strided, several passes when strided (lavapipe's
// strided kernels take 128 points per pass), mixed radix, prime butterflies (17), Bluestein (97;
// Rader's: Layouts.RaderInWorkgroupsThatLoop, Layouts.RaderFirstInLongerLengths),
// length 1, and small dims of powers of two transformed together in one pass (8 x 8 x 8,
// 4 x 16 x 32, 64 x 32 after a batch dim, 32 x 64 after a dim of 3).
INSTANTIATE_TEST_SUITE_P(Fft, Shapes,
                         ::testing::Values(NdCase{{16, 16}, {}}, NdCase{{64, 128}, {}}, NdCase{{3, 5}, {}},
                                           NdCase{{1, 8}, {}}, NdCase{{8, 1}, {}}, NdCase{{1, 1}, {}},
                                           NdCase{{7, 1, 9}, {}}, NdCase{{12, 10, 6}, {}},
                                           NdCase{{17, 24}, {}}, NdCase{{24, 97}, {}}, NdCase{{512, 6}, {}},
                                           NdCase{{1024, 3}, {0}}, NdCase{{6, 512, 5}, {1}},
                                           NdCase{{4, 6, 8, 10}, {1, 3}}, NdCase{{4, 6, 8, 10}, {0, -2}},
                                           NdCase{{5, 256, 3}, {-1}}, NdCase{{32, 32, 32}, {}},
                                           NdCase{{2, 3, 1000}, {0, 2}}, NdCase{{200, 100}, {0}},
                                           NdCase{{8192, 2}, {0}}, NdCase{{8, 8, 8}, {}}, NdCase{{4, 4}, {}},
                                           NdCase{{2, 4}, {}}, NdCase{{5, 4, 16, 32}, {1, 2, 3}},
                                           NdCase{{3, 64, 32}, {1, 2}}, NdCase{{3, 32, 64}, {}}),
                         nd_name);

// Layouts beyond packed arrays, FFTW-guru style.
class Layouts : public DeviceTest {};

TEST_F(Layouts, PaddedRowsInAndOut) {
    // 2D 30 x 50 with rows padded to 64 in the input and 56 in the output, batch 3.
    check_transform<float>(FftDesc::guru({{30, 64, 56}, {50, 1, 1}}, {{3, 64 * 30, 56 * 30}}),
                           Placement::out_of_place);
}

TEST_F(Layouts, EmbeddedInPlace) {
    // A 12 x 20 block of a 16 x 24 array, in place; the rest of the array is left alone.
    check_transform<float>(FftDesc::guru({{12, 24, 24}, {20, 1, 1}}), Placement::in_place);
}

TEST_F(Layouts, BatchInnermost) {
    // 64 interleaved transforms of 256 points: transform b's point x at x * 64 + b.
    check_transform<float>(FftDesc::guru({{256, 64, 64}}, {{64, 1, 1}}), Placement::out_of_place);
    check_transform<float>(FftDesc::guru({{256, 64, 64}}, {{64, 1, 1}}), Placement::in_place);
}

TEST_F(Layouts, TransposedOutput) {
    // Rows in, columns out: a 40 x 60 transform of dim 1 writes its result transposed.
    check_transform<float>(FftDesc::guru({{60, 1, 40}}, {{40, 60, 1}}), Placement::out_of_place);
}

TEST_F(Layouts, StridedOneDimWithGaps) {
    // Every other element in, every third out, with gaps between the two transforms.
    check_transform<float>(FftDesc::guru({{4096, 2, 3}}, {{2, 2 * 4096 + 1, 3 * 4096}}),
                           Placement::out_of_place);
}

TEST_F(Layouts, OneStridedTransform) {
    // A single transform with strides: no tile is one run of memory, short columns or long.
    check_transform<float>(FftDesc::guru({{32, 2, 1}}), Placement::out_of_place);
    check_transform<float>(FftDesc::guru({{32, 1, 2}}), Placement::out_of_place);
    check_transform<float>(FftDesc::guru({{16, 2, 2}}), Placement::in_place);
    check_transform<float>(FftDesc::guru({{60, 3, 3}}), Placement::out_of_place);
    check_transform<float>(FftDesc::guru({{32, 0, 1}}), Placement::out_of_place);  // one value, broadcast
    Options passes;
    passes.max_pass_length = 64;
    check_transform<float>(FftDesc::guru({{4096, 1, 2}}), Placement::out_of_place, passes);
    check_transform<float>(FftDesc::guru({{4096, 2, 2}}), Placement::in_place, passes);
}

TEST_F(Layouts, ManyPassesFromOneLayoutToAnother) {
    // Several passes (lavapipe's one-pass limit is 4096 points), the first reading rows of the
    // input and the rest the output's interleaved layout.
    check_transform<float>(FftDesc::guru({{8192, 1, 2}}, {{2, 8192, 1}}), Placement::out_of_place);
}

TEST_F(Layouts, DirectSumStrided) {
    check_transform<float>(FftDesc::guru({{37, 5, 5}}, {{5, 1, 1}}), Placement::in_place);
}

TEST_F(Layouts, DoublePrecision) {
    check_transform<double>(FftDesc::nd({12, 64, 9}).with_precision(Precision::f64), Placement::out_of_place);
    check_transform<double>(FftDesc::nd({256, 96}, {0}).with_precision(Precision::f64), Placement::in_place);
    check_transform<double>(FftDesc::nd({3, 16, 32}, {1, 2}).with_precision(Precision::f64),
                            Placement::in_place);
}

TEST_F(Layouts, Normalizations) {
    for (Normalization n : {Normalization::ortho, Normalization::forward})
        check_transform<float>(FftDesc::nd({10, 16, 3}, {0, 1}).with_normalization(n),
                               Placement::out_of_place);
}

TEST_F(Layouts, DirectStrategyAgreesOnEveryDim) {
    Options dft;
    dft.strategy = Strategy::dft;
    check_transform<float>(FftDesc::nd({20, 3, 33}), Placement::out_of_place, dft);
}

TEST_F(Layouts, BluesteinInWorkgroupsThatLoop) {
    // Several passes whose workgroups loop over tiles: registers of the zero padding must not
    // keep the previous tile's points. In a strided dim too.
    Options looping;
    looping.tiles_per_workgroup = 4;
    looping.max_pass_length = 64;
    check_transform<float>(FftDesc(4099, 9), Placement::out_of_place, looping);
    check_transform<float>(FftDesc::nd({1031, 6}, {0}), Placement::in_place, looping);
}

TEST_F(Layouts, RaderInWorkgroupsThatLoop) {
    // Rader's kernels looping over tiles: staged tiles (packed rows), and gathers with x_0 loaded
    // apart (a strided dim, a padded guru layout), f32 and f64.
    Options looping;
    looping.tiles_per_workgroup = 3;
    check_transform<float>(FftDesc(97, 70), Placement::out_of_place, looping);
    check_transform<float>(FftDesc::nd({41, 24}, {0}), Placement::in_place, looping);
    check_transform<double>(FftDesc(37, 400).with_precision(Precision::f64), Placement::in_place, looping);
    check_transform<float>(FftDesc::guru({{43, 1, 2}}, {{300, 50, 90}}), Placement::out_of_place, looping);
}

TEST_F(Layouts, RaderFirstInLongerLengths) {
    // Rader's pass over the columns of a longer length (1184 = 37 x 32, 2368 = 37 x 64, 1107 = 41
    // x 27): along a strided dim (taken side by side), in a padded guru layout whose input and
    // output strides differ, in workgroups that loop, and in f64.
    Options looping;
    looping.tiles_per_workgroup = 3;
    check_transform<float>(FftDesc::nd({1184, 6}, {0}), Placement::in_place);
    check_transform<float>(FftDesc::nd({5, 2368, 3}, {1}), Placement::out_of_place, looping);
    check_transform<float>(FftDesc::guru({{1107, 3, 2}}, {{40, 3400, 2300}}), Placement::out_of_place);
    check_transform<double>(FftDesc::nd({3, 1184}).with_precision(Precision::f64), Placement::in_place);
    // 18944 = 37 x 512: the pass of 512 points after Rader's takes all of lavapipe's 32 KiB of
    // shared memory for tiles of 8 columns (mixed_passes: last_all_shared).
    check_transform<float>(FftDesc(18944, 3), Placement::out_of_place);
}

TEST_F(Layouts, InPlaceNeedsTheSameStrides) {
    Context& ctx = testing::device();
    const Plan plan(ctx, FftDesc::guru({{16, 1, 2}}));
    Buffer b(ctx, 64 * 8);
    EXPECT_THROW(plan.execute(b, b, Direction::forward), Error);
}

TEST_F(Layouts, BuffersSizedByTheirLayouts) {
    Context& ctx = testing::device();
    const FftDesc desc = FftDesc::guru({{16, 1, 4}});  // input 16 elements, output 61
    const Plan plan(ctx, desc);
    Buffer in(ctx, desc.input_bytes()), small(ctx, desc.input_bytes()), out(ctx, desc.output_bytes());
    EXPECT_THROW(plan.execute(in, small, Direction::forward), Error);
    EXPECT_NO_THROW(plan.execute(in, out, Direction::forward));
}

}  // namespace
}  // namespace twiddle
