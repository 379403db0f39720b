// The state behind a public handle, checked. twiddle's handles are move-only, and one that was
// moved from holds no state: its methods throw twiddle::Error instead of dereferencing nothing.
#pragma once

#include <string>

#include "twiddle/error.hpp"

namespace twiddle::detail {

// `state` is the handle's unique_ptr or shared_ptr; `handle` names its class, as "Plan".
template <class Pointer>
auto& held(const Pointer& state, const char* handle) {
    if (!state) throw Error(std::string("twiddle::") + handle + " was moved from and holds nothing to use");
    return *state;
}

}  // namespace twiddle::detail
