// What a warm plan's time is made of, on the CPU side: the planner, the twiddle table's values,
// the kernels' GLSL, and the table's upload; then the whole warm Plan. Experiment program.
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "codegen/callbacks.hpp"
#include "codegen/pass_kernel.hpp"
#include "cpu/reference.hpp"
#include "twiddle/logical_plan.hpp"
#include "twiddle/twiddle.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"

using namespace twiddle;
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

int main(int argc, char** argv) {
    const int total_log2 = argc > 1 ? std::atoi(argv[1]) : 24;
    const std::filesystem::path dir = "/tmp/pt3-cache";
    std::filesystem::remove_all(dir);
    ContextOptions o;
    o.disk_cache = true;
    o.cache_dir = dir;
    for (uint64_t n : {1024ull, 4096ull, 65536ull, 1ull << 20, 1000ull, 10007ull}) {
        const FftDesc desc(n, std::max<uint64_t>(1, (uint64_t(1) << total_log2) / n));
        {
            Context c(o);
            Plan p(c, desc);
        }  // fills the disk cache
        Context ctx(o);
        auto t0 = clk::now();
        const LogicalPlan lp = plan(desc, ctx.caps());
        auto t1 = clk::now();
        const auto values = cpu::table_values(lp);
        auto t2 = clk::now();
        size_t bytes = 0;
        for (size_t i = 0; i < lp.passes.size(); ++i)
            bytes += codegen::fuse_callbacks(codegen::generate_pass_kernel(lp.passes[i].kernel),
                                             desc.precision(), {}, i == 0, i + 1 == lp.passes.size())
                         .size();
        auto t3 = clk::now();
        auto table = vk::upload_table(*ctx.state(), values, desc.precision());
        auto t4 = clk::now();
        Plan p(ctx, desc);
        auto t5 = clk::now();
        Context ctx2(o);
        auto t6 = clk::now();
        Plan p2(ctx2, desc);
        auto t7 = clk::now();
        std::printf(
            "N=%-8llu planner %6.2f table %6.2f (%zu values) glsl %6.2f (%zu B) upload %6.2f | warm plan "
            "%6.2f "
            "(fresh context %6.2f)\n",
            (unsigned long long)n, ms(t0, t1), ms(t1, t2), values.size(), ms(t2, t3), bytes, ms(t3, t4),
            ms(t4, t5), ms(t6, t7));
    }
}
