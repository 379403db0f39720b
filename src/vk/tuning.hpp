// The tuned planner choices of a context's state (twiddle/tuning.hpp), for code that holds the
// state rather than the Context.
#pragma once

#include "twiddle/tuning.hpp"
#include "vk/context_state.hpp"

namespace twiddle::vk {

// As twiddle::tuned_options.
Options tuned_options(Context::State& state, const FftDesc& desc, const Options& options);

// The plan of `desc` with the tuned options where the context holds a choice for it, else (or
// where the choice no longer plans: another version's) with `options`; and the options used.
struct TunedPlan {
    LogicalPlan plan;
    Options options;
};
TunedPlan plan_tuned(Context::State& state, const FftDesc& desc, const Options& options);

}  // namespace twiddle::vk
