// twiddle's tuned planner choices: measuring the planner's variants (tune), keeping the fastest
// per device and driver in the disk cache, and applying them to plans made with default options.
#include "twiddle/tuning.hpp"

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "codegen/pass_kernel.hpp"
#include "core/enum_values.hpp"
#include "core/hash.hpp"
#include "cpu/reference.hpp"
#include "twiddle/buffer.hpp"
#include "twiddle/error.hpp"
#include "twiddle/plan.hpp"
#include "twiddle/timer.hpp"
#include "vk/compiler.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"
#include "vk/tuning.hpp"
#include "vk/warm_up.hpp"

namespace twiddle {

template <>
struct detail::EnumValues<TuningImport> {
    static constexpr std::string_view name = "TuningImport";
    static constexpr std::array values{TuningImport::add, TuningImport::replace};
};

namespace {

bool same_key(const TunedChoice& a, const TunedChoice& b) {
    return a.transform == b.transform && a.precision == b.precision && a.length == b.length;
}

// One line per choice: kind, precision and length, then name=value pairs.
std::string to_line(const TunedChoice& c) {
    const Options& o = c.options;
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << to_string(c.transform) << " " << to_string(c.precision) << " " << c.length
      << " max_pass_length=" << o.max_pass_length << " max_radix=" << o.max_radix
      << " workgroup_size=" << o.workgroup_size << " columns_per_workgroup=" << o.columns_per_workgroup
      << " max_shared_memory=" << o.max_shared_memory << " tiles_per_workgroup=" << o.tiles_per_workgroup
      << " subgroup_barriers=" << o.subgroup_barriers << " subgroup_shuffles=" << o.subgroup_shuffles
      << " join_through_shared_memory=" << o.join_through_shared_memory
      << " strategy=" << to_string(o.strategy) << " real_path=" << to_string(o.real_path);
    if (o.radix != 0) s << " radix=" << o.radix;  // in no line tune() makes, and none before it
    s << " ms=" << c.ms << " default_ms=" << c.default_ms << " batch=" << c.batch
      << " variants=" << c.variants << " plan=" << c.plan_key << " default_plan=" << c.default_plan_key;
    return s.str();
}

TunedChoice from_line(const std::string& line) {
    auto bad = [&](const std::string& why) { return Error("tuning: " + why + " in line '" + line + "'"); };
    std::istringstream s(line);
    s.imbue(std::locale::classic());
    std::string kind, precision, length;
    TunedChoice c;
    if (!(s >> kind >> precision >> length) || length.find_first_not_of("0123456789") != std::string::npos ||
        length.size() > 18 || (c.length = std::stoull(length)) == 0)
        throw bad("no kind, precision and length (a count of at least 1)");
    if (kind == "c2c")
        c.transform = Transform::c2c;
    else if (kind == "r2c")
        c.transform = Transform::r2c;
    else if (kind == "c2r")
        c.transform = Transform::c2r;
    else
        throw bad("transform '" + kind + "' is not c2c, r2c or c2r");
    if (precision == "f32")
        c.precision = Precision::f32;
    else if (precision == "f64")
        c.precision = Precision::f64;
    else
        throw bad("precision '" + precision + "' is not f32 or f64");
    Options& o = c.options;
    std::map<std::string, std::string> fields;
    for (std::string item; s >> item;) {
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) throw bad("'" + item + "' is not name=value");
        if (!fields.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
            throw bad(item.substr(0, eq) + " given twice");
    }
    auto take = [&](const std::string& name) {
        const auto it = fields.find(name);
        if (it == fields.end()) throw bad("no " + name);
        std::string v = it->second;
        fields.erase(it);
        return v;
    };
    auto number = [&](const std::string& name) {
        const std::string v = take(name);
        double d = 0;
        std::istringstream in(v);
        in.imbue(std::locale::classic());
        if (!(in >> d) || in.peek() != std::char_traits<char>::eof() || !(d >= 0) || !(d < 1e18))
            throw bad(name + " '" + v + "' is not a number from 0 to 10^18");
        return d;
    };
    auto u32 = [&](const std::string& name) {
        const double d = number(name);
        if (d > 4294967295.0 || d != static_cast<uint32_t>(d)) throw bad(name + " is not a 32-bit count");
        return static_cast<uint32_t>(d);
    };
    o.max_pass_length = u32("max_pass_length");
    o.max_radix = u32("max_radix");
    o.workgroup_size = u32("workgroup_size");
    o.columns_per_workgroup = u32("columns_per_workgroup");
    o.max_shared_memory = u32("max_shared_memory");
    o.tiles_per_workgroup = u32("tiles_per_workgroup");
    auto flag = [&](const std::string& name) {
        const std::string v = take(name);
        if (v != "0" && v != "1") throw bad(name + " '" + v + "' is not 0 or 1");
        return v == "1";
    };
    o.subgroup_barriers = flag("subgroup_barriers");
    o.subgroup_shuffles = flag("subgroup_shuffles");
    // Not in the lines of versions before it: false there.
    o.join_through_shared_memory =
        fields.contains("join_through_shared_memory") && flag("join_through_shared_memory");
    o.radix = fields.contains("radix") ? u32("radix") : 0;
    o.strategy = parse_strategy(take("strategy"));
    const std::string real = take("real_path");
    if (real == to_string(RealPath::half_length))
        o.real_path = RealPath::half_length;
    else if (real == to_string(RealPath::full_length))
        o.real_path = RealPath::full_length;
    else
        throw bad("real_path '" + real + "' is not half_length or full_length");
    c.ms = number("ms");
    c.default_ms = number("default_ms");
    const double batch = number("batch");
    if (batch < 1 || batch != static_cast<double>(static_cast<uint64_t>(batch)))
        throw bad("batch is not a count of at least 1");
    c.batch = static_cast<uint64_t>(batch);
    c.variants = u32("variants");
    auto fingerprint = [&](const std::string& name) {
        std::string v = take(name);
        if (v.size() != 32 || v.find_first_not_of("0123456789abcdef") != std::string::npos)
            throw bad(name + " '" + v + "' is not 32 lowercase hex digits");
        return v;
    };
    c.plan_key = fingerprint("plan");
    c.default_plan_key = fingerprint("default_plan");
    if (!fields.empty()) throw bad("unknown field " + fields.begin()->first);
    return c;
}

// Calls `line(text)` for each line of `text` that holds a choice: not blank, not a comment.
template <typename Line>
void for_each_choice_line(const std::string& text, Line line) {
    std::istringstream s(text);
    for (std::string l; std::getline(s, l);) {
        l.erase(l.find_last_not_of(" \t\r") + 1);  // CRLF files, trailing blanks
        const size_t first = l.find_first_not_of(" \t");
        if (first != std::string::npos && l[first] != '#') line(l);
    }
}

std::vector<TunedChoice> parse(const std::string& text) {
    std::vector<TunedChoice> out;
    for_each_choice_line(text, [&](const std::string& line) { out.push_back(from_line(line)); });
    return out;
}

// Adds or replaces the choices of the same key.
void merge(std::vector<TunedChoice>& into, const std::vector<TunedChoice>& choices) {
    for (const TunedChoice& c : choices) {
        auto it =
            std::find_if(into.begin(), into.end(), [&](const TunedChoice& x) { return same_key(x, c); });
        if (it != into.end())
            *it = c;
        else
            into.push_back(c);
    }
}

std::string file_name(const Context::State& state) {
    return "tuning-" + state.kernels->device_key() + ".txt";
}

// The choices of the context's tuning file, and the lines this version cannot read (another
// version's, with fields it does not know), which are kept as written.
struct TuningFile {
    std::vector<TunedChoice> choices;
    std::vector<std::string> unread;
};

TuningFile read_disk(const Context::State& state) {
    TuningFile file;
    if (auto data = state.kernels->disk().read(file_name(state)))
        for_each_choice_line(std::string(data->begin(), data->end()), [&](const std::string& line) {
            try {
                merge(file.choices, {from_line(line)});
            } catch (const Error&) {
                file.unread.push_back(line);
            }
        });
    return file;
}

// The context's choices, read from disk on first use. Caller holds tuning_mutex.
std::vector<TunedChoice>& loaded(Context::State& state) {
    if (!state.tuning_loaded) {
        state.tuning_loaded = true;
        state.tuning = read_disk(state).choices;
    }
    return state.tuning;
}

// Sets the choices of the context and of its disk cache: `choices` added to those on disk now
// (which another context or process may have changed since this one read them), or in place of
// them (`mode`). A lock file serializes the read and the write among processes, so that none loses
// another's choices. Throws Error where the file cannot be written; the context keeps the
// choices, and each later save adds them again until one is written. Without a disk cache, the
// context's choices are the only ones.
void remember(Context::State& state, const std::vector<TunedChoice>& choices, TuningImport mode) {
    std::lock_guard lock(state.tuning_mutex);
    const vk::DiskCache& disk = state.kernels->disk();
    const std::string name = file_name(state);
    const vk::DiskCache::Lock file_lock = disk.lock(name + ".lock");
    TuningFile file;
    if (mode == TuningImport::add) {
        file = disk.enabled() ? read_disk(state) : TuningFile{loaded(state), {}};
        merge(file.choices, state.tuning_unsaved);
    } else {
        state.tuning_unsaved.clear();
    }
    merge(file.choices, choices);
    state.tuning = file.choices;
    state.tuning_loaded = true;
    if (!disk.enabled()) return;

    std::string text = "# twiddle tuned planner choices for " + state.caps.name + "\n";
    for (const TunedChoice& c : file.choices) text += to_line(c) + "\n";
    // Another version's line for a key of these choices (its first three words) is replaced by it.
    for (const std::string& line : file.unread) {
        std::istringstream words(line);
        std::string kind, precision, length;
        words >> kind >> precision >> length;
        if (std::none_of(file.choices.begin(), file.choices.end(), [&](const TunedChoice& c) {
                return to_string(c.transform) == kind && to_string(c.precision) == precision &&
                       std::to_string(c.length) == length;
            }))
            text += line + "\n";
    }
    if (disk.write(name, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()))) {
        state.tuning_unsaved.clear();
    } else {
        merge(state.tuning_unsaved, choices);
        throw Error("tuning: cannot write " + disk.path(name)->string() +
                    ": the choices are kept only as long as this context");
    }
}

// The problem tune() times: `batch` transforms of `length` points (forward; c2r inverse).
FftDesc timed_problem(Transform transform, Precision precision, uint64_t length, uint64_t batch) {
    FftDesc desc = transform == Transform::c2c   ? FftDesc(length, batch)
                   : transform == Transform::r2c ? FftDesc::r2c(length, batch)
                                                 : FftDesc::c2r(length, batch);
    desc.with_precision(precision);
    return desc;
}

// Whether this version plans a choice's timed problem as it was timed, with its options and with
// the defaults (TunedChoice::plan_key). Throws Error where the planner refuses its options.
bool plans_as_timed(const DeviceCaps& caps, const TunedChoice& c) {
    // Each fingerprint generates the plans' kernels (about 0.3-2.7 ms a plan on the build machine).
    const std::string defaults =
        vk::choice_fingerprint(caps, c.transform, c.precision, c.length, c.batch, Options{});
    const std::string chosen = c.options == Options{} ? defaults
                                                      : vk::choice_fingerprint(caps, c.transform, c.precision,
                                                                               c.length, c.batch, c.options);
    return chosen == c.plan_key && defaults == c.default_plan_key;
}

// Throws Error if the planner refuses a choice's options for its transform on this device, or
// plans it otherwise than it was timed (an import from another device or version), before any
// choice is kept.
void check_plannable(const DeviceCaps& caps, const std::vector<TunedChoice>& choices) {
    for (const TunedChoice& c : choices) {
        const std::string what = "tuning: the choice for " + std::string(to_string(c.transform)) + " " +
                                 std::string(to_string(c.precision)) + " " + std::to_string(c.length);
        bool as_timed = false;
        try {
            as_timed = plans_as_timed(caps, c);
        } catch (const Error& e) {
            throw Error(what + " does not plan on this device: " + e.what());
        }
        if (!as_timed)
            throw Error(what +
                        " was timed with plans this device and version make otherwise (another device's, "
                        "or another version's planner, code generator or compiler): tune it again");
    }
}

// Whether this version plans a choice as it was timed and the planner takes its options (a
// choice read from disk may be another version's), checked once per context and choice. Caller
// holds tuning_mutex.
bool current(Context::State& state, const TunedChoice& c) {
    const std::string line = to_line(c);
    if (const auto it = state.tuning_current.find(line); it != state.tuning_current.end()) return it->second;
    bool yes = false;
    try {
        yes = plans_as_timed(state.caps, c);
    } catch (const Error&) {
        // the planner refuses its options now
    }
    state.tuning_current.emplace(line, yes);
    return yes;
}

// Knobs that each beat the defaults, but the fastest, combined with the fastest in a second round,
// the best first: at most this many.
constexpr size_t kCombinedKnobs = 3;

// The variants tune() times first: the defaults, then one knob changed at a time.
std::vector<Options> variants(const DeviceCaps& caps) {
    std::vector<Options> out{Options{}};
    auto with = [&](auto set) {
        Options o;
        set(o);
        out.push_back(o);
    };
    for (uint32_t r : {4u, 8u, 16u, 32u}) with([&](Options& o) { o.max_radix = r; });
    for (uint32_t w : {64u, 128u, 256u, 512u, 1024u}) with([&](Options& o) { o.workgroup_size = w; });
    for (uint32_t c : {4u, 8u, 16u, 32u}) with([&](Options& o) { o.columns_per_workgroup = c; });
    for (uint32_t t : {1u, 2u, 4u, 8u}) with([&](Options& o) { o.tiles_per_workgroup = t; });
    with([&](Options& o) { o.max_shared_memory = caps.max_shared_memory_bytes; });
    with([&](Options& o) { o.max_shared_memory = caps.max_shared_memory_bytes / 4; });
    with([&](Options& o) { o.strategy = Strategy::portable; });
    if (caps.has_subgroup_operation("shuffle")) with([&](Options& o) { o.strategy = Strategy::subgroups; });
    with([&](Options& o) { o.real_path = RealPath::full_length; });
    with([&](Options& o) { o.join_through_shared_memory = true; });
    return out;
}

// Whether two plans run the same kernels over the same grid.
bool same_plan(const LogicalPlan& a, const LogicalPlan& b) {
    return std::equal(
        a.passes.begin(), a.passes.end(), b.passes.begin(), b.passes.end(),
        [](const Pass& x, const Pass& y) { return x.kernel == y.kernel && x.workgroups == y.workgroups; });
}

// Seconds of back-to-back runs before each timing (at least: vk::WarmUp); rounds of the winner
// against the defaults; how much faster the winner must be to replace them.
constexpr double kWarmUpSeconds = 0.3;
constexpr int kConfirmRounds = 3;
constexpr double kMargin = 0.02;
// A NaN no transform writes: outputs are filled with it before a variant runs.
constexpr uint32_t kPoison = 0x7fbadbadu;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

TunedChoice tune(const Context& context, Transform transform, Precision precision, uint64_t length,
                 const TuneOptions& options) {
    detail::checked(transform, "tune: transform");
    detail::checked(precision, "tune: precision");
    if (length == 0) throw Error("tune: length must be at least 1");
    if (options.reps == 0) throw Error("tune: reps must be at least 1");
    const DeviceCaps& caps = context.caps();
    // At most what one binding holds.
    const FftDesc row = timed_problem(transform, precision, length, 1);
    const uint64_t row_bytes = std::max(row.input_bytes(), row.output_bytes());
    const uint64_t batch = std::max<uint64_t>(
        1,
        std::min(options.values / length, caps.max_storage_buffer_range / std::max<uint64_t>(1, row_bytes)));
    const FftDesc desc = timed_problem(transform, precision, length, batch);

    // The distinct plans among the variants that plan at all; the defaults first.
    std::vector<std::pair<Options, LogicalPlan>> candidates;
    for (const Options& o : variants(caps)) {
        LogicalPlan lp;
        try {
            lp = plan(desc, caps, o);
        } catch (const UnsupportedError&) {
            if (candidates.empty()) throw;  // the defaults: the device cannot run the transform
            continue;
        }
        if (std::none_of(candidates.begin(), candidates.end(),
                         [&](const auto& c) { return same_plan(c.second, lp); }))
            candidates.emplace_back(o, std::move(lp));
    }

    // Random input, the same for every variant; outputs compared on their first elements.
    const uint64_t in_bytes = desc.input_bytes(), out_bytes = desc.output_bytes();
    Buffer in(context, in_bytes), out(context, out_bytes);
    {
        std::vector<uint32_t> words(in_bytes / 4);
        uint64_t state = 0x9e3779b97f4a7c15ull;
        const bool f32 = precision == Precision::f32;
        for (size_t i = 0; i < words.size(); i += f32 ? 1 : 2) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const double v = static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1;
            if (f32) {
                const float f = static_cast<float>(v);
                std::memcpy(&words[i], &f, 4);
            } else {
                std::memcpy(&words[i], &v, 8);
            }
        }
        in.upload(words.data(), in_bytes);
    }
    // What is compared of an output: all of it, or three windows (its start, middle and end),
    // after every word was poisoned before the run, so that a variant which leaves any of them
    // unwritten shows NaN there and fails.
    auto sample = [&]() {
        constexpr uint64_t kWindow = 256 * 1024;  // bytes, a multiple of every element's size
        std::vector<uint8_t> got;
        auto take = [&](uint64_t at, uint64_t bytes) {
            const size_t before = got.size();
            got.resize(before + bytes);
            out.download(got.data() + before, bytes, at);
        };
        if (out_bytes <= 3 * kWindow) {
            take(0, out_bytes);
        } else {
            take(0, kWindow);
            take(out_bytes / 2 / kWindow * kWindow, kWindow);
            take(out_bytes - kWindow, kWindow);
        }
        return got;
    };
    uint64_t scratch_bytes = 1;
    for (const auto& [o, lp] : candidates)
        scratch_bytes = std::max(scratch_bytes, lp.scratch_bytes(Placement::out_of_place));
    Buffer scratch(context, scratch_bytes);

    // Milliseconds per transform of a plan: the median of reps, timed after a warm-up (clocks rise
    // under sustained load only; vk::WarmUp waits for a steady speed).
    auto time_plan = [&](const Plan& p, const LogicalPlan& lp) {
        auto record = [&](VkCommandBuffer cmd) {
            p.record(cmd, in.view(), out.view(),
                     lp.scratch_bytes(Placement::out_of_place) ? scratch.view() : BufferView{},
                     transform == Transform::c2r ? Direction::inverse : Direction::forward);
        };
        vk::warm_up(context, kWarmUpSeconds, record);
        GpuTimer timer(context, options.reps);
        context.submit([&](VkCommandBuffer cmd) {
            timer.reset(cmd);
            for (uint32_t r = 0; r < options.reps; ++r) {
                vk::record_full_barrier(cmd);
                timer.begin(cmd, r);
                record(cmd);
                timer.end(cmd, r);
            }
        });
        return median(timer.read_ms());
    };

    TunedChoice best;
    best.transform = transform;
    best.precision = precision;
    best.length = length;
    best.batch = batch;
    size_t winner = 0;
    std::vector<uint8_t> baseline;
    // Candidate v's time, where it computes what the defaults computed (else infinity).
    std::vector<double> agreed(candidates.size(), std::numeric_limits<double>::infinity());
    auto measure = [&](size_t v) {
        const auto& [o, lp] = candidates[v];
        const Plan p(context, lp, FftCallbacks{});  // as planned: no tuned choice replaces the defaults
        out.fill(kPoison);
        const double ms = time_plan(p, lp);
        std::vector<uint8_t> got = sample();
        ++best.variants;
        if (baseline.empty()) {
            baseline = std::move(got);
            best.ms = best.default_ms = agreed[v] = ms;
            return;
        }
        // A variant counts only if it computes what the defaults computed.
        double err = 0;
        if (precision == Precision::f32) {
            std::vector<std::complex<float>> a(got.size() / 8), b(got.size() / 8);
            std::memcpy(a.data(), got.data(), a.size() * 8);
            std::memcpy(b.data(), baseline.data(), b.size() * 8);
            std::vector<std::complex<double>> wide(b.begin(), b.end());
            err = cpu::relative_l2(a, wide);
        } else {
            std::vector<std::complex<double>> a(got.size() / 16), b(got.size() / 16);
            std::memcpy(a.data(), got.data(), a.size() * 16);
            std::memcpy(b.data(), baseline.data(), b.size() * 16);
            err = cpu::relative_l2(a, b);
        }
        if (err > (precision == Precision::f32 ? 1e-5 : 1e-12)) return;
        agreed[v] = ms;
        if (ms < best.ms) {
            best.ms = ms;
            winner = v;
        }
    };
    for (size_t v = 0; v < candidates.size(); ++v) measure(v);
    // Second round: the fastest knob with each of the next fastest that also beat the defaults,
    // whose gains may add up (H100, r2c 512: one tile per workgroup 6% faster, radix 8 and 128
    // invocations 4.5% each, bench/RESULTS.md, fortieth run). Combinations that plan as a
    // candidate did, or need more scratch than the candidates, are not timed.
    if (winner != 0) {
        std::vector<size_t> helped;
        for (size_t v = 1; v < candidates.size(); ++v)
            if (v != winner && agreed[v] < agreed[0]) helped.push_back(v);
        std::sort(helped.begin(), helped.end(), [&](size_t a, size_t b) { return agreed[a] < agreed[b]; });
        if (helped.size() > kCombinedKnobs) helped.resize(kCombinedKnobs);
        const Options first = candidates[winner].first;
        for (const size_t h : helped) {
            const std::optional<Options> o = vk::combined_options(first, candidates[h].first);
            if (!o) continue;
            LogicalPlan lp;
            try {
                lp = plan(desc, caps, *o);
            } catch (const UnsupportedError&) {
                continue;
            }
            if (lp.scratch_bytes(Placement::out_of_place) > scratch_bytes ||
                std::any_of(candidates.begin(), candidates.end(),
                            [&](const auto& c) { return same_plan(c.second, lp); }))
                continue;
            candidates.emplace_back(*o, std::move(lp));
            agreed.push_back(std::numeric_limits<double>::infinity());
            measure(candidates.size() - 1);
        }
    }
    // The winner of one timing each may have won on noise (H200: 2048 and 4096 "won" by 20-25% at
    // 2^24 values and ran 2% slower in the benchmark): it and the defaults again, alternating,
    // and it stays only if its median beats theirs by kMargin.
    if (winner != 0) {
        const Plan defaults(context, candidates[0].second, FftCallbacks{});
        const Plan chosen(context, candidates[winner].second, FftCallbacks{});
        std::vector<double> d, c;
        for (int round = 0; round < kConfirmRounds; ++round) {
            d.push_back(time_plan(defaults, candidates[0].second));
            c.push_back(time_plan(chosen, candidates[winner].second));
        }
        best.default_ms = median(d);
        best.ms = median(c);
        if (best.ms >= best.default_ms * (1 - kMargin)) {
            winner = 0;
            best.ms = best.default_ms;
        }
    }
    best.options = candidates[winner].first;
    best.plan_key = vk::choice_fingerprint(caps, transform, precision, length, batch, best.options);
    best.default_plan_key = vk::choice_fingerprint(caps, transform, precision, length, batch, Options{});
    remember(*context.state(), {best}, TuningImport::add);
    return best;
}

std::optional<Options> vk::combined_options(Options a, const Options& b) {
    // Every field of Options: one left out here would make its knob's combinations the first
    // variant's plan, which tune() skips as planned already.
    const Options d;
    bool clash = false;
    auto take = [&](auto member) {
        if (b.*member == d.*member) return;
        clash = clash || a.*member != d.*member;
        a.*member = b.*member;
    };
    take(&Options::max_pass_length);
    take(&Options::max_radix);
    take(&Options::workgroup_size);
    take(&Options::columns_per_workgroup);
    take(&Options::max_shared_memory);
    take(&Options::tiles_per_workgroup);
    take(&Options::subgroup_barriers);
    take(&Options::subgroup_shuffles);
    take(&Options::join_through_shared_memory);
    take(&Options::radix);
    take(&Options::strategy);
    take(&Options::real_path);
    if (clash) return std::nullopt;
    return a;
}

Options vk::tuned_options(Context::State& state, const FftDesc& desc, const Options& options) {
    if (!(options == Options{}) || desc.dims().size() != 1) return options;
    std::lock_guard lock(state.tuning_mutex);
    const TunedChoice key{desc.transform(), desc.precision(), desc.dims()[0].n};
    for (const TunedChoice& c : loaded(state))
        if (same_key(c, key)) return current(state, c) ? c.options : options;
    return options;
}

std::string vk::plan_fingerprint(const LogicalPlan& plan) {
    Hash128 h;
    // Sizes go before variable-length pieces, so that no two plans hash the same bytes.
    auto add_text = [&](std::string_view text) {
        const uint64_t size = text.size();
        h.add(&size, sizeof size).add(text);
    };
    auto add_words = [&](std::initializer_list<uint64_t> words) {
        for (const uint64_t w : words) h.add(&w, sizeof w);
    };
    add_text(codegen::kGeneratorVersion);
    add_text(vk::compiler_version());  // the same GLSL compiles otherwise under another shaderc
    add_words({plan.passes.size()});
    for (size_t i = 0; i < plan.passes.size(); ++i) {
        const Pass& pass = plan.passes[i];
        add_text(codegen::generate_pass_kernel(pass.kernel));
        // Its grid, and the buffers it reads and writes out of place (as tune() times plans).
        const Route& r = plan.out_of_place[i];
        add_words({static_cast<uint64_t>(pass.dim), pass.dim_count, pass.columns, pass.tiles, pass.workgroups,
                   static_cast<uint64_t>(r.src), static_cast<uint64_t>(r.dst), r.src_at, r.dst_at});
    }
    add_words({plan.scratch_elements_out_of_place, plan.twiddles.size(), plan.spectra.size()});
    for (const TwiddleEntry& t : plan.twiddles) add_words({t.exponent, t.period});
    for (const LogicalPlan::SpectrumTable& t : plan.spectra) add_words({t.n, t.m, t.offset, t.generator});
    return h.hex();
}

std::string vk::choice_fingerprint(const DeviceCaps& caps, Transform transform, Precision precision,
                                   uint64_t length, uint64_t batch, const Options& options) {
    return plan_fingerprint(plan(timed_problem(transform, precision, length, batch), caps, options));
}

vk::TunedPlan vk::plan_tuned(Context::State& state, const FftDesc& desc, const Options& options) {
    const Options tuned = tuned_options(state, desc, options);
    if (!(tuned == options)) {
        try {
            return {plan(desc, state.caps, tuned), tuned};
        } catch (const Error&) {
            // a choice the planner refuses for this problem (its batch, say): the requested options
        }
    }
    return {plan(desc, state.caps, options), options};
}

Options tuned_options(const Context& context, const FftDesc& desc, const Options& options) {
    return vk::tuned_options(*context.state(), desc, options);
}

std::vector<TunedChoice> tuned_choices(const Context& context) {
    Context::State& state = *context.state();
    std::lock_guard lock(state.tuning_mutex);
    return loaded(state);
}

bool tuned_choice_current(const Context& context, const TunedChoice& choice) {
    Context::State& state = *context.state();
    std::lock_guard lock(state.tuning_mutex);
    return current(state, choice);
}

std::string export_tuning(const Context& context) {
    Context::State& state = *context.state();
    std::lock_guard lock(state.tuning_mutex);
    std::string text;
    for (const TunedChoice& c : loaded(state))
        if (current(state, c)) text += to_line(c) + "\n";
    return text;
}

void import_tuning(const Context& context, const std::string& text, TuningImport mode) {
    detail::checked(mode, "import_tuning's mode");
    const std::vector<TunedChoice> choices = parse(text);
    check_plannable(context.caps(), choices);
    Context::State& state = *context.state();
    remember(state, choices, mode);
    // check_plannable found them current: plans need not check them again.
    std::lock_guard lock(state.tuning_mutex);
    for (const TunedChoice& c : choices) state.tuning_current.insert_or_assign(to_line(c), true);
}

void clear_tuning(const Context& context) { remember(*context.state(), {}, TuningImport::replace); }

void vk::warm_up(const Context& context, double seconds, const std::function<void(VkCommandBuffer)>& record) {
    using clock = std::chrono::steady_clock;
    auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
    const auto start = clock::now();
    for (WarmUp w(seconds); w.running();) {
        const auto t0 = clock::now();
        context.submit([&](VkCommandBuffer cmd) {
            for (uint32_t i = 0; i < w.batch(); ++i) {
                record_full_barrier(cmd);
                record(cmd);
            }
        });
        w.ran(since(t0), since(start));
    }
}

}  // namespace twiddle
