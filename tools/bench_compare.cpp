// twiddle bench --compare: the same cases, in one process on one device, with twiddle, VkFFT,
// cuFFT and FFTW, each library's output gated on its accuracy against the long-double reference
// (the same bound for all), then timed. Results as a table, a CSV or JSON file, and a chart of
// GB/s against N per library with twiddle's ratio to the best other library.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "bench.hpp"
#include "chart.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "peers/peer.hpp"
#include "shape_args.hpp"

namespace twiddle::cli {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A library that could not be set up at all.
class AbsentPeer final : public Peer {
public:
    AbsentPeer(std::string name, std::string why) : name_(std::move(name)), why_(std::move(why)) {}
    std::string name() const override { return name_; }
    std::string unavailable() const override { return why_; }
    std::string detail() const override { return {}; }
    std::string prepare(const BenchCase&, const CaseData&) override { return "not available"; }
    void run() override {}
    void read_output(void*, uint64_t, uint64_t) override {}
    double time_ms(uint32_t, double) override { return 0; }
    void release() override {}

private:
    std::string name_, why_;
};

struct Result {
    std::string status;  // "ok", "not available", "unsupported: ...", "failed: ...", "error: ..."
    double ms = 0, gbps = 0, rel_l2 = kNaN;
};

struct CaseRow {
    BenchCase c;
    std::vector<Result> results;  // one per peer, in the peers' order
    std::string best_peer;        // the fastest library other than twiddle that passed
    double ratio = kNaN;          // twiddle's GB/s over best_peer's
};

bool is_power_of_two(uint64_t n) { return n && !(n & (n - 1)); }

// The cases: --n and --shapes (complex, or real with --real), else the sweep of issue 6, as far as
// --min, --max and 2^total reach.
std::vector<BenchCase> compare_cases(const BenchArgs& a) {
    const Precision precision = a.f64 ? Precision::f64 : Precision::f32;
    const uint64_t total = uint64_t(1) << a.total_log2;
    std::vector<BenchCase> cases;
    const Direction direction = a.inverse ? Direction::inverse : Direction::forward;
    auto add = [&](std::vector<uint64_t> shape, bool real) {
        BenchCase c(std::move(shape), real, precision, a.total_log2, direction);
        if (c.n <= total || !a.lengths.empty() || !a.shapes.empty()) cases.push_back(std::move(c));
    };
    if (!a.lengths.empty() || !a.shapes.empty()) {
        for (uint64_t n : a.lengths) add({n}, a.real);
        for (const std::string& s : a.shapes) add(parse_shape(s), a.real);
        return cases;
    }
    if (!a.real) {
        for (uint32_t b = std::max<uint32_t>(a.min_log2, 3); b <= a.max_log2; ++b)
            add({uint64_t(1) << b}, false);
        for (uint64_t n : {100, 1000, 1536, 4095, 10007, 1000000}) add({n}, false);
        for (uint64_t e : {256, 512, 1024, 2048, 4096}) add({e, e}, false);
    }
    for (uint32_t b = std::max<uint32_t>(a.min_log2, 8); b <= std::min<uint32_t>(a.max_log2, 20); ++b)
        add({uint64_t(1) << b}, true);
    return cases;
}

// Runs one case on one library: accuracy, then time.
Result run_peer(Peer& peer, const BenchCase& c, const CaseData& data, const BenchArgs& a) {
    Result r;
    if (!peer.unavailable().empty()) {
        r.status = "not available";
        return r;
    }
    try {
        r.status = peer.prepare(c, data);
        if (r.status.empty()) {
            peer.run();
            r.rel_l2 = data.check(
                [&](void* dst, uint64_t offset, uint64_t bytes) { peer.read_output(dst, offset, bytes); });
            if (!(r.rel_l2 <= a.max_error)) {
                r.status = "failed: error over bound";
            } else {
                r.ms = peer.time_ms(a.reps, a.warm_up);
                r.gbps = static_cast<double>(c.input_bytes() + c.output_bytes()) / (r.ms * 1e-3) / 1e9;
                r.status = "ok";
            }
        }
    } catch (const UnsupportedError& e) {
        // A case the library (twiddle included) or the device does not take, as the peers'
        // own "unsupported: ..." statuses: not a failure of the command.
        r.status = std::string("unsupported: ") + e.what();
    } catch (const std::exception& e) {
        r.status = std::string("error: ") + e.what();
    }
    peer.release();
    return r;
}

const char* precision_name(const BenchCase& c) { return c.precision == Precision::f64 ? "f64" : "f32"; }

// The chart panel a case belongs to: kind, rank, and for 1D powers of two apart from other lengths.
std::string family(const BenchCase& c) {
    std::string f = c.kind();
    std::transform(f.begin(), f.end(), f.begin(), [](char x) { return char(std::toupper(x)); });
    if (!c.real && c.direction == Direction::inverse) f += " inverse";
    f += " " + std::to_string(c.shape.size()) + "D";
    if (c.shape.size() == 1) f += is_power_of_two(c.n) ? ", powers of two" : ", other lengths";
    return f;
}

chart::Figure make_figure(const std::vector<CaseRow>& rows, const std::vector<std::unique_ptr<Peer>>& peers,
                          const DeviceCaps& caps, const BenchArgs& a) {
    chart::Figure figure;
    figure.title = std::string(a.inverse ? "Inverse FFT" : "FFT") + " throughput on " + caps.name + " (" +
                   (a.f64 ? "f64" : "f32") + ", 2^" + std::to_string(a.total_log2) + " values per case)";
    std::vector<std::string> families;
    for (const CaseRow& row : rows)
        if (std::find(families.begin(), families.end(), family(row.c)) == families.end())
            families.push_back(family(row.c));
    chart::Chart ratio;
    ratio.title = "twiddle / best other library (GB/s)";
    ratio.x = {"log2 N (points per transform)", chart::Scale::log2, {}, {}};
    ratio.y = {"ratio", chart::Scale::linear, {}, {}};
    ratio.y_rules = {1.0};
    for (size_t f = 0; f < families.size(); ++f) {
        chart::Chart panel;
        panel.title = families[f];
        panel.x = {families[f].find("1D") != std::string::npos ? "log2 N" : "log2 N (points per array)",
                   chart::Scale::log2,
                   {},
                   {}};
        panel.y = {"GB/s (read + written)", chart::Scale::linear, {}, {}};
        for (size_t p = 0; p < peers.size(); ++p) {
            chart::Series s{peers[p]->name(), {}, chart::palette(p)};
            for (const CaseRow& row : rows)
                if (family(row.c) == families[f] && row.results[p].status == "ok")
                    s.points.push_back({double(row.c.n), row.results[p].gbps});
            std::sort(s.points.begin(), s.points.end());
            if (!s.points.empty()) panel.series.push_back(std::move(s));
        }
        figure.charts.push_back(std::move(panel));
        chart::Series s{families[f], {}, chart::palette(f + 4), f % 2 == 1};
        for (const CaseRow& row : rows)
            if (family(row.c) == families[f] && std::isfinite(row.ratio))
                s.points.push_back({double(row.c.n), row.ratio});
        std::sort(s.points.begin(), s.points.end());
        if (!s.points.empty()) ratio.series.push_back(std::move(s));
    }
    figure.charts.push_back(std::move(ratio));
    figure.columns = figure.charts.size() >= 3 ? 2 : 1;
    return figure;
}

void write_compare_results(const std::string& path, const std::vector<CaseRow>& rows,
                           const std::vector<std::unique_ptr<Peer>>& peers, const DeviceCaps& caps,
                           double copy) {
    nlohmann::json cases = nlohmann::json::array(), libraries = nlohmann::json::array();
    for (const auto& p : peers)
        libraries.push_back({{"name", p->name()},
                             {"available", p->unavailable().empty()},
                             {"detail", p->unavailable().empty() ? p->detail() : p->unavailable()}});
    std::ostringstream f;
    f << "library,kind,direction,shape,n,batch,precision,ms,gbps,copy_fraction,rel_l2,status,best_peer,"
         "ratio\n";
    f << "copy,-,-,-,0,0,-,0," << copy << ",1,0,ok,,\n";
    for (const CaseRow& row : rows) {
        nlohmann::json results = nlohmann::json::array();
        for (size_t p = 0; p < peers.size(); ++p) {
            const Result& r = row.results[p];
            results.push_back({{"library", peers[p]->name()},
                               {"ms", r.ms},
                               {"gbps", r.gbps},
                               {"copy_fraction", r.gbps / copy},
                               {"rel_l2", json_number(r.rel_l2)},
                               {"status", r.status}});
            // Empty fields where there is no number: an error not measured, a ratio on a peer's row.
            f << peers[p]->name() << "," << row.c.kind() << "," << to_string(row.c.direction) << ","
              << row.c.name() << "," << row.c.n << "," << row.c.batch << "," << precision_name(row.c) << ","
              << r.ms << "," << r.gbps << "," << r.gbps / copy << "," << csv_number(r.rel_l2) << ","
              << csv_field(r.status) << "," << (p == 0 ? row.best_peer : "") << ","
              << (p == 0 ? csv_number(row.ratio) : "") << "\n";
        }
        cases.push_back({{"kind", row.c.kind()},
                         {"direction", to_string(row.c.direction)},
                         {"shape", row.c.name()},
                         {"n", row.c.n},
                         {"batch", row.c.batch},
                         {"precision", precision_name(row.c)},
                         {"results", results},
                         {"best_peer", row.best_peer},
                         {"ratio", json_number(row.ratio)}});
    }
    write_results_file(path, caps, std::move(cases), f.str(),
                       {{"copy_gbps", copy}, {"libraries", libraries}});
}

// A result in 19 columns of the table: GB/s and error, or the start of its status.
std::string cell(const Result& r) {
    char buf[64];
    if (r.status == "ok")
        std::snprintf(buf, sizeof buf, "%9.1f %9.1e", r.gbps, r.rel_l2);
    else if (r.status.rfind("failed", 0) == 0 && std::isfinite(r.rel_l2))
        std::snprintf(buf, sizeof buf, "%9s %9.1e", "failed", r.rel_l2);
    else if (r.status == "not available")
        std::snprintf(buf, sizeof buf, "%19s", "-");
    else
        std::snprintf(buf, sizeof buf, "%19s", r.status.substr(0, r.status.find(':')).c_str());
    return buf;
}

// The chart's path less its extension: --plot, else beside --out (none without either).
std::filesystem::path chart_base(const BenchArgs& a) {
    std::filesystem::path plot = a.plot.empty() ? a.out : a.plot;
    if (plot.extension() == ".svg" || plot.extension() == ".png" || a.plot.empty()) plot.replace_extension();
    return plot;
}

}  // namespace

void run_compare(const BenchArgs& args_in) {
    BenchArgs a = args_in;
    if (a.max_error == 0) a.max_error = a.f64 ? 1e-14 : 5e-7;
    if (const std::filesystem::path plot = chart_base(a); !plot.empty())
        for (const char* extension : {".svg", ".png"}) check_writable(plot.string() + extension);
    const std::vector<BenchCase> cases = compare_cases(a);
    if (cases.empty())
        throw Error("bench --compare: no case within 2^" + std::to_string(a.total_log2) + " values");

    const Context ctx;
    const uint64_t copy_bytes = cli::copy_bytes(ctx, a.total_log2, a.f64);
    const double copy = copy_gbps(ctx, copy_bytes, a.reps, a.warm_up);
    uint64_t largest = 0;
    for (const BenchCase& c : cases) largest = std::max({largest, c.input_bytes(), c.output_bytes()});
    Buffers buffers(ctx, largest);

    std::vector<std::unique_ptr<Peer>> peers;
    peers.push_back(std::make_unique<TwiddlePeer>(ctx, buffers, a.options));
    try {
        peers.push_back(make_vkfft_peer(ctx, buffers, a.vkfft_lut));
    } catch (const std::exception& e) {
        peers.push_back(std::make_unique<AbsentPeer>("vkfft", e.what()));
    }
    peers.push_back(make_cufft_peer(ctx));
    peers.push_back(make_fftw_peer(a.fftw_threads));
    const size_t vulkan_peers = 2;  // twiddle and VkFFT, which read Buffers::in

    std::printf("device: %s (%s %s)\n", ctx.caps().name.c_str(), ctx.caps().driver_name.c_str(),
                ctx.caps().driver_info.c_str());
    std::printf("copy: %.1f GB/s over %llu bytes (read + written)\n", copy,
                static_cast<unsigned long long>(2 * copy_bytes));
    if (a.inverse) std::printf("inverse transforms (c2c, and c2r for real cases), unnormalized\n");
    for (const auto& p : peers)
        std::printf(
            "%-8s %s\n", p->name().c_str(),
            p->unavailable().empty() ? p->detail().c_str() : ("not available: " + p->unavailable()).c_str());

    const bool tty = ::isatty(STDERR_FILENO);
    std::vector<CaseRow> rows;
    std::vector<std::string> twiddle_messages, notes;
    for (size_t i = 0; i < cases.size(); ++i) {
        const BenchCase& c = cases[i];
        if (tty)
            std::fprintf(stderr, "\r[%zu/%zu] %s %s ...   ", i + 1, cases.size(), c.kind(), c.name().c_str());
        CaseRow row{c, {}, {}, kNaN};
        const CaseData data(c);
        for (size_t p = 0; p < peers.size(); ++p) {
            // Each Vulkan library gets the input afresh: a c2r may overwrite its input, as FFTW's
            // and cuFFT's may.
            if (p < vulkan_peers) buffers.in.upload(data.input(), c.input_bytes());
            row.results.push_back(run_peer(*peers[p], c, data, a));
            if (p >= vulkan_peers) continue;
            // Validation messages (TWIDDLE_VALIDATION=1) fail the command for twiddle's own work;
            // for VkFFT's they are reported.
            const auto messages = ctx.take_validation_messages();
            if (p == 0)
                twiddle_messages.insert(twiddle_messages.end(), messages.begin(), messages.end());
            else if (!messages.empty())
                notes.push_back(peers[p]->name() + " " + c.name() + ": " + std::to_string(messages.size()) +
                                " validation message(s), the first: " + messages[0]);
        }
        double best = 0;
        for (size_t p = 1; p < peers.size(); ++p)
            if (row.results[p].status == "ok" && row.results[p].gbps > best) {
                best = row.results[p].gbps;
                row.best_peer = peers[p]->name();
            }
        if (row.results[0].status == "ok" && best > 0) row.ratio = row.results[0].gbps / best;
        rows.push_back(std::move(row));
    }
    if (tty) std::fprintf(stderr, "\r%60s\r", "");

    std::printf("\n%12s %4s %9s", "case", "kind", "batch");
    for (const auto& p : peers) std::printf(" | %9s %9s", (p->name() + " GB/s").c_str(), "rel_l2");
    std::printf(" | %6s %s\n", "ratio", "best other");
    for (const CaseRow& row : rows) {
        std::printf("%12s %4s %9llu", row.c.name().c_str(), row.c.kind(),
                    static_cast<unsigned long long>(row.c.batch));
        for (const Result& r : row.results) std::printf(" | %s", cell(r).c_str());
        if (std::isfinite(row.ratio))
            std::printf(" | %6.2f %s\n", row.ratio, row.best_peer.c_str());
        else
            std::printf(" | %6s\n", "-");
    }
    for (const CaseRow& row : rows)
        for (size_t p = 0; p < peers.size(); ++p) {
            const std::string& s = row.results[p].status;
            if (s != "ok" && s != "not available")
                notes.push_back(peers[p]->name() + " " + row.c.kind() + " " + row.c.name() + ": " + s);
        }
    for (const std::string& n : notes) std::printf("note: %s\n", n.c_str());

    // The table and its chart as one set: a failure to write one leaves neither.
    FileSet files;
    if (!a.out.empty()) write_compare_results(files.note(a.out).string(), rows, peers, ctx.caps(), copy);
    const std::filesystem::path plot = chart_base(a);
    if (!plot.empty()) {
        const chart::Figure figure = make_figure(rows, peers, ctx.caps(), a);
        chart::write(figure, files.note(plot.string() + ".svg").string());
        chart::write(figure, files.note(plot.string() + ".png").string());
        std::printf("chart: %s.svg, %s.png\n", plot.c_str(), plot.c_str());
    }
    files.keep();
    if (!twiddle_messages.empty()) {
        std::string all = std::to_string(twiddle_messages.size()) + " Vulkan validation message(s):";
        for (const auto& m : twiddle_messages) all += " [" + m + "]";
        throw Error(all);
    }
    const bool failed = std::any_of(rows.begin(), rows.end(), [](const CaseRow& r) {
        return r.results[0].status.rfind("failed", 0) == 0 || r.results[0].status.rfind("error", 0) == 0;
    });
    if (failed) throw Error("bench: a twiddle case failed its accuracy gate or ran into an error");
}

}  // namespace twiddle::cli
