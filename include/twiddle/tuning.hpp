// twiddle: measured planner choices, as FFTW's wisdom. tune() times the planner's variants for one
// transform length on the context's device and keeps the fastest Options, in the context and in
// its disk cache under a name of the device and driver, so that later contexts on the same
// device find them. A Plan made with default Options for a 1D problem of that kind, precision and
// length then takes the tuned ones (whatever the batch), while this version plans the choice as it
// was timed (TunedChoice::plan_key).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "twiddle/context.hpp"
#include "twiddle/export.hpp"
#include "twiddle/logical_plan.hpp"
#include "twiddle/types.hpp"

namespace twiddle {

// One tuned choice: the options that ran a 1D transform of `length` points fastest.
struct TunedChoice {
    Transform transform = Transform::c2c;
    Precision precision = Precision::f32;
    uint64_t length = 0;
    Options options;
    // The measurement behind it: milliseconds per transform of `batch` rows with these options
    // and with the planner's defaults, in the same run, and how many variants were timed.
    double ms = 0;
    double default_ms = 0;
    uint64_t batch = 0;
    uint32_t variants = 0;
    // Fingerprints (32 hex digits) of what was timed: the kernels (as generated, and the compiler
    // that compiles them), grids, buffers and tables of the plans of `batch` transforms with
    // `options` and with the defaults. A choice is applied only while this version plans both as
    // they were when it was timed; another version's planner, code generator or compiler makes it
    // stale.
    std::string plan_key;
    std::string default_plan_key;
};

struct TuneOptions {
    // Values (complex, or real for r2c and c2r) per timed problem: batch = max(1, values / length). The
    // default is the benchmark's: shorter problems timed too noisily on the H200.
    uint64_t values = uint64_t(1) << 26;
    // Timed executions per variant, after a warm-up; the median counts.
    uint32_t reps = 10;
};

// Times the planner's variants (points per invocation, workgroup and tile sizes, shared memory,
// columns per workgroup, the strategies portable and subgroups, one at a time, then the fastest
// with each of up to three others that also beat the defaults) for a 1D transform of `length`
// points (c2c and r2c forward, c2r inverse), and returns the fastest whose output agrees with the
// default plan's, after timing it and the defaults again in alternating rounds: it replaces the
// defaults only if it is at least 2% faster there (else the choice is the defaults, kept so that
// tuning is not repeated). c2r is tuned apart from r2c: the two kernels of a length need not
// prefer the same options (H100, 16384 f32: r2c fastest looping over tiles, c2r 35% faster
// without). Throws twiddle::Error for length 0, UnsupportedError where the device cannot run the
// transform.
TWIDDLE_API TunedChoice tune(const Context& context, Transform transform, Precision precision,
                             uint64_t length, const TuneOptions& options = {});

// The options a plan of `desc` takes when the caller asks for `options`: the tuned ones for a 1D
// c2c, r2c or c2r problem when `options` are the defaults and
// the context holds a current choice for it (tuned_choice_current), else `options`.
TWIDDLE_API Options tuned_options(const Context& context, const FftDesc& desc, const Options& options);

// Whether this version plans `choice` as it was timed (its plan_key and default_plan_key) and the
// planner takes its options on the context's device: only such a choice is applied and exported.
// The first check of a choice in a context generates its plans' kernels (about 0.3-2.7 ms a plan
// on the build machine's CPU).
TWIDDLE_API bool tuned_choice_current(const Context& context, const TunedChoice& choice);

// The choices the context holds: read from its disk cache when first asked, plus those tune()
// and import_tuning() added since; stale ones too (tuned_choice_current), until tuned again or
// cleared. A cache file of a version before the fingerprints is not read.
TWIDDLE_API std::vector<TunedChoice> tuned_choices(const Context& context);

// What import_tuning does with the choices held before: `add` keeps them (a choice of the text
// replaces one of the same transform, precision and length), `replace` forgets them.
enum class TuningImport { add, replace };

// The current choices as text (one line each; stale ones are left out), and back: import_tuning
// adds the choices of a text export_tuning wrote, or puts them in place of all (`mode`), in the
// context and its disk cache. Throws twiddle::Error for a line it cannot read, or a choice that is
// not current here (another device's or version's), before changing anything.
TWIDDLE_API std::string export_tuning(const Context& context);
TWIDDLE_API void import_tuning(const Context& context, const std::string& text,
                               TuningImport mode = TuningImport::add);

// Forgets every choice, in the context and in its disk cache.
TWIDDLE_API void clear_tuning(const Context& context);

// tune(), import_tuning() and clear_tuning() change the disk cache's file under a lock file beside
// it, so that processes and contexts tuning at once each add their choices to the others'. Each
// throws twiddle::Error where the file cannot be written (the context keeps the change).

}  // namespace twiddle
