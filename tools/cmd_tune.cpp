// twiddle tune: measures the planner's variants for 1D lengths on the device and keeps the
// fastest in the disk cache (twiddle::tune), where later plans with default options find them;
// or lists, exports, imports and clears those choices.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "file_io.hpp"
#include "twiddle/twiddle.hpp"
#include "vk/context_state.hpp"

namespace twiddle::cli {

namespace {

// The options a choice sets, as "max_radix=8 tiles=1", or "defaults".
std::string changed(const Options& o) {
    const Options d;
    std::ostringstream s;
    if (o.max_pass_length != d.max_pass_length) s << " max_pass_length=" << o.max_pass_length;
    if (o.max_radix != d.max_radix) s << " max_radix=" << o.max_radix;
    if (o.workgroup_size != d.workgroup_size) s << " workgroup_size=" << o.workgroup_size;
    if (o.columns_per_workgroup != d.columns_per_workgroup) s << " columns=" << o.columns_per_workgroup;
    if (o.max_shared_memory != d.max_shared_memory) s << " shared=" << o.max_shared_memory;
    if (o.tiles_per_workgroup != d.tiles_per_workgroup) s << " tiles=" << o.tiles_per_workgroup;
    if (o.subgroup_barriers != d.subgroup_barriers) s << " subgroup_barriers=0";
    if (o.subgroup_shuffles != d.subgroup_shuffles) s << " subgroup_shuffles=0";
    if (o.join_through_shared_memory != d.join_through_shared_memory) s << " join_through_shared_memory=1";
    if (o.strategy != d.strategy) s << " strategy=" << to_string(o.strategy);
    if (o.real_path != d.real_path) s << " real_path=" << to_string(o.real_path);
    const std::string out = s.str();
    return out.empty() ? "defaults" : out.substr(1);
}

// The choices, one line each; those that are not applied (tuned_choice_current: timed with
// another version's plans) are marked.
void print(const Context& ctx, const std::vector<TunedChoice>& choices) {
    std::printf("%5s %4s %10s %8s %10s %10s %8s  %s\n", "kind", "prec", "N", "variants", "default ms",
                "tuned ms", "speedup", "options");
    for (const TunedChoice& c : choices) {
        const bool applied = tuned_choice_current(ctx, c);
        std::printf("%5s %4s %10llu %8u %10.4f %10.4f %7.3fx  %s%s\n",
                    std::string(to_string(c.transform)).c_str(), std::string(to_string(c.precision)).c_str(),
                    static_cast<unsigned long long>(c.length), c.variants, c.default_ms, c.ms,
                    c.ms > 0 ? c.default_ms / c.ms : 0.0, changed(c.options).c_str(),
                    applied ? "" : " (timed with another version's plans: not applied)");
    }
}

}  // namespace

void add_tune_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "tune",
        "Time the planner's variants for 1D lengths on the device and keep the fastest in the disk cache, "
        "where plans with default options find them (as FFTW's wisdom)");
    struct Args {
        std::vector<uint64_t> lengths;
        bool f64 = false;
        bool real = false;
        bool inverse = false;
        uint32_t total_log2 = 26;
        uint32_t reps = 10;
        bool list = false;
        bool clear = false;
        std::string export_to;
        std::string import_from;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("--n", a->lengths, "Lengths to tune: 1024,4096")
        ->delimiter(',')
        ->transform(integer_in(1, kMaxCount));
    cmd->add_flag("--f64", a->f64, "Double precision instead of single");
    CLI::Option* real = cmd->add_flag("--real", a->real, "r2c transforms");
    cmd->add_flag("--inverse", a->inverse, "With --real: c2r transforms, tuned apart from r2c")->needs(real);
    cmd->add_option("--total", a->total_log2, "log2 of the values per timed problem (default 26)")
        ->transform(integer_in(4, 28));
    cmd->add_option("--reps", a->reps, "Timed executions per variant, median kept (default 10)")
        ->transform(integer_in(1, 1000));
    cmd->add_flag("--list", a->list, "Print the choices the disk cache holds for this device");
    cmd->add_flag("--clear", a->clear, "Forget every choice for this device");
    cmd->add_option("--export", a->export_to, "Write the choices to FILE (text, one per line)");
    cmd->add_option("--import", a->import_from, "Add the choices of FILE (as --export writes)")
        ->check(CLI::ExistingFile);
    cmd->callback([a] {
        if (a->lengths.empty() && !a->list && !a->clear && a->export_to.empty() && a->import_from.empty())
            usage_error("tune: nothing to do; give --n, --list, --clear, --export or --import");
        if (!a->export_to.empty()) check_writable(a->export_to);
        std::stringstream imported;
        if (!a->import_from.empty()) {
            std::ifstream in(a->import_from, std::ios::binary);
            imported << in.rdbuf();
            if (!in) throw Error("tune: cannot read " + a->import_from);
        }
        const Context ctx;
        // Without a disk cache the choices last as long as the process.
        if (!ctx.state()->kernels->disk().enabled()) {
            const std::string off =
                vk::DiskCache::off_in_environment()
                    ? "the disk cache is off (TWIDDLE_CACHE_DIR=" +
                          std::string(std::getenv("TWIDDLE_CACHE_DIR")) + ")"
                    : "there is no disk cache (no TWIDDLE_CACHE_DIR, XDG_CACHE_HOME or HOME)";
            if (a->clear) throw Error("tune --clear: " + off + ": nothing to clear");
            if ((!a->lengths.empty() || !a->import_from.empty()) && a->export_to.empty())
                throw Error(
                    "tune: " + off +
                    ", so the choices would be lost with the process: give --export FILE to keep them");
        }
        // --clear with --import replaces the choices: a file that does not import leaves them as they were.
        if (!a->import_from.empty())
            import_tuning(ctx, imported.str(), a->clear ? TuningImport::replace : TuningImport::add);
        else if (a->clear)
            clear_tuning(ctx);
        std::vector<TunedChoice> tuned;
        // Progress for a person watching: on a terminal only, so that a failing run's stderr (a
        // length the device cannot run, say) is its one-line message.
        const bool tty = ::isatty(STDERR_FILENO);
        for (const uint64_t n : a->lengths) {
            if (tty) std::fprintf(stderr, "tuning N=%llu ...\n", static_cast<unsigned long long>(n));
            const Transform kind = !a->real ? Transform::c2c : a->inverse ? Transform::c2r : Transform::r2c;
            tuned.push_back(tune(ctx, kind, a->f64 ? Precision::f64 : Precision::f32, n,
                                 {.values = uint64_t(1) << a->total_log2, .reps = a->reps}));
        }
        std::printf("device: %s\n", ctx.caps().name.c_str());
        if (!tuned.empty()) print(ctx, tuned);
        if (a->list) print(ctx, tuned_choices(ctx));
        if (!a->export_to.empty()) {
            const std::string text = export_tuning(ctx);
            write_file_atomic(a->export_to, std::as_bytes(std::span(text.data(), text.size())));
        }
        check_validation(ctx);
    });
}

}  // namespace twiddle::cli
