// Recording a plan's first passes only (Plan::record_first_passes) and the teaching radix
// (Options::radix): a radix-2 plan of a 2D array takes a pass per butterfly step, columns (the
// strided dim) first, and after p passes down a column of n points the column is made of blocks of
// 2^p points, block b the DFT of every (n / 2^p)-th point from point b; the row passes then do the
// same along the rows.
#include <cmath>
#include <vector>

#include "cpu/reference.hpp"
#include "device_test.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;
using testing::kPoison;
using cf = std::complex<float>;
using cd = std::complex<double>;

class PassesTest : public DeviceTest {};

// The expected partial transform of `x` (rows x cols, C order) after the first `p` passes of
// radix 2, in the direction's sign: blocks down each column, then along each row once the
// columns are done. Computed with the f64 reference, block by block.
std::vector<cd> partial_reference(const std::vector<cd>& x, uint64_t rows, uint64_t cols, size_t p,
                                  Direction direction) {
    const size_t column_passes = static_cast<size_t>(std::log2(static_cast<double>(rows)));
    // Blocks of 2^s points along lines of n points, `lines` of them, line l's point j at
    // base(l) + j * stride.
    auto blocks = [&](std::vector<cd>& a, uint64_t n, uint64_t lines, size_t s, auto base, uint64_t stride) {
        const uint64_t L = uint64_t(1) << s, count = n / L;
        std::vector<cd> sub(L), out(L);
        for (uint64_t l = 0; l < lines; ++l) {
            std::vector<cd> line(n);
            for (uint64_t j = 0; j < n; ++j) line[j] = a[base(l) + j * stride];
            for (uint64_t b = 0; b < count; ++b) {
                for (uint64_t m = 0; m < L; ++m) sub[m] = line[b + m * count];
                cpu::reference_dft(sub, out, L, 1, direction);
                for (uint64_t k = 0; k < L; ++k) a[base(l) + (b * L + k) * stride] = out[k];
            }
        }
    };
    std::vector<cd> a = x;
    blocks(
        a, rows, cols, std::min(p, column_passes), [](uint64_t l) { return l; }, cols);
    if (p > column_passes)
        blocks(
            a, cols, rows, p - column_passes, [&](uint64_t l) { return l * cols; }, 1);
    return a;
}

double rel_l2(const std::vector<cf>& got, const std::vector<cd>& want) {
    double num = 0, den = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        num += std::norm(cd(got[i]) - want[i]);
        den += std::norm(want[i]);
    }
    return std::sqrt(num / den);
}

TEST_F(PassesTest, RadixTwoPlanOfATwoDimensionalArrayTakesAPassPerStep) {
    Context& ctx = testing::device();
    for (auto [rows, cols] : {std::pair<uint64_t, uint64_t>{512, 512}, {8, 32}, {64, 4}}) {
        const Plan plan(ctx, FftDesc::nd({rows, cols}), Options{.radix = 2});
        const size_t expected = static_cast<size_t>(std::log2(double(rows)) + std::log2(double(cols)));
        ASSERT_EQ(plan.passes(), expected) << rows << "x" << cols;
        for (size_t i = 0; i < plan.passes(); ++i) {
            const PassKernel& k = plan.logical().passes[i].kernel;
            EXPECT_EQ(k.stages.size(), 1u);
            EXPECT_EQ(k.stages[0].radix, 2u);
            // Columns (the strided dim, 0) first, then rows.
            EXPECT_EQ(plan.logical().passes[i].dim, i < std::log2(double(rows)) ? 0 : 1);
        }
    }
}

TEST_F(PassesTest, EachPartialResultIsBlocksOfSmallTransforms) {
    Context& ctx = testing::device();
    for (Direction direction : {Direction::forward, Direction::inverse}) {
        for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
            const uint64_t rows = 16, cols = 32;
            const FftDesc desc = FftDesc::nd({rows, cols});
            const Plan plan(ctx, desc, Options{.radix = 2});
            const auto x = testing::random_complex(rows * cols, 7);
            const auto xd = testing::widen(x);
            Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
            Buffer scratch(ctx, std::max<uint64_t>(16, plan.scratch_bytes(placement)));
            for (size_t p = 0; p <= plan.passes(); ++p) {
                in.upload(x.data(), desc.bytes());
                out.fill(kPoison);
                scratch.fill(kPoison);
                const Buffer& src = placement == Placement::in_place ? out : in;
                if (placement == Placement::in_place) out.upload(x.data(), desc.bytes());
                PartialResult where;
                ctx.submit([&](VkCommandBuffer cmd) {
                    where = plan.record_first_passes(
                        cmd, src.view(), out.view(),
                        plan.scratch_bytes(placement) ? scratch.view() : BufferView{}, direction, p);
                });
                const Buffer& holder = where.buffer == BufferRole::input    ? in
                                       : where.buffer == BufferRole::output ? out
                                                                            : scratch;
                if (p == 0) {
                    EXPECT_EQ(&holder, &src);
                }
                std::vector<cf> got(rows * cols);
                holder.download(got.data(), desc.bytes(), where.element_offset * sizeof(cf));
                std::vector<cd> want = partial_reference(xd, rows, cols, p, direction);
                // The last pass applies the normalization (backward: 1/N for the inverse).
                if (p == plan.passes() && direction == Direction::inverse)
                    for (auto& v : want) v /= double(rows * cols);
                EXPECT_LE(rel_l2(got, want), 5e-7)
                    << to_string(direction) << " " << to_string(placement) << " after " << p << " passes";
            }
        }
    }
}

TEST_F(PassesTest, PartialRecordingsRefuseWhatTheyCannotDo) {
    Context& ctx = testing::device();
    const FftDesc desc(64, 2);
    const Plan plan(ctx, desc, Options{.radix = 4});
    EXPECT_EQ(plan.passes(), 3u);
    Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes()),
        scratch(ctx, plan.scratch_bytes(Placement::out_of_place));
    EXPECT_THROW(ctx.submit([&](VkCommandBuffer cmd) {
        (void)plan.record_first_passes(cmd, in.view(), out.view(), scratch.view(), Direction::forward, 4);
    }),
                 Error);
    const Plan conv =
        Plan::convolution(ctx, FftDesc(64, 2), Options{}, FftCallbacks{.store = "return value;"});
    EXPECT_THROW(ctx.submit([&](VkCommandBuffer cmd) {
        (void)conv.record_first_passes(cmd, in.view(), out.view(), BufferView{}, Direction::forward, 0);
    }),
                 Error);
    for (uint32_t bad : {1u, 3u, 64u}) EXPECT_THROW(Plan(ctx, desc, Options{.radix = bad}), Error) << bad;
    EXPECT_THROW(Plan(ctx, FftDesc::nd({8, 12}), Options{.radix = 2}), Error);  // 12 is no power of two
    // A plan whose callbacks read an operand: only record() binds it.
    const Plan window(ctx, desc, Options{},
                      FftCallbacks{.load = "return value * operand_at(index % 64u);",
                                   .operand = true,
                                   .operand_type = DataType::float32});
    EXPECT_THROW(ctx.submit([&](VkCommandBuffer cmd) {
        (void)window.record_first_passes(cmd, in.view(), out.view(), scratch.view(), Direction::forward,
                                         window.passes());
    }),
                 Error);
}

}  // namespace
}  // namespace twiddle
