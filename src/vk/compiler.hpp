// GLSL to SPIR-V, in process, through shaderc (linked statically).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace twiddle::vk {

// Compiles a GLSL 450 compute shader to SPIR-V for Vulkan 1.1 (SPIR-V 1.3: what every device
// twiddle runs on accepts, wrapped ones included), optimized as shaderc's performance level does
// but not validated (the tests validate every kind of generated kernel). Throws twiddle::Error with
// the compiler's messages on failure. Safe to call from several threads at once.
std::vector<uint32_t> compile_compute(const std::string& source, const std::string& name);

// Identifies the compiler build, for cache keys.
std::string compiler_version();

}  // namespace twiddle::vk
