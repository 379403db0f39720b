// twiddle::Graph on the device: convolutions and reconstructions in one submission, levels and
// barriers, transient memory shared across lifetimes, pointwise and layout nodes against the CPU,
// chunked arrays (random partitions) against contiguous ones with untouched tails, arrays over the
// storage-buffer range, and the errors compile() raises.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "cpu/reference.hpp"
#include "device_test.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;
using testing::kPoison;
using cf = std::complex<float>;
using cd = std::complex<double>;

class GraphTest : public DeviceTest {};

template <typename T>
std::vector<T> download(const Buffer& b, size_t count, uint64_t offset = 0) {
    std::vector<T> out(count);
    b.download(out.data(), count * sizeof(T), offset);
    return out;
}

// Circular convolution of rows of n points, by the definition, in double.
std::vector<cd> convolve_rows(const std::vector<cd>& a, const std::vector<cd>& b, uint64_t n,
                              uint64_t batch) {
    std::vector<cd> out(n * batch);
    for (uint64_t r = 0; r < batch; ++r)
        for (uint64_t k = 0; k < n; ++k) {
            cd sum = 0;
            for (uint64_t j = 0; j < n; ++j) sum += a[r * n + j] * b[r * n + (k + n - j) % n];
            out[r * n + k] = sum;
        }
    return out;
}

TEST_F(GraphTest, ConvolutionInOneSubmission) {
    Context& ctx = testing::device();
    const uint64_t n = 256, batch = 6;
    const FftDesc desc(n, batch);
    const auto a = testing::random_complex(n * batch, 1), b = testing::random_complex(n * batch, 2);
    Buffer ba(ctx, desc.bytes()), bb(ctx, desc.bytes()), out(ctx, desc.bytes());
    ba.upload(a.data(), desc.bytes());
    bb.upload(b.data(), desc.bytes());
    out.fill(kPoison);

    Graph g(ctx);
    const Resource ra = g.external(ba), rb = g.external(bb), ro = g.external(out);
    const Resource fa = g.transient(desc.bytes()), fb = g.transient(desc.bytes());
    const Node n0 = g.fft(desc, ra, fa, Direction::forward);
    const Node n1 = g.fft(desc, rb, fb, Direction::forward);
    const Node n2 = g.multiply(fa, fb, fa, n * batch, DataType::complex64);
    const Node n3 = g.fft(desc, fa, ro, Direction::inverse);
    const CompiledGraph run = g.compile();
    run.execute();

    const auto got = download<cf>(out, n * batch);
    EXPECT_LE(cpu::relative_l2(got, convolve_rows(testing::widen(a), testing::widen(b), n, batch)), 1e-6);
    // The two forward transforms share a level; a barrier between each level and the next.
    const auto levels = run.levels();
    ASSERT_EQ(levels.size(), 3u);
    ASSERT_EQ(levels[0].size(), 2u);
    EXPECT_EQ(levels[0][0].index, n0.index);
    EXPECT_EQ(levels[0][1].index, n1.index);
    EXPECT_EQ(levels[1][0].index, n2.index);
    EXPECT_EQ(levels[2][0].index, n3.index);
    const GraphStats st = run.stats();
    size_t passes = 0;
    for (const auto& node : st.nodes) passes += node.passes;
    EXPECT_EQ(st.dispatches, passes);
    // Between levels, inside multi-pass plans, and one first against an earlier recording's use of
    // the transients.
    EXPECT_EQ(st.barriers, 3 + (passes - 4));
    EXPECT_EQ(st.nodes[2].kind, "multiply");
    EXPECT_EQ(st.nodes[2].bytes_read, 2 * desc.bytes());
    EXPECT_EQ(st.nodes[2].bytes_written, desc.bytes());
    EXPECT_EQ(g.stats().nodes.size(), 4u);
    EXPECT_EQ(g.stats().levels, 0u);
}

// Real inputs through r2c, the product of half spectra, and c2r: a real convolution, also of odd
// length (the general path), and in f64.
TEST_F(GraphTest, RealConvolution) {
    Context& ctx = testing::device();
    for (const uint64_t n : {300u, 255u}) {
        for (const Precision precision : {Precision::f32, Precision::f64}) {
            const uint64_t batch = 3;
            const FftDesc fwd = FftDesc::r2c(n, batch).with_precision(precision);
            const FftDesc inv = FftDesc::c2r(n, batch).with_precision(precision);
            std::mt19937 gen(static_cast<uint32_t>(n));
            std::uniform_real_distribution<double> d(-1, 1);
            std::vector<cd> a(n * batch), b(n * batch);
            for (auto& v : a) v = d(gen);
            for (auto& v : b) v = d(gen);
            const uint32_t rb = real_bytes(precision);
            auto to_device = [&](const std::vector<cd>& v) {
                std::vector<uint8_t> raw(v.size() * rb);
                for (size_t i = 0; i < v.size(); ++i) {
                    if (precision == Precision::f32) {
                        const float f = static_cast<float>(v[i].real());
                        std::memcpy(raw.data() + i * 4, &f, 4);
                    } else {
                        const double x = v[i].real();
                        std::memcpy(raw.data() + i * 8, &x, 8);
                    }
                }
                return raw;
            };
            Buffer ba(ctx, fwd.input_bytes()), bb(ctx, fwd.input_bytes()), out(ctx, inv.output_bytes());
            ba.upload(to_device(a).data(), fwd.input_bytes());
            bb.upload(to_device(b).data(), fwd.input_bytes());
            Graph g(ctx);
            const Resource sa = g.transient(fwd.output_bytes()), sb = g.transient(fwd.output_bytes());
            g.fft(fwd, g.external(ba), sa, Direction::forward);
            g.fft(fwd, g.external(bb), sb, Direction::forward);
            g.multiply(sa, sb, sa, fwd.output_elements(), complex_type(precision));
            g.fft(inv, sa, g.external(out), Direction::inverse);
            g.compile().execute();
            std::vector<cd> got(n * batch);
            std::vector<uint8_t> raw(inv.output_bytes());
            out.download(raw.data(), raw.size());
            for (size_t i = 0; i < got.size(); ++i) {
                if (precision == Precision::f32) {
                    float f;
                    std::memcpy(&f, raw.data() + i * 4, 4);
                    got[i] = f;
                } else {
                    double x;
                    std::memcpy(&x, raw.data() + i * 8, 8);
                    got[i] = x;
                }
            }
            EXPECT_LE(cpu::relative_l2(got, convolve_rows(a, b, n, batch)),
                      precision == Precision::f32 ? 1e-6 : 1e-13)
                << "n " << n << " " << to_string(precision);
        }
    }
}

// A forward and an inverse transform in one graph give the input back, with no submission between
// them; a multi-pass plan, a 2D problem and f64.
TEST_F(GraphTest, ForwardThenInverseReconstructs) {
    Context& ctx = testing::device();
    struct Case {
        FftDesc desc;
        Options options;
    };
    const Case cases[] = {
        {FftDesc(4096, 3), Options{.max_pass_length = 64}},
        {FftDesc::nd({12, 40}), {}},
        {FftDesc(1000, 2).with_precision(Precision::f64), {}},
    };
    for (const Case& c : cases) {
        const FftDesc& desc = c.desc;
        const uint64_t count = desc.elements();
        std::vector<cd> x(count);
        std::mt19937 gen(5);
        std::uniform_real_distribution<double> d(-1, 1);
        for (auto& v : x) v = {d(gen), d(gen)};
        Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
        if (desc.precision() == Precision::f32) {
            std::vector<cf> xf(x.begin(), x.end());
            in.upload(xf.data(), desc.bytes());
        } else {
            in.upload(x.data(), desc.bytes());
        }
        Graph g(ctx);
        const Resource t = g.transient(desc.bytes());
        g.fft(desc, g.external(in), t, Direction::forward, c.options);
        g.fft(desc, t, g.external(out), Direction::inverse, c.options);
        const CompiledGraph run = g.compile();
        run.execute();
        if (desc.precision() == Precision::f32) {
            std::vector<cd> want(x.size());
            for (size_t i = 0; i < x.size(); ++i) want[i] = cd(cf(x[i]));
            EXPECT_LE(cpu::relative_l2(download<cf>(out, count), want), 1e-6) << desc.length();
        } else {
            EXPECT_LE(cpu::relative_l2(download<cd>(out, count), x), 1e-14) << desc.length();
        }
        EXPECT_EQ(run.stats().levels, 2u);
    }
}

// Transients whose lifetimes do not overlap share memory, and the results stay right.
TEST_F(GraphTest, TransientsShareMemoryAcrossLifetimes) {
    Context& ctx = testing::device();
    const uint64_t n = 512, batch = 4;
    const FftDesc desc(n, batch);
    const auto x = testing::random_complex(n * batch, 3);
    Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
    in.upload(x.data(), desc.bytes());
    Graph g(ctx);
    // t1: levels 0-1, t2: 1-2, t3: 2-3, so t1 and t3 can share memory.
    const Resource t1 = g.transient(desc.bytes()), t2 = g.transient(desc.bytes()),
                   t3 = g.transient(desc.bytes());
    g.fft(desc, g.external(in), t1, Direction::forward);
    g.scale(t1, t2, n * batch, DataType::complex64, 0.5);
    g.fft(desc, t2, t3, Direction::inverse);
    g.copy(t3, g.external(out), desc.bytes());
    const CompiledGraph run = g.compile();
    run.execute();
    const GraphStats st = run.stats();
    EXPECT_EQ(st.levels, 4u);
    EXPECT_EQ(st.transient_bytes, 3 * desc.bytes());
    EXPECT_EQ(st.transient_bytes_aliased, 2 * desc.bytes());
    std::vector<cd> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = 0.5 * cd(x[i]);
    EXPECT_LE(cpu::relative_l2(download<cf>(out, n * batch), want), 1e-6);
}

// A caller's buffer added twice is one memory: a node reading it through one resource waits for a
// node writing it through the other.
TEST_F(GraphTest, ABufferAddedTwiceIsOneResource) {
    Context& ctx = testing::device();
    const uint64_t count = 4096;
    const auto x = testing::random_complex(count, 12);
    Buffer a(ctx, count * 8), b(ctx, count * 8), c(ctx, count * 8);
    a.upload(x.data(), count * 8);
    Graph g(ctx);
    g.scale(g.external(a), g.external(b), count, DataType::complex64, 2.0);
    g.scale(g.external(b.handle(), b.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), g.external(c), count,
            DataType::complex64, 3.0);
    const CompiledGraph run = g.compile();
    EXPECT_EQ(run.stats().levels, 2u);
    run.execute();
    const auto got = download<cf>(c, count);
    for (uint64_t i = 0; i < count; ++i) EXPECT_EQ(got[i], x[i] * 6.0f) << i;
}

TEST_F(GraphTest, PointwiseNodes) {
    Context& ctx = testing::device();
    const uint64_t count = 1000, period = 64;
    const auto x = testing::random_complex(count, 8), y = testing::random_complex(count, 9);
    std::vector<float> r(period);
    for (uint64_t i = 0; i < period; ++i) r[i] = 0.25f + static_cast<float>(i) / 16;
    Buffer bx(ctx, count * 8), by(ctx, count * 8), br(ctx, period * 4);
    bx.upload(x.data(), count * 8);
    by.upload(y.data(), count * 8);
    br.upload(r.data(), period * 4);
    Buffer product(ctx, count * 8), conj(ctx, count * 8), by_real(ctx, count * 8), scaled(ctx, count * 8);
    Buffer power(ctx, count * 4), logged(ctx, count * 4);
    Graph g(ctx);
    const Resource rx = g.external(bx), ry = g.external(by), rr = g.external(br);
    g.multiply(rx, ry, g.external(product), count, DataType::complex64);
    g.multiply(rx, ry, g.external(conj), count, DataType::complex64, MultiplyOptions{.conjugate = true});
    g.multiply(rx, rr, g.external(by_real), count, DataType::complex64, DataType::float32,
               MultiplyOptions{.operand_period = period});
    g.scale(rx, g.external(scaled), count, DataType::complex64, -3.0);
    const Resource rp = g.external(power);
    g.magnitude_squared(rx, rp, count, Precision::f32);
    g.log_scale(rp, g.external(logged), count, Precision::f32, 1e-3);
    const CompiledGraph run = g.compile();
    EXPECT_EQ(run.stats().levels, 2u);  // log_scale reads what magnitude_squared writes
    run.execute();
    const auto p = download<cf>(product, count), c = download<cf>(conj, count),
               m = download<cf>(by_real, count), s = download<cf>(scaled, count);
    const auto pw = download<float>(power, count), lg = download<float>(logged, count);
    for (uint64_t i = 0; i < count; ++i) {
        const cd a(x[i]), b(y[i]);
        EXPECT_LE(std::abs(cd(p[i]) - a * b), 1e-6) << i;
        EXPECT_LE(std::abs(cd(c[i]) - a * std::conj(b)), 1e-6) << i;
        EXPECT_LE(std::abs(cd(m[i]) - a * double(r[i % period])), 1e-6) << i;
        EXPECT_LE(std::abs(cd(s[i]) + 3.0 * a), 1e-6) << i;
        EXPECT_NEAR(pw[i], std::norm(a), 1e-6) << i;
        EXPECT_NEAR(lg[i], std::log10(std::max<double>(pw[i], 1e-3)), 1e-6) << i;
    }
}

TEST_F(GraphTest, LogScaleInDoublePrecision) {
    Context& ctx = testing::device();
    std::vector<double> x = {1.0, 10.0, 1e-300, 0.0, -5.0, 3.0e7, 0.7071, 1.4142, 2.0, 123456.789};
    for (int i = 0; i < 200; ++i) x.push_back(std::pow(10.0, -20.0 + i * 0.173));
    const uint64_t count = x.size();
    Buffer in(ctx, count * 8), out(ctx, count * 8);
    in.upload(x.data(), count * 8);
    Graph g(ctx);
    g.log_scale(g.external(in), g.external(out), count, Precision::f64, 1e-200);
    g.compile().execute();
    const auto got = download<double>(out, count);
    for (uint64_t i = 0; i < count; ++i) {
        const double want = std::log10(std::max(x[i], 1e-200));
        EXPECT_LE(std::abs(got[i] - want), 4e-16 * std::max(1.0, std::abs(want))) << x[i];
    }
}

// With a floor of 0 or below, log_scale's values are IEEE log10's: -inf at 0, NaN below 0 and
// for NaN, +inf at +inf; and subnormal doubles are no trouble.
TEST_F(GraphTest, LogScaleWithoutAFloor) {
    Context& ctx = testing::device();
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const std::vector<double> x = {0.0, -1.0, -0.0, nan, inf, 100.0, 1e-320, 4.9e-324, 0.5};
    const uint64_t count = x.size();
    for (const Precision p : {Precision::f32, Precision::f64}) {
        Buffer in(ctx, count * 8), out(ctx, count * 8);
        if (p == Precision::f64) {
            in.upload(x.data(), count * 8);
        } else {
            const std::vector<float> xf(x.begin(), x.end());
            in.upload(xf.data(), count * 4);
        }
        Graph g(ctx);
        g.log_scale(g.external(in), g.external(out), count, p, -1.0);
        g.compile().execute();
        std::vector<double> got(count);
        if (p == Precision::f64) {
            got = download<double>(out, count);
        } else {
            const auto gf = download<float>(out, count);
            got.assign(gf.begin(), gf.end());
        }
        for (uint64_t i = 0; i < count; ++i) {
            // f32 holds no subnormal input: those are 0 there, whose log is -inf (or, where a
            // device keeps subnormal floats, their log).
            const double xi = p == Precision::f32 ? static_cast<double>(static_cast<float>(x[i])) : x[i];
            const double want = std::log10(xi);
            if (std::isnan(want)) {
                EXPECT_TRUE(std::isnan(got[i])) << to_string(p) << " " << x[i] << ": " << got[i];
            } else if (std::isinf(want)) {
                EXPECT_EQ(got[i], want) << to_string(p) << " " << x[i];
            } else if (p == Precision::f64) {
                EXPECT_LE(std::abs(got[i] - want), 4e-16 * std::max(1.0, std::abs(want))) << x[i];
            } else if (std::abs(xi) < std::numeric_limits<float>::min()) {
                EXPECT_TRUE(got[i] == -inf || std::abs(got[i] - want) < 1e-5) << x[i] << ": " << got[i];
            } else {
                EXPECT_NEAR(got[i], want, 1e-6 * std::max(1.0, std::abs(want))) << x[i];
            }
        }
    }
}

// Results of `desc` through a graph: forward A and B, their product, the inverse; the product as a
// node of its own, or fused into A's forward transform (its last pass's stores).
std::vector<uint8_t> convolution(const FftDesc& fwd, const FftDesc& inv, const std::vector<uint8_t>& a,
                                 const std::vector<uint8_t>& b, bool fused, const Options& options = {}) {
    Context& ctx = testing::device();
    Buffer ba(ctx, fwd.input_bytes()), bb(ctx, fwd.input_bytes()), out(ctx, inv.output_bytes());
    ba.upload(a.data(), a.size());
    bb.upload(b.data(), b.size());
    Graph g(ctx);
    const Resource fa = g.transient(fwd.output_bytes()), fb = g.transient(fwd.output_bytes());
    g.fft(fwd, g.external(bb), fb, Direction::forward, options);
    const DataType ct = complex_type(fwd.precision());
    if (fused) {
        g.fft(fwd, g.external(ba), fa, Direction::forward, options,
              FusedOps::multiply_store(fb, fwd.precision()));
    } else {
        g.fft(fwd, g.external(ba), fa, Direction::forward, options);
        g.multiply(fa, fb, fa, fwd.output_elements(), ct);
    }
    g.fft(inv, fa, g.external(out), Direction::inverse, options);
    const CompiledGraph run = g.compile();
    EXPECT_EQ(run.stats().levels, 3u);
    run.execute();
    return download<uint8_t>(out, inv.output_bytes());
}

std::vector<uint8_t> random_bytes(uint64_t bytes, Precision precision, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> d(-1, 1);
    std::vector<uint8_t> out(bytes);
    for (uint64_t i = 0; i < bytes; i += real_bytes(precision)) {
        if (precision == Precision::f32) {
            const float f = static_cast<float>(d(gen));
            std::memcpy(out.data() + i, &f, 4);
        } else {
            const double x = d(gen);
            std::memcpy(out.data() + i, &x, 8);
        }
    }
    return out;
}

double relative_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                           Precision precision) {
    double num = 0, den = 0;
    for (size_t i = 0; i < a.size(); i += real_bytes(precision)) {
        double x, y;
        if (precision == Precision::f32) {
            float fx, fy;
            std::memcpy(&fx, a.data() + i, 4);
            std::memcpy(&fy, b.data() + i, 4);
            x = fx, y = fy;
        } else {
            std::memcpy(&x, a.data() + i, 8);
            std::memcpy(&y, b.data() + i, 8);
        }
        num += (x - y) * (x - y);
        den += y * y;
    }
    return std::sqrt(num / den);
}

// The product fused into the forward transform's stores gives what a multiply node gives: one
// pass and several (the store callback in the last; after Rader's pass too), 2D, r2c with c2r,
// and f64.
TEST_F(GraphTest, FusedProductMatchesItsNode) {
    struct Case {
        FftDesc fwd, inv;
        Options options;
    };
    const Case cases[] = {
        {FftDesc(256, 6), FftDesc(256, 6), {}},
        {FftDesc(4096, 3), FftDesc(4096, 3), Options{.max_pass_length = 64}},
        {FftDesc(1184, 6), FftDesc(1184, 6), {}},  // Rader's pass, then one of span 37
        {FftDesc::nd({3, 24, 40}, {-2, -1}), FftDesc::nd({3, 24, 40}, {-2, -1}), {}},
        {FftDesc::r2c(300, 4), FftDesc::c2r(300, 4), {}},
        {FftDesc::r2c_nd({20, 30}), FftDesc::c2r_nd({20, 30}), {}},
        {FftDesc(1000, 2).with_precision(Precision::f64),
         FftDesc(1000, 2).with_precision(Precision::f64),
         {}},
    };
    for (const Case& c : cases) {
        const auto a = random_bytes(c.fwd.input_bytes(), c.fwd.precision(), 1);
        const auto b = random_bytes(c.fwd.input_bytes(), c.fwd.precision(), 2);
        const auto separate = convolution(c.fwd, c.inv, a, b, false, c.options);
        const auto fused = convolution(c.fwd, c.inv, a, b, true, c.options);
        EXPECT_LE(relative_difference(fused, separate, c.fwd.precision()),
                  c.fwd.precision() == Precision::f32 ? 1e-6 : 1e-14)
            << to_string(c.fwd.transform()) << " " << c.fwd.length();
    }
}

// The convolution node against forward, multiply and inverse nodes: in one pass where the length
// takes one (also with N-D dims together in one pass, f64, in place), in three for a 2D array of a
// pass per dim, and in two plans where the passes do not complete their dims or the problem is real.
TEST_F(GraphTest, ConvolutionNodeMatchesItsSteps) {
    Context& ctx = testing::device();
    struct Case {
        FftDesc fwd;
        Options options;
        size_t passes;  // of the convolution node
        bool in_place = false;
        bool own_glsl = false;  // the product as a GLSL store body, not FusedOps::multiply_store
    };
    const Case cases[] = {
        {FftDesc(256, 6), {}, 1},
        {FftDesc(256, 6), {}, 1, true},
        {FftDesc(256, 6), {}, 1, false, true},
        {FftDesc::nd({2, 96, 128}, {-2, -1}), Options{.max_pass_length = 128}, 3, false, true},
        {FftDesc(2048, 3), {}, 1},
        {FftDesc::nd({3, 24, 40}, {-2, -1}), {}, 0},
        {FftDesc::nd({2, 96, 128}, {-2, -1}), Options{.max_pass_length = 128}, 3},
        {FftDesc(4096, 3), Options{.max_pass_length = 64}, 4},
        {FftDesc::r2c(300, 4), {}, 0},
        {FftDesc(1000, 2).with_precision(Precision::f64), {}, 1},
        // Sides laid out apart (two plans): the spectrum in the output's layout, the result in the
        // input's.
        {FftDesc::guru({{64, 1, 1}}, {{3, 64, 70}}), {}, 0},
        {FftDesc::guru({{64, 3, 1}}, {{3, 1, 64}}), {}, 0},
    };
    // The inverse of a c2c problem reads its output's layout and writes its input's.
    const auto inverse_of = [](const FftDesc& d) {
        auto swapped = [](std::vector<Dim> dims) {
            for (Dim& x : dims) std::swap(x.in_stride, x.out_stride);
            return dims;
        };
        return d.transform() == Transform::r2c
                   ? FftDesc::c2r(300, 4)
                   : FftDesc::guru(swapped(d.dims()), swapped(d.batch_dims())).with_precision(d.precision());
    };
    for (const Case& c : cases) {
        const FftDesc& desc = c.fwd;
        const Precision precision = desc.precision();
        const uint64_t n = desc.output_elements() / desc.batch();  // spectrum points per transform
        const auto x = random_bytes(desc.input_bytes(), precision, 5);
        const auto h = random_bytes(n * complex_bytes(precision), precision, 6);
        const FftDesc inv = inverse_of(desc);
        Buffer bx(ctx, std::max(desc.input_bytes(), inv.output_bytes())), bh(ctx, h.size());
        Buffer node_out(ctx, inv.output_bytes()), steps_out(ctx, inv.output_bytes());
        bh.upload(h.data(), h.size());
        const DataType ct = complex_type(precision);
        // The steps as nodes of their own.
        bx.upload(x.data(), x.size());
        {
            Graph g(ctx);
            const Resource t = g.transient(desc.output_bytes()), rh = g.external(bh);
            g.fft(desc, g.external(bx), t, Direction::forward, c.options);
            g.multiply(t, rh, t, desc.output_elements(), ct, MultiplyOptions{.operand_period = n});
            g.fft(inv, t, g.external(steps_out), Direction::inverse, c.options);
            g.compile().execute();
        }
        Graph g(ctx);
        const Resource rx = g.external(bx), rh = g.external(bh);
        FusedOps product = FusedOps::multiply_store(rh, precision, n);
        if (c.own_glsl) {
            product.callbacks.multiply = false;
            product.callbacks.store = "return cmul(value, operand_at(index % " + std::to_string(n) + "u));";
        }
        g.convolution(desc, rx, c.in_place ? rx : g.external(node_out), product, c.options);
        const CompiledGraph run = g.compile();
        if (c.passes) {
            EXPECT_EQ(run.stats().nodes[0].passes, c.passes) << desc.length();
        }
        EXPECT_EQ(run.stats().dispatches, run.stats().nodes[0].passes);
        run.execute();
        const auto got = c.in_place ? download<uint8_t>(bx, inv.output_bytes())
                                    : download<uint8_t>(node_out, inv.output_bytes());
        EXPECT_LE(relative_difference(got, download<uint8_t>(steps_out, inv.output_bytes()), precision),
                  precision == Precision::f32 ? 1e-6 : 1e-14)
            << to_string(desc.transform()) << " " << desc.length() << (c.in_place ? " in place" : "");
    }
}

// A real window fused into the loads of a c2c and of a c2r transform, against the window as a
// multiply node; a store callback of the caller's own GLSL against the CPU.
TEST_F(GraphTest, FusedLoadsAndOwnCallbacks) {
    Context& ctx = testing::device();
    const uint64_t n = 128, batch = 5, m = n / 2 + 1;
    std::vector<float> window(n);
    for (uint64_t j = 0; j < n; ++j) window[j] = 0.5f - 0.5f * std::cos(6.2831853f * j / n);
    for (const Transform t : {Transform::c2c, Transform::c2r}) {
        const uint64_t row = t == Transform::c2c ? n : m;  // complex points per input row
        const FftDesc desc = t == Transform::c2c ? FftDesc(n, batch) : FftDesc::c2r(n, batch);
        const auto x = testing::random_complex(row * batch, 3);
        Buffer in(ctx, desc.input_bytes()), w(ctx, row * 4), fused_out(ctx, desc.output_bytes()),
            node_out(ctx, desc.output_bytes()), windowed(ctx, desc.input_bytes());
        in.upload(x.data(), desc.input_bytes());
        w.upload(window.data(), row * 4);
        const Direction dir = Direction::inverse;
        Graph g(ctx);
        const Resource rin = g.external(in), rw = g.external(w);
        g.fft(desc, rin, g.external(fused_out), dir, {}, FusedOps::window_load(rw, Precision::f32, row));
        g.multiply(rin, rw, g.external(windowed), row * batch, DataType::complex64, DataType::float32,
                   MultiplyOptions{.operand_period = row});
        g.fft(desc, g.external(windowed), g.external(node_out), dir);
        g.compile().execute();
        EXPECT_LE(relative_difference(download<uint8_t>(fused_out, desc.output_bytes()),
                                      download<uint8_t>(node_out, desc.output_bytes()), Precision::f32),
                  1e-6)
            << to_string(t);
    }

    // The caller's GLSL: keep the real part at load, scale and swap at store (index-dependent).
    // Also in 1184 = 37 x 32 points, whose loads are Rader's gathers at stride 32 and whose
    // stores the pass after it makes.
    for (const uint64_t n : {64u, 1184u}) {
        const FftDesc desc(n, 3);
        const auto x = testing::random_complex(n * 3, 4);
        Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
        in.upload(x.data(), desc.bytes());
        FusedOps own;
        own.callbacks.load = "return vec2(value.x, 0.0);";
        own.callbacks.store = "return (index % 2u == 0u) ? value * 2.0 : value.yx;";
        Graph g(ctx);
        g.fft(desc, g.external(in), g.external(out), Direction::forward, {}, own);
        g.compile().execute();
        std::vector<cd> real_part(x.size()), want(x.size());
        for (size_t i = 0; i < x.size(); ++i) real_part[i] = x[i].real();
        cpu::reference_dft(real_part, want, n, 3, Direction::forward);
        for (size_t i = 0; i < want.size(); ++i)
            want[i] = i % 2 == 0 ? 2.0 * want[i] : cd(want[i].imag(), want[i].real());
        EXPECT_LE(cpu::relative_l2(download<cf>(out, x.size()), want), 5e-7) << n;
    }

    // The same callbacks through Plan directly, with an operand bound by record().
    const FftDesc desc(64, 3);
    const auto x = testing::random_complex(64 * 3, 4);
    Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
    in.upload(x.data(), desc.bytes());
    std::vector<cd> want(x.size());
    FftCallbacks scale_by_operand{
        .store = "return value * operand_at(index).x;", .operand = true, .operand_type = DataType::complex64};
    const Plan plan(ctx, desc, {}, scale_by_operand);
    std::vector<cf> factors(64 * 3);
    for (size_t i = 0; i < factors.size(); ++i) factors[i] = cf(static_cast<float>(i % 7), 0);
    Buffer f(ctx, desc.bytes());
    f.upload(factors.data(), desc.bytes());
    ctx.submit([&](VkCommandBuffer cmd) {
        plan.record(cmd, in.view(), out.view(), {}, Direction::forward, f.view());
    });
    cpu::reference_dft(testing::widen(x), want, 64, 3, Direction::forward);
    for (size_t i = 0; i < want.size(); ++i) want[i] *= double(i % 7);
    EXPECT_LE(cpu::relative_l2(download<cf>(out, x.size()), want), 5e-7);
    EXPECT_THROW(plan.execute(in, out, Direction::forward), Error);  // execute() binds no operand
    EXPECT_THROW(ctx.submit([&](VkCommandBuffer cmd) {
        plan.record(cmd, in.view(), out.view(), {}, Direction::forward);
    }),
                 Error);
}

TEST_F(GraphTest, FusedOperationsRefused) {
    Context& ctx = testing::device();
    Buffer a(ctx, 4096), b(ctx, 4096), op(ctx, 4096);
    auto refused = [&](const FftDesc& desc, const FusedOps& fused, auto&& make_in) {
        Graph g(ctx);
        const Resource ra = g.external(a), rb = g.external(b), ro = g.external(op);
        FusedOps f = fused;
        if (f.operand)
            f.operand = ChunkedView(View{ro, f.operand->chunks[0].offset, f.operand->chunks[0].size});
        g.fft(desc, make_in(ra), rb,
              desc.transform() == Transform::c2r ? Direction::inverse : Direction::forward, {}, f);
        EXPECT_THROW(g.compile(), Error);
    };
    auto whole = [](Resource r) { return ChunkedView(r); };
    FusedOps load;
    load.callbacks.load = "return value;";
    FusedOps store;
    store.callbacks.store = "return value;";
    FusedOps bad_glsl;
    bad_glsl.callbacks.store = "return no_such_function(value);";
    // A callback on a real side, GLSL that does not compile, chunked arrays.
    refused(FftDesc::r2c(64), load, whole);
    refused(FftDesc::c2r(64), store, whole);
    refused(FftDesc(64), bad_glsl, whole);
    refused(FftDesc(64), store, [](Resource r) { return ChunkedView({View{r, 0, 256}, View{r, 256, 256}}); });
    // An operand at an offset off the storage-buffer alignment, of another precision, or missing.
    FusedOps misaligned = FusedOps::multiply_store(View{Resource{}, 8, 512}, Precision::f32);
    refused(FftDesc(64), misaligned, whole);
    FusedOps wrong_type = FusedOps::multiply_store(View{Resource{}, 0, 1024}, Precision::f64);
    refused(FftDesc(64), wrong_type, whole);
    FusedOps missing = FusedOps::multiply_store(View{Resource{}, 0, 512}, Precision::f32);
    missing.operand.reset();
    refused(FftDesc(64), missing, whole);
    // An operand shorter than the product reads (64 points, or a period of 64), or than a window's
    // period; an operand view for callbacks that read none.
    refused(FftDesc(64), FusedOps::multiply_store(View{Resource{}, 0, 256}, Precision::f32), whole);
    refused(FftDesc(64), FusedOps::multiply_store(View{Resource{}, 0, 256}, Precision::f32, 64), whole);
    refused(FftDesc(64), FusedOps::window_load(View{Resource{}, 0, 128}, Precision::f32, 64), whole);
    FusedOps unread;
    unread.operand = View{Resource{}, 0, 512};
    refused(FftDesc(64), unread, whole);
}

// numpy.fft.fftshift and ifftshift of an n-D array, by the definition.
std::vector<float> shifted(const std::vector<float>& in, const std::vector<uint64_t>& shape,
                           const std::vector<bool>& axes, bool inverse) {
    std::vector<float> out(in.size());
    for (uint64_t o = 0; o < in.size(); ++o) {
        uint64_t rest = o, src = 0, stride = 1;
        for (size_t d = shape.size(); d-- > 0;) {
            const uint64_t n = shape[d], od = rest % n;
            rest /= n;
            const uint64_t shift = axes[d] ? (inverse ? n - n / 2 : n / 2) : 0;
            src += ((od + n - shift) % n) * stride;
            stride *= n;
        }
        out[o] = in[src];
    }
    return out;
}

TEST_F(GraphTest, LayoutNodes) {
    Context& ctx = testing::device();
    const std::vector<uint64_t> shape = {5, 6, 3};
    std::vector<float> x(90);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
    Buffer in(ctx, 90 * 4), all(ctx, 90 * 4), last(ctx, 90 * 4), back(ctx, 90 * 4);
    in.upload(x.data(), 90 * 4);
    {
        Graph g(ctx);
        const Resource ra = g.external(all);
        g.fftshift(g.external(in), ra, shape, {}, DataType::float32);
        g.fftshift(ra, g.external(back), shape, {}, DataType::float32, true);
        g.fftshift(g.external(in), g.external(last), shape, {-1, 0}, DataType::float32);
        g.compile().execute();
    }
    EXPECT_EQ(download<float>(all, 90), shifted(x, shape, {true, true, true}, false));
    EXPECT_EQ(download<float>(back, 90), x);
    EXPECT_EQ(download<float>(last, 90), shifted(x, shape, {true, false, true}, false));

    // Zero padding 5x6x3 to 7x6x4 complex values, and cropping it back to 2x3x2.
    const std::vector<uint64_t> big = {7, 6, 4}, small = {2, 3, 2};
    const auto z = testing::random_complex(90, 4);
    Buffer zin(ctx, 90 * 8), padded(ctx, 168 * 8), cropped(ctx, 12 * 8);
    zin.upload(z.data(), 90 * 8);
    Graph g(ctx);
    const Resource rp = g.external(padded);
    g.zero_pad(g.external(zin), rp, shape, big, DataType::complex64);
    g.crop(rp, g.external(cropped), big, small, DataType::complex64);
    g.compile().execute();
    const auto p = download<cf>(padded, 168), c = download<cf>(cropped, 12);
    for (uint64_t i = 0; i < 7; ++i)
        for (uint64_t j = 0; j < 6; ++j)
            for (uint64_t k = 0; k < 4; ++k) {
                const cf want = i < 5 && k < 3 ? z[(i * 6 + j) * 3 + k] : cf(0);
                EXPECT_EQ(p[(i * 6 + j) * 4 + k], want) << i << "," << j << "," << k;
                if (i < 2 && j < 3 && k < 2) {
                    EXPECT_EQ(c[(i * 3 + j) * 2 + k], want);
                }
            }
}

// A random partition of `bytes` (whole elements) into chunks of a buffer: empty chunks, gaps
// between them, and spare capacity at the end. Returns the chunks; `space` is the bytes they span.
std::vector<View> random_chunks(std::mt19937& gen, const Resource& r, uint64_t bytes, uint32_t element,
                                uint64_t& space) {
    std::vector<View> chunks;
    uint64_t at = 0, left = bytes;
    std::uniform_int_distribution<int> pick(0, 9);
    while (left > 0) {
        const int kind = pick(gen);
        at += element * static_cast<uint64_t>(pick(gen) % 3);  // a gap of up to two elements
        uint64_t take;
        if (kind == 0) {
            take = 0;  // an empty chunk
        } else {
            const uint64_t elements = left / element;
            take = element * std::min<uint64_t>(elements, 1 + gen() % std::max<uint64_t>(1, elements / 3));
        }
        chunks.push_back(View{r, at, take});
        at += take;
        left -= take;
    }
    // Spare capacity: the last chunk is longer than the array needs.
    chunks.back().size += 2 * element;
    space = at + 2 * element + 8;
    return chunks;
}

// Arrays in random chunks give what contiguous ones give, bit for bit, and every byte outside the
// array's own elements keeps its value: FFTs (c2c, r2c, c2r, in place over the same chunks) and an
// elementwise product.
TEST_F(GraphTest, ChunkedArraysMatchContiguous) {
    Context& ctx = testing::device();
    std::mt19937 gen(2026);
    struct Case {
        FftDesc desc;
        Direction direction;
    };
    const Case cases[] = {
        {FftDesc(64, 37), Direction::forward},
        {FftDesc(4096, 5), Direction::inverse},
        {FftDesc::r2c(90, 11), Direction::forward},
        {FftDesc::c2r(90, 11), Direction::inverse},
        {FftDesc::nd({7, 12, 10}, {-2, -1}), Direction::forward},
    };
    for (int trial = 0; trial < 3; ++trial)
        for (const Case& c : cases) {
            const FftDesc& desc = c.desc;
            const uint64_t in_bytes = desc.input_bytes(), out_bytes = desc.output_bytes();
            std::vector<uint8_t> x(in_bytes);
            for (size_t i = 0; i < in_bytes; i += 4) {
                const float f = std::uniform_real_distribution<float>(-1, 1)(gen);
                std::memcpy(x.data() + i, &f, 4);
            }
            // Contiguous.
            Buffer cin(ctx, in_bytes), cout(ctx, out_bytes);
            cin.upload(x.data(), in_bytes);
            {
                Graph g(ctx);
                g.fft(desc, g.external(cin), g.external(cout), c.direction);
                g.compile().execute();
            }
            const auto want = download<uint8_t>(cout, out_bytes);
            // Chunked: input chunks in one buffer, output chunks in another.
            Graph g(ctx);
            uint64_t in_space = 0, out_space = 0;
            std::vector<View> in_chunks =
                random_chunks(gen, Resource{}, in_bytes, desc.input_element_bytes(), in_space);
            std::vector<View> out_chunks =
                random_chunks(gen, Resource{}, out_bytes, desc.output_element_bytes(), out_space);
            Buffer bin(ctx, in_space), bout(ctx, out_space);
            bin.fill(kPoison);
            bout.fill(kPoison);
            const Resource rin = g.external(bin), rout = g.external(bout);
            uint64_t pos = 0;
            for (View& v : in_chunks) {
                v.resource = rin;
                const uint64_t take = std::min(v.size, in_bytes - pos);
                if (take) bin.upload(x.data() + pos, take, v.offset);
                pos += take;
            }
            for (View& v : out_chunks) v.resource = rout;
            g.fft(desc, in_chunks, out_chunks, c.direction);
            g.compile().execute();
            // The output, gathered from its chunks; the rest of both buffers untouched.
            const auto raw_out = download<uint8_t>(bout, out_space),
                       raw_in = download<uint8_t>(bin, in_space);
            std::vector<uint8_t> got;
            std::vector<bool> used_out(out_space, false), used_in(in_space, false);
            for (const View& v : out_chunks) {
                const uint64_t take = std::min(v.size, out_bytes - got.size());
                got.insert(got.end(), raw_out.begin() + v.offset, raw_out.begin() + v.offset + take);
                std::fill(used_out.begin() + v.offset, used_out.begin() + v.offset + take, true);
            }
            pos = 0;
            for (const View& v : in_chunks) {
                const uint64_t take = std::min(v.size, in_bytes - pos);
                EXPECT_EQ(std::memcmp(raw_in.data() + v.offset, x.data() + pos, take), 0) << "input changed";
                std::fill(used_in.begin() + v.offset, used_in.begin() + v.offset + take, true);
                pos += take;
            }
            EXPECT_EQ(got, want) << "trial " << trial << " " << to_string(desc.transform()) << " n "
                                 << desc.length();
            size_t stray = 0;
            for (uint64_t b = 0; b + 4 <= out_space; b += 4)
                if (!used_out[b]) stray += testing::poisoned_words(raw_out.data() + b, 4) != 1;
            for (uint64_t b = 0; b + 4 <= in_space; b += 4)
                if (!used_in[b]) stray += testing::poisoned_words(raw_in.data() + b, 4) != 1;
            EXPECT_EQ(stray, 0u) << "bytes outside the arrays were written";

            // In place over the same chunks (c2c).
            if (desc.transform() != Transform::c2c) continue;
            Graph h(ctx);
            const Resource rio = h.external(bin);
            for (View& v : in_chunks) v.resource = rio;
            h.fft(desc, in_chunks, in_chunks, c.direction);
            h.compile().execute();
            const auto raw = download<uint8_t>(bin, in_space);
            std::vector<uint8_t> in_place;
            for (const View& v : in_chunks) {
                const uint64_t take = std::min(v.size, out_bytes - in_place.size());
                in_place.insert(in_place.end(), raw.begin() + v.offset, raw.begin() + v.offset + take);
            }
            EXPECT_EQ(in_place, want) << "in place, trial " << trial;
        }

    // An elementwise product over three different partitions.
    const uint64_t count = 777;
    const auto a = testing::random_complex(count, 10), b = testing::random_complex(count, 11);
    uint64_t sa = 0, sb = 0, so = 0;
    auto ca = random_chunks(gen, Resource{}, count * 8, 8, sa),
         cb = random_chunks(gen, Resource{}, count * 8, 8, sb),
         co = random_chunks(gen, Resource{}, count * 8, 8, so);
    Buffer ba(ctx, sa), bb(ctx, sb), bo(ctx, so);
    auto scatter = [&](Buffer& buf, const std::vector<View>& chunks, const std::vector<cf>& v) {
        uint64_t pos = 0;
        for (const View& c : chunks) {
            const uint64_t take = std::min(c.size, count * 8 - pos);
            if (take) buf.upload(reinterpret_cast<const uint8_t*>(v.data()) + pos, take, c.offset);
            pos += take;
        }
    };
    scatter(ba, ca, a);
    scatter(bb, cb, b);
    bo.fill(kPoison);
    Graph g(ctx);
    const Resource ra = g.external(ba), rb = g.external(bb), ro = g.external(bo);
    for (auto& v : ca) v.resource = ra;
    for (auto& v : cb) v.resource = rb;
    for (auto& v : co) v.resource = ro;
    g.multiply(ca, cb, co, count, DataType::complex64);
    g.compile().execute();
    const auto raw = download<uint8_t>(bo, so);
    std::vector<cf> got;
    for (const View& c : co) {
        const uint64_t take = std::min(c.size, count * 8 - got.size() * 8);
        for (uint64_t o = 0; o < take; o += 8) {
            cf v;
            std::memcpy(&v, raw.data() + c.offset + o, 8);
            got.push_back(v);
        }
    }
    ASSERT_EQ(got.size(), count);
    for (uint64_t i = 0; i < count; ++i) EXPECT_EQ(got[i], a[i] * b[i]) << i;
}

// Arrays over the device's storage-buffer range (lavapipe's 128 MiB) run in blocks through
// bounded scratch: a plain view too large for one binding.
TEST_F(GraphTest, ViewsOverTheBindingRangeRunInBlocks) {
    Context& ctx = testing::device();
    const uint64_t range = ctx.caps().max_storage_buffer_range;
    const uint64_t n = 4096, batch = range / (n * 8) + 300;  // a little over the range
    if (batch * n * 8 > (uint64_t(1) << 31)) GTEST_SKIP() << "storage-buffer range too large to exceed here";
    const FftDesc desc(n, batch);
    std::vector<cf> x(n * batch);
    std::mt19937 gen(1);
    std::uniform_real_distribution<float> d(-1, 1);
    for (auto& v : x) v = {d(gen), d(gen)};
    Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
    in.upload(x.data(), desc.bytes());
    Graph g(ctx);
    g.fft(desc, g.external(in), g.external(out), Direction::forward);
    const CompiledGraph run = g.compile();
    // Two blocks, each bound in place in the one chunk: the plan's passes twice, nothing staged.
    EXPECT_EQ(run.stats().dispatches, 2 * run.stats().nodes[0].passes);
    run.execute();
    // Rows at the start, around each block boundary and at the end.
    for (const uint64_t row : {uint64_t(0), batch / 2, batch - 301, batch - 300, batch - 1}) {
        std::vector<cf> got(n);
        out.download(got.data(), n * 8, row * n * 8);
        std::vector<cd> want(n);
        cpu::reference_dft(testing::widen(std::vector<cf>(x.begin() + row * n, x.begin() + (row + 1) * n)),
                           want, n, 1, Direction::forward);
        EXPECT_LE(cpu::relative_l2(got, want), 5e-7) << "row " << row;
    }
}

// The support query: how a transform runs with its arrays in one buffer each, in chunks, or over the
// storage-buffer range, and why not where it cannot.
TEST_F(GraphTest, SupportQuery) {
    Context& ctx = testing::device();
    const Support small = support(ctx, FftDesc(256, 6));
    EXPECT_TRUE(small.supported) << small.reason;
    EXPECT_EQ(small.passes, 1u);
    EXPECT_GT(small.workgroup_size, 0u);
    EXPECT_FALSE(small.blocks);
    EXPECT_FALSE(small.summary.empty());
    // 256 points' kernel waits on subgroup barriers: automatic; portable waits on none.
    EXPECT_EQ(small.strategy, Strategy::automatic);
    EXPECT_EQ(small.subgroup_stages, 0u);
    EXPECT_EQ(support(ctx, FftDesc(256, 6), Options{.strategy = Strategy::portable}).strategy,
              Strategy::portable);
    const Support sub = support(ctx, FftDesc(64, 6), Options{.strategy = Strategy::subgroups});
    EXPECT_EQ(sub.strategy, Strategy::subgroups);
    EXPECT_EQ(sub.subgroup_stages, 1u);
    EXPECT_EQ(sub.subgroup_eligible_stages, 1u);
    // Under automatic, no shuffles where an exchange takes more than one lane swap: 64 points
    // (8 invocations per transform, lavapipe's subgroup size; stages of 8 and 8) take three.
    const Support eligible = support(ctx, FftDesc(64, 6));
    EXPECT_EQ(eligible.subgroup_stages, 0u);
    EXPECT_EQ(eligible.subgroup_eligible_stages, 1u);
    EXPECT_EQ(support(ctx, FftDesc(64, 6), Options{.strategy = Strategy::dft}).strategy, Strategy::dft);
    // Over the range: blocks of whole transforms.
    const uint64_t range = ctx.caps().max_storage_buffer_range;
    const FftDesc big(4096, range / (4096 * 8) + 300);
    const Support over = support(ctx, big);
    EXPECT_TRUE(over.supported) << over.reason;
    EXPECT_TRUE(over.blocks);
    EXPECT_EQ(over.block_count, 2u);
    EXPECT_EQ(over.transforms_per_block * 2 >= big.batch(), true);
    // Chunks: two halves of a buffer.
    Buffer a(ctx, 2 * 256 * 6 * 8);
    const FftDesc desc(256, 6);
    const Support chunked =
        support(ctx, desc, {a.view(0, 3 * 256 * 8), a.view(4 * 256 * 8, 3 * 256 * 8)}, {a.view()});
    EXPECT_TRUE(chunked.supported) << chunked.reason;
    EXPECT_TRUE(chunked.blocks);
    // Why not: chunks too small or off element boundaries, a strided layout in chunks, a plan the
    // device cannot run.
    EXPECT_FALSE(support(ctx, desc, {a.view(0, 256 * 8)}, {a.view()}).supported);
    const Support misaligned = support(ctx, desc, {a.view(4, 256 * 6 * 8)}, {a.view()});
    EXPECT_FALSE(misaligned.supported);
    EXPECT_NE(misaligned.reason.find("element boundaries"), std::string::npos) << misaligned.reason;
    const FftDesc strided = FftDesc::nd({256, 6}, {0});
    const Support s =
        support(ctx, strided, {a.view(0, 3 * 256 * 8), a.view(4 * 256 * 8, 3 * 256 * 8)}, {a.view()});
    EXPECT_FALSE(s.supported);
    EXPECT_NE(s.reason.find("packed"), std::string::npos) << s.reason;
    const Support huge = support(ctx, FftDesc(uint64_t(1) << 33));
    EXPECT_FALSE(huge.supported);
    EXPECT_FALSE(huge.reason.empty());
}

// A binding starts at its view's offset aligned down to minStorageBufferOffsetAlignment, so it
// may cover bytes just before its array: nodes, and dispatches of one node, whose bindings share
// bytes that one of them writes are ordered by a barrier (the fixture fails on the
// synchronization validation layer's hazards).
TEST_F(GraphTest, BindingsAlignedDownAreOrdered) {
    Context& ctx = testing::device();
    const uint64_t align = ctx.caps().min_storage_buffer_offset_alignment;
    const auto x = testing::random_complex(127, 31);
    Buffer a(ctx, 127 * 8), b(ctx, 512);
    // Two arrays back to back in one buffer: 63 values scaled in place, then an FFT of the next
    // 64, whose binding starts 8 bytes into the first where the alignment is over 8.
    a.upload(x.data(), 127 * 8);
    {
        Graph g(ctx);
        const Resource ra = g.external(a), rb = g.external(b);
        g.scale(View{ra, 0, 63 * 8}, View{ra, 0, 63 * 8}, 63, DataType::complex64, 2.0);
        g.fft(FftDesc(64), View{ra, 63 * 8, 512}, View{rb, 0, 512}, Direction::forward);
        const CompiledGraph run = g.compile();
        EXPECT_EQ(run.levels().size(), align > 8 ? 2u : 1u);
        run.execute();
        const auto scaled = download<cf>(a, 63);
        for (size_t i = 0; i < 63; ++i) EXPECT_EQ(scaled[i], x[i] * 2.0f) << i;
        const std::vector<cd> tail(x.begin() + 63, x.end());
        std::vector<cd> want(64);
        cpu::reference_dft(tail, want, 64, 1, Direction::forward);
        EXPECT_LE(cpu::relative_l2(download<cf>(b, 64), want), 1e-6);
    }
    // One node in place over two chunks that lie end to end at an odd element: its second
    // dispatch's bindings start inside the first's elements.
    a.upload(x.data(), 127 * 8);
    Graph g(ctx);
    const Resource ra = g.external(a);
    const ChunkedView both({View{ra, 0, 7 * 8}, View{ra, 7 * 8, 120 * 8}});
    g.scale(both, both, 127, DataType::complex64, 3.0);
    const CompiledGraph run = g.compile();
    EXPECT_EQ(run.stats().barriers, align > 8 ? 1u : 0u);
    run.execute();
    const auto scaled = download<cf>(a, 127);
    for (size_t i = 0; i < 127; ++i) EXPECT_EQ(scaled[i], x[i] * 3.0f) << i;
}

// Errors of the planner, the kernel compiler and the descs a node builds name the node, as the
// graph's own checks do, in compile() and in stats(), and keep their type.
TEST_F(GraphTest, ErrorsNameTheNode) {
    Context& ctx = testing::device();
    Buffer a(ctx, 4096), b(ctx, 4096);
    const auto message = [&](auto&& build, bool stats) -> std::string {
        Graph g(ctx);
        const Resource ra = g.external(a), rb = g.external(b);
        g.scale(View{ra, 2048, 64}, View{rb, 2048, 64}, 8, DataType::complex64, 2);
        build(g, ra, rb);
        try {
            stats ? (void)g.stats() : (void)g.compile();
        } catch (const Error& e) {
            return e.what();
        }
        return "no error";
    };
    const auto bad_radix = [](Graph& g, Resource ra, Resource rb) {
        g.fft(FftDesc(64), View{ra, 0, 512}, View{rb, 0, 512}, Direction::forward, Options{.max_radix = 3});
    };
    for (const bool stats : {false, true})
        EXPECT_EQ(message(bad_radix, stats),
                  "Graph node 1 (fft): Options.max_radix must be 0, 2, 4, 8, 16 or 32, got 3");
    EXPECT_TRUE(message(
                    [](Graph& g, Resource ra, Resource rb) {
                        FusedOps f;
                        f.callbacks.store = "not glsl";
                        g.fft(FftDesc(64), View{ra, 0, 512}, View{rb, 0, 512}, Direction::forward, {}, f);
                    },
                    false)
                    .starts_with("Graph node 1 (fft): compiling kernel"));
    Buffer c(ctx, 70000 * 8), d(ctx, 70000 * 8);
    Graph g(ctx);
    g.fft(FftDesc(70000), g.external(c), g.external(d), Direction::forward,
          Options{.strategy = Strategy::dft});
    EXPECT_THROW(g.compile(), UnsupportedError);
}

// A product fused into a transform reads its period of the operand, not the whole view.
TEST_F(GraphTest, StatsCountTheFusedOperandRead) {
    Context& ctx = testing::device();
    Buffer in(ctx, 64 * 8 * 4), out(ctx, 64 * 8 * 4), h(ctx, 65536);
    Graph g(ctx);
    const Resource rh = g.external(h);
    g.fft(FftDesc(64, 4), g.external(in), g.external(out), Direction::forward, {},
          FusedOps::multiply_store(rh, Precision::f32, 64));
    const uint64_t want = 64 * 8 * 4 + 64 * 8;
    EXPECT_EQ(g.stats().nodes[0].bytes_read, want);
    EXPECT_EQ(g.compile().stats().nodes[0].bytes_read, want);
}

TEST_F(GraphTest, CompileRefusesBadNodes) {
    Context& ctx = testing::device();
    Buffer a(ctx, 4096), b(ctx, 4096);
    auto refused = [&](auto&& build) {
        Graph g(ctx);
        const Resource ra = g.external(a), rb = g.external(b);
        build(g, ra, rb);
        EXPECT_THROW(g.compile(), Error);
    };
    // Output chunks overlapping each other.
    refused([](Graph& g, Resource ra, Resource rb) {
        g.scale(ra, std::vector<View>{View{rb, 0, 64}, View{rb, 32, 64}}, 16, DataType::complex64, 2);
    });
    // The output overlapping the input other than element for element.
    refused([](Graph& g, Resource ra, Resource) {
        g.scale(View{ra, 0, 128}, View{ra, 8, 128}, 16, DataType::complex64, 2);
    });
    // A view past the resource's end, one not on element boundaries, an array too small.
    refused([](Graph& g, Resource ra, Resource rb) {
        g.scale(View{ra, 4000, 128}, rb, 16, DataType::complex64, 2);
    });
    refused([](Graph& g, Resource ra, Resource rb) {
        g.scale(View{ra, 4, 128}, rb, 16, DataType::complex64, 2);
    });
    refused([](Graph& g, Resource ra, Resource rb) {
        g.scale(View{ra, 0, 64}, rb, 16, DataType::complex64, 2);
    });
    // A resource of another graph.
    refused([&](Graph& g, Resource, Resource rb) {
        Graph other(ctx);
        g.scale(other.external(a), rb, 16, DataType::complex64, 2);
    });
    // A complex operand for a real array; a count of 0; a copy of part of a word.
    refused([](Graph& g, Resource ra, Resource rb) {
        g.multiply(ra, ra, rb, 16, DataType::float32, DataType::complex64);
    });
    refused([](Graph& g, Resource ra, Resource rb) { g.scale(ra, rb, 0, DataType::complex64, 2); });
    // Counts whose bytes wrap past 2^64 (to 8 and to 0 bytes), not past the views' ends.
    refused([](Graph& g, Resource ra, Resource rb) {
        g.scale(ra, rb, (uint64_t(1) << 61) + 1, DataType::complex64, 2);
    });
    refused([](Graph& g, Resource ra, Resource rb) {
        g.multiply(ra, ra, rb, uint64_t(1) << 60, DataType::complex128);
    });
    refused([](Graph& g, Resource ra, Resource rb) { g.copy(ra, rb, 6); });
    // FFTs: partial overlap, r2c inverse, in place between different layouts.
    refused([](Graph& g, Resource ra, Resource) {
        g.fft(FftDesc(64, 2), View{ra, 0, 1024}, View{ra, 512, 1024}, Direction::forward);
    });
    refused([](Graph& g, Resource ra, Resource rb) { g.fft(FftDesc::r2c(64), ra, rb, Direction::inverse); });
    refused([](Graph& g, Resource ra, Resource) { g.fft(FftDesc::r2c(64, 2), ra, ra, Direction::forward); });
    // In place with an output view too short for both sides (c2r padded: the reals need more).
    refused([](Graph& g, Resource ra, Resource) {
        const FftDesc c2r = FftDesc::c2r(62, 4, RealLayout::padded);
        g.fft(c2r, View{ra, 0, c2r.input_bytes()}, View{ra, 0, c2r.output_bytes() - 8}, Direction::inverse);
    });
    // Chunked: in place between different layouts; an output layout with gaps.
    refused([](Graph& g, Resource ra, Resource) {
        const FftDesc d = FftDesc::guru({Dim{16, 1, 2}}, {Dim{4, 16, 31}});
        const std::vector<View> chunks{View{ra, 0, 1024}, View{ra, 1024, 1024}};  // both sides fit
        g.fft(d, chunks, chunks, Direction::forward);
    });
    refused([](Graph& g, Resource ra, Resource rb) {
        const FftDesc d = FftDesc::guru({Dim{16, 1, 2}}, {Dim{4, 16, 31}});
        g.fft(d, std::vector<View>{View{ra, 0, 256}, View{ra, 256, 256}}, rb, Direction::forward);
    });
    // A shape of more elements than 64 bits count.
    refused([](Graph& g, Resource ra, Resource rb) {
        g.zero_pad(ra, rb, {4, 4}, {uint64_t(1) << 40, uint64_t(1) << 40}, DataType::float32);
    });
    // Layout nodes: padding that shrinks, cropping that grows, shapes of different ranks.
    refused([](Graph& g, Resource ra, Resource rb) {
        g.zero_pad(ra, rb, {4, 4}, {4, 3}, DataType::float32);
    });
    refused([](Graph& g, Resource ra, Resource rb) { g.crop(ra, rb, {4, 4}, {4, 5}, DataType::float32); });
    refused([](Graph& g, Resource ra, Resource rb) { g.crop(ra, rb, {4, 4}, {4}, DataType::float32); });
    // fftshift checks its axes when added.
    Graph g(ctx);
    EXPECT_THROW(g.fftshift(g.external(a), g.external(b), {4, 4}, {2}, DataType::float32), Error);
    EXPECT_THROW(g.fftshift(g.external(a), g.external(b), {4, 4}, {1, -1}, DataType::float32), Error);
    EXPECT_THROW(g.transient(0), Error);
    EXPECT_THROW(g.external(VK_NULL_HANDLE, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), Error);
    // So do element types and precisions that are none of their enum's values (cast integers).
    const Resource ra = g.external(a), rb = g.external(b);
    const auto bad_type = static_cast<DataType>(9);
    const auto bad_precision = static_cast<Precision>(5);
    EXPECT_THROW(g.scale(ra, rb, 16, bad_type, 2), Error);
    EXPECT_THROW(g.multiply(ra, ra, rb, 16, DataType::complex64, bad_type), Error);
    EXPECT_THROW(g.magnitude_squared(ra, rb, 16, bad_precision), Error);
    EXPECT_THROW(g.log_scale(ra, rb, 16, bad_precision), Error);
    EXPECT_THROW(g.fftshift(ra, rb, {4, 4}, {}, bad_type), Error);
    EXPECT_THROW(g.zero_pad(ra, rb, {4}, {8}, bad_type), Error);
    EXPECT_THROW(FusedOps::multiply_store(ra, bad_precision), Error);
    EXPECT_THROW(FusedOps::window_load(ra, bad_precision, 16), Error);
    EXPECT_EQ(g.stats().nodes.size(), 0u);
}

}  // namespace
}  // namespace twiddle
