// twiddle info: devices, the chosen one's limits, and optionally the plan for a length or a shape.
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

#include "commands.hpp"
#include "shape_args.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

std::string uuid_string(const std::array<uint8_t, 16>& u) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < u.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        s += digits[u[i] >> 4];
        s += digits[u[i] & 15];
    }
    return s;
}

std::string version_string(uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
           std::to_string(VK_API_VERSION_PATCH(v));
}

nlohmann::json device_json(const DeviceCaps& c) {
    return {{"name", c.name},
            {"type", to_string(c.type)},
            {"vendor_id", c.vendor_id},
            {"device_id", c.device_id},
            {"api_version", version_string(c.api_version)},
            {"driver", c.driver_name},
            {"driver_info", c.driver_info},
            {"driver_version", c.driver_version},
            {"uuid", uuid_string(c.device_uuid)}};
}

nlohmann::json limits_json(const DeviceCaps& c) {
    return {{"shared_memory_bytes", c.max_shared_memory_bytes},
            {"workgroup_invocations", c.max_workgroup_invocations},
            {"workgroup_size", c.max_workgroup_size},
            {"workgroup_count", c.max_workgroup_count},
            {"storage_buffer_range", c.max_storage_buffer_range},
            {"storage_buffer_offset_alignment", c.min_storage_buffer_offset_alignment},
            {"push_constants_bytes", c.max_push_constants_bytes},
            {"device_local_bytes", c.device_local_bytes},
            {"subgroup_size", c.subgroup_size},
            {"subgroup_operations", c.subgroup_operations},
            {"shader_float64", c.shader_float64},
            {"timestamps", c.timestamps},
            {"timestamp_period_ns", c.timestamp_period_ns}};
}

nlohmann::json dims_json(const std::vector<Dim>& dims) {
    nlohmann::json out = nlohmann::json::array();
    for (const Dim& d : dims)
        out.push_back({{"n", d.n}, {"in_stride", d.in_stride}, {"out_stride", d.out_stride}});
    return out;
}

nlohmann::json plan_json(const LogicalPlan& p) {
    nlohmann::json passes = nlohmann::json::array();
    for (const Pass& pass : p.passes) {
        const PassKernel& k = pass.kernel;
        std::vector<uint32_t> radices;
        for (const Stage& s : k.stages) radices.push_back(s.radix);
        passes.push_back({{"dim", pass.dim},
                          {"dim_count", pass.dim_count},
                          {"kernel", k.kind == KernelKind::direct ? "direct sum"
                                     : k.kind == KernelKind::real ? "real step"
                                                                  : "stockham"},
                          {"algorithm", k.kind == KernelKind::direct ? "direct sum"
                                        : k.kind == KernelKind::real ? std::string(to_string(k.real_step))
                                        : k.rader_prime              ? "rader"
                                        : k.chirp_length             ? "bluestein"
                                                                     : "fft"},
                          {"radix", k.radix},
                          {"stages", radices},
                          {"span", k.span},
                          {"points_per_invocation", k.points_per_thread},
                          {"invocations_per_column", k.threads_per_column},
                          {"columns_per_workgroup", k.columns_per_workgroup},
                          {"workgroup_size", k.workgroup_size},
                          {"tiles", pass.tiles},
                          {"workgroups", pass.workgroups},
                          {"prefetch", k.prefetch},
                          {"tile_order", to_string(k.tile_order)},
                          {"twiddles_in_registers", k.twiddles_in_registers},
                          {"shared_bytes", k.shared_bytes},
                          {"exchange_rounds", k.exchange_rounds},
                          {"subgroup_exchanges", k.subgroup_exchanges},
                          {"split_lanes", k.split_lanes},
                          {"join_lanes", k.join_lanes},
                          {"join_exchange", k.join_exchange},
                          {"lane_swaps", k.lane_swaps.size()},
                          {"lane_remaps", k.lane_remaps.size()},
                          {"staged_load", k.staged_load},
                          {"staged_store", k.staged_store},
                          {"vectorized", k.vectorized},
                          {"batch_dims", k.batch_dims.size()}});
    }
    return {{"transform", to_string(p.desc.transform())},
            {"length", p.desc.length()},
            {"batch", p.desc.batch()},
            {"dims", dims_json(p.desc.dims())},
            {"batch_dims", dims_json(p.desc.batch_dims())},
            {"precision", to_string(p.desc.precision())},
            {"summary", p.summary()},
            {"passes", passes},
            {"scratch_bytes",
             {{"out_of_place", p.scratch_bytes(Placement::out_of_place)},
              {"in_place", p.scratch_bytes(Placement::in_place)}}}};
}

}  // namespace

void add_info_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "info", "Print the Vulkan devices, the chosen one's limits and, with --n or --shape, a plan (JSON)");
    struct Args {
        uint64_t n = 0;
        uint64_t batch = 1;
        std::string shape;
        std::string axes = "all";
        uint32_t max_pass = 0;
        bool real = false;
        bool inverse = false;
        std::string strategy = "auto";
    };
    auto args = std::make_shared<Args>();
    auto* n =
        cmd->add_option("--n", args->n, "Transform length to plan")->transform(integer_in(1, kMaxCount));
    cmd->add_option("--batch", args->batch, "Transforms in the batch (with --n)")
        ->transform(integer_in(1, kMaxCount))
        ->needs(n);
    auto* shape = cmd->add_option("--shape", args->shape,
                                  "Plan numpy.fft.fftn of a C-order array of this shape: 512x512, 8x64x64")
                      ->type_name("SHAPE")
                      ->check(parsed_by(parse_shape))
                      ->excludes(n);
    cmd->add_option("--axes", args->axes,
                    "The axes of --shape to transform, as twiddle fft --axes: 0,2 or -2,-1 (default: all)")
        ->type_name("LIST|all")
        ->check(parsed_by(parse_axes))
        ->needs(shape);
    auto* real = cmd->add_flag("--real", args->real, "Plan the real transform (r2c), as twiddle fft --real");
    cmd->add_flag("--inverse", args->inverse,
                  "With --real: plan the inverse (c2r), whose kernels may differ from r2c's, as twiddle fft "
                  "--real --inverse")
        ->needs(real);
    cmd->add_option("--max-pass-length", args->max_pass,
                    "Longest pass the planner may use: a power of two, at least 2 (0: device limit)")
        ->transform(zero_or_power_of_two(2, kMaxCount, "the device limit"));
    cmd->add_option("--strategy", args->strategy,
                    "How the plan computes, as twiddle fft --strategy (default: auto)")
        ->type_name("auto|portable|subgroups|dft")
        ->check(parsed_by(parse_strategy));
    cmd->callback([args] {
        const auto devices = Context::list_devices();
        const Context ctx;
        nlohmann::json out;
        out["version"] = TWIDDLE_VERSION_STRING;
        out["devices"] = nlohmann::json::array();
        for (size_t i = 0; i < devices.size(); ++i) {
            auto d = device_json(devices[i]);
            d["index"] = i;
            out["devices"].push_back(d);
            if (devices[i].device_uuid == ctx.caps().device_uuid) out["chosen"] = i;
        }
        out["device"] = device_json(ctx.caps());
        out["limits"] = limits_json(ctx.caps());
        Options options;
        options.max_pass_length = args->max_pass;
        options.strategy = parse_strategy(args->strategy);
        std::optional<FftDesc> desc;
        nlohmann::json shape_fields;
        if (args->n > 0)
            desc = !args->real     ? FftDesc(args->n, args->batch)
                   : args->inverse ? FftDesc::c2r(args->n, args->batch)
                                   : FftDesc::r2c(args->n, args->batch);
        if (!args->shape.empty()) {
            const std::vector<uint64_t> extents = parse_shape(args->shape);
            std::vector<int> axes = parse_axes(args->axes);
            // As twiddle fft names a bad axis (out of range, repeated): a usage error here, where
            // the shape is an option too.
            try {
                check_axes("info", extents, "--axes", axes);
            } catch (const Error& e) {
                usage_error(e.what());
            }
            desc = !args->real     ? FftDesc::nd(extents, axes)
                   : args->inverse ? FftDesc::c2r_nd(extents, axes)
                                   : FftDesc::r2c_nd(extents, axes);
            if (axes.empty()) {
                axes.resize(extents.size());
                std::iota(axes.begin(), axes.end(), 0);
            }
            shape_fields = {{"shape", extents}, {"axes", axes}};
        }
        if (desc) {
            // The plan of the whole problem, which arrays over the storage-buffer range do not have
            // (a graph runs those in blocks: "support").
            try {
                // With the context's tuned options where a plan would take them (twiddle tune).
                out["plan"] = plan_json(plan(*desc, ctx.caps(), tuned_options(ctx, *desc, options)));
            } catch (const UnsupportedError& e) {
                out["plan"] = {{"error", e.what()}};
            }
            if (!shape_fields.is_null()) out["plan"].update(shape_fields);
            // Whether it fits the device with each array in a buffer of its own (twiddle::support).
            const Support sup = support(ctx, *desc, options);
            out["support"] = {{"supported", sup.supported},
                              {"reason", sup.reason},
                              {"summary", sup.summary},
                              {"passes", sup.passes},
                              {"workgroup_size", sup.workgroup_size},
                              {"shared_bytes", sup.shared_bytes},
                              {"scratch_bytes", sup.scratch_bytes},
                              {"blocks", sup.blocks},
                              {"block_count", sup.block_count},
                              {"transforms_per_block", sup.transforms_per_block},
                              {"strategy", to_string(sup.strategy)},
                              {"subgroup_stages", sup.subgroup_stages},
                              {"subgroup_eligible_stages", sup.subgroup_eligible_stages}};
        }
        check_validation(ctx);
        std::cout << out.dump(2) << "\n";
    });
}

}  // namespace twiddle::cli
