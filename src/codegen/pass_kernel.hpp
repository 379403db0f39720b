// GLSL for one pass of a logical plan, and the push constants every pass kernel takes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "twiddle/logical_plan.hpp"

namespace twiddle::codegen {

// Part of every kernel cache key: bump when generated code or its compilation changes meaning.
inline constexpr std::string_view kGeneratorVersion = "twiddle-codegen-1";

// Bindings of every pass kernel: 0 source, 1 destination, 2 twiddle table.
inline constexpr uint32_t kPassBindings = 3;

// The per-dispatch values a pass kernel reads from push constants. Offsets are in elements from
// the bound range's start. The kernel multiplies the imaginary part of what it loads by
// load_sign, and the real and imaginary parts of what it stores by store_re and store_im:
// (-1, scale, -scale) conjugates on the way in and out, which makes the forward kernel an
// inverse transform, and the last pass applies the normalization.
struct PassParams {
    uint32_t src_offset = 0;
    uint32_t dst_offset = 0;
    uint32_t columns = 0;
    double load_sign = 1;
    double store_re = 1;
    double store_im = 1;
};

// The push-constant block for `p` in the std430 layout of the kernel's precision.
std::vector<uint8_t> pack_params(Precision precision, const PassParams& p);

// The GLSL compute shader for one pass: deterministic for a given kernel.
std::string generate_pass_kernel(const PassKernel& kernel);

// A copy of `words` 16-byte words from binding 0 to binding 1: the bandwidth yardstick of the
// benchmark. Push constants: uint words. A non-zero `shared_bytes` makes each workgroup also
// hold that much shared memory, to measure how shared memory limits the workgroups resident
// on a device (`twiddle bench --copy-shared`).
std::string generate_copy_kernel(uint32_t workgroup_size, uint32_t shared_bytes = 0);

}  // namespace twiddle::codegen
