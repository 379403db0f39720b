// Distributed transforms (twiddle::dist), run under mpirun with 2 and 4 ranks on lavapipe: each
// rank builds the same global array, transforms its box with the distributed plan, and compares
// the box of the result it holds with the single-device transform of the whole array, which it
// also runs. Every test is collective: the ranks run the same tests in the same order.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <thread>

#include "twiddle/dist.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::dist {
namespace {

int rank_of() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
int ranks_of() {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

Context& device() {
    static Context context = local_context(MPI_COMM_WORLD, ContextOptions{.validation = true});
    return context;
}

// The elements of `box` of a packed C-order array of `shape`.
template <typename T>
std::vector<T> cut(const std::vector<T>& all, const std::vector<uint64_t>& shape, const Box& box) {
    std::vector<T> out;
    out.reserve(box.count());
    if (box.empty()) return out;
    const std::vector<uint64_t> s = box.shape();
    std::vector<int64_t> at(box.low);
    for (uint64_t i = 0; i < box.count(); ++i) {
        uint64_t flat = 0;
        for (size_t k = 0; k < shape.size(); ++k) flat = flat * shape[k] + static_cast<uint64_t>(at[k]);
        out.push_back(all[flat]);
        for (size_t k = shape.size(); k-- > 0;) {
            if (++at[k] < box.high[k]) break;
            at[k] = box.low[k];
        }
    }
    return out;
}

template <typename T>
std::vector<T> random_values(size_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<T> v(n);
    for (auto& x : v) {
        if constexpr (std::is_floating_point_v<T>)
            x = static_cast<T>(d(gen));
        else
            x = T(static_cast<typename T::value_type>(d(gen)), static_cast<typename T::value_type>(d(gen)));
    }
    return v;
}

template <typename T>
double relative_l2(const std::vector<T>& got, const std::vector<T>& want) {
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        num += std::norm(std::complex<double>(got[i]) - std::complex<double>(want[i]));
        den += std::norm(std::complex<double>(want[i]));
    }
    return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

uint64_t product(const std::vector<uint64_t>& s) {
    uint64_t n = 1;
    for (uint64_t e : s) n *= e;
    return n;
}

// Every rank's `Box` and the run's verdict: the distributed forward transform of a random array
// of desc.shape from in_box to out_box against the single-device transform, then the inverse back,
// on every rank. Returns this rank's errors.
struct Errors {
    double forward = 0, inverse = 0;
};

template <typename Real>
Errors round_trip(const DistDesc& desc, const Box& in_box, std::optional<Box> out_box,
                  const DistOptions& options, MPI_Comm comm = MPI_COMM_WORLD) {
    using C = std::complex<Real>;
    Context& ctx = device();
    const bool real = desc.transform == Transform::r2c;
    const DistPlan plan(ctx, comm, desc, in_box, out_box, options);
    const std::vector<uint64_t> spectrum = desc.complex_shape();
    const uint64_t n = product(desc.shape), m = product(spectrum);
    Errors errors;

    // The whole problem on this rank's device: the reference.
    std::vector<C> want(m);
    std::vector<Real> signal_real;
    std::vector<C> signal_complex;
    if (real) {
        signal_real = random_values<Real>(n, 7);
        const Plan whole(ctx, FftDesc::r2c_nd(desc.shape)
                                  .with_precision(desc.precision)
                                  .with_normalization(desc.normalization));
        Buffer a(ctx, whole.desc().input_bytes()), b(ctx, whole.desc().output_bytes());
        a.upload(signal_real.data(), n * sizeof(Real));
        whole.execute(a, b, Direction::forward);
        b.download(want.data(), m * sizeof(C));
    } else {
        signal_complex = random_values<C>(n, 7);
        const Plan whole(
            ctx,
            FftDesc::nd(desc.shape).with_precision(desc.precision).with_normalization(desc.normalization));
        Buffer a(ctx, whole.desc().bytes());
        a.upload(signal_complex.data(), n * sizeof(C));
        whole.execute(a, a, Direction::forward);
        a.download(want.data(), m * sizeof(C));
    }

    // Distributed: forward into a poisoned buffer, so that an element not written shows.
    const size_t in_element = real ? sizeof(Real) : sizeof(C);
    Buffer in(ctx, std::max<uint64_t>(plan.in_bytes(), 4)), out(ctx, std::max<uint64_t>(plan.out_bytes(), 4));
    if (real) {
        const auto mine = cut(signal_real, desc.shape, plan.in_box());
        if (!mine.empty()) in.upload(mine.data(), mine.size() * in_element);
    } else {
        const auto mine = cut(signal_complex, desc.shape, plan.in_box());
        if (!mine.empty()) in.upload(mine.data(), mine.size() * in_element);
    }
    out.fill(0x7fbadbadu);
    plan.execute(in, out, Direction::forward);
    std::vector<C> got(plan.out_box().count());
    if (!got.empty()) out.download(got.data(), got.size() * sizeof(C));
    errors.forward = relative_l2(got, cut(want, spectrum, plan.out_box()));

    // Inverse, from the spectrum's box back to the signal's.
    Buffer back(ctx, std::max<uint64_t>(plan.in_bytes(), 4));
    back.fill(0x7fbadbadu);
    plan.execute(out, back, Direction::inverse);
    // inverse(forward(x)) is x under every normalization.
    if (real) {
        std::vector<Real> again(plan.in_box().count());
        if (!again.empty()) back.download(again.data(), again.size() * sizeof(Real));
        errors.inverse = relative_l2(again, cut(signal_real, desc.shape, plan.in_box()));
    } else {
        std::vector<C> again(plan.in_box().count());
        if (!again.empty()) back.download(again.data(), again.size() * sizeof(C));
        errors.inverse = relative_l2(again, cut(signal_complex, desc.shape, plan.in_box()));
    }
    return errors;
}

class Dist : public ::testing::Test {
protected:
    void SetUp() override { device().take_validation_messages(); }
    void TearDown() override {
        for (const auto& m : device().take_validation_messages()) ADD_FAILURE() << "validation: " << m;
    }
};

TEST(DistBoxes, SlabsPencilsAndGrids) {
    const std::vector<Box> slabs = slab_boxes({10, 4}, 3, 0);
    ASSERT_EQ(slabs.size(), 3u);
    EXPECT_EQ(slabs[0].str(), "[0,3)x[0,4)");
    EXPECT_EQ(slabs[1].str(), "[3,6)x[0,4)");
    EXPECT_EQ(slabs[2].str(), "[6,10)x[0,4)");
    EXPECT_EQ(slab_boxes({2, 4}, 3, -2)[0].count(), 0u);  // more ranks than planes: an empty box
    EXPECT_EQ((process_grid(12)), (std::array<int, 2>{3, 4}));
    EXPECT_EQ((process_grid(7)), (std::array<int, 2>{1, 7}));
    const std::vector<Box> pencils = pencil_boxes({4, 6, 8}, {2, 3}, 1);
    ASSERT_EQ(pencils.size(), 6u);
    EXPECT_EQ(pencils[4].str(), "[2,4)x[0,6)x[2,5)");  // r0 = 1 of axis 0, r1 = 1 of axis 2
    EXPECT_EQ(Box({{0, 0}, {5, 5}}).intersect(Box({{3, 4}, {9, 9}})).str(), "[3,5)x[4,5)");
    EXPECT_TRUE(Box({{0, 0}, {5, 5}}).intersect(Box({{6, 0}, {9, 9}})).empty());
    EXPECT_THROW(slab_boxes({4, 4}, 2, 2), Error);
    EXPECT_THROW(pencil_boxes({4, 4}, {1, 2}, 0), Error);
}

struct Case {
    std::vector<uint64_t> shape;
    Transform transform;
    Decomposition decomposition;
    OutputLayout output;
};

TEST_F(Dist, MatchesTheSingleDeviceTransform) {
    const int P = ranks_of();
    std::vector<Case> cases = {
        {{12, 10}, Transform::c2c, Decomposition::slab, OutputLayout::natural},
        {{9, 7}, Transform::c2c, Decomposition::slab, OutputLayout::transposed},
        {{8, 6, 5}, Transform::c2c, Decomposition::slab, OutputLayout::natural},
        {{7, 9, 4}, Transform::c2c, Decomposition::pencil, OutputLayout::natural},
        {{6, 5, 7}, Transform::c2c, Decomposition::pencil, OutputLayout::transposed},
        {{10, 12}, Transform::r2c, Decomposition::slab, OutputLayout::natural},
        {{6, 8, 9}, Transform::r2c, Decomposition::slab, OutputLayout::transposed},
        {{5, 6, 10}, Transform::r2c, Decomposition::pencil, OutputLayout::natural},
    };
    for (const Case& c : cases) {
        DistDesc desc{.shape = c.shape, .transform = c.transform};
        const Box in = slab_boxes(c.shape, P, 0)[rank_of()];
        const Errors e =
            round_trip<float>(desc, in, std::nullopt, {.decomposition = c.decomposition, .output = c.output});
        const std::string what = Box(whole(c.shape)).str() + " " +
                                 (c.transform == Transform::r2c ? "r2c " : "c2c ") +
                                 to_string(c.decomposition) + " " + to_string(c.output);
        EXPECT_LE(e.forward, 1e-6) << what;
        EXPECT_LE(e.inverse, 1e-6) << what;
    }
}

// Local transforms in pieces (DistOptions::max_piece_bytes, as a box beyond the device's
// maxStorageBufferRange would be): every stage cut into pieces of a few planes (a piece limit of
// one plane's bytes or less leaves a piece a plane), the stages along axis 0 gathering theirs
// into scratch, and every result still the single-device transform's.
TEST_F(Dist, LocalTransformsInPieces) {
    const int P = ranks_of();
    std::vector<Case> cases = {
        {{8, 6, 5}, Transform::c2c, Decomposition::slab, OutputLayout::natural},
        {{9, 7, 6}, Transform::c2c, Decomposition::slab, OutputLayout::transposed},
        {{7, 9, 4}, Transform::c2c, Decomposition::pencil, OutputLayout::natural},
        {{6, 5, 7}, Transform::c2c, Decomposition::pencil, OutputLayout::transposed},
        {{12, 10}, Transform::c2c, Decomposition::slab, OutputLayout::natural},
        {{6, 8, 9}, Transform::r2c, Decomposition::slab, OutputLayout::natural},
        {{5, 6, 10}, Transform::r2c, Decomposition::pencil, OutputLayout::natural},
        // Planes of an odd number of reals: pieces of two planes, each on a complex element.
        {{6, 9}, Transform::r2c, Decomposition::slab, OutputLayout::natural},
        {{5, 3, 7}, Transform::r2c, Decomposition::pencil, OutputLayout::transposed},
    };
    for (const Case& c : cases)
        for (uint64_t piece : {uint64_t(1), uint64_t(700)}) {
            DistDesc desc{.shape = c.shape, .transform = c.transform};
            const Box in = slab_boxes(c.shape, P, 0)[rank_of()];
            const Errors e = round_trip<float>(
                desc, in, std::nullopt,
                {.decomposition = c.decomposition, .output = c.output, .max_piece_bytes = piece});
            const std::string what = Box(whole(c.shape)).str() + " " +
                                     (c.transform == Transform::r2c ? "r2c " : "c2c ") +
                                     to_string(c.decomposition) + " " + to_string(c.output) + " pieces of " +
                                     std::to_string(piece) + " bytes";
            EXPECT_LE(e.forward, 1e-6) << what;
            EXPECT_LE(e.inverse, 1e-6) << what;
        }
    // One rank alone (MPI_COMM_SELF): no exchange, only the pieces.
    for (Transform t : {Transform::c2c, Transform::r2c}) {
        const std::vector<uint64_t> shape = {5, 6, 8};
        const Errors e = round_trip<float>(DistDesc{.shape = shape, .transform = t}, whole(shape),
                                           std::nullopt, {.max_piece_bytes = 1}, MPI_COMM_SELF);
        EXPECT_LE(e.forward, 1e-6) << (t == Transform::r2c ? "r2c" : "c2c") << " on one rank";
        EXPECT_LE(e.inverse, 1e-6) << (t == Transform::r2c ? "r2c" : "c2c") << " on one rank";
    }
}

// DistPlan::execute's copies go through the context's queue lock: another thread submitting to
// the same context all the while (buffer fills in a loop) leaves every result right and the
// validation layer silent. A missing lock shows only where the layer's thread-safety checks see
// two submissions overlap; with the copier submitting outside the lock they did 173 times on 2
// ranks.
TEST_F(Dist, ExecutesWhileAnotherThreadSubmits) {
    const int P = ranks_of();
    Buffer other(device(), 1 << 16);
    // The jthread's destructor asks it to stop and joins it, also when a case throws.
    const std::jthread filler([&](std::stop_token stop) {
        try {
            for (uint32_t i = 0; !stop.stop_requested(); ++i) other.fill(i);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "filler: " << e.what();
        }
    });
    for (const Case& c : {Case{{8, 6, 5}, Transform::c2c, Decomposition::slab, OutputLayout::natural},
                          Case{{6, 5, 7}, Transform::c2c, Decomposition::pencil, OutputLayout::transposed},
                          Case{{6, 8, 9}, Transform::r2c, Decomposition::slab, OutputLayout::natural}}) {
        DistDesc desc{.shape = c.shape, .transform = c.transform};
        const Box in = slab_boxes(c.shape, P, 0)[rank_of()];
        const Errors e = round_trip<float>(
            desc, in, std::nullopt, {.decomposition = c.decomposition, .output = c.output, .chunks = 8});
        EXPECT_LE(e.forward, 1e-6) << Box(whole(c.shape)).str();
        EXPECT_LE(e.inverse, 1e-6) << Box(whole(c.shape)).str();
    }
}

TEST_F(Dist, UnevenBoxesF64AndNormalizations) {
    const int P = ranks_of(), me = rank_of();
    const std::vector<uint64_t> shape = {7, 6, 5};
    // Inputs split unevenly along axis 1 (rank 0 a single plane, the last rank the most);
    // outputs along axis 2.
    std::vector<Box> in_boxes, out_boxes;
    for (int r = 0; r < P; ++r) {
        const int64_t lo = r == 0 ? 0 : 1 + (5 * (r - 1)) / (P - 1), hi = r == 0 ? 1 : 1 + (5 * r) / (P - 1);
        in_boxes.push_back(Box{{0, lo, 0}, {7, hi, 5}});
    }
    out_boxes = slab_boxes(shape, P, 2);
    for (Normalization norm : {Normalization::backward, Normalization::ortho, Normalization::forward}) {
        DistDesc desc{.shape = shape, .precision = Precision::f64, .normalization = norm};
        for (Decomposition d : {Decomposition::slab, Decomposition::pencil}) {
            const Errors e = round_trip<double>(desc, in_boxes[me], out_boxes[me], {.decomposition = d});
            EXPECT_LE(e.forward, 1e-14) << to_string(norm) << " " << to_string(d);
            EXPECT_LE(e.inverse, 1e-14) << to_string(norm) << " " << to_string(d);
        }
    }
}

// The direct sum over every axis, for a tiny grid: a reference that shares no code with twiddle.
std::vector<std::complex<double>> direct_dft(const std::vector<std::complex<double>>& x,
                                             const std::vector<uint64_t>& shape) {
    const uint64_t n = product(shape);
    std::vector<std::complex<double>> y(n);
    for (uint64_t k = 0; k < n; ++k)
        for (uint64_t j = 0; j < n; ++j) {
            double phase = 0;
            uint64_t kk = k, jj = j;
            for (size_t a = shape.size(); a-- > 0;) {
                phase += double(kk % shape[a]) * double(jj % shape[a]) / double(shape[a]);
                kk /= shape[a];
                jj /= shape[a];
            }
            y[k] += x[j] * std::polar(1.0, -2 * M_PI * phase);
        }
    return y;
}

TEST_F(Dist, MatchesTheDirectSum) {
    const int P = ranks_of(), me = rank_of();
    const std::vector<uint64_t> shape = {3, 4, 5};
    const auto x = random_values<std::complex<double>>(product(shape), 3);
    const auto want = direct_dft(x, shape);
    // Exchanges in 1, 2 and 5 chunks (more than some boxes' planes: empty chunks).
    for (auto [d, chunks] :
         {std::pair{Decomposition::slab, 1u}, {Decomposition::slab, 2u}, {Decomposition::pencil, 5u}}) {
        const DistPlan plan(device(), MPI_COMM_WORLD, DistDesc{.shape = shape, .precision = Precision::f64},
                            pencil_boxes(shape, process_grid(P), 0)[me], std::nullopt,
                            {.decomposition = d, .chunks = chunks});
        Buffer in(device(), std::max<uint64_t>(plan.in_bytes(), 16)),
            out(device(), std::max<uint64_t>(plan.out_bytes(), 16));
        const auto mine = cut(x, shape, plan.in_box());
        if (!mine.empty()) in.upload(mine.data(), plan.in_bytes());
        plan.execute(in, out, Direction::forward);
        std::vector<std::complex<double>> got(plan.out_box().count());
        if (!got.empty()) out.download(got.data(), plan.out_bytes());
        EXPECT_LE(relative_l2(got, cut(want, shape, plan.out_box())), 1e-14) << to_string(d) << " " << chunks;
    }
}

TEST_F(Dist, EmptyBoxesAndOneRankHoldingAll) {
    const int P = ranks_of(), me = rank_of();
    // One plane along axis 0: the slabs of every rank but the first are empty.
    for (Transform t : {Transform::c2c, Transform::r2c}) {
        const std::vector<uint64_t> shape = {1, 6};
        const Errors e = round_trip<float>(DistDesc{.shape = shape, .transform = t},
                                           slab_boxes(shape, P, 0)[me], std::nullopt, {});
        EXPECT_LE(e.forward, 1e-6);
        EXPECT_LE(e.inverse, 1e-6);
    }
    // Rank 0 holds the whole input and the whole output; the others nothing.
    const std::vector<uint64_t> shape = {5, 4, 6};
    const Box all = whole(shape), none{{0, 0, 0}, {0, 0, 0}};
    for (Decomposition d : {Decomposition::slab, Decomposition::pencil}) {
        const Errors e = round_trip<float>(DistDesc{.shape = shape}, me == 0 ? all : none,
                                           me == 0 ? all : none, {.decomposition = d});
        EXPECT_LE(e.forward, 1e-6) << to_string(d);
        EXPECT_LE(e.inverse, 1e-6) << to_string(d);
    }
}

TEST_F(Dist, InPlaceAndRealWithOutputBoxes) {
    const int P = ranks_of(), me = rank_of();
    // In place: one buffer for both boxes (input slabs of axis 0, output slabs of axis 1).
    {
        const std::vector<uint64_t> shape = {6, 8, 3};
        const auto x = random_values<std::complex<float>>(product(shape), 5);
        const DistPlan plan(device(), MPI_COMM_WORLD, DistDesc{.shape = shape}, slab_boxes(shape, P, 0)[me],
                            slab_boxes(shape, P, 1)[me]);
        Buffer a(device(), std::max<uint64_t>({plan.in_bytes(), plan.out_bytes(), 16}));
        const auto mine = cut(x, shape, plan.in_box());
        if (!mine.empty()) a.upload(mine.data(), plan.in_bytes());
        plan.execute(a, a, Direction::forward);
        plan.execute(a, a, Direction::inverse);
        std::vector<std::complex<float>> back(plan.in_box().count());
        if (!back.empty()) a.download(back.data(), plan.in_bytes());
        EXPECT_LE(relative_l2(back, mine), 1e-6);
    }
    // r2c in f64, the input split unevenly along the last axis, the spectrum along axis 0.
    const std::vector<uint64_t> shape = {6, 5, 9};
    std::vector<Box> in_boxes;
    for (int r = 0; r < P; ++r)
        in_boxes.push_back(Box{{0, 0, r == 0 ? 0 : 2 + (7 * (r - 1)) / (P - 1)},
                               {6, 5, r == 0 ? 2 : 2 + (7 * r) / (P - 1)}});
    const DistDesc desc{.shape = shape,
                        .transform = Transform::r2c,
                        .precision = Precision::f64,
                        .normalization = Normalization::ortho};
    for (Decomposition d : {Decomposition::slab, Decomposition::pencil}) {
        const Errors e = round_trip<double>(desc, in_boxes[me], slab_boxes(desc.complex_shape(), P, 0)[me],
                                            {.decomposition = d});
        EXPECT_LE(e.forward, 1e-14) << to_string(d);
        EXPECT_LE(e.inverse, 1e-14) << to_string(d);
    }
}

// Each rank's verdict on a bad plan, the same everywhere, within a time bound (no rank hangs).
TEST_F(Dist, BadBoxesFailOnEveryRank) {
    const int P = ranks_of(), me = rank_of();
    const std::vector<uint64_t> shape = {8, 6};
    const DistDesc desc{.shape = shape};
    auto fails = [&](const Box& in, std::optional<Box> out, DistDesc d = {}) {
        if (d.shape.empty()) d = desc;
        const auto start = std::chrono::steady_clock::now();
        bool threw = false;
        try {
            DistPlan plan(device(), MPI_COMM_WORLD, d, in, out);
        } catch (const Error&) {
            threw = true;
        }
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
        // Every rank reached the same verdict.
        int mine = threw, all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_TRUE(all == 0 || all == P) << all << " of " << P << " ranks threw";
        return threw;
    };
    const Box good = slab_boxes(shape, P, 0)[me];
    EXPECT_FALSE(fails(good, std::nullopt));
    // The last rank's box reaches outside the grid.
    Box outside = good;
    if (me == P - 1) outside.high[1] = 7;
    EXPECT_TRUE(fails(outside, std::nullopt));
    // Rank 0's box overlaps rank 1's.
    Box overlap = good;
    if (me == 0) overlap.high[0] += 1;
    EXPECT_TRUE(fails(overlap, std::nullopt));
    // A hole: the last rank holds nothing.
    Box hole = good;
    if (me == P - 1) hole.high = hole.low;
    EXPECT_TRUE(fails(hole, std::nullopt));
    // The ranks disagree on the grid.
    DistDesc other = desc;
    if (me == 1) other.shape = {8, 7};
    EXPECT_TRUE(fails(good, std::nullopt, other));
    // A 1D grid and a c2r transform are refused alike everywhere.
    EXPECT_TRUE(fails(Box{{0}, {me == 0 ? 8 : 0}}, std::nullopt, DistDesc{.shape = {8}}));
    EXPECT_TRUE(fails(good, std::nullopt, DistDesc{.shape = shape, .transform = Transform::c2r}));
    // A box of three axes on a 2D grid, and one with fewer highs than lows.
    Box extra = good;
    if (me == 0) extra = Box{{0, 0, 0}, {1, 6, 1}};
    EXPECT_TRUE(fails(extra, std::nullopt));
    Box ragged = good;
    if (me == P - 1) ragged.high.pop_back();
    EXPECT_TRUE(fails(ragged, std::nullopt));
    // r2c without output boxes where an input box splits the last axis.
    EXPECT_TRUE(fails(slab_boxes(shape, P, 1)[me], std::nullopt,
                      DistDesc{.shape = shape, .transform = Transform::r2c}));
}

TEST_F(Dist, BadOptionsFailOnEveryRank) {
    const int P = ranks_of(), me = rank_of();
    auto threw_on = [&](const DistDesc& desc, const Box& in, std::optional<Box> out,
                        const DistOptions& options) {
        int threw = 0;
        try {
            DistPlan plan(device(), MPI_COMM_WORLD, desc, in, out, options);
        } catch (const Error&) {
            threw = 1;
        }
        int all = 0;
        MPI_Allreduce(&threw, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        return all;
    };
    const std::vector<uint64_t> flat = {8, 6}, cube = {4, 6, 5};
    // Rank 1 asks for pencils, the others for slabs.
    EXPECT_EQ(threw_on(DistDesc{.shape = cube}, slab_boxes(cube, P, 0)[me], std::nullopt,
                       {.decomposition = me == 1 ? Decomposition::pencil : Decomposition::slab}),
              P);
    // Rank 0 cuts its exchanges into other chunks than the others.
    EXPECT_EQ(threw_on(DistDesc{.shape = cube}, slab_boxes(cube, P, 0)[me], std::nullopt,
                       {.chunks = me == 0 ? 2u : 4u}),
              P);
    // A transposed output with output boxes; pencils of a 2D grid.
    EXPECT_EQ(threw_on(DistDesc{.shape = flat}, slab_boxes(flat, P, 0)[me], slab_boxes(flat, P, 0)[me],
                       {.output = OutputLayout::transposed}),
              P);
    EXPECT_EQ(threw_on(DistDesc{.shape = flat}, slab_boxes(flat, P, 0)[me], std::nullopt,
                       {.decomposition = Decomposition::pencil}),
              P);
    // Options outside their enums, from cast integers (they used to run as pencils, and as the
    // natural output).
    EXPECT_EQ(threw_on(DistDesc{.shape = cube}, slab_boxes(cube, P, 0)[me], std::nullopt,
                       {.decomposition = static_cast<Decomposition>(7)}),
              P);
    EXPECT_EQ(threw_on(DistDesc{.shape = flat}, slab_boxes(flat, P, 0)[me], std::nullopt,
                       {.output = static_cast<OutputLayout>(5)}),
              P);
    // A grid whose element count overflows (to 0 here), as irfftn's output length can make one.
    const std::vector<uint64_t> huge = {4, uint64_t(1) << 62};
    EXPECT_EQ(threw_on(DistDesc{.shape = huge, .transform = Transform::r2c}, slab_boxes(huge, P, 0)[me],
                       std::nullopt, {}),
              P);
}

TEST_F(Dist, TooSmallABufferFailsEveryRank) {
    const int P = ranks_of(), me = rank_of(), small = P - 1;
    const std::vector<uint64_t> shape = {8, 6};
    const DistPlan plan(device(), MPI_COMM_WORLD, DistDesc{.shape = shape}, slab_boxes(shape, P, 0)[me]);
    Buffer in(device(), plan.in_bytes()), out(device(), me == small ? 8 : plan.out_bytes());
    // Every rank gives the failing rank's reason, the others naming that rank.
    const std::string reason = "the output buffer holds 8 bytes of the ";
    try {
        plan.execute(in, out, Direction::forward);
        ADD_FAILURE() << "execute() did not throw";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(reason), std::string::npos) << what;
        if (me != small) {
            EXPECT_NE(what.find("rank " + std::to_string(small) + ": "), std::string::npos) << what;
        }
    }
    // Inverse: `out` is the spectrum's input there, too small on the last rank.
    EXPECT_THROW(plan.execute(out, in, Direction::inverse), Error);
}

TEST_F(Dist, ABufferOfAnotherDeviceFailsEveryRank) {
    const int P = ranks_of(), me = rank_of();
    const std::vector<uint64_t> shape = {8, 6};
    const DistPlan plan(device(), MPI_COMM_WORLD, DistDesc{.shape = shape}, slab_boxes(shape, P, 0)[me]);
    const Context other;
    Buffer in(device(), plan.in_bytes()), out(me == 0 ? other : device(), plan.out_bytes());
    try {
        plan.execute(in, out, Direction::forward);
        ADD_FAILURE() << "execute() did not throw";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("the output buffer was made on another Context's device"), std::string::npos)
            << what;
    }
}

}  // namespace
}  // namespace twiddle::dist

// The other ranks' report: their failures only, each with its rank.
class FailurePrinter : public ::testing::EmptyTestEventListener {
public:
    explicit FailurePrinter(int rank) : rank_(rank) {}
    void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (r.failed())
            std::printf("[rank %d] %s:%d: failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                        r.line_number(), r.message());
    }

private:
    int rank_;
};

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);  // DistPlan calls MPI from this thread only
    ::testing::InitGoogleTest(&argc, argv);
    // Rank 0 prints the usual report, the others their failures; any rank's failure fails the run.
    if (const int rank = twiddle::dist::rank_of(); rank != 0) {
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new FailurePrinter(rank));
    }
    const int result = RUN_ALL_TESTS();
    int any = result != 0, all = 0;
    MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return all;
}
