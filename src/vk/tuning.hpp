// The tuned planner choices of a context's state (twiddle/tuning.hpp), for code that holds the
// state rather than the Context.
#pragma once

#include <functional>
#include <optional>

#include "twiddle/tuning.hpp"
#include "vk/context_state.hpp"

namespace twiddle::vk {

// A fingerprint of what a plan runs (TunedChoice::plan_key), 32 hex digits: each pass's generated
// kernel, grid and out-of-place buffers, the compiler's version, and the plan's tables.
std::string plan_fingerprint(const LogicalPlan& plan);

// TunedChoice::plan_key of a choice with `options`: the fingerprint of the plan of `batch`
// transforms of `length` points.
std::string choice_fingerprint(const DeviceCaps& caps, Transform transform, Precision precision,
                               uint64_t length, uint64_t batch, const Options& options);

// The tuner's variant `a` with `b`'s knob too (the fields in which b differs from the defaults),
// or nothing where both change the same field.
std::optional<Options> combined_options(Options a, const Options& b);

// As twiddle::tuned_options.
Options tuned_options(Context::State& state, const FftDesc& desc, const Options& options);

// The plan of `desc` with the tuned options where the context holds a choice for it, else (or
// where the choice no longer plans: another version's) with `options`; and the options used.
struct TunedPlan {
    LogicalPlan plan;
    Options options;
};
TunedPlan plan_tuned(Context::State& state, const FftDesc& desc, const Options& options);

// Runs `record` back to back on `context` as vk::WarmUp says for `seconds`, in one submission per
// batch, timing each batch by the wall clock: the warm-up before the tuner's and the benchmarks'
// timings.
void warm_up(const Context& context, double seconds, const std::function<void(VkCommandBuffer)>& record);

}  // namespace twiddle::vk
