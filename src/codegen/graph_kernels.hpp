// GLSL for the graph's nodes other than transforms: elementwise operations and layout changes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "twiddle/graph.hpp"

namespace twiddle::codegen {

// Invocations per workgroup of the graph's kernels; each invocation does one element.
inline constexpr uint32_t kGraphWorkgroup = 256;

// Operations on element i of an array, i < count, each in one invocation:
//   multiply:          dst[i] = src[i] * operand[j] (complex product, or by a real operand),
//                      j = i, or (phase + i) mod period for a periodic operand;
//   scale:             dst[i] = factor * src[i];
//   magnitude_squared: dst[i] = re^2 + im^2 of complex src[i], a real;
//   log_scale:         dst[i] = log10(max(src[i], factor)) on reals;
//   copy:              dst[i] = src[i], 32-bit words.
enum class ElementwiseOp { multiply, scale, magnitude_squared, log_scale, copy };

struct ElementwiseKernel {
    ElementwiseOp op = ElementwiseOp::copy;
    DataType type = DataType::float32;          // src's (and dst's, but for magnitude_squared)
    DataType operand_type = DataType::float32;  // multiply
    bool periodic = false;                      // multiply: the operand repeats every `period`
    bool conjugate = false;                     // multiply: by the operand's conjugate
    bool operator==(const ElementwiseKernel&) const = default;
};

// Bindings 0 source, 1 destination, and 2 the operand (multiply only).
uint32_t elementwise_bindings(const ElementwiseKernel& k);

// Push constants: offsets in elements of each binding's type from the bound range's start.
struct ElementwiseParams {
    uint32_t src_offset = 0;
    uint32_t dst_offset = 0;
    uint32_t operand_offset = 0;
    uint32_t count = 0;
    uint32_t phase = 0;
    uint32_t period = 0;
    double factor = 0;  // scale's factor, log_scale's floor
};
std::vector<uint8_t> pack_elementwise_params(Precision precision, const ElementwiseParams& p);

std::string generate_elementwise_kernel(const ElementwiseKernel& k);

// A layout change of a C-order array of in_shape into one of out_shape (as many axes), element by
// element of `element_words` 32-bit words: output index o takes, along each axis d,
// s_d = (o_d - shift_d) mod out_shape[d], and copies input element s if s_d < in_shape[d] on every
// axis, else writes 0. fftshift is a shift of n / 2 (ifftshift: -(n / 2)) with equal shapes;
// zero padding and cropping have no shift. Push constants: uint src_offset, dst_offset, count (in
// elements; count is the output's elements).
struct LayoutKernel {
    uint32_t element_words = 1;
    std::vector<uint64_t> in_shape;
    std::vector<uint64_t> out_shape;
    std::vector<int64_t> shift;
    bool operator==(const LayoutKernel&) const = default;
};
std::vector<uint8_t> pack_layout_params(uint32_t src_offset, uint32_t dst_offset, uint32_t count);
std::string generate_layout_kernel(const LayoutKernel& k);

}  // namespace twiddle::codegen
