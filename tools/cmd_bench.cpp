// twiddle bench: throughput of batched 1D, 2D and 3D transforms against a copy kernel on the same
// device, each case gated on its accuracy against the long-double reference.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <type_traits>

#include "bench.hpp"
#include "commands.hpp"
#include "cpu/reference.hpp"
#include "file_io.hpp"
#include "peers/peer.hpp"
#include "shape_args.hpp"
#include "sht/four_step.hpp"
#include "twiddle/twiddle.hpp"
#include "vk/compute_kernel.hpp"
#include "vk/memory.hpp"

namespace twiddle::cli {

namespace {

// One way of running one convolution case: a forward transform, the product with one filter
// spectrum for every transform, the inverse transform.
struct ConvolveRow {
    std::vector<uint64_t> shape;
    uint64_t batch = 0;
    std::string variant;  // "node", "store" or "separate"
    size_t dispatches = 0;
    double ms = 0, gbps = 0, copy_fraction = 0;
    double rel_l2 = std::numeric_limits<double>::quiet_NaN();  // NaN: not measured
    std::string status;
};

// The ways run_convolve_case convolves, in its rows' order.
constexpr const char* kConvolveVariants[] = {"node", "store", "separate"};

// One direction of one spherical-harmonic Fourier stage.
struct ShtRow {
    sht::Grid grid;
    bool synthesis = true;
    size_t passes = 0;
    double ms = 0, gbps = 0;
    double copy_gbps = 0, copy_fraction = 0;  // the copy kernel over the bytes this grid moves
    double rel_l2 = std::numeric_limits<double>::quiet_NaN();  // NaN: not measured
    // With --pass-times and the four-step form: each pass's share of ms in order (synthesis: the
    // m-major pass, then the rows; analysis the reverse).
    std::vector<double> pass_ms;
    std::string status;
};

struct Row {
    std::vector<uint64_t> shape;  // of one transform; n is its product
    std::string kind;             // "c2c", "r2c" or "c2r" (BenchCase::kind)
    Direction direction = Direction::forward;
    uint64_t n = 0, batch = 0;
    size_t passes = 0;
    double ms = 0, gbps = 0, copy_fraction = 0;
    double rel_l2 = std::numeric_limits<double>::quiet_NaN();  // NaN: not measured (unsupported)
    std::vector<double> pass_ms;  // with --pass-times and several passes: each pass's share of ms
    // Each timing round's median, in the order run (ms is the lowest): rounds far apart show a
    // slow spell of the device that one of them took (vk::kTimedRounds).
    std::vector<double> round_ms;
    std::string status;  // "ok", or why the case was not timed
};

// After the rows were printed and written: an error when no case ran (require_some_case_ran) or
// when one failed its accuracy gate. Unsupported cases beside ones that ran are no failure.
template <typename Rows>
void fail_unless_run(const Rows& rows) {
    std::vector<std::string> statuses;
    for (const auto& r : rows) statuses.push_back(r.status);
    require_some_case_ran(statuses);
    if (std::any_of(statuses.begin(), statuses.end(),
                    [](const std::string& s) { return s.rfind("failed", 0) == 0; }))
        throw Error("bench: a case failed its accuracy gate");
}

// Milliseconds as "0.2701;0.2830" (empty for none): per pass, or per timing round.
std::string ms_list(const std::vector<double>& ms) {
    std::string out;
    char buf[32];
    for (double m : ms) {
        std::snprintf(buf, sizeof buf, "%s%.6g", out.empty() ? "" : ";", m);
        out += buf;
    }
    return out;
}

// The driver's statistics of each kernel (--kernel-stats), one line per pass: "label pass p: [name:
// value] ...".
void print_statistics(const std::string& label,
                      const std::vector<std::vector<std::pair<std::string, std::string>>>& passes) {
    for (size_t p = 0; p < passes.size(); ++p) {
        std::printf("%s pass %zu:", label.c_str(), p);
        for (const auto& [name, value] : passes[p]) std::printf(" [%s: %s]", name.c_str(), value.c_str());
        std::printf("\n");
    }
}

// A row for case `c`, before it runs.
Row case_row(const BenchCase& c) {
    Row row;
    row.shape = c.shape;
    row.kind = c.kind();
    row.direction = c.direction;
    row.n = c.n;
    row.batch = c.batch;
    return row;
}

// One case (`batch` arrays of `shape`, each transformed over all of its axes: complex to complex,
// or with --real real to half spectrum and with --inverse back) on twiddle's plan, gated on its
// accuracy against the long-double reference, then timed. GB/s counts the bytes of the input and
// of the output once.
Row run_case(Buffers& buffers, TwiddlePeer& peer, const BenchCase& c, const BenchArgs& a, double copy) {
    Row row = case_row(c);
    const CaseData data(c);
    peer.prepare(c, data);
    row.passes = peer.plan().passes();
    if (a.kernel_stats) print_statistics("N=" + std::to_string(c.n), peer.plan().kernel_statistics());
    const uint64_t in_bytes = c.input_bytes(), out_bytes = c.output_bytes();
    buffers.in.upload(data.input(), in_bytes);
    peer.run();
    row.rel_l2 =
        data.check([&](void* dst, uint64_t offset, uint64_t bytes) { peer.read_output(dst, offset, bytes); });
    if (!(row.rel_l2 <= a.max_error)) {
        row.status = "failed: error over bound";
        return row;
    }
    const vk::RoundMedians rounds = peer.round_medians(a.reps, a.warm_up);
    row.round_ms.assign(rounds.ms.begin(), rounds.ms.end());
    row.ms = rounds.fastest();
    row.gbps = static_cast<double>(in_bytes + out_bytes) / (row.ms * 1e-3) / 1e9;
    row.copy_fraction = row.gbps / copy;
    if (a.pass_times && row.passes > 1) row.pass_ms = peer.pass_times_ms(a.reps, a.warm_up);
    row.status = "ok";
    return row;
}

// "NLATxNPHIxMMAX" as a grid.
sht::Grid parse_sht_case(const std::string& text) {
    // NLATxNPHI as a shape (extents >= 1), then MMAX, which may be 0. The message quotes the
    // whole case, whichever part is wrong.
    const std::string malformed = "--sht case '" + text + "' is not NLATxNPHIxMMAX";
    const size_t last = text.rfind('x');
    if (last == std::string::npos) throw Error(malformed);
    const auto m = parse_decimal(std::string_view(text).substr(last + 1));
    std::vector<uint64_t> parts;
    try {
        parts = parse_shape(text.substr(0, last));
    } catch (const Error& e) {
        throw Error(malformed + ": " + e.what());
    }
    if (parts.size() != 2 || !m) throw Error(malformed);
    const sht::Grid grid{.nlat = parts[0], .nphi = parts[1], .mmax = *m};
    try {
        grid.validate();
    } catch (const Error& e) {
        throw Error("--sht case '" + text + "': " + e.what());
    }
    return grid;
}

// Both directions of the stage of `grid` (fft strategy), each gated on its accuracy: a few rows
// against the long-double reference transform of the rows. GB/s counts the bytes of fm and spat
// once each.
template <typename T>
std::vector<ShtRow> run_sht_case(const Context& ctx, sht::Grid grid, const BenchArgs& a) {
    grid.precision = std::is_same_v<T, double> ? Precision::f64 : Precision::f32;
    const sht::StageOptions options{.passes = a.sht_passes == "one"   ? sht::Passes::one
                                              : a.sht_passes == "two" ? sht::Passes::two
                                                                      : sht::Passes::automatic,
                                    .fft = a.options};
    const sht::FourierStage stage(ctx, grid, options);
    const auto support = sht::support(ctx.caps(), grid, options);
    // With --pass-times or --kernel-stats, the four-step form's row plans and m-major kernels
    // built again, to time the row pass alone and to print the kernels' statistics.
    bool two_passes[2];
    std::optional<Plan> row_plans[2];
    std::optional<Buffer> factors[2];
    for (bool synthesis : {true, false}) {
        const int d = synthesis ? 0 : 1;
        two_passes[d] = sht::takes_two_passes(ctx.caps(), grid, options, synthesis);
        if (!two_passes[d] || !(a.pass_times || a.kernel_stats)) continue;
        row_plans[d].emplace(ctx, sht::four_step_row_desc(grid, synthesis),
                             sht::four_step_row_options(a.options),
                             sht::four_step_callbacks(grid, synthesis));
        const auto table = sht::four_step_row_factors(grid);
        std::vector<std::complex<T>> values(table.begin(), table.end());
        factors[d].emplace(ctx, values.size() * sizeof values[0]);
        factors[d]->upload(values.data(), values.size() * sizeof values[0]);
        if (!a.kernel_stats) continue;
        const vk::ComputeKernel m_major(
            *ctx.state(),
            synthesis ? sht::generate_four_step_synthesis(grid) : sht::generate_four_step_analysis(grid),
            "sht-four-step", 3, 2 * sizeof(uint32_t));
        const std::string direction = synthesis ? "synthesis" : "analysis";
        print_statistics(direction + " m-major", {m_major.statistics()});
        print_statistics(direction + " rows", row_plans[d]->kernel_statistics());
    }
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

    // The copy kernel over the bytes the stage moves (half read, half written): a grid that fits
    // the GPU's cache would otherwise be measured against a copy that does not, and run at more
    // than 100% of it.
    const uint64_t copy_bytes = cli::copy_bytes(ctx, (grid.spectral_bytes() + grid.spatial_bytes()) / 2);
    const double copy = copy_gbps(ctx, copy_bytes, a.reps, a.warm_up);

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
            row.ms = time_median(ctx, a.reps, a.warm_up, record);
            row.gbps =
                static_cast<double>(grid.spectral_bytes() + grid.spatial_bytes()) / (row.ms * 1e-3) / 1e9;
            row.copy_fraction = row.gbps / copy;
            row.copy_gbps = copy;
            if (a.pass_times && two_passes[synthesis ? 0 : 1]) {
                // The row pass alone, as the stage records it (scratch rows in, spat out, or the
                // reverse); the m-major pass is the rest.
                const double rows_ms = time_median(ctx, a.reps, a.warm_up, [&](VkCommandBuffer cmd) {
                    const Plan& plan = synthesis ? *row_plans[0] : *row_plans[1];
                    const BufferView rows_view{scratch_view.buffer, scratch_view.offset, grid.spatial_bytes(),
                                               scratch_view.usage};
                    const BufferView rest{scratch_view.buffer, scratch_view.offset + grid.spatial_bytes(),
                                          scratch_view.size - grid.spatial_bytes(), scratch_view.usage};
                    plan.record(cmd, synthesis ? rows_view : spat.view(), synthesis ? spat.view() : rows_view,
                                rest, synthesis ? Direction::inverse : Direction::forward,
                                factors[synthesis ? 0 : 1]->view());
                });
                row.pass_ms = synthesis ? std::vector<double>{row.ms - rows_ms, rows_ms}
                                        : std::vector<double>{rows_ms, row.ms - rows_ms};
            }
            row.status = "ok";
        }
        out.push_back(row);
    }
    return out;
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
    for (const std::string variant : kConvolveVariants) {
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
            row.ms = time_median(ctx, a.reps, a.warm_up, [&](VkCommandBuffer cmd) { run.record(cmd); });
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
                         {"rel_l2", json_number(r.rel_l2)},
                         {"status", r.status}});
        f << "twiddle-" << r.variant << "," << n << "," << r.batch << "," << r.ms << "," << r.gbps << ","
          << csv_number(r.rel_l2) << "," << shape_name(r.shape) << "," << r.variant << "," << r.dispatches
          << "," << r.copy_fraction << "," << csv_field(r.status) << "\n";
    }
    write_results_file(path, caps, std::move(cases), f.str(), {{"copy_gbps", copy}});
}

void write_results(const std::string& path, const std::vector<Row>& rows, const DeviceCaps& caps,
                   double copy) {
    nlohmann::json cases = nlohmann::json::array();
    std::ostringstream f;
    f << "library,n,batch,passes,ms,gbps,copy_fraction,rel_l2,status,shape,pass_ms,kind,direction,round_ms\n";
    f << "copy,0,0,0,0," << copy << ",1,0,ok,-,,-,-,\n";
    for (const Row& r : rows) {
        cases.push_back({{"shape", shape_name(r.shape)},
                         {"kind", r.kind},
                         {"direction", to_string(r.direction)},
                         {"n", r.n},
                         {"batch", r.batch},
                         {"passes", r.passes},
                         {"ms", r.ms},
                         {"gbps", r.gbps},
                         {"copy_fraction", r.copy_fraction},
                         {"rel_l2", json_number(r.rel_l2)},
                         {"status", r.status},
                         {"pass_ms", r.pass_ms},
                         {"round_ms", r.round_ms}});
        f << "twiddle," << r.n << "," << r.batch << "," << r.passes << "," << r.ms << "," << r.gbps << ","
          << r.copy_fraction << "," << csv_number(r.rel_l2) << "," << csv_field(r.status) << ","
          << shape_name(r.shape) << "," << ms_list(r.pass_ms) << "," << r.kind << ","
          << to_string(r.direction) << "," << ms_list(r.round_ms) << "\n";
    }
    write_results_file(path, caps, std::move(cases), f.str(), {{"copy_gbps", copy}});
}

void write_sht_results(const std::string& path, const std::vector<ShtRow>& rows, const DeviceCaps& caps,
                       double copy) {
    nlohmann::json cases = nlohmann::json::array();
    std::ostringstream f;
    f << "library,direction,nlat,nphi,mmax,fields,passes,ms,gbps,copy_fraction,rel_l2,status,pass_ms,"
         "copy_gbps\n";
    f << "copy,-,0,0,0,0,0,0," << copy << ",1,0,ok,," << copy << "\n";
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
                         {"copy_gbps", r.copy_gbps},
                         {"rel_l2", json_number(r.rel_l2)},
                         {"status", r.status},
                         {"pass_ms", r.pass_ms}});
        f << "twiddle," << direction << "," << r.grid.nlat << "," << r.grid.nphi << "," << r.grid.mmax << ","
          << r.grid.fields << "," << r.passes << "," << r.ms << "," << r.gbps << "," << r.copy_fraction << ","
          << csv_number(r.rel_l2) << "," << csv_field(r.status) << "," << ms_list(r.pass_ms) << ","
          << r.copy_gbps << "\n";
    }
    write_results_file(path, caps, std::move(cases), f.str(), {{"copy_gbps", copy}});
}

}  // namespace

void add_bench_command(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("bench", "Time batched 1D, 2D and 3D complex transforms against a copy kernel");
    auto a = std::make_shared<BenchArgs>();
    cmd->add_flag("--quick", a->quick,
                  "A small sweep for CPUs: unless given, --total 16, --max 12 (N up to 4096) and --reps 5");
    CLI::Option* total =
        cmd->add_option("--total", a->total_log2, "log2 of the complex values per case (default 26)")
            ->transform(integer_in(4, 29));
    CLI::Option* min = cmd->add_option("--min", a->min_log2, "log2 of the shortest length (default 3)")
                           ->transform(integer_in(0, 28));
    CLI::Option* max = cmd->add_option("--max", a->max_log2, "log2 of the longest length (default 24)")
                           ->transform(integer_in(0, 28));
    CLI::Option* lengths = cmd->add_option("--n", a->lengths, "Lengths to run instead of the sweep")
                               ->delimiter(',')
                               ->transform(integer_in(1, kMaxCount));
    CLI::Option* shapes =
        cmd->add_option("--shapes", a->shapes,
                        "Arrays to run instead of the sweep (also after --n), transformed over every axis: "
                        "256x256,64x64x64")
            ->delimiter(',')
            ->check(parsed_by(parse_shape));
    CLI::Option* reps =
        cmd->add_option(
               "--reps", a->reps,
               "Timed repetitions per round; the median is reported, for twiddle, VkFFT and cuFFT the "
               "lower of two rounds' (default 20)")
            ->transform(integer_in(5, 10000));
    CLI::Option* max_error =
        cmd->add_option(
               "--max-error", a->max_error,
               "Relative L2 error over which a case fails (default 5e-7, 1e-14 with --f64; with --sht "
               "1e-6 and 1e-14, with --convolve 1e-6 and 1e-13)")
            ->check(number_in(0, std::numeric_limits<double>::infinity(), true));
    cmd->add_flag("--f64", a->f64, "Double precision (complex128) instead of single");
    CLI::Option* real = cmd->add_flag(
        "--real", a->real,
        "Real-to-complex transforms (numpy rfftn over every axis): 2^total reals per case, GB/s "
        "counting the reals read and the half spectrum written");
    CLI::Option* inverse =
        cmd->add_flag("--inverse", a->inverse,
                      "Time the inverse transforms instead (with --real c2r, from a real array's half "
                      "spectrum to its reals), unnormalized as cuFFT's and FFTW's");
    cmd->add_option("--out", a->out, "Write results to FILE (.csv, or .json)");
    CLI::Option* kernel_stats =
        cmd->add_flag("--kernel-stats", a->kernel_stats, "Print the driver's statistics of each kernel");
    CLI::Option* pass_times = cmd->add_flag(
        "--pass-times", a->pass_times,
        "Also time each pass of multi-pass plans (the first p passes less the first p - 1, "
        "medians), and with --sht each of the two-pass stage's (the row pass alone, the m-major pass "
        "the rest): shows which pass the time goes to");
    CLI::Option* copy_shared =
        cmd->add_option("--copy-shared", a->copy_shared,
                        "Also time the copy with each workgroup holding this many bytes of shared memory "
                        "(a list): shows how shared memory limits resident workgroups")
            ->delimiter(',')
            ->transform(integer_in(0, kMaxCount));
    // The planner's options, which every mode but --mpi passes to its plans.
    std::vector<CLI::Option*> planner;
    planner.push_back(cmd->add_option("--max-pass-length", a->options.max_pass_length,
                                      "Planner: longest pass, a power of two, at least 2 (0: device limit)")
                          ->transform(zero_or_power_of_two(2, kMaxCount, "the device limit")));
    planner.push_back(
        cmd->add_option("--max-radix", a->options.max_radix,
                        "Planner: largest butterfly, 2, 4, 8, 16 or 32 (0: the planner's choice)")
            ->transform(zero_or_power_of_two(2, 32, "the planner's choice")));
    planner.push_back(cmd->add_option("--workgroup", a->options.workgroup_size,
                                      "Planner: one-pass workgroup size, a power of two (0: auto)")
                          ->transform(zero_or_power_of_two(1, kMaxCount, "auto")));
    planner.push_back(cmd->add_option("--columns", a->options.columns_per_workgroup,
                                      "Planner: multi-pass columns per workgroup, a power of two (0: auto)")
                          ->transform(zero_or_power_of_two(1, kMaxCount, "auto")));
    planner.push_back(cmd->add_option("--shared", a->options.max_shared_memory,
                                      "Planner: shared memory per workgroup, bytes")
                          ->transform(integer_in(0, kMaxCount)));
    planner.push_back(
        cmd->add_flag("!--no-subgroup-barriers", a->options.subgroup_barriers,
                      "Planner: workgroup barriers only, also where a transform lies in one subgroup"));
    planner.push_back(cmd->add_flag(
        "!--no-subgroup-shuffles", a->options.subgroup_shuffles,
        "Planner: a fused split pairs its points through shared memory, not subgroup shuffles"));
    planner.push_back(
        cmd->add_flag("--join-through-shared-memory", a->options.join_through_shared_memory,
                      "Planner: a one-pass c2r kernel takes join's mirrors from shared memory, not memory"));
    planner.push_back(
        cmd->add_option("--strategy", a->strategy,
                        "Planner: auto, portable (no subgroup operations), subgroups (exchanges through "
                        "shuffles), or dft (the direct sum)")
            ->check(parsed_by(parse_strategy)));
    planner.push_back(cmd->add_option("--tiles", a->options.tiles_per_workgroup,
                                      "Planner: tiles each workgroup transforms (0: auto)")
                          ->transform(integer_in(0, kMaxCount)));
    planner.push_back(cmd->add_flag(
        "--complex-path", [a](int64_t) { a->options.real_path = RealPath::full_length; },
        "Planner: real transforms of even length through the full-length complex transform"));
    CLI::Option* sht =
        cmd->add_option(
               "--sht", a->sht,
               "Time spherical-harmonic Fourier stages instead (both directions, fft strategy, "
               "the planner options apply): NLATxNPHIxMMAX,... such as "
               "1024x2048x1023,4096x8192x4095; GB/s counts fm and spat once each, and the copy column is "
               "against the copy kernel over the same bytes")
            ->delimiter(',')
            ->check(parsed_by(parse_sht_case));
    CLI::Option* fields =
        cmd->add_option("--fields", a->fields, "With --sht: fields per stage (a batch; default 1)")
            ->transform(integer_in(1, kMaxCount));
    CLI::Option* sht_passes =
        cmd->add_option(
               "--sht-passes", a->sht_passes,
               "With --sht: the fft strategy's passes, sht::Passes (default auto: two from nphi 8192 "
               "for synthesis and 4096 for analysis, one with --max-radix or --complex-path; two: "
               "the four-step form)")
            ->check(CLI::IsMember({"auto", "one", "two"}));
    CLI::Option* convolve =
        cmd->add_option("--convolve", a->convolve,
                        "Time circular convolutions instead: the shape of one transform (4096, 1024x1024), "
                        "batched to 2^total values, forward, product with one filter spectrum, inverse: as a "
                        "convolution node, with the product in the forward transform's stores, and with a "
                        "multiply node")
            ->delimiter(',')
            ->check(parsed_by(parse_shape));
    CLI::Option* warmup =
        cmd->add_option(
               "--warmup", a->warm_up,
               "Seconds of back-to-back runs before each timing, so that clocks rise (default 1); then on "
               "until their speed is steady (a batch as fast as one 100 ms before, within 2%), for at most "
               "as long again")
            ->check(number_in(0, 60, false, "in [0 - 60]"));
    CLI::Option* compare = cmd->add_flag(
        "--compare", a->compare,
        "Run each case with twiddle, VkFFT (same Vulkan device), cuFFT (same GPU, where the CUDA "
        "runtime and cuFFT load) and FFTW (CPU threads), each gated on its accuracy; default cases: "
        "powers of two 8 to 2^24, 100, 1000, 1536, 4095, 10007, 10^6, 256^2 to 4096^2, and r2c 2^8 "
        "to 2^20 (--n, --shapes, --real, --f64, --quick narrow them)");
    cmd->add_option("--plot", a->plot,
                    "With --compare: write the chart of GB/s against N to FILE.svg and FILE.png "
                    "(default: beside --out)")
        ->needs(compare);
    cmd->add_option("--fftw-threads", a->fftw_threads, "With --compare: FFTW's threads (0: one per core)")
        ->transform(integer_in(0, 4096))
        ->needs(compare);
    cmd->add_flag("--vkfft-lut", a->vkfft_lut,
                  "With --compare: VkFFT with its twiddle tables (useLUT), more accurate than its default "
                  "sines and cosines computed in the kernels")
        ->needs(compare);
    CLI::Option* plan_time = cmd->add_flag(
        "--plan-time", a->plan_time,
        "Time plan creation instead: 1D plans (--n; default 1024, 4096, 65536, 2^20, 1000, 10007), "
        "cold (no kernel cache) and warm (disk cache populated, fresh context)");
    cmd->add_option("--plan-reps", a->plan_reps,
                    "With --plan-time: plans timed per length and state (default 5)")
        ->transform(integer_in(1, 1000))
        ->needs(plan_time);
    CLI::Option* mpi = cmd->add_flag(
        "--mpi", a->mpi,
        "Time distributed 3D (or 2D) transforms instead, on the ranks of mpirun (mpirun -np 2 twiddle "
        "bench --mpi [--shapes 512x512x512] [--f64]): the slowest rank's time split into local "
        "transforms, staging and MPI_Alltoallv, beside one device's time and the bound of the "
        "measured host-staged all-to-all (default shapes 512^3 and 1024^3)");
    // One mode per run, and no option that the mode would ignore.
    const std::vector<CLI::Option*> modes = {compare, plan_time, sht, convolve, mpi};
    for (size_t i = 0; i < modes.size(); ++i)
        for (size_t j = i + 1; j < modes.size(); ++j) modes[i]->excludes(modes[j]);
    fields->needs(sht);
    sht_passes->needs(sht);
    for (CLI::Option* mode : {sht, convolve, mpi}) mode->excludes(real)->excludes(inverse);
    for (CLI::Option* mode : {sht, convolve, mpi}) mode->excludes(lengths);
    for (CLI::Option* mode : {sht, convolve, plan_time}) mode->excludes(shapes);
    plan_time->excludes(inverse);
    // Options that only some modes read.
    for (CLI::Option* mode : {compare, plan_time, sht, convolve, mpi}) mode->excludes(copy_shared);
    for (CLI::Option* mode : {compare, plan_time, convolve, mpi})
        mode->excludes(pass_times)->excludes(kernel_stats);
    for (CLI::Option* mode : {plan_time, sht, convolve, mpi}) mode->excludes(min)->excludes(max);
    plan_time->excludes(reps)->excludes(warmup)->excludes(max_error);
    mpi->excludes(total);
    for (CLI::Option* option : planner) mpi->excludes(option);
    cmd->callback([a, total, max, reps] {
        BenchArgs& args = *a;
        args.options.strategy = parse_strategy(args.strategy);
        if (args.quick) {
            if (total->count() == 0) args.total_log2 = 16;
            if (max->count() == 0) args.max_log2 = 12;
            if (reps->count() == 0) args.reps = 5;
        }
        if (!args.out.empty()) check_writable(args.out);
        if (args.mpi) {
#ifdef TWIDDLE_CLI_MPI
            return run_bench_mpi(args);
#else
            throw Error("--mpi: this twiddle was built without MPI (install libopenmpi-dev and rebuild)");
#endif
        }
        if (args.compare) return run_compare(args);
        if (args.plan_time) return run_plan_time(args);
        std::vector<std::vector<uint64_t>> cases;
        for (uint64_t n : args.lengths) cases.push_back({n});
        for (const std::string& s : args.shapes) cases.push_back(parse_shape(s));
        if (cases.empty())
            for (uint32_t b = args.min_log2; b <= args.max_log2 && b <= args.total_log2; ++b)
                cases.push_back({uint64_t(1) << b});
        if (cases.empty() && args.sht.empty() && args.convolve.empty())
            throw Error("bench: no lengths from 2^" + std::to_string(args.min_log2) + " (--min) to 2^" +
                        std::to_string(std::min(args.max_log2, args.total_log2)) + " (--max, --total)");

        ContextOptions options;
        if (args.kernel_stats) options.kernel_statistics = true;
        const Context ctx(options);
        const uint64_t total = uint64_t(1) << args.total_log2;
        // (--sht's stages move other amounts than the copy.)
        const uint64_t copy_bytes = cli::copy_bytes(ctx, args.total_log2, args.f64);
        const double copy = copy_gbps(ctx, copy_bytes, args.reps, args.warm_up);
        std::printf("device: %s (%s %s)\n", ctx.caps().name.c_str(), ctx.caps().driver_name.c_str(),
                    ctx.caps().driver_info.c_str());
        std::printf("copy: %.1f GB/s over %llu bytes (read + written)\n", copy,
                    static_cast<unsigned long long>(2 * copy_bytes));
        if (args.inverse) std::printf("inverse transforms (%s), unnormalized\n", args.real ? "c2r" : "c2c");
        if (!args.sht.empty()) {
            if (args.max_error == 0) args.max_error = args.f64 ? 1e-14 : 1e-6;
            std::vector<ShtRow> rows;
            for (const std::string& text : args.sht) {
                sht::Grid grid = parse_sht_case(text);
                grid.fields = args.fields;
                try {
                    const auto done = args.f64 ? run_sht_case<double>(ctx, grid, args)
                                               : run_sht_case<float>(ctx, grid, args);
                    rows.insert(rows.end(), done.begin(), done.end());
                } catch (const UnsupportedError& e) {
                    // A case the device or the options cannot run: both directions' rows say why.
                    for (bool synthesis : {true, false})
                        rows.push_back(ShtRow{.grid = grid,
                                              .synthesis = synthesis,
                                              .status = std::string("unsupported: ") + e.what()});
                }
            }
            std::printf("%20s %7s %10s %6s %10s %10s %6s %10s  %s\n", "nlat x nphi x mmax", "fields",
                        "direction", "passes", "ms", "GB/s", "copy", "rel_l2", "status");
            for (const ShtRow& r : rows)
                std::printf("%20s %7llu %10s %6zu %10.4f %10.1f %5.0f%% %10.2e  %s%s%s\n",
                            shape_name({r.grid.nlat, r.grid.nphi, r.grid.mmax}).c_str(),
                            static_cast<unsigned long long>(r.grid.fields),
                            r.synthesis ? "synthesis" : "analysis", r.passes, r.ms, r.gbps,
                            100 * r.copy_fraction, r.rel_l2, r.status.c_str(),
                            r.pass_ms.empty() ? "" : "  passes ms ", ms_list(r.pass_ms).c_str());
            check_validation(ctx);
            if (!args.out.empty()) write_sht_results(args.out, rows, ctx.caps(), copy);
            fail_unless_run(rows);
            return;
        }
        if (!args.convolve.empty()) {
            if (args.max_error == 0) args.max_error = args.f64 ? 1e-13 : 1e-6;
            std::vector<ConvolveRow> rows;
            for (const std::string& text : args.convolve) {
                const std::vector<uint64_t> shape = parse_shape(text);
                uint64_t n = 1;
                for (uint64_t e : shape) n *= e;
                try {
                    const auto done = args.f64 ? run_convolve_case<double>(ctx, shape, args, copy)
                                               : run_convolve_case<float>(ctx, shape, args, copy);
                    rows.insert(rows.end(), done.begin(), done.end());
                } catch (const UnsupportedError& e) {
                    // A case the device or the options cannot run: each variant's row says why.
                    for (const char* variant : kConvolveVariants)
                        rows.push_back(ConvolveRow{.shape = shape,
                                                   .batch = std::max<uint64_t>(1, total / n),
                                                   .variant = variant,
                                                   .status = std::string("unsupported: ") + e.what()});
                }
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
            fail_unless_run(rows);
            return;
        }
        for (uint32_t shared : args.copy_shared) {
            if (shared > ctx.caps().max_shared_memory_bytes)
                throw Error("--copy-shared " + std::to_string(shared) + " exceeds the device's " +
                            std::to_string(ctx.caps().max_shared_memory_bytes) + " bytes of shared memory");
            std::printf("copy with %u bytes of shared memory per 256-invocation workgroup: %.1f GB/s\n",
                        shared, copy_gbps(ctx, copy_bytes, args.reps, args.warm_up, shared));
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
        TwiddlePeer peer(ctx, buffers, args.options);
        const Precision precision = args.f64 ? Precision::f64 : Precision::f32;
        const bool tty = ::isatty(STDERR_FILENO);
        std::vector<Row> rows;
        // Each row as its case ends, flushed, so that a run stopped part-way (a time limit on the
        // GPU machine) keeps the cases it finished.
        std::printf("%12s %10s %6s %10s %10s %6s %10s  %s\n", "N", "batch", "passes", "ms", "GB/s", "copy",
                    "rel_l2", "status");
        std::fflush(stdout);
        for (size_t i = 0; i < cases.size(); ++i) {
            if (tty)
                std::fprintf(stderr, "\r[%zu/%zu] %s ...   ", i + 1, cases.size(),
                             shape_name(cases[i]).c_str());
            const BenchCase c(cases[i], args.real, precision, args.total_log2,
                              args.inverse ? Direction::inverse : Direction::forward);
            try {
                rows.push_back(run_case(buffers, peer, c, args, copy));
            } catch (const UnsupportedError& e) {
                Row r = case_row(c);
                r.status = std::string("unsupported: ") + e.what();
                rows.push_back(r);
            }
            if (tty) std::fprintf(stderr, "\r%60s\r", "");
            const Row& r = rows.back();
            std::printf("%12s %10llu %6zu %10.4f %10.1f %5.0f%% %10.2e  %s%s%s\n",
                        shape_name(r.shape).c_str(), static_cast<unsigned long long>(r.batch), r.passes, r.ms,
                        r.gbps, 100 * r.copy_fraction, r.rel_l2, r.status.c_str(),
                        r.pass_ms.empty() ? "" : "  passes ms ", ms_list(r.pass_ms).c_str());
            std::fflush(stdout);
        }
        check_validation(ctx);
        if (!args.out.empty()) write_results(args.out, rows, ctx.caps(), copy);
        fail_unless_run(rows);
    });
}

}  // namespace twiddle::cli
