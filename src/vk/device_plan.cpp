// twiddle::Plan: a logical plan's kernels and twiddle table on a device, and the recording of its
// passes with the buffers of one call.
#include <algorithm>
#include <cfloat>
#include <future>
#include <mutex>
#include <optional>

#include "codegen/callbacks.hpp"
#include "codegen/pass_kernel.hpp"
#include "core/enum_values.hpp"
#include "core/hash.hpp"
#include "core/moved_from.hpp"
#include "cpu/reference.hpp"
#include "twiddle/error.hpp"
#include "twiddle/plan.hpp"
#include "vk/compute_kernel.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"
#include "vk/tuning.hpp"
#include "vk/views.hpp"

namespace twiddle {

struct Plan::Impl {
    std::shared_ptr<Context::State> state;
    LogicalPlan logical;
    FftCallbacks callbacks;
    vk::AllocatedBuffer twiddles;
    std::vector<vk::ComputeKernel> kernels;  // one per pass

    mutable std::mutex scratch_mutex;
    mutable std::optional<vk::AllocatedBuffer> scratch;  // execute()'s, made on first need
};

namespace {

// Checks the input and output views and returns the placement they make. Views start on a
// complex element, also those of real arrays, which some passes read or write as complex pairs.
Placement check_in_out(const Context::State& s, const FftDesc& desc, const BufferView& in,
                       const BufferView& out) {
    const uint32_t element = complex_bytes(desc.precision());
    const bool in_place = in.buffer == out.buffer && in.offset == out.offset;
    // In place, one range holds both sides (of different extents for real transforms).
    const uint64_t both_sides = std::max(desc.input_bytes(), desc.output_bytes());
    if (in_place) {
        vk::check_view(s, "Plan::record: input (in place, one range for both sides)", in, both_sides,
                       element);
        vk::check_view(s, "Plan::record: output (in place, one range for both sides)", out, both_sides,
                       element);
    } else {
        vk::check_view(s, "Plan::record: input", in, desc.input_bytes(), element);
        vk::check_view(s, "Plan::record: output", out, desc.output_bytes(), element);
    }
    if (!in_place && vk::overlap(in, desc.input_bytes(), out, desc.output_bytes()))
        throw Error("Plan::record: input and output overlap without being the same range");
    if (in_place && !desc.same_layouts())
        throw Error(
            "Plan::record: in place (input and output the same range) needs input and output laid out "
            "alike: the same strides, or for r2c and c2r the padded real layout; this problem's differ");
    return in_place ? Placement::in_place : Placement::out_of_place;
}

// The plan's twiddle table as the kernels read it, from the disk cache where a plan with the same
// tables stored it. Bluestein's and Rader's spectra are transforms the host computes in long
// double: a 10007-point plan's took 13 ms on the build machine, most of a warm plan's time.
std::vector<uint8_t> plan_table(const Context::State& s, const LogicalPlan& plan, Precision precision) {
    // The key names what makes the values: the version of the code that computes them (bump the
    // number when cpu::table_values, the spectra's definitions or vk::table_bytes change), the
    // host's long double, and every entry and spectrum.
    Hash128 key;
    key.add("twiddle table 2");
    const int mantissa = LDBL_MANT_DIG;
    const uint64_t counts[2] = {plan.twiddles.size(), plan.spectra.size()};
    key.add(&mantissa, sizeof mantissa).add(counts, sizeof counts).add(&precision, sizeof precision);
    for (const TwiddleEntry& e : plan.twiddles) key.add(&e.exponent, 4).add(&e.period, 4);
    for (const LogicalPlan::SpectrumTable& t : plan.spectra)
        key.add(&t.n, 4).add(&t.m, 4).add(&t.offset, 4).add(&t.generator, 4);
    const std::string name = key.hex() + ".table";
    const size_t size = std::max<size_t>(plan.twiddles.size() * complex_bytes(precision), 16);
    if (auto cached = s.kernels->disk().read(name); cached && cached->size() == size)
        return std::move(*cached);
    std::vector<uint8_t> bytes = vk::table_bytes(cpu::table_values(plan), precision);
    s.kernels->disk().write(name, bytes);
    return bytes;
}

}  // namespace

Plan::Plan(const Context& context, const FftDesc& desc, const Options& options)
    : Plan(context, desc, options, FftCallbacks{}) {}

Plan::Plan(const Context& context, const FftDesc& desc, const Options& options, const FftCallbacks& callbacks)
    : Plan(context, vk::plan_tuned(*context.state(), desc, options).plan, callbacks) {}

std::string FftCallbacks::store_body(Precision precision) const {
    if (!multiply) return store;
    const std::string T = precision == Precision::f32 ? "vec2" : "dvec2";
    const std::string at = multiply_period ? "index % " + std::to_string(multiply_period) + "u" : "index";
    return "return cmul(value, operand_at(" + at + ")" + (multiply_conjugate ? " * " + T + "(1, -1)" : "") +
           ");";
}

Plan Plan::convolution(const Context& context, const FftDesc& desc, const Options& options,
                       const FftCallbacks& product) {
    if (product.store.empty() && !product.multiply)
        throw Error(
            "Plan::convolution: the product between the transforms is the store callback; it is empty");
    LogicalPlan logical = plan_convolution(desc, context.caps(), options);
    if (product.multiply) {
        // The factors load with the tile, ahead of the first transform.
        for (Pass& pass : logical.passes) {
            PassKernel& k = pass.kernel;
            if (!k.convolution) continue;
            k.convolution_product = true;
            k.convolution_period = static_cast<uint32_t>(product.multiply_period);
            k.convolution_conjugate = product.multiply_conjugate;
        }
    }
    return Plan(context, std::move(logical), product);
}

Plan::Plan(const Context& context, LogicalPlan logical, const FftCallbacks& callbacks_in)
    : impl_(std::make_unique<Impl>()) {
    Impl& p = *impl_;
    p.state = context.state();
    p.logical = std::move(logical);
    const FftDesc& desc = p.logical.desc;
    const FftCallbacks& callbacks = p.callbacks = callbacks_in;
    if (!callbacks.load.empty() && desc.transform() == Transform::r2c)
        throw Error(
            "FftCallbacks.load: the input of an r2c transform is real; callbacks take complex values");
    if (callbacks.multiply &&
        !(callbacks.store.empty() && callbacks.operand && is_complex(callbacks.operand_type) &&
          callbacks.multiply_period <= 0xffffffffull))
        throw Error(
            "FftCallbacks.multiply: a product by a complex operand (operand true, complex operand_type), "
            "with no store body and a period below 2^32");
    if ((!callbacks.store.empty() || callbacks.multiply) && desc.transform() == Transform::c2r)
        throw Error(
            "FftCallbacks.store: the output of a c2r transform is real; callbacks take complex values");
    if (callbacks.operand) detail::checked(callbacks.operand_type, "FftCallbacks.operand_type");
    if (callbacks.operand && precision_of(callbacks.operand_type) != desc.precision())
        throw Error("FftCallbacks.operand_type " + std::string(to_string(callbacks.operand_type)) +
                    " is not of the transform's precision, " + std::string(to_string(desc.precision())));
    const uint32_t push_bytes = static_cast<uint32_t>(codegen::pack_params(desc.precision(), {}).size());
    const uint32_t bindings = codegen::kPassBindings + (callbacks.operand ? 1 : 0);
    // Each pass's kernel is generated and compiled on a thread of its own (shaderc, then the
    // driver: together 50-400 ms a kernel on the H200's host when nothing is cached,
    // bench/RESULTS.md, thirtieth run), while this thread computes and uploads the twiddle table.
    // The futures' destructors wait, so that a throw leaves no compile running. With both launch
    // policies, libstdc++ compiles on this thread when no thread can be started.
    std::vector<std::future<vk::ComputeKernel>> compiles;
    for (size_t i = 0; i < p.logical.passes.size(); ++i) {
        // A convolution plan's store callback is its product (the kernel's twiddle_middle), not a
        // callback of its last stores.
        const bool first = i == 0, last = i + 1 == p.logical.passes.size() && !p.logical.convolution;
        compiles.push_back(std::async(
            std::launch::async | std::launch::deferred,
            [&state = *p.state, &k = p.logical.passes[i].kernel, &callbacks, precision = desc.precision(),
             first, last, bindings, push_bytes] {
                const std::string name =
                    k.kind == KernelKind::direct ? "direct-n" + std::to_string(k.length)
                    : k.kind == KernelKind::real
                        ? "real-" + std::string(to_string(k.real_step)) + "-n" + std::to_string(k.length)
                        : "pass-n" + std::to_string(k.length) + "-r" + std::to_string(k.radix) + "-s" +
                              std::to_string(k.span);
                const std::string glsl = codegen::fuse_callbacks(codegen::generate_pass_kernel(k), precision,
                                                                 callbacks, first, last);
                // The load and store bodies are anyone's GLSL (a multiply's product is generated).
                const bool caller_code = (first && !callbacks.load.empty()) ||
                                         ((last || k.convolution) && !callbacks.store.empty());
                return vk::ComputeKernel(
                    state, glsl, name, bindings, push_bytes,
                    caller_code ? vk::KernelSource::with_caller_code : vk::KernelSource::generated);
            }));
    }
    p.twiddles = vk::upload_table(*p.state, plan_table(*p.state, p.logical, desc.precision()));
    for (auto& c : compiles) p.kernels.push_back(c.get());
}

Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;
Plan::Impl& Plan::impl() const { return detail::held(impl_, "Plan"); }

const FftDesc& Plan::desc() const { return impl().logical.desc; }
const LogicalPlan& Plan::logical() const { return impl().logical; }
size_t Plan::passes() const { return impl().logical.passes.size(); }
uint64_t Plan::scratch_bytes(Placement placement) const { return impl().logical.scratch_bytes(placement); }

uint32_t Plan::workgroup_size() const {
    uint32_t size = 0;
    for (const auto& pass : impl().logical.passes) size = std::max(size, pass.kernel.workgroup_size);
    return size;
}

std::vector<std::vector<std::pair<std::string, std::string>>> Plan::kernel_statistics() const {
    std::vector<std::vector<std::pair<std::string, std::string>>> out;
    for (const auto& k : impl().kernels) out.push_back(k.statistics());
    return out;
}

const FftCallbacks& Plan::callbacks() const { return impl().callbacks; }

void Plan::record(VkCommandBuffer cmd, const BufferView& in, const BufferView& out, const BufferView& scratch,
                  Direction direction) const {
    record(cmd, in, out, scratch, direction, BufferView{});
}

void Plan::record(VkCommandBuffer cmd, const BufferView& in, const BufferView& out, const BufferView& scratch,
                  Direction direction, const BufferView& operand) const {
    record_passes(cmd, in, out, scratch, direction, operand, impl().logical.passes.size());
}

PartialResult Plan::record_first_passes(VkCommandBuffer cmd, const BufferView& in, const BufferView& out,
                                        const BufferView& scratch, Direction direction, size_t passes) const {
    const size_t all = impl().logical.passes.size();
    if (passes > all)
        throw Error("Plan::record_first_passes: " + std::to_string(passes) + " passes asked of a plan of " +
                    std::to_string(all));
    if (passes < all && impl().logical.convolution)
        throw Error("Plan::record_first_passes: a convolution plan records all of its passes");
    if (impl().callbacks.operand)
        throw Error(
            "Plan::record_first_passes: this plan's callbacks read an operand, which only record() binds");
    return record_passes(cmd, in, out, scratch, direction, BufferView{}, passes);
}

PartialResult Plan::record_passes(VkCommandBuffer cmd, const BufferView& in, const BufferView& out,
                                  const BufferView& scratch, Direction direction, const BufferView& operand,
                                  size_t count) const {
    const Impl& p = impl();
    const Context::State& s = *p.state;
    const FftDesc& desc = p.logical.desc;
    const uint32_t element = complex_bytes(desc.precision());
    if (cmd == VK_NULL_HANDLE) throw Error("Plan::record: command buffer is null");
    detail::checked(direction, "Plan::record: direction");
    if (desc.transform() == Transform::r2c && direction != Direction::forward)
        throw Error("Plan::record: an r2c plan runs forward only (its inverse is a c2r plan)");
    if (desc.transform() == Transform::c2r && direction != Direction::inverse)
        throw Error("Plan::record: a c2r plan runs inverse only (its forward is an r2c plan)");
    const Placement placement = check_in_out(s, desc, in, out);
    const uint64_t scratch_bytes = p.logical.scratch_bytes(placement);
    if (scratch_bytes > 0) {
        vk::check_view(s, "Plan::record: scratch", scratch, scratch_bytes, element);
        if (vk::overlap(scratch, scratch_bytes, in, desc.input_bytes()) ||
            vk::overlap(scratch, scratch_bytes, out, desc.output_bytes()))
            throw Error("Plan::record: scratch overlaps the input or output");
    }

    if (p.callbacks.operand) {
        const uint32_t operand_element = data_type_bytes(p.callbacks.operand_type);
        vk::check_view(s, "Plan::record: operand", operand, std::max<uint64_t>(operand.size, operand_element),
                       operand_element);
        if (operand.offset % std::max<uint64_t>(1, s.caps.min_storage_buffer_offset_alignment) != 0)
            throw Error("Plan::record: operand offset " + std::to_string(operand.offset) +
                        " is not a multiple of the device's minStorageBufferOffsetAlignment, " +
                        std::to_string(s.caps.min_storage_buffer_offset_alignment));
        if (vk::overlap(operand, operand.size, out, desc.output_bytes()))
            throw Error("Plan::record: the operand overlaps the output");
        // The passes before the one whose callbacks read it may write all of the scratch.
        if (scratch_bytes > 0 && vk::overlap(operand, operand.size, scratch, scratch_bytes))
            throw Error("Plan::record: the operand overlaps the scratch");
        // A product reads its period's elements, or one for every element of the output.
        const uint64_t product_reads =
            p.callbacks.multiply_period ? p.callbacks.multiply_period : desc.output_elements();
        if (p.callbacks.multiply && operand.size / operand_element < product_reads)
            throw Error("Plan::record: the operand holds " + std::to_string(operand.size / operand_element) +
                        " elements; the product reads " + std::to_string(product_reads));
    } else if (!operand.empty()) {
        throw Error("Plan::record: an operand for a plan whose callbacks read none");
    }

    // In place, one range holds both sides (of different extents for real transforms); the
    // passes read and write it through the output's binding.
    const uint64_t out_range = placement == Placement::in_place
                                   ? std::max(desc.input_bytes(), desc.output_bytes())
                                   : desc.output_bytes();
    const vk::Binding bindings[] = {
        vk::bind(s, in, desc.input_bytes(), element),
        vk::bind(s, out, out_range, element),
        scratch_bytes ? vk::bind(s, scratch, scratch_bytes, element) : vk::Binding{},
    };
    auto binding = [&](BufferRole role) { return bindings[static_cast<int>(role)]; };
    const VkDescriptorBufferInfo table{p.twiddles.buffer.get(), 0, p.twiddles.size};
    if (p.logical.convolution && direction != Direction::forward)
        throw Error("Plan::record: a convolution plan records with Direction::forward");
    // A convolution's result carries both directions' normalization, and its last pass stores the
    // conjugate of what it computed (LogicalPlan::convolution).
    const double scale = p.logical.convolution
                             ? scale_factor(desc.normalization(), Direction::forward, desc.length()) *
                                   scale_factor(desc.normalization(), Direction::inverse, desc.length())
                             : scale_factor(desc.normalization(), direction, desc.length());
    const bool inverse = direction == Direction::inverse;
    const auto& routes = p.logical.routes(placement);
    const size_t all = p.logical.passes.size();
    for (size_t i = 0; i < count; ++i) {
        const vk::Binding src = binding(routes[i].src), dst = binding(routes[i].dst);
        const PassKernel& k = p.logical.passes[i].kernel;
        codegen::PassParams params;
        // Offsets in elements of the kernel's view: reals count twice.
        params.src_offset =
            static_cast<uint32_t>((src.element_offset + routes[i].src_at) * (k.reads_real() ? 2 : 1));
        params.dst_offset =
            static_cast<uint32_t>((dst.element_offset + routes[i].dst_at) * (k.writes_real() ? 2 : 1));
        params.columns = static_cast<uint32_t>(p.logical.passes[i].columns);
        params.load_sign = i == 0 && inverse ? -1.0 : 1.0;
        if (i + 1 == all) {
            params.store_re = scale;
            params.store_im = inverse || p.logical.convolution ? -scale : scale;
        } else if (i + 1 == count && inverse) {
            // The passes compute the conjugate of the inverse; the last one recorded undoes that.
            params.store_im = -1.0;
        }
        const VkDescriptorBufferInfo buffers[] = {
            src.info, dst.info, table, {operand.buffer, operand.offset, operand.size}};
        const auto push = codegen::pack_params(desc.precision(), params);
        p.kernels[i].dispatch(cmd, std::span(buffers, p.callbacks.operand ? 4 : 3), push,
                              p.logical.passes[i].workgroups);
        if (i + 1 < count) vk::record_compute_barrier(cmd);
    }
    if (count == 0)
        return PartialResult{placement == Placement::in_place ? BufferRole::output : BufferRole::input, 0};
    return PartialResult{routes[count - 1].dst, routes[count - 1].dst_at};
}

void Plan::execute(const BufferView& in, const BufferView& out, Direction direction) const {
    const Impl& p = impl();
    if (p.callbacks.operand)
        throw Error("Plan::execute: this plan's callbacks read an operand, which only record() binds");
    // Check the views before allocating or submitting anything; record() checks them again.
    const uint64_t need = p.logical.scratch_bytes(check_in_out(*p.state, p.logical.desc, in, out));
    BufferView scratch;
    if (need > 0) {
        std::lock_guard lock(p.scratch_mutex);
        // Made once, for either placement, so that no call replaces a buffer another still uses.
        if (!p.scratch)
            p.scratch = vk::allocate_buffer(*p.state,
                                            std::max(p.logical.scratch_bytes(Placement::out_of_place),
                                                     p.logical.scratch_bytes(Placement::in_place)),
                                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryKind::device_local);
        scratch = BufferView{p.scratch->buffer.get(), 0, p.scratch->size, p.scratch->usage};
    }
    p.state->submit([&](VkCommandBuffer cmd) {
        vk::record_full_barrier(cmd);
        record(cmd, in, out, scratch, direction);
        vk::record_full_barrier(cmd);
    });
}

void Plan::execute(const Buffer& in, const Buffer& out, Direction direction) const {
    const Context::State& s = *impl().state;
    // In turn, so that an error names the input first (a call's arguments have no order).
    const BufferView in_view = vk::whole_view(s, "Plan::execute: the input", in);
    execute(in_view, vk::whole_view(s, "Plan::execute: the output", out), direction);
}

}  // namespace twiddle
