#include "vk/compiler.hpp"

#include <vulkan/vulkan.h>

#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "twiddle/error.hpp"

namespace twiddle::vk {

namespace {

// shaderc's performance level strips glslang's debug information, validates, and runs SPIRV-Tools'
// 44 performance passes. On the kernels twiddle generates the other 29 change nothing: the strip and
// these 15 passes, in this order, give the same words (the test
// Compiler.SameSpirvAsShadercsPerformanceLevel holds that over every kind of kernel). The validator
// is left to the tests too, which validate every kind. Together a third less time per kernel, which
// a cold plan waits for: the default --plan-time lengths' 11 H200 kernels 899 -> 588 ms on the
// 2-core build machine (1024 points: 91 -> 59 ms). bench/RESULTS.md (2026-12-05) says how the
// passes were chosen. A caller's GLSL (KernelSource::with_caller_code) needs more of them: a store
// callback returning vec2(value.x, 0.0) leaves dead products without the vector DCE pass.
void register_passes(spvtools::Optimizer& optimizer) {
    optimizer.RegisterPass(spvtools::CreateStripDebugInfoPass())
        .RegisterPass(spvtools::CreateMergeReturnPass())
        .RegisterPass(spvtools::CreateInlineExhaustivePass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateLocalAccessChainConvertPass())
        .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
        .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateSSARewritePass())
        .RegisterPass(spvtools::CreateCCPPass())
        .RegisterPass(spvtools::CreateRedundancyEliminationPass())
        .RegisterPass(spvtools::CreateSimplificationPass())
        .RegisterPass(spvtools::CreateIfConversionPass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateRedundancyEliminationPass())
        .RegisterPass(spvtools::CreateBlockMergePass());
}

}  // namespace

std::vector<uint32_t> compile_compute(const std::string& source, const std::string& name,
                                      KernelSource origin) {
    // One compiler for the process: shaderc compiles on one compiler from any number of threads,
    // and glslang sets up its built-in symbol tables again after the last compiler is released,
    // which took about 100 ms per kernel on the 2-core build machine (bench/RESULTS.md, thirtieth
    // run). It is never destroyed: threads compiling while the process exits (a plan made by a
    // static object's destructor, a detached caller) would otherwise find it gone.
    static const shaderc::Compiler& compiler = *new shaderc::Compiler;
    const bool generated = origin == KernelSource::generated;
    shaderc::CompileOptions options;
    options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    options.SetOptimizationLevel(generated ? shaderc_optimization_level_zero
                                           : shaderc_optimization_level_performance);
    const auto result = compiler.CompileGlslToSpv(source, shaderc_compute_shader, name.c_str(), options);
    if (result.GetCompilationStatus() != shaderc_compilation_status_success)
        throw Error((generated ? "compiling generated kernel " + name
                               : "compiling kernel " + name + " with callback code") +
                    " failed: " + result.GetErrorMessage());
    std::vector<uint32_t> words(result.cbegin(), result.cend());
    if (!generated) return words;

    spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_1);
    std::string messages;
    optimizer.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
        messages += std::string(m) + "\n";
    });
    register_passes(optimizer);
    spvtools::OptimizerOptions run_options;
    run_options.set_run_validator(false);
    std::vector<uint32_t> optimized;
    if (!optimizer.Run(words.data(), words.size(), &optimized, run_options))
        throw Error("optimizing generated kernel " + name + " failed" +
                    (messages.empty() ? "" : ": " + messages));
    return optimized;
}

bool valid_spirv(std::span<const uint32_t> words) {
    const spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
    return tools.IsValid() && tools.Validate(words.data(), words.size());
}

std::string compiler_version() {
    unsigned int version = 0, revision = 0;
    shaderc_get_spv_version(&version, &revision);
    // The generated kernels' passes by name: a kernel the tests do not cover may come out
    // differently from the performance level, so another list must not find its SPIR-V.
    static const std::string passes = [] {
        spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_1);
        register_passes(optimizer);
        std::string names;
        for (const char* n : optimizer.GetPassNames()) names += std::string(" ") + n;
        return names;
    }();
    return "shaderc spv " + std::to_string(version) + "." + std::to_string(revision) + "; passes" + passes;
}

}  // namespace twiddle::vk
