// GLSL to SPIR-V, in process, through shaderc (linked statically).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace twiddle::vk {

// Where a kernel's GLSL comes from, which decides how it is optimized.
enum class KernelSource {
    // twiddle's generators alone: the passes that change such kernels, without the validator
    // (the tests validate every kind and compare the words with shaderc's performance level).
    generated,
    // With a caller's GLSL in it (FftCallbacks' load and store bodies): shaderc's performance
    // level, all of its passes and the validator, whatever that code holds.
    with_caller_code,
};

// Compiles a GLSL 450 compute shader to SPIR-V for Vulkan 1.1 (SPIR-V 1.3: what every device
// twiddle runs on accepts, wrapped ones included), optimized as shaderc's performance level
// optimizes it. Throws twiddle::Error with the compiler's messages on failure. Safe to call from
// several threads at once.
std::vector<uint32_t> compile_compute(const std::string& source, const std::string& name,
                                      KernelSource origin = KernelSource::generated);

// Whether `words` is a SPIR-V module SPIRV-Tools' validator accepts for Vulkan 1.1, as every
// module twiddle compiles is. KernelCache checks kernels read back from the disk cache with it
// where the validation layer is on, which does not survive invalid SPIR-V.
bool valid_spirv(std::span<const uint32_t> words);

// Identifies the compiler build and the generated kernels' passes, for cache keys.
std::string compiler_version();

}  // namespace twiddle::vk
