// GLSL to SPIR-V, in process, through shaderc (linked statically).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace twiddle::vk {

// Compiles a GLSL 450 compute shader for the given Vulkan API version (VK_MAKE_API_VERSION),
// optimized for performance. Throws twiddle::Error with the compiler's messages on failure.
std::vector<uint32_t> compile_compute(const std::string& source, const std::string& name,
                                      uint32_t api_version);

}  // namespace twiddle::vk
