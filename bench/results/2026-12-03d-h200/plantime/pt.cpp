// Where a cold plan's time goes: shaderc against the driver's pipeline compile, and what a fresh
// device adds. Experiment program (bench/results/2026-12-03d-h200), linked to libtwiddle_internal.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "twiddle/twiddle.hpp"
#include "vk/compiler.hpp"
#include "vk/context_state.hpp"

using namespace twiddle;
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// Pipeline creation for one SPIR-V module on `device`, no pipeline cache; bindings and push range
// generous enough for every generated kernel.
static double pipeline_ms(VkDevice device, const std::vector<uint32_t>& spirv, uint32_t flags = 0) {
    std::vector<VkDescriptorSetLayoutBinding> b(8);
    for (uint32_t i = 0; i < 8; ++i)
        b[i] = VkDescriptorSetLayoutBinding{i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                            VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo si{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    si.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    si.bindingCount = 8;
    si.pBindings = b.data();
    VkDescriptorSetLayout sl;
    vkCreateDescriptorSetLayout(device, &si, nullptr, &sl);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
    VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    li.setLayoutCount = 1;
    li.pSetLayouts = &sl;
    li.pushConstantRangeCount = 1;
    li.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    vkCreatePipelineLayout(device, &li, nullptr, &layout);
    const auto t0 = clk::now();
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = spirv.size() * 4;
    mi.pCode = spirv.data();
    VkShaderModule module;
    vkCreateShaderModule(device, &mi, nullptr, &module);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.flags = flags;
    info.stage = VkPipelineShaderStageCreateInfo{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout;
    VkPipeline p = VK_NULL_HANDLE;
    const VkResult r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &p);
    const auto t1 = clk::now();
    if (r != VK_SUCCESS) std::printf("  pipeline failed: %d\n", int(r));
    vkDestroyPipeline(device, p, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, sl, nullptr);
    return ms(t0, t1);
}

int main(int argc, char** argv) {
    ::setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
    ::setenv("__GL_SHADER_DISK_CACHE", "0", 0);
    const std::filesystem::path dump = argc > 1 ? argv[1] : "/tmp/pt-dump";
    if (!(argc > 3 && std::string(argv[3]) == "spv")) std::filesystem::remove_all(dump);
    ::setenv("TWIDDLE_DUMP_SHADERS", dump.c_str(), 1);
    ContextOptions o;
    o.disk_cache = false;
    if (argc > 3 && std::string(argv[3]) == "spv") {
        // Driver compile of each DIR/*.spv (pt2's recipes), twice, on one context.
        Context ctx(o);
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(argv[1]))
            if (e.path().extension() == ".spv") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& p : files) {
            std::ifstream f(p, std::ios::binary);
            std::vector<char> bytes((std::istreambuf_iterator<char>(f)), {});
            std::vector<uint32_t> words(bytes.size() / 4);
            std::memcpy(words.data(), bytes.data(), words.size() * 4);
            const double a = pipeline_ms(ctx.state()->device, words);
            const double b = pipeline_ms(ctx.state()->device, words);
            std::printf("%-56s %7zu B driver %7.1f %7.1f ms\n", p.filename().c_str(), bytes.size(), a, b);
        }
        return 0;
    }
    auto t0 = clk::now();
    Context ctx(o);
    auto t1 = clk::now();
    std::printf("device %s, driver %s\ncontext %.1f ms\n", ctx.caps().name.c_str(),
                ctx.caps().driver_info.c_str(), ms(t0, t1));
    {
        t0 = clk::now();
        Plan p(ctx, FftDesc(64, 1));
        t1 = clk::now();
        std::printf("first plan N=64: %.1f ms\n", ms(t0, t1));
    }
    // Cold plans in the same (already warm) process and device, two rounds (the second shows the
    // context's in-memory reuse, if any).
    const std::vector<uint64_t> ns{1024, 4096, 65536, 1u << 20, 1000, 10007};
    const int total_log2 = argc > 2 ? std::atoi(argv[2]) : 24;
    for (int round = 0; round < 2; ++round)
        for (uint64_t n : ns) {
            const uint64_t batch = std::max<uint64_t>(1, (uint64_t(1) << total_log2) / n);
            t0 = clk::now();
            Plan p(ctx, FftDesc(n, batch));
            t1 = clk::now();
            std::printf("round %d plan N=%llu: %.1f ms, %zu passes, compiled so far %llu\n", round,
                        (unsigned long long)n, ms(t0, t1), p.passes(),
                        (unsigned long long)ctx.state()->kernels->compiled());
        }
    // Each dumped kernel: shaderc twice, then the driver's compile on this device three times, then
    // with VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT.
    std::vector<std::pair<std::string, std::vector<uint32_t>>> spirvs;
    for (const auto& e : std::filesystem::directory_iterator(dump)) {
        std::ifstream f(e.path());
        std::stringstream ss;
        ss << f.rdbuf();
        const std::string glsl = ss.str();
        t0 = clk::now();
        auto words = vk::compile_compute(glsl, e.path().filename().string());
        t1 = clk::now();
        vk::compile_compute(glsl, e.path().filename().string());
        auto t2 = clk::now();
        const double d1 = pipeline_ms(ctx.state()->device, words);
        const double d2 = pipeline_ms(ctx.state()->device, words);
        const double d3 = pipeline_ms(ctx.state()->device, words);
        const double dn =
            pipeline_ms(ctx.state()->device, words, VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT);
        std::printf(
            "%-48s glsl %6zu B spirv %7zu B shaderc %6.1f %6.1f ms driver %7.1f %7.1f %7.1f ms, "
            "no-opt %7.1f ms\n",
            e.path().filename().c_str(), glsl.size(), words.size() * 4, ms(t0, t1), ms(t1, t2), d1, d2, d3,
            dn);
        spirvs.emplace_back(e.path().filename().string(), std::move(words));
    }
    // A fresh device: its first pipeline, then the same again.
    for (int i = 0; i < 2; ++i) {
        t0 = clk::now();
        Context fresh(o);
        t1 = clk::now();
        for (const auto& [name, words] : spirvs)
            if (name.rfind("pass-n1024-", 0) == 0) {
                const double a = pipeline_ms(fresh.state()->device, words);
                const double b = pipeline_ms(fresh.state()->device, words);
                std::printf("fresh context %d (%.1f ms): n1024 kernel %.1f then %.1f ms\n", i, ms(t0, t1), a,
                            b);
            }
    }
    return 0;
}
