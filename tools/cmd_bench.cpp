// twiddle bench: throughput of batched 1D, 2D and 3D transforms against a copy kernel on the same
// device, each case gated on its accuracy against the long-double reference.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <type_traits>

#include "codegen/pass_kernel.hpp"
#include "commands.hpp"
#include "cpu/reference.hpp"
#include "file_io.hpp"
#include "shape_args.hpp"
#include "twiddle/twiddle.hpp"
#include "vk/compute_kernel.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"

namespace twiddle::cli {

namespace {

struct BenchArgs {
    bool quick = false;
    uint32_t total_log2 = 26;  // complex values per case
    uint32_t min_log2 = 3, max_log2 = 24;
    std::vector<uint64_t> lengths;    // overrides the sweep
    std::vector<std::string> shapes;  // multi-dimensional cases, transformed over every axis
    uint32_t reps = 20;
    double max_error = 0;  // 0: 5e-7 in f32, 1e-14 in f64
    bool f64 = false;
    bool real = false;  // r2c (numpy rfftn over every axis) instead of complex transforms
    bool kernel_stats = false;
    std::vector<uint32_t> copy_shared;  // shared-memory footprints to time the copy with
    Options options;
    std::string strategy = "auto";
    std::string out;
    // Spherical-harmonic Fourier stages instead of the transforms: NLATxNPHIxMMAX each.
    std::vector<std::string> sht;
    uint64_t fields = 1;
    // Convolutions instead: the shape of one transform each, batched to 2^total values.
    std::vector<std::string> convolve;
};

// One way of running one convolution case: a forward transform, the product with one filter
// spectrum for every transform, the inverse transform.
struct ConvolveRow {
    std::vector<uint64_t> shape;
    uint64_t batch = 0;
    std::string variant;  // "node", "store" or "separate"
    size_t dispatches = 0;
    double ms = 0, gbps = 0, copy_fraction = 0, rel_l2 = 0;
    std::string status;
};

// One direction of one spherical-harmonic Fourier stage.
struct ShtRow {
    sht::Grid grid;
    bool synthesis = true;
    size_t passes = 0;
    double ms = 0, gbps = 0, copy_fraction = 0, rel_l2 = 0;
    std::string status;
};

struct Row {
    std::vector<uint64_t> shape;  // of one transform; n is its product
    uint64_t n = 0, batch = 0;
    size_t passes = 0;
    double ms = 0, gbps = 0, copy_fraction = 0, rel_l2 = 0;
    std::string status;  // "ok", or why the case was not timed
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Runs `record` back to back for at least `seconds` of wall time. GPUs lower their clocks while
// the host works between cases and raise them again only under sustained load: without this the
// first case of a sweep ran at full clock and the rest several times slower.
void warm_up(const Context& ctx, double seconds, const std::function<void(VkCommandBuffer)>& record) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    uint32_t batch = 1;
    while (std::chrono::duration<double>(clock::now() - start).count() < seconds) {
        const auto t0 = clock::now();
        ctx.submit([&](VkCommandBuffer cmd) {
            for (uint32_t i = 0; i < batch; ++i) {
                vk::record_full_barrier(cmd);
                record(cmd);
            }
        });
        if (std::chrono::duration<double>(clock::now() - t0).count() < 0.02 && batch < 4096) batch *= 2;
    }
}

// Times `record` reps times in one submission, with a barrier before each interval, after a
// warm-up, and returns the median milliseconds.
double time_median(const Context& ctx, uint32_t reps, const std::function<void(VkCommandBuffer)>& record) {
    warm_up(ctx, 1.0, record);
    GpuTimer timer(ctx, reps);
    ctx.submit([&](VkCommandBuffer cmd) {
        timer.reset(cmd);
        for (uint32_t r = 0; r < reps; ++r) {
            vk::record_full_barrier(cmd);
            timer.begin(cmd, r);
            record(cmd);
            timer.end(cmd, r);
        }
    });
    return median(timer.read_ms());
}

// Bandwidth of a plain copy of `bytes` (read + written), the yardstick of every case.
double copy_gbps(const Context& ctx, uint64_t bytes, uint32_t reps, uint32_t shared_bytes = 0) {
    constexpr uint32_t kWorkgroup = 256;
    vk::ComputeKernel copy(*ctx.state(), codegen::generate_copy_kernel(kWorkgroup, shared_bytes), "copy", 2,
                           4);
    Buffer src(ctx, bytes), dst(ctx, bytes);
    src.fill(0x3f800000u);
    const uint32_t words = static_cast<uint32_t>(bytes / 16);
    const VkDescriptorBufferInfo buffers[] = {{src.handle(), 0, bytes}, {dst.handle(), 0, bytes}};
    std::vector<uint8_t> push(4);
    std::memcpy(push.data(), &words, 4);
    const double ms = time_median(ctx, reps, [&](VkCommandBuffer cmd) {
        copy.dispatch(cmd, buffers, push, (words + kWorkgroup - 1) / kWorkgroup);
    });
    return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

// The buffers every case uses: allocated once, for the largest case, so that cases do not churn
// device memory between them. Scratch grows when a case needs more (Bluestein's takes two
// arrays 2 to 4 times longer than its data).
struct Buffers {
    Buffer in, out;
    std::optional<Buffer> scratch;
    Buffers(const Context& ctx, uint64_t bytes)
        : in(ctx, bytes), out(ctx, bytes), scratch(std::in_place, ctx, bytes) {}
    const Buffer& scratch_of(const Context& ctx, uint64_t bytes) {
        if (bytes > scratch->size()) {
            scratch.reset();
            scratch.emplace(ctx, bytes);
        }
        return *scratch;
    }
};

// One case in precision T (float or double): `batch` arrays of `shape`, one after another,
// each transformed over all of its axes (complex to complex, or with --real real to half
// spectrum). GB/s counts the bytes of the input and of the output once.
template <typename T>
Row run_case(const Context& ctx, Buffers& buffers, const std::vector<uint64_t>& shape, const BenchArgs& a,
             double copy) {
    Row row;
    row.shape = shape;
    row.n = 1;
    for (uint64_t e : shape) row.n *= e;
    const uint64_t n = row.n;
    row.batch = std::max<uint64_t>(1, (uint64_t(1) << a.total_log2) / n);
    const Precision precision = std::is_same_v<T, double> ? Precision::f64 : Precision::f32;
    // The arrays of a case, and of `count` of them, as one batched problem.
    auto problem = [&](uint64_t count) {
        std::vector<uint64_t> full{count};
        std::vector<int> axes;
        for (uint64_t e : shape) {
            axes.push_back(static_cast<int>(full.size()));
            full.push_back(e);
        }
        return (a.real ? FftDesc::r2c_nd(full, axes) : FftDesc::nd(full, axes)).with_precision(precision);
    };
    const Plan plan(ctx, problem(row.batch), a.options);
    row.passes = plan.passes();
    if (a.kernel_stats) {
        const auto stats = plan.kernel_statistics();
        for (size_t p = 0; p < stats.size(); ++p) {
            std::printf("N=%llu pass %zu:", static_cast<unsigned long long>(n), p);
            for (const auto& [name, value] : stats[p]) std::printf(" [%s: %s]", name.c_str(), value.c_str());
            std::printf("\n");
        }
    }
    const uint64_t in_bytes = plan.desc().input_bytes(), out_bytes = plan.desc().output_bytes();
    if (std::max(in_bytes, out_bytes) > buffers.in.size())
        throw UnsupportedError("case larger than the benchmark's buffers");
    Buffer& in = buffers.in;
    const BufferView in_view = in.view(0, in_bytes), out_view = buffers.out.view(0, out_bytes);
    const uint64_t scratch_bytes = plan.scratch_bytes(Placement::out_of_place);
    const BufferView scratch_view =
        scratch_bytes ? buffers.scratch_of(ctx, scratch_bytes).view(0, scratch_bytes) : BufferView{};

    // Random input; accuracy on the first and the last rows (at most 2^15 values each) against
    // the reference, so that the first and the last workgroups are both checked.
    // Random rows, repeated after an odd number of rows (about 2^20 values), so that no
    // power-of-two stride between tiles meets equal data: drawing all 2^26 values took longer
    // than timing a case.
    // Words of T: one per real, two per complex value. A real array's values pair up into the
    // complex values the reference reads (cpu::buffer_slots).
    const uint64_t in_words = in_bytes / sizeof(T) / row.batch, out_words = out_bytes / sizeof(T) / row.batch;
    std::mt19937 gen(static_cast<uint32_t>(n));
    std::uniform_real_distribution<float> dist(-1, 1);  // float values in both precisions
    std::vector<T> x(in_words * row.batch);
    const size_t fresh =
        std::min<size_t>(x.size(), in_words * (std::max<size_t>(1, (size_t(1) << 21) / in_words) | 1));
    for (size_t k = 0; k < fresh; ++k) x[k] = dist(gen);
    for (size_t k = fresh; k < x.size(); ++k) x[k] = x[k - fresh];
    in.upload(x.data(), in_bytes);
    const uint64_t rows = std::clamp<uint64_t>((uint64_t(1) << 15) / n, 1, row.batch);
    const uint64_t last = row.batch - rows;  // the first of the last rows
    std::vector<T> sample(x.begin(), x.begin() + long(rows * in_words));
    sample.insert(sample.end(), x.begin() + long(last * in_words), x.end());
    std::vector<std::complex<double>> sample_values(sample.size() / 2), want(rows * out_words);
    for (size_t k = 0; k < sample_values.size(); ++k) sample_values[k] = {sample[2 * k], sample[2 * k + 1]};
    cpu::reference_nd(sample_values, want, problem(2 * rows), Direction::forward);
    ctx.submit([&](VkCommandBuffer cmd) {
        vk::record_full_barrier(cmd);
        plan.record(cmd, in_view, out_view, scratch_view, Direction::forward);
        vk::record_full_barrier(cmd);
    });
    std::vector<std::complex<T>> got(rows * out_words);
    const uint64_t half = rows * out_words / 2 * sizeof got[0];
    buffers.out.download(got.data(), half);
    buffers.out.download(got.data() + rows * out_words / 2, half, last * out_words * sizeof(T));
    row.rel_l2 = cpu::relative_l2(got, want);
    if (!(row.rel_l2 <= a.max_error)) {
        row.status = "failed: error over bound";
        return row;
    }
    row.ms = time_median(ctx, a.reps, [&](VkCommandBuffer cmd) {
        plan.record(cmd, in_view, out_view, scratch_view, Direction::forward);
    });
    row.gbps = static_cast<double>(in_bytes + out_bytes) / (row.ms * 1e-3) / 1e9;
    row.copy_fraction = row.gbps / copy;
    row.status = "ok";
    return row;
}

// "NLATxNPHIxMMAX" as a grid.
sht::Grid parse_sht_case(const std::string& text) {
    // NLATxNPHI as a shape (extents >= 1), then MMAX, which may be 0.
    const size_t last = text.rfind('x');
    const std::string mmax = last == std::string::npos ? "" : text.substr(last + 1);
    const auto parts = parse_shape(text.substr(0, last == std::string::npos ? 0 : last));
    if (parts.size() != 2 || mmax.empty() || mmax.find_first_not_of("0123456789") != std::string::npos)
        throw Error("--sht case '" + text + "' is not NLATxNPHIxMMAX");
    return sht::Grid{.nlat = parts[0], .nphi = parts[1], .mmax = std::stoull(mmax)};
}

// Both directions of the stage of `grid` (fft strategy), each gated on its accuracy: a few rows
// against the long-double reference transform of the rows. GB/s counts the bytes of fm and spat
// once each.
template <typename T>
std::vector<ShtRow> run_sht_case(const Context& ctx, sht::Grid grid, const BenchArgs& a, double copy) {
    grid.precision = std::is_same_v<T, double> ? Precision::f64 : Precision::f32;
    const sht::StageOptions options{.fft = a.options};
    const sht::FourierStage stage(ctx, grid, options);
    const auto support = sht::support(ctx.caps(), grid, options);
    Buffer fm(ctx, grid.spectral_bytes()), spat(ctx, grid.spatial_bytes());
    std::optional<Buffer> scratch;
    if (stage.scratch_bytes() > 0) scratch.emplace(ctx, stage.scratch_bytes());
    const BufferView scratch_view = scratch ? scratch->view() : BufferView{};
    const uint64_t rows = grid.fields * grid.nlat, nlat = grid.nlat, nphi = grid.nphi, mmax = grid.mmax;
    // The rows checked: the first two, one in the middle (another column of its tile), the last.
    std::vector<uint64_t> checked{0, std::min<uint64_t>(1, rows - 1), std::min(rows - 1, rows / 2 + 1),
                                  rows - 1};
    // Index of F_m of row r in fm.
    auto fm_at = [&](uint64_t r, uint64_t m) { return (r / nlat * (mmax + 1) + m) * nlat + r % nlat; };

    std::mt19937 gen(static_cast<uint32_t>(nphi));
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<ShtRow> out;
    for (bool synthesis : {true, false}) {
        ShtRow row;
        row.grid = grid;
        row.synthesis = synthesis;
        row.passes = (synthesis ? support[0].synthesis : support[0].analysis).passes;
        const uint64_t in_words = synthesis ? 2 * grid.spectral_elements() : grid.spatial_elements();
        std::vector<T> x(in_words);
        for (T& v : x) v = dist(gen);
        (synthesis ? fm : spat).upload(x.data(), x.size() * sizeof(T));
        auto record = [&](VkCommandBuffer cmd) {
            if (synthesis)
                stage.record_synthesis(cmd, fm.view(), spat.view(), scratch_view);
            else
                stage.record_analysis(cmd, spat.view(), fm.view(), scratch_view);
        };
        ctx.submit([&](VkCommandBuffer cmd) {
            vk::record_full_barrier(cmd);
            record(cmd);
            vk::record_full_barrier(cmd);
        });
        const uint64_t out_words = synthesis ? grid.spatial_elements() : 2 * grid.spectral_elements();
        std::vector<T> y(out_words);
        (synthesis ? spat : fm).download(y.data(), y.size() * sizeof(T));
        long double num = 0, den = 0;
        std::vector<cpu::cld> line(nphi);
        for (uint64_t r : checked) {
            std::fill(line.begin(), line.end(), cpu::cld(0));
            if (synthesis) {
                // The Hermitian spectrum X_0 = Re F_0, X_m = F_m, X_{nphi-m} = conj(F_m).
                line[0] = x[2 * fm_at(r, 0)];
                for (uint64_t m = 1; m <= mmax; ++m) {
                    line[m] = {x[2 * fm_at(r, m)], x[2 * fm_at(r, m) + 1]};
                    line[nphi - m] = std::conj(line[m]);
                }
                const auto want = cpu::reference_dft(line, Direction::inverse);
                for (uint64_t j = 0; j < nphi; ++j) {
                    const long double d = y[r * nphi + j] - want[j].real();
                    num += d * d;
                    den += want[j].real() * want[j].real();
                }
            } else {
                for (uint64_t j = 0; j < nphi; ++j) line[j] = x[r * nphi + j];
                const auto want = cpu::reference_dft(line, Direction::forward);
                for (uint64_t m = 0; m <= mmax; ++m) {
                    num += std::norm(cpu::cld(y[2 * fm_at(r, m)], y[2 * fm_at(r, m) + 1]) - want[m]);
                    den += std::norm(want[m]);
                }
            }
        }
        row.rel_l2 = den > 0 ? static_cast<double>(std::sqrt(num / den)) : static_cast<double>(num);
        if (!(row.rel_l2 <= a.max_error)) {
            row.status = "failed: error over bound";
        } else {
            row.ms = time_median(ctx, a.reps, record);
            row.gbps =
                static_cast<double>(grid.spectral_bytes() + grid.spatial_bytes()) / (row.ms * 1e-3) / 1e9;
            row.copy_fraction = row.gbps / copy;
            row.status = "ok";
        }
        out.push_back(row);
    }
    return out;
}

// A CSV field: quoted, with quotes doubled, where it holds a comma or a quote (RFC 4180).

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Writes `path`: for a .json path the device, the copy kernel's bandwidth and `cases`; else `csv`.
void write_results_file(const std::string& path, const DeviceCaps& caps, double copy, nlohmann::json cases,
                        const std::string& csv) {
    std::string text = csv;
    if (path.size() >= 5 && path.substr(path.size() - 5) == ".json") {
        nlohmann::json j;
        j["device"] = caps.name;
        j["driver"] = caps.driver_name + " " + caps.driver_info;
        j["copy_gbps"] = copy;
        j["cases"] = std::move(cases);
        text = j.dump(2) + "\n";
    }
    write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
}

// A convolution of 2^total values in transforms of `shape` with one filter spectrum h, three ways,
// each one compiled graph: "node", Graph::convolution (one pass for a one-pass length, three for 2D
// of a pass per dim); "store", a forward transform with the product in its stores and the inverse
// transform; "separate", a multiply node between the transforms. Each is gated on its accuracy:
// three transforms against ifft(fft(x) h) in long double. GB/s counts x read and y written once.
template <typename T>
std::vector<ConvolveRow> run_convolve_case(const Context& ctx, const std::vector<uint64_t>& shape,
                                           const BenchArgs& a, double copy) {
    using Cx = std::complex<T>;
    const Precision precision = std::is_same_v<T, double> ? Precision::f64 : Precision::f32;
    uint64_t n = 1;
    for (uint64_t e : shape) n *= e;
    const uint64_t batch = std::max<uint64_t>(1, (uint64_t(1) << a.total_log2) / n);
    std::vector<uint64_t> full{batch};
    full.insert(full.end(), shape.begin(), shape.end());
    std::vector<int> axes;
    for (int k = -static_cast<int>(shape.size()); k < 0; ++k) axes.push_back(k);
    const FftDesc desc = FftDesc::nd(full, axes).with_precision(precision);
    const uint64_t bytes = desc.bytes();

    std::mt19937 gen(static_cast<uint32_t>(n));
    std::uniform_real_distribution<T> dist(-1, 1);
    std::vector<Cx> x(n * batch), h(n);
    for (auto& v : x) v = {dist(gen), dist(gen)};
    for (auto& v : h) v = {dist(gen), dist(gen)};
    Buffer bx(ctx, bytes), bh(ctx, n * sizeof(Cx)), by(ctx, bytes);
    bx.upload(x.data(), bytes);
    bh.upload(h.data(), n * sizeof(Cx));

    // The reference of three transforms: the first, one in the middle, the last.
    const FftDesc one = FftDesc::nd(shape);
    const std::vector<uint64_t> checked{0, batch / 2, batch - 1};
    std::vector<std::vector<std::complex<double>>> want;
    for (uint64_t b : checked) {
        std::vector<std::complex<double>> in(x.begin() + b * n, x.begin() + (b + 1) * n), spectrum(n), y(n);
        cpu::reference_nd(in, spectrum, one, Direction::forward);
        for (uint64_t k = 0; k < n; ++k) spectrum[k] *= std::complex<double>(h[k]) / static_cast<double>(n);
        cpu::reference_nd(spectrum, y, one, Direction::inverse);
        want.push_back(std::move(y));
    }

    std::vector<ConvolveRow> rows;
    for (const std::string variant : {"node", "store", "separate"}) {
        ConvolveRow row;
        row.shape = shape;
        row.batch = batch;
        row.variant = variant;
        Graph g(ctx);
        const Resource rx = g.external(bx), rh = g.external(bh), ry = g.external(by), t = g.transient(bytes);
        const FusedOps product = FusedOps::multiply_store(rh, precision, n);
        if (variant == "node") {
            g.convolution(desc, rx, ry, product, a.options);
        } else {
            if (variant == "store") {
                g.fft(desc, rx, t, Direction::forward, a.options, product);
            } else {
                g.fft(desc, rx, t, Direction::forward, a.options);
                g.multiply(t, rh, t, n * batch, complex_type(precision),
                           MultiplyOptions{.operand_period = n});
            }
            g.fft(desc, t, ry, Direction::inverse, a.options);
        }
        const CompiledGraph run = g.compile();
        row.dispatches = run.stats().dispatches;
        by.fill(0);
        run.execute();
        long double num = 0, den = 0;
        for (size_t c = 0; c < checked.size(); ++c) {
            std::vector<Cx> got(n);
            by.download(got.data(), n * sizeof(Cx), checked[c] * n * sizeof(Cx));
            for (uint64_t k = 0; k < n; ++k) {
                num += std::norm(std::complex<long double>(got[k]) - std::complex<long double>(want[c][k]));
                den += std::norm(std::complex<long double>(want[c][k]));
            }
        }
        row.rel_l2 = static_cast<double>(std::sqrt(num / den));
        if (!(row.rel_l2 <= a.max_error)) {
            row.status = "failed: error over bound";
        } else {
            row.ms = time_median(ctx, a.reps, [&](VkCommandBuffer cmd) { run.record(cmd); });
            row.gbps = 2.0 * static_cast<double>(bytes) / (row.ms * 1e-3) / 1e9;
            row.copy_fraction = row.gbps / copy;
            row.status = "ok";
        }
        rows.push_back(row);
    }
    return rows;
}

void write_convolve_results(const std::string& path, const std::vector<ConvolveRow>& rows,
                            const DeviceCaps& caps, double copy) {
    nlohmann::json cases = nlohmann::json::array();
    std::ostringstream f;
    f << "library,n,batch,ms,gbps,rel_l2,shape,variant,dispatches,copy_fraction,status\n";
    for (const ConvolveRow& r : rows) {
        uint64_t n = 1;
        for (uint64_t e : r.shape) n *= e;
        cases.push_back({{"shape", shape_name(r.shape)},
                         {"batch", r.batch},
                         {"variant", r.variant},
                         {"dispatches", r.dispatches},
                         {"ms", r.ms},
                         {"gbps", r.gbps},
                         {"copy_fraction", r.copy_fraction},
                         {"rel_l2", r.rel_l2},
                         {"status", r.status}});
        f << "twiddle-" << r.variant << "," << n << "," << r.batch << "," << r.ms << "," << r.gbps << ","
          << r.rel_l2 << "," << shape_name(r.shape) << "," << r.variant << "," << r.dispatches << ","
          << r.copy_fraction << "," << csv_field(r.status) << "\n";
    }
    write_results_file(path, caps, copy, std::move(cases), f.str());
}

void write_results(const std::string& path, const std::vector<Row>& rows, const DeviceCaps& caps,
                   double copy) {
    nlohmann::json cases = nlohmann::json::array();
    std::ostringstream f;
    f << "library,n,batch,passes,ms,gbps,copy_fraction,rel_l2,status,shape\n";
    f << "copy,0,0,0,0," << copy << ",1,0,ok,-\n";
    for (const Row& r : rows) {
        cases.push_back({{"shape", shape_name(r.shape)},
                         {"n", r.n},
                         {"batch", r.batch},
                         {"passes", r.passes},
                         {"ms", r.ms},
                         {"gbps", r.gbps},
                         {"copy_fraction", r.copy_fraction},
                         {"rel_l2", r.rel_l2},
                         {"status", r.status}});
        f << "twiddle," << r.n << "," << r.batch << "," << r.passes << "," << r.ms << "," << r.gbps << ","
          << r.copy_fraction << "," << r.rel_l2 << "," << csv_field(r.status) << "," << shape_name(r.shape)
          << "\n";
    }
    write_results_file(path, caps, copy, std::move(cases), f.str());
}

void write_sht_results(const std::string& path, const std::vector<ShtRow>& rows, const DeviceCaps& caps,
                       double copy) {
    nlohmann::json cases = nlohmann::json::array();
    std::ostringstream f;
    f << "library,direction,nlat,nphi,mmax,fields,passes,ms,gbps,copy_fraction,rel_l2,status\n";
    f << "copy,-,0,0,0,0,0,0," << copy << ",1,0,ok\n";
    for (const ShtRow& r : rows) {
        const char* direction = r.synthesis ? "synthesis" : "analysis";
        cases.push_back({{"direction", direction},
                         {"nlat", r.grid.nlat},
                         {"nphi", r.grid.nphi},
                         {"mmax", r.grid.mmax},
                         {"fields", r.grid.fields},
                         {"passes", r.passes},
                         {"ms", r.ms},
                         {"gbps", r.gbps},
                         {"copy_fraction", r.copy_fraction},
                         {"rel_l2", r.rel_l2},
                         {"status", r.status}});
        f << "twiddle," << direction << "," << r.grid.nlat << "," << r.grid.nphi << "," << r.grid.mmax << ","
          << r.grid.fields << "," << r.passes << "," << r.ms << "," << r.gbps << "," << r.copy_fraction << ","
          << r.rel_l2 << "," << csv_field(r.status) << "\n";
    }
    write_results_file(path, caps, copy, std::move(cases), f.str());
}

}  // namespace

void add_bench_command(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("bench", "Time batched 1D, 2D and 3D complex transforms against a copy kernel");
    auto a = std::make_shared<BenchArgs>();
    cmd->add_flag("--quick", a->quick, "A small sweep for CPUs (2^16 values per case, N up to 4096)");
    cmd->add_option("--total", a->total_log2, "log2 of the complex values per case (default 26)")
        ->check(CLI::Range(4, 29));
    cmd->add_option("--min", a->min_log2, "log2 of the shortest length (default 3)")
        ->check(CLI::Range(0, 28));
    cmd->add_option("--max", a->max_log2, "log2 of the longest length (default 24)")
        ->check(CLI::Range(0, 28));
    cmd->add_option("--n", a->lengths, "Lengths to run instead of the sweep")->delimiter(',');
    cmd->add_option("--shapes", a->shapes,
                    "Arrays to run instead of the sweep (also after --n), transformed over every axis: "
                    "256x256,64x64x64")
        ->delimiter(',')
        ->check(parsed_by(parse_shape));
    cmd->add_option("--reps", a->reps, "Timed repetitions per case, median reported (default 20)")
        ->check(CLI::Range(5, 10000));
    cmd->add_option("--max-error", a->max_error,
                    "Relative L2 error over which a case fails (default 5e-7, 1e-14 with --f64)");
    cmd->add_flag("--f64", a->f64, "Double precision (complex128) instead of single");
    cmd->add_flag("--real", a->real,
                  "Real-to-complex transforms (numpy rfftn over every axis): 2^total reals per case, GB/s "
                  "counting the reals read and the half spectrum written");
    cmd->add_option("--out", a->out, "Write results to FILE (.csv, or .json)");
    cmd->add_flag("--kernel-stats", a->kernel_stats, "Print the driver's statistics of each kernel");
    cmd->add_option("--copy-shared", a->copy_shared,
                    "Also time the copy with each workgroup holding this many bytes of shared memory "
                    "(a list): shows how shared memory limits resident workgroups")
        ->delimiter(',');
    cmd->add_option("--max-pass-length", a->options.max_pass_length,
                    "Planner: longest pass (0: device limit)");
    cmd->add_option("--max-radix", a->options.max_radix, "Planner: largest butterfly, 2-32 (0: 16)");
    cmd->add_option("--workgroup", a->options.workgroup_size, "Planner: one-pass workgroup size (0: auto)");
    cmd->add_option("--columns", a->options.columns_per_workgroup,
                    "Planner: multi-pass columns per workgroup");
    cmd->add_option("--shared", a->options.max_shared_memory, "Planner: shared memory per workgroup, bytes");
    cmd->add_flag("!--no-subgroup-barriers", a->options.subgroup_barriers,
                  "Planner: workgroup barriers only, also where a transform lies in one subgroup");
    cmd->add_flag("!--no-subgroup-shuffles", a->options.subgroup_shuffles,
                  "Planner: a fused split pairs its points through shared memory, not subgroup shuffles");
    cmd->add_option("--strategy", a->strategy, "Planner: auto, or dft (the direct sum)")
        ->check(parsed_by(parse_strategy));
    cmd->add_option("--tiles", a->options.tiles_per_workgroup,
                    "Planner: tiles each workgroup transforms (0: auto)");
    cmd->add_flag(
        "--complex-path", [a](int64_t) { a->options.real_path = RealPath::full_length; },
        "Planner: real transforms of even length through the full-length complex transform");
    cmd->add_option("--sht", a->sht,
                    "Time spherical-harmonic Fourier stages instead (both directions, fft strategy, "
                    "the planner options apply): NLATxNPHIxMMAX,... such as "
                    "1024x2048x1023,4096x8192x4095; GB/s counts fm and spat once each")
        ->delimiter(',')
        ->check(parsed_by(parse_sht_case));
    cmd->add_option("--fields", a->fields, "With --sht: fields per stage (a batch; default 1)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--convolve", a->convolve,
                    "Time circular convolutions instead: the shape of one transform (4096, 1024x1024), "
                    "batched to 2^total values, forward, product with one filter spectrum, inverse: as a "
                    "convolution node, with the product in the forward transform's stores, and with a "
                    "multiply node")
        ->delimiter(',')
        ->check(parsed_by(parse_shape));
    cmd->callback([a] {
        BenchArgs& args = *a;
        args.options.strategy = parse_strategy(args.strategy);
        if (args.quick) {
            args.total_log2 = std::min<uint32_t>(args.total_log2, 16);
            args.max_log2 = std::min<uint32_t>(args.max_log2, 12);
            args.reps = std::min<uint32_t>(args.reps, 5);
        }
        std::vector<std::vector<uint64_t>> cases;
        for (uint64_t n : args.lengths) cases.push_back({n});
        for (const std::string& s : args.shapes) cases.push_back(parse_shape(s));
        if (cases.empty())
            for (uint32_t b = args.min_log2; b <= args.max_log2 && b <= args.total_log2; ++b)
                cases.push_back({uint64_t(1) << b});

        ContextOptions options;
        if (args.kernel_stats) options.kernel_statistics = true;
        const Context ctx(options);
        const uint64_t total = uint64_t(1) << args.total_log2;
        // One binding of the copy may not exceed the device's storage-buffer range.
        const uint64_t copy_bytes =
            std::min<uint64_t>(total * 8, ctx.caps().max_storage_buffer_range / 16 * 16);
        const double copy = copy_gbps(ctx, copy_bytes, args.reps);
        std::printf("device: %s (%s %s)\n", ctx.caps().name.c_str(), ctx.caps().driver_name.c_str(),
                    ctx.caps().driver_info.c_str());
        std::printf("copy: %.1f GB/s over %llu bytes (read + written)\n", copy,
                    static_cast<unsigned long long>(2 * copy_bytes));
        if (!args.sht.empty()) {
            if (args.max_error == 0) args.max_error = args.f64 ? 1e-14 : 1e-6;
            std::vector<ShtRow> rows;
            for (const std::string& text : args.sht) {
                sht::Grid grid = parse_sht_case(text);
                grid.fields = args.fields;
                const auto done = args.f64 ? run_sht_case<double>(ctx, grid, args, copy)
                                           : run_sht_case<float>(ctx, grid, args, copy);
                rows.insert(rows.end(), done.begin(), done.end());
            }
            std::printf("%20s %7s %10s %6s %10s %10s %6s %10s  %s\n", "nlat x nphi x mmax", "fields",
                        "direction", "passes", "ms", "GB/s", "copy", "rel_l2", "status");
            for (const ShtRow& r : rows)
                std::printf("%20s %7llu %10s %6zu %10.4f %10.1f %5.0f%% %10.2e  %s\n",
                            shape_name({r.grid.nlat, r.grid.nphi, r.grid.mmax}).c_str(),
                            static_cast<unsigned long long>(r.grid.fields),
                            r.synthesis ? "synthesis" : "analysis", r.passes, r.ms, r.gbps,
                            100 * r.copy_fraction, r.rel_l2, r.status.c_str());
            check_validation(ctx);
            if (!args.out.empty()) write_sht_results(args.out, rows, ctx.caps(), copy);
            if (std::any_of(rows.begin(), rows.end(), [](const ShtRow& r) { return r.status != "ok"; }))
                throw Error("bench: a case failed its accuracy gate");
            return;
        }
        if (!args.convolve.empty()) {
            if (args.max_error == 0) args.max_error = args.f64 ? 1e-13 : 1e-6;
            std::vector<ConvolveRow> rows;
            for (const std::string& text : args.convolve) {
                const auto done = args.f64 ? run_convolve_case<double>(ctx, parse_shape(text), args, copy)
                                           : run_convolve_case<float>(ctx, parse_shape(text), args, copy);
                rows.insert(rows.end(), done.begin(), done.end());
            }
            std::printf("%12s %10s %9s %10s %10s %10s %6s %10s  %s\n", "shape", "batch", "variant",
                        "dispatches", "ms", "GB/s", "copy", "rel_l2", "status");
            for (const ConvolveRow& r : rows)
                std::printf("%12s %10llu %9s %10zu %10.4f %10.1f %5.0f%% %10.2e  %s\n",
                            shape_name(r.shape).c_str(), static_cast<unsigned long long>(r.batch),
                            r.variant.c_str(), r.dispatches, r.ms, r.gbps, 100 * r.copy_fraction, r.rel_l2,
                            r.status.c_str());
            check_validation(ctx);
            if (!args.out.empty()) write_convolve_results(args.out, rows, ctx.caps(), copy);
            if (std::any_of(rows.begin(), rows.end(), [](const ConvolveRow& r) { return r.status != "ok"; }))
                throw Error("bench: a case failed its accuracy gate");
            return;
        }
        for (uint32_t shared : args.copy_shared) {
            if (shared > ctx.caps().max_shared_memory_bytes)
                throw Error("--copy-shared " + std::to_string(shared) + " exceeds the device's " +
                            std::to_string(ctx.caps().max_shared_memory_bytes) + " bytes of shared memory");
            std::printf("copy with %u bytes of shared memory per 256-invocation workgroup: %.1f GB/s\n",
                        shared, copy_gbps(ctx, copy_bytes, args.reps, shared));
        }
        // The buffers' bytes: the largest case as complex values, which also bounds its real
        // form (an r2c output of n / 2 + 1 points per row is at most n complex values).
        uint64_t largest = 0;
        const uint64_t element = args.f64 ? 16 : 8;
        if (args.max_error == 0) args.max_error = args.f64 ? 1e-14 : 5e-7;
        for (const auto& shape : cases) {
            uint64_t n = 1;
            for (uint64_t e : shape) n *= e;
            largest = std::max(largest, n * std::max<uint64_t>(1, total / n) * element);
        }
        Buffers buffers(ctx, largest);
        const bool tty = ::isatty(STDERR_FILENO);
        std::vector<Row> rows;
        for (size_t i = 0; i < cases.size(); ++i) {
            if (tty)
                std::fprintf(stderr, "\r[%zu/%zu] %s ...   ", i + 1, cases.size(),
                             shape_name(cases[i]).c_str());
            try {
                rows.push_back(args.f64 ? run_case<double>(ctx, buffers, cases[i], args, copy)
                                        : run_case<float>(ctx, buffers, cases[i], args, copy));
            } catch (const UnsupportedError& e) {
                Row r;
                r.shape = cases[i];
                r.n = 1;
                for (uint64_t e : cases[i]) r.n *= e;
                r.status = std::string("unsupported: ") + e.what();
                rows.push_back(r);
            }
        }
        if (tty) std::fprintf(stderr, "\r%60s\r", "");
        std::printf("%12s %10s %6s %10s %10s %6s %10s  %s\n", "N", "batch", "passes", "ms", "GB/s", "copy",
                    "rel_l2", "status");
        for (const Row& r : rows)
            std::printf("%12s %10llu %6zu %10.4f %10.1f %5.0f%% %10.2e  %s\n", shape_name(r.shape).c_str(),
                        static_cast<unsigned long long>(r.batch), r.passes, r.ms, r.gbps,
                        100 * r.copy_fraction, r.rel_l2, r.status.c_str());
        check_validation(ctx);
        if (!args.out.empty()) write_results(args.out, rows, ctx.caps(), copy);
        const bool failed = std::any_of(rows.begin(), rows.end(),
                                        [](const Row& r) { return r.status.rfind("failed", 0) == 0; });
        if (failed) throw Error("bench: a case failed its accuracy gate");
    });
}

}  // namespace twiddle::cli
