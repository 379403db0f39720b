#include "vk/compiler.hpp"

#include <vulkan/vulkan.h>

#include <shaderc/shaderc.hpp>

#include "twiddle/error.hpp"

namespace twiddle::vk {

std::vector<uint32_t> compile_compute(const std::string& source, const std::string& name) {
    // One compiler for the process: shaderc compiles on one compiler from any number of threads,
    // and glslang sets up its built-in symbol tables again after the last compiler is released,
    // which took about 100 ms per kernel on the 2-core build machine (bench/RESULTS.md, thirtieth
    // run). It is never destroyed: threads compiling while the process exits (a plan made by a
    // static object's destructor, a detached caller) would otherwise find it gone.
    static const shaderc::Compiler& compiler = *new shaderc::Compiler;
    shaderc::CompileOptions options;
    options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    options.SetOptimizationLevel(shaderc_optimization_level_performance);
    const auto result = compiler.CompileGlslToSpv(source, shaderc_compute_shader, name.c_str(), options);
    if (result.GetCompilationStatus() != shaderc_compilation_status_success)
        throw Error("compiling generated kernel " + name + " failed: " + result.GetErrorMessage());
    return {result.cbegin(), result.cend()};
}

std::string compiler_version() {
    unsigned int version = 0, revision = 0;
    shaderc_get_spv_version(&version, &revision);
    return "shaderc spv " + std::to_string(version) + "." + std::to_string(revision);
}

}  // namespace twiddle::vk
