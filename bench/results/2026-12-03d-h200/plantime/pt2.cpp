// SPIR-V optimization recipes: shaderc at level zero, then spirv-opt pass lists, against shaderc's
// performance level. For each .comp in DIR: time and size per recipe, SPIR-V written as
// DIR/NAME.RECIPE.spv. Experiment program (bench/results/2026-12-03d-h200).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <shaderc/shaderc.hpp>
#include <spirv-tools/optimizer.hpp>
#include <sstream>
#include <string>
#include <vector>

using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

static bool keep = std::getenv("KEEP") != nullptr;
static std::vector<uint32_t> glsl(const std::string& src, bool perf) {
    static shaderc::Compiler kept;
    shaderc::Compiler fresh;
    shaderc::Compiler& c = keep ? kept : fresh;
    shaderc::CompileOptions o;
    o.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    o.SetOptimizationLevel(perf ? shaderc_optimization_level_performance : shaderc_optimization_level_zero);
    auto r = c.CompileGlslToSpv(src, shaderc_compute_shader, "k", o);
    if (r.GetCompilationStatus() != shaderc_compilation_status_success) {
        std::fprintf(stderr, "%s\n", r.GetErrorMessage().c_str());
        std::exit(1);
    }
    return {r.cbegin(), r.cend()};
}

int main(int argc, char** argv) {
    const std::filesystem::path dir = argv[1];
    struct Recipe {
        std::string name;
        std::vector<std::string> flags;  // empty with name "O": shaderc's performance level; "zero": none
    };
    const std::vector<std::string> ssa{
        "--inline-entry-points-exhaustive", "--eliminate-dead-functions",     "--private-to-local",
        "--eliminate-local-single-block",   "--eliminate-local-single-store", "--ssa-rewrite",
        "--eliminate-dead-code-aggressive"};
    std::vector<std::string> ssa2 = ssa;
    for (const char* f :
         {"--ccp", "--simplify-instructions", "--redundancy-elimination", "--eliminate-dead-code-aggressive"})
        ssa2.push_back(f);
    std::vector<std::string> ssa3{"--inline-entry-points-exhaustive",
                                  "--eliminate-dead-functions",
                                  "--private-to-local",
                                  "--scalar-replacement=100",
                                  "--eliminate-local-single-block",
                                  "--eliminate-local-single-store",
                                  "--ssa-rewrite",
                                  "--eliminate-dead-code-aggressive",
                                  "--vector-dce",
                                  "--eliminate-dead-inserts",
                                  "--eliminate-dead-code-aggressive"};
    const std::vector<Recipe> recipes{{"O", {}},      {"zero", {}},   {"ssa", ssa},
                                      {"ssa2", ssa2}, {"ssa3", ssa3}, {"Os", {"-Os"}}};
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".comp") continue;
        std::ifstream f(e.path());
        std::stringstream ss;
        ss << f.rdbuf();
        std::printf("%s (%zu B)\n", e.path().filename().c_str(), ss.str().size());
        for (const Recipe& r : recipes) {
            const auto t0 = clk::now();
            std::vector<uint32_t> words = glsl(ss.str(), r.name == "O");
            const auto t1 = clk::now();
            if (!r.flags.empty()) {
                spvtools::Optimizer opt(SPV_ENV_VULKAN_1_1);
                if (!opt.RegisterPassesFromFlags(r.flags)) {
                    std::fprintf(stderr, "bad flags in %s\n", r.name.c_str());
                    return 1;
                }
                std::vector<uint32_t> out;
                if (!opt.Run(words.data(), words.size(), &out)) {
                    std::fprintf(stderr, "opt failed %s\n", r.name.c_str());
                    return 1;
                }
                words = std::move(out);
            }
            const auto t2 = clk::now();
            std::printf("  %-5s glslang %6.1f ms opt %6.1f ms total %6.1f ms, %7zu B\n", r.name.c_str(),
                        ms(t0, t1), ms(t1, t2), ms(t0, t2), words.size() * 4);
            std::ofstream(dir / (e.path().stem().string() + "." + r.name + ".spv"), std::ios::binary)
                .write(reinterpret_cast<const char*>(words.data()), words.size() * 4);
        }
    }
}
