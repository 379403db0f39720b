// twiddle bench --plan-time: how long a twiddle::Plan takes to make, from the problem to pipelines
// ready and twiddle tables on the device.
//   cold: a fresh Context over a fresh, empty kernel-cache directory, so every kernel is generated,
//         compiled to SPIR-V (shaderc) and to the device's code (the driver), with an empty
//         VkPipelineCache;
//   warm: a fresh Context over the directory a cold plan of the same problem filled, so that the
//         SPIR-V, the twiddle table and the driver's pipeline cache come from disk (what a second
//         run of a program sees). The GLSL is still generated, to find the cache entries.
// Contexts are made outside the timed interval. The drivers' own shader caches are turned off for
// the process (Mesa's and NVIDIA's, unless the environment sets them), so that neither state hides
// or adds a compile. One plan of another length runs first: the process's one-time start-up
// (glslang, the driver's compiler) is reported apart. Each plan's shaderc and driver times are
// summed over its kernels, which compile on threads of their own, so they may exceed the plan's.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

#include "bench.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "vk/context_state.hpp"

namespace twiddle::cli {

namespace {

struct PlanTimeRow {
    uint64_t n = 0, batch = 0;
    size_t passes = 0;
    uint64_t compiled = 0, loaded = 0;  // kernels, by a cold plan and by a warm one
    uint64_t compiled_warm = 0;         // 0 where the warm plans found every kernel on disk
    std::vector<double> cold_ms, warm_ms, context_ms;
    // Of each plan, summed over its kernels: shaderc's compiles (cold) and the driver's pipelines.
    std::vector<double> cold_shaderc_ms, cold_driver_ms, warm_driver_ms;
    std::string status = "ok";  // or why no plan was made
};

struct Timed {
    DeviceCaps caps;
    double plan_ms = 0, context_ms = 0;
    double shaderc_ms = 0, driver_ms = 0;  // summed over the plan's kernels
    size_t passes = 0;
    uint64_t compiled = 0, loaded = 0;
};

// Makes one plan in a fresh context whose disk cache is `dir`.
Timed make_plan(const FftDesc& desc, const Options& options, const std::filesystem::path& dir) {
    using clock = std::chrono::steady_clock;
    ContextOptions o;
    o.disk_cache = true;
    o.cache_dir = dir;
    const auto t0 = clock::now();
    const Context ctx(o);
    const auto t1 = clock::now();
    const Plan plan(ctx, desc, options);
    const auto t2 = clock::now();
    check_validation(ctx);
    Timed t;
    t.caps = ctx.caps();
    t.context_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    t.plan_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
    t.passes = plan.passes();
    t.compiled = ctx.state()->kernels->compiled();
    t.loaded = ctx.state()->kernels->loaded();
    t.shaderc_ms = ctx.state()->kernels->compile_ms();
    t.driver_ms = ctx.state()->kernels->pipeline_ms();
    return t;
}

const char* env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v ? v : fallback;
}

}  // namespace

void run_plan_time(const BenchArgs& a) {
    const std::vector<uint64_t> lengths =
        a.lengths.empty() ? std::vector<uint64_t>{1024, 4096, 65536, uint64_t(1) << 20, 1000, 10007}
                          : a.lengths;
    // Set before the first Vulkan instance loads a driver.
    ::setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
    ::setenv("__GL_SHADER_DISK_CACHE", "0", 0);
    const std::string driver_caches = std::string("MESA_SHADER_CACHE_DISABLE=") +
                                      env_or("MESA_SHADER_CACHE_DISABLE", "") +
                                      " __GL_SHADER_DISK_CACHE=" + env_or("__GL_SHADER_DISK_CACHE", "");
    const std::filesystem::path root =
        std::filesystem::temp_directory_path() / ("twiddle-plan-time-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root);
    struct Cleanup {
        std::filesystem::path dir;
        ~Cleanup() {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    } cleanup{root};

    // One context lives throughout, unused: it keeps the driver loaded. The Vulkan loader unloads
    // a driver with the last instance, and NVIDIA's (580) failed to load again after some twenty
    // loads in one process ("Could not get 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr'").
    // Every timed context is still its own instance and device, with its own pipeline cache.
    ContextOptions keeper_options;
    keeper_options.disk_cache = false;
    const Context keeper(keeper_options);
    const DeviceCaps& caps = keeper.caps();
    // 2^total values per plan, as the other modes, or as many as one binding holds.
    const Precision precision = a.f64 ? Precision::f64 : Precision::f32;
    uint32_t total_log2 = a.total_log2;
    while (total_log2 > 0 &&
           (uint64_t(1) << total_log2) * complex_bytes(precision) > caps.max_storage_buffer_range)
        --total_log2;
    auto problem = [&](uint64_t n, uint64_t batch) {
        return BenchCase({n}, a.real, precision, 0).problem(batch);
    };
    const Timed first = make_plan(problem(64, 1), a.options, root / "first");
    std::printf("device: %s (%s %s)\n", caps.name.c_str(), caps.driver_name.c_str(),
                caps.driver_info.c_str());
    std::printf("plans of 2^%u values (batched)\n", total_log2);
    std::printf("driver shader caches: %s\n", driver_caches.c_str());
    std::printf("first plan of the process (N=64, cold, apart): %.1f ms; a context: %.1f ms\n", first.plan_ms,
                first.context_ms);

    std::vector<PlanTimeRow> rows(lengths.size());
    // Every length once per round, so that a length's first cold plan is its first compile in
    // the process; later rounds would show a cache in the driver's process as a drop.
    for (size_t i = 0; i < lengths.size(); ++i) {
        rows[i].n = lengths[i];
        rows[i].batch = BenchCase({lengths[i]}, a.real, precision, total_log2).batch;
    }
    auto cache_dir = [&](size_t i, uint32_t r) {
        return root / ("cold-" + std::to_string(i) + "-" + std::to_string(r));
    };
    for (uint32_t r = 0; r < a.plan_reps; ++r)
        for (size_t i = 0; i < lengths.size(); ++i) {
            PlanTimeRow& row = rows[i];
            if (row.status != "ok") continue;
            try {
                // The first time, halve the batch until the device takes the plan (Bluestein's
                // scratch, say, may exceed a binding): the batch changes little in a plan's making.
                std::optional<Timed> made;
                while (!made) {
                    try {
                        made = make_plan(problem(lengths[i], row.batch), a.options, cache_dir(i, r));
                    } catch (const UnsupportedError&) {
                        if (r > 0 || row.batch == 1) throw;
                        row.batch /= 2;
                    }
                }
                const Timed& t = *made;
                row.passes = t.passes;
                row.compiled = t.compiled;
                row.cold_ms.push_back(t.plan_ms);
                row.cold_shaderc_ms.push_back(t.shaderc_ms);
                row.cold_driver_ms.push_back(t.driver_ms);
                row.context_ms.push_back(t.context_ms);
            } catch (const UnsupportedError& e) {
                row.status = std::string("unsupported: ") + e.what();
            }
        }
    // Warm: over the directory of the first cold plan of the same problem.
    for (uint32_t r = 0; r < a.plan_reps; ++r)
        for (size_t i = 0; i < lengths.size(); ++i) {
            if (rows[i].status != "ok") continue;
            const Timed t = make_plan(problem(lengths[i], rows[i].batch), a.options, cache_dir(i, 0));
            rows[i].loaded = t.loaded;
            rows[i].compiled_warm = std::max(rows[i].compiled_warm, t.compiled);
            rows[i].warm_ms.push_back(t.plan_ms);
            rows[i].warm_driver_ms.push_back(t.driver_ms);
            rows[i].context_ms.push_back(t.context_ms);
        }

    std::printf("%10s %9s %6s %8s %11s %11s %9s %9s %11s %9s %7s  %s\n", "N", "batch", "passes", "kernels",
                "cold first", "cold median", "shaderc", "driver", "warm median", "driver", "loaded",
                "targets (cold <= 100 ms, warm <= 5 ms)");
    for (const PlanTimeRow& row : rows) {
        if (row.status != "ok") {
            std::printf("%10llu %9llu  %s\n", static_cast<unsigned long long>(row.n),
                        static_cast<unsigned long long>(row.batch), row.status.c_str());
            continue;
        }
        const double cold = median(row.cold_ms), warm = median(row.warm_ms);
        std::printf(
            "%10llu %9llu %6zu %8llu %8.1f ms %8.1f ms %6.1f ms %6.1f ms %8.2f ms %6.2f ms %7llu  cold %s, "
            "warm %s\n",
            static_cast<unsigned long long>(row.n), static_cast<unsigned long long>(row.batch), row.passes,
            static_cast<unsigned long long>(row.compiled), row.cold_ms[0], cold, median(row.cold_shaderc_ms),
            median(row.cold_driver_ms), warm, median(row.warm_driver_ms),
            static_cast<unsigned long long>(row.loaded), cold <= 100 ? "met" : "missed",
            warm <= 5 ? "met" : "missed");
    }
    std::vector<std::string> statuses;
    for (const PlanTimeRow& row : rows) statuses.push_back(row.status);
    if (a.out.empty()) {
        require_some_case_ran(statuses);
        return;
    }
    std::ostringstream csv;
    csv << "library,kind,precision,n,batch,passes,kernels_compiled_cold,kernels_loaded_warm,cold_first_ms,"
           "cold_median_ms,warm_median_ms,context_median_ms,kernels_compiled_warm,cold_shaderc_median_ms,"
           "cold_driver_median_ms,warm_driver_median_ms,status\n";
    nlohmann::json cases = nlohmann::json::array();
    const char* kind = a.real ? "r2c" : "c2c";
    const char* prec = a.f64 ? "f64" : "f32";
    for (const PlanTimeRow& row : rows) {
        const bool ok = row.status == "ok";
        csv << "twiddle," << kind << "," << prec << "," << row.n << "," << row.batch << "," << row.passes
            << "," << row.compiled << "," << row.loaded << "," << (ok ? row.cold_ms[0] : 0) << ","
            << (ok ? median(row.cold_ms) : 0) << "," << (ok ? median(row.warm_ms) : 0) << ","
            << (ok ? median(row.context_ms) : 0) << "," << row.compiled_warm << ","
            << (ok ? median(row.cold_shaderc_ms) : 0) << "," << (ok ? median(row.cold_driver_ms) : 0) << ","
            << (ok ? median(row.warm_driver_ms) : 0) << "," << csv_field(row.status) << "\n";
        cases.push_back({{"kind", kind},
                         {"precision", prec},
                         {"n", row.n},
                         {"batch", row.batch},
                         {"passes", row.passes},
                         {"kernels_compiled_cold", row.compiled},
                         {"kernels_loaded_warm", row.loaded},
                         {"kernels_compiled_warm", row.compiled_warm},
                         {"cold_ms", row.cold_ms},
                         {"warm_ms", row.warm_ms},
                         {"cold_median_ms", ok ? median(row.cold_ms) : 0},
                         {"warm_median_ms", ok ? median(row.warm_ms) : 0},
                         {"context_median_ms", ok ? median(row.context_ms) : 0},
                         {"cold_shaderc_ms", row.cold_shaderc_ms},
                         {"cold_driver_ms", row.cold_driver_ms},
                         {"warm_driver_ms", row.warm_driver_ms},
                         {"status", row.status}});
    }
    write_results_file(a.out, caps, std::move(cases), csv.str(),
                       {{"driver_shader_caches", driver_caches}, {"first_plan_ms", first.plan_ms}});
    require_some_case_ran(statuses);
}

}  // namespace twiddle::cli
