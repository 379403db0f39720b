#include "vk/compiler.hpp"

#include <vulkan/vulkan.h>

#include <shaderc/shaderc.hpp>

#include "twiddle/error.hpp"

namespace twiddle::vk {

std::vector<uint32_t> compile_compute(const std::string& source, const std::string& name,
                                      uint32_t api_version) {
    shaderc::Compiler compiler;
    shaderc::CompileOptions options;
    const bool v12 = VK_API_VERSION_MAJOR(api_version) > 1 || VK_API_VERSION_MINOR(api_version) >= 2;
    options.SetTargetEnvironment(shaderc_target_env_vulkan,
                                 v12 ? shaderc_env_version_vulkan_1_2 : shaderc_env_version_vulkan_1_1);
    options.SetOptimizationLevel(shaderc_optimization_level_performance);
    const auto result = compiler.CompileGlslToSpv(source, shaderc_compute_shader, name.c_str(), options);
    if (result.GetCompilationStatus() != shaderc_compilation_status_success)
        throw Error("compiling generated kernel " + name + " failed: " + result.GetErrorMessage());
    return {result.cbegin(), result.cend()};
}

}  // namespace twiddle::vk
