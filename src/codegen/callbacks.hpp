// Fuses a plan's load and store callbacks (FftCallbacks) into the GLSL of its first and last passes.
#pragma once

#include <string>

#include "twiddle/plan.hpp"
#include "twiddle/types.hpp"

namespace twiddle::codegen {

// The binding of the callbacks' operand array, after the pass kernel's kPassBindings.
inline constexpr uint32_t kOperandBinding = 3;

// `glsl`, a pass kernel of `precision` that reads complex values from `src` (when `load`) and
// writes complex values to `dst` (when `store`), with every such read passed through the load
// callback and every write through the store callback: the buffers are renamed, and each
// `src[i]` becomes src_load(i) = twiddle_load(src_data[i], i - params.src_offset), each
// `dst[i] = v;` dst_store(i, v), which stores twiddle_store(v, i - params.dst_offset). With an
// operand, binding kOperandBinding holds it. A convolution kernel's twiddle_middle (declared by the
// pass kernel, PassKernel::convolution) is defined as the store callback. Throws twiddle::Error if
// the kernel's buffers are not complex where a callback applies.
std::string fuse_callbacks(const std::string& glsl, Precision precision, const FftCallbacks& callbacks,
                           bool load, bool store);

}  // namespace twiddle::codegen
