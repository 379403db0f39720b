// twiddle::sht::FourierStage: the fft strategy as two real plans whose descs carry the seed's
// layouts (the m-major change fused into their loads and stores), or in two passes each
// (Passes::two: a kernel of sht/four_step on the m-major side and a c2c plan along the rows);
// the dft strategy as two kernels of its own.
#include <algorithm>
#include <mutex>
#include <optional>

#include "codegen/glsl_writer.hpp"
#include "core/unit_root.hpp"
#include "sht/direct_sum.hpp"
#include "sht/four_step.hpp"
#include "twiddle/desc.hpp"
#include "twiddle/error.hpp"
#include "twiddle/logical_plan.hpp"
#include "twiddle/plan.hpp"
#include "twiddle/sht.hpp"
#include "vk/compute_kernel.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"
#include "vk/views.hpp"

namespace twiddle::sht {

namespace {

constexpr uint64_t kMax = ~uint64_t(0);

// The fft strategy's problems: c2r from the m-major spectra (synthesis, unnormalized e^{+}: the
// normalization that leaves the inverse unscaled) and r2c into them (analysis), both keeping
// m <= mmax (FftDesc::spectrum_length).
FftDesc synthesis_desc(const Grid& g) {
    return FftDesc::guru({Dim{g.nphi, g.nlat, 1}},
                         {Dim{g.nlat, 1, g.nphi}, Dim{g.fields, (g.mmax + 1) * g.nlat, g.nlat * g.nphi}},
                         Transform::c2r, g.mmax + 1)
        .with_normalization(Normalization::forward)
        .with_precision(g.precision);
}

FftDesc analysis_desc(const Grid& g) {
    return FftDesc::guru({Dim{g.nphi, 1, g.nlat}},
                         {Dim{g.nlat, g.nphi, 1}, Dim{g.fields, g.nlat * g.nphi, (g.mmax + 1) * g.nlat}},
                         Transform::r2c, g.mmax + 1)
        .with_normalization(Normalization::backward)
        .with_precision(g.precision);
}

// The four-step form's pass along each row (see sht/four_step.hpp): transforms of `columns`
// points over n1 (z_{n2 + P n1}, the row's complex pairs) and k1 (scratch point k1 P + n2), P
// apart on both sides, repeated over n2 and over the rows. Synthesis runs it inverse from the
// scratch to spat (viewed as complex pairs), analysis forward from spat to the scratch.
FftDesc four_step_row_desc(const Grid& g, bool synthesis) {
    const uint64_t M = g.nphi / 2, columns = four_step_columns(g);
    return FftDesc::guru({Dim{columns, kFourStepPoints, kFourStepPoints}},
                         {Dim{kFourStepPoints, 1, 1}, Dim{g.fields * g.nlat, M, M}})
        .with_normalization(synthesis ? Normalization::forward : Normalization::backward)
        .with_precision(g.precision);
}

// The row pass's factors W_M^{k1 n2} (e^{-}) at k1 P + n2, applied as a product when analysis
// stores them and conjugated when synthesis loads them.
FftCallbacks four_step_callbacks(const Grid& g, bool synthesis) {
    const uint64_t M = g.nphi / 2;
    FftCallbacks c;
    c.operand = true;
    c.operand_type = g.precision == Precision::f64 ? DataType::complex128 : DataType::complex64;
    if (synthesis) {
        const std::string C(codegen::types(g.precision).complex);
        c.load = C + " w = operand_at(index % " + std::to_string(M) + "u); return cmul(value, " + C +
                 "(w.x, -w.y));";
    } else {
        c.multiply = true;
        c.multiply_period = M;
    }
    return c;
}

// Whether the four-step form's m-major pass exchanges one component at a time: where the
// complex tile does not fit the device's shared memory (f64 on lavapipe).
bool by_component(const DeviceCaps& caps, const Grid& g) {
    return four_step_shared_bytes(g, false) > caps.max_shared_memory_bytes;
}

// Whether the fft strategy takes the four-step form for `g` under `o` (throws where Passes::two
// cannot apply).
bool takes_two_passes(const DeviceCaps& caps, const Grid& g, const StageOptions& o) {
    const bool applies = four_step_applies(g) && g.fields * g.nlat * g.nphi < (uint64_t(1) << 32) &&
                         four_step_shared_bytes(g, true) <= caps.max_shared_memory_bytes;
    if (o.passes == Passes::two && !applies)
        throw UnsupportedError(
            "sht::FourierStage: two passes need nphi a multiple of " + std::to_string(4 * kFourStepPoints) +
            ", fields * nlat * nphi below 2^32 and " + std::to_string(four_step_shared_bytes(g, true)) +
            " bytes of shared memory, got nphi " + std::to_string(g.nphi));
    return o.passes == Passes::two;
}

void validate(const StageOptions& o) {
    if (o.strategy != Strategy::fft && o.strategy != Strategy::dft)
        throw Error("StageOptions.strategy is not a twiddle::sht::Strategy value (" +
                    std::to_string(static_cast<int>(o.strategy)) + ")");
    if (o.passes != Passes::automatic && o.passes != Passes::one && o.passes != Passes::two)
        throw Error("StageOptions.passes is not a twiddle::sht::Passes value (" +
                    std::to_string(static_cast<int>(o.passes)) + ")");
}

// The dft strategy's limits on a device (empty when it fits).
std::string direct_unsupported(const DeviceCaps& caps, const Grid& g) {
    if (g.precision == Precision::f64 && !caps.shader_float64)
        return "the device lacks shaderFloat64, which f64 needs";
    const uint64_t groups = uint64_t(caps.max_workgroup_count[0]) * caps.max_workgroup_count[1];
    for (bool synthesis : {true, false})
        if (g.fields * g.nlat * direct_blocks(g, synthesis) > groups)
            return "fields * nlat rows need more workgroups than the device dispatches";
    for (uint64_t bytes : {g.spectral_bytes(), g.spatial_bytes()})
        if (bytes > caps.max_storage_buffer_range)
            return "a buffer of " + std::to_string(bytes) +
                   " bytes exceeds the device's maxStorageBufferRange of " +
                   std::to_string(caps.max_storage_buffer_range);
    // Kernels index with 32-bit integers (exponents below 2 nphi).
    if (g.spectral_elements() >= (uint64_t(1) << 32) || g.spatial_elements() >= (uint64_t(1) << 32) ||
        g.nphi >= (uint64_t(1) << 31))
        return "the grid needs indices beyond 32 bits";
    return {};
}

StrategySupport::Run describe(const LogicalPlan& p) {
    StrategySupport::Run r;
    r.passes = p.passes.size();
    for (const Pass& pass : p.passes) {
        r.workgroup_size = std::max(r.workgroup_size, pass.kernel.workgroup_size);
        r.shared_bytes = std::max(r.shared_bytes, pass.kernel.shared_bytes);
    }
    r.summary = p.summary();
    return r;
}

}  // namespace

std::string_view to_string(Strategy s) {
    switch (s) {
    case Strategy::fft: return "fft";
    case Strategy::dft: return "dft";
    }
    return "?";
}

Strategy parse_strategy(std::string_view name) {
    if (name == "fft") return Strategy::fft;
    if (name == "dft") return Strategy::dft;
    throw Error("unknown SHT strategy '" + std::string(name) + "' (expected fft or dft)");
}

void Grid::validate() const {
    if (nlat == 0) throw Error("sht::Grid.nlat must be >= 1, got 0");
    if (nphi == 0) throw Error("sht::Grid.nphi must be >= 1, got 0");
    if (fields == 0) throw Error("sht::Grid.fields must be >= 1, got 0");
    if (mmax > (nphi - 1) / 2)  // 2 mmax < nphi, without overflow
        throw Error("sht::Grid.mmax must be below nphi / 2 (2 mmax < nphi), got mmax " +
                    std::to_string(mmax) + " for nphi " + std::to_string(nphi));
    if (precision != Precision::f32 && precision != Precision::f64)
        throw Error("sht::Grid.precision is not a Precision value (" +
                    std::to_string(static_cast<int>(precision)) + ")");
    // Both sides' bytes representable: fields * nlat * max(nphi, mmax + 1) * 16 < 2^64.
    if (nlat > kMax / 16 / nphi || fields > kMax / 16 / (nlat * nphi))
        throw Error("sht::Grid: fields * nlat * nphi overflows");
}

std::vector<StrategySupport> support(const DeviceCaps& caps, const Grid& grid, const StageOptions& options) {
    grid.validate();
    validate(options);
    std::vector<StrategySupport> out;
    StrategySupport fft;
    fft.strategy = Strategy::fft;
    try {
        if (takes_two_passes(caps, grid, options)) {
            for (bool synthesis : {true, false}) {
                StrategySupport::Run& run = synthesis ? fft.synthesis : fft.analysis;
                run = describe(plan(four_step_row_desc(grid, synthesis), caps, options.fft));
                run.passes += 1;
                run.workgroup_size = std::max(run.workgroup_size, kFourStepWorkgroup);
                run.shared_bytes =
                    std::max(run.shared_bytes, four_step_shared_bytes(grid, by_component(caps, grid)));
                run.summary = "four-step: " + std::to_string(four_step_columns(grid)) + " columns of " +
                              std::to_string(kFourStepPoints) + " points, the m-major pass in runs of " +
                              std::to_string(kFourStepLatitudes) + " latitudes, then " + run.summary;
            }
        } else {
            fft.synthesis = describe(plan(synthesis_desc(grid), caps, options.fft));
            fft.analysis = describe(plan(analysis_desc(grid), caps, options.fft));
        }
        fft.supported = true;
    } catch (const UnsupportedError& e) {
        fft.reason = e.what();
    }
    out.push_back(fft);
    StrategySupport dft;
    dft.strategy = Strategy::dft;
    dft.reason = direct_unsupported(caps, grid);
    dft.supported = dft.reason.empty();
    if (dft.supported)
        for (auto* run : {&dft.synthesis, &dft.analysis}) {
            run->passes = 1;
            run->workgroup_size = kDirectWorkgroup;
            run->summary = "direct band-limited sum, O(nphi mmax) per row";
        }
    out.push_back(dft);
    return out;
}

struct FourierStage::Impl {
    std::shared_ptr<Context::State> state;
    Grid grid;
    StageOptions options;
    // fft
    std::optional<Plan> synthesis_plan;
    std::optional<Plan> analysis_plan;
    // fft in two passes (four_step): the row passes are synthesis_plan and analysis_plan, the
    // m-major pass these kernels (table: W_nphi^k, k < M), with the row passes' factors.
    bool four_step = false;
    std::optional<vk::AllocatedBuffer> row_factors;
    // dft (table: W_nphi^e, e < nphi), and the m-major pass of four_step
    std::optional<vk::ComputeKernel> synthesis_kernel;
    std::optional<vk::ComputeKernel> analysis_kernel;
    std::optional<vk::AllocatedBuffer> table;

    mutable std::mutex scratch_mutex;
    mutable std::optional<vk::AllocatedBuffer> scratch;  // synthesize()'s and analyze()'s

    // The four-step form's rows between its passes (the spatial side's size), before the row
    // passes' own scratch.
    uint64_t row_bytes() const { return four_step ? grid.spatial_bytes() : 0; }
    uint64_t scratch_bytes() const {
        if (!synthesis_plan) return 0;
        return row_bytes() + std::max(synthesis_plan->scratch_bytes(Placement::out_of_place),
                                      analysis_plan->scratch_bytes(Placement::out_of_place));
    }

    // Checks the views of one direction (`source` read, `destination` written) and records it.
    void record(VkCommandBuffer cmd, bool synthesis, const BufferView& source, const BufferView& destination,
                const BufferView& scratch_view) const;
    void execute(bool synthesis, const BufferView& source, const BufferView& destination) const;
};

FourierStage::FourierStage(const Context& context, const Grid& grid, const StageOptions& options)
    : impl_(std::make_unique<Impl>()) {
    grid.validate();
    validate(options);
    Impl& p = *impl_;
    p.state = context.state();
    p.grid = grid;
    p.options = options;
    constexpr uint32_t kPushBytes = 2 * sizeof(uint32_t);
    if (options.strategy == Strategy::fft && takes_two_passes(context.caps(), grid, options)) {
        p.four_step = true;
        p.synthesis_plan.emplace(context, four_step_row_desc(grid, true), options.fft,
                                 four_step_callbacks(grid, true));
        p.analysis_plan.emplace(context, four_step_row_desc(grid, false), options.fft,
                                four_step_callbacks(grid, false));
        const uint64_t M = grid.nphi / 2;
        std::vector<std::complex<long double>> roots(M), factors(M);
        for (uint64_t k = 0; k < M; ++k) roots[k] = unit_root(k, grid.nphi);
        for (uint64_t k1 = 0; k1 < M / kFourStepPoints; ++k1)
            for (uint64_t n2 = 0; n2 < kFourStepPoints; ++n2)
                factors[k1 * kFourStepPoints + n2] = unit_root(k1 * n2, M);
        p.table = vk::upload_table(*p.state, roots, grid.precision);
        p.row_factors = vk::upload_table(*p.state, factors, grid.precision);
        const bool components = by_component(context.caps(), grid);
        p.synthesis_kernel.emplace(*p.state, generate_four_step_synthesis(grid, components),
                                   "sht-four-step-synthesis", 3, kPushBytes);
        p.analysis_kernel.emplace(*p.state, generate_four_step_analysis(grid, components),
                                  "sht-four-step-analysis", 3, kPushBytes);
        return;
    }
    if (options.strategy == Strategy::fft) {
        p.synthesis_plan.emplace(context, synthesis_desc(grid), options.fft);
        p.analysis_plan.emplace(context, analysis_desc(grid), options.fft);
        return;
    }
    if (const std::string why = direct_unsupported(context.caps(), grid); !why.empty())
        throw UnsupportedError("sht::FourierStage (dft): " + why);
    std::vector<std::complex<long double>> roots(grid.nphi);  // W_nphi^e, e < nphi
    for (uint64_t e = 0; e < grid.nphi; ++e) roots[e] = unit_root(e, grid.nphi);
    p.table = vk::upload_table(*p.state, roots, grid.precision);
    p.synthesis_kernel.emplace(*p.state, generate_direct_synthesis(grid), "sht-direct-synthesis", 3,
                               kPushBytes);
    p.analysis_kernel.emplace(*p.state, generate_direct_analysis(grid), "sht-direct-analysis", 3, kPushBytes);
}

FourierStage::FourierStage(FourierStage&&) noexcept = default;
FourierStage& FourierStage::operator=(FourierStage&&) noexcept = default;
FourierStage::~FourierStage() = default;

const Grid& FourierStage::grid() const { return impl_->grid; }
const StageOptions& FourierStage::options() const { return impl_->options; }
uint64_t FourierStage::scratch_bytes() const { return impl_->scratch_bytes(); }

void FourierStage::Impl::record(VkCommandBuffer cmd, bool synthesis, const BufferView& source,
                                const BufferView& destination, const BufferView& scratch_view) const {
    const Context::State& s = *state;
    const std::string where =
        std::string("sht::FourierStage::record_") + (synthesis ? "synthesis: " : "analysis: ");
    if (cmd == VK_NULL_HANDLE) throw Error(where + "command buffer is null");
    const uint32_t element = complex_bytes(grid.precision);
    const uint64_t source_bytes = synthesis ? grid.spectral_bytes() : grid.spatial_bytes();
    const uint64_t destination_bytes = synthesis ? grid.spatial_bytes() : grid.spectral_bytes();
    vk::check_view(s, where + (synthesis ? "fm" : "spat"), source, source_bytes, element);
    vk::check_view(s, where + (synthesis ? "spat" : "fm"), destination, destination_bytes, element);
    if (vk::overlap(source, source_bytes, destination, destination_bytes))
        throw Error(where + "fm and spat overlap");
    const uint64_t scratch_need = scratch_bytes();
    if (scratch_need > 0) {
        vk::check_view(s, where + "scratch", scratch_view, scratch_need, element);
        if (vk::overlap(scratch_view, scratch_need, source, source_bytes) ||
            vk::overlap(scratch_view, scratch_need, destination, destination_bytes))
            throw Error(where + "scratch overlaps fm or spat");
    }
    if (four_step) {
        const BufferView rows{scratch_view.buffer, scratch_view.offset, row_bytes(), scratch_view.usage};
        const BufferView rest{scratch_view.buffer, scratch_view.offset + row_bytes(),
                              scratch_view.size - row_bytes(), scratch_view.usage};
        const BufferView factors{row_factors->buffer.get(), 0, row_factors->size, row_factors->usage};
        // The m-major pass binds fm and the rows; spat is the row pass's, as complex pairs.
        auto m_major_pass = [&](const BufferView& from, uint64_t from_bytes, const BufferView& to,
                                uint64_t to_bytes) {
            const vk::Binding src = vk::bind(s, from, from_bytes, element);
            const vk::Binding dst = vk::bind(s, to, to_bytes, element);
            const uint32_t push[2] = {src.element_offset, dst.element_offset};
            const VkDescriptorBufferInfo buffers[] = {
                src.info, dst.info, {table->buffer.get(), 0, table->size}};
            (synthesis ? *synthesis_kernel : *analysis_kernel)
                .dispatch(cmd, buffers, std::span(reinterpret_cast<const uint8_t*>(push), sizeof push),
                          four_step_workgroups(grid));
        };
        if (synthesis) {
            m_major_pass(source, source_bytes, rows, row_bytes());
            vk::record_compute_barrier(cmd);
            synthesis_plan->record(cmd, rows, destination, rest, Direction::inverse, factors);
        } else {
            analysis_plan->record(cmd, source, rows, rest, Direction::forward, factors);
            vk::record_compute_barrier(cmd);
            m_major_pass(rows, row_bytes(), destination, destination_bytes);
        }
        return;
    }
    if (synthesis_plan) {
        if (synthesis)
            synthesis_plan->record(cmd, source, destination, scratch_view, Direction::inverse);
        else
            analysis_plan->record(cmd, source, destination, scratch_view, Direction::forward);
        return;
    }
    const vk::Binding src = vk::bind(s, source, source_bytes, element);
    const vk::Binding dst = vk::bind(s, destination, destination_bytes, element);
    // Element offsets in each binding's own type: reals count twice.
    const uint32_t push[2] = {src.element_offset * (synthesis ? 1 : 2),
                              dst.element_offset * (synthesis ? 2 : 1)};
    const VkDescriptorBufferInfo buffers[] = {src.info, dst.info, {table->buffer.get(), 0, table->size}};
    const auto& kernel = synthesis ? *synthesis_kernel : *analysis_kernel;
    kernel.dispatch(cmd, buffers, std::span(reinterpret_cast<const uint8_t*>(push), sizeof push),
                    grid.fields * grid.nlat * direct_blocks(grid, synthesis));
}

void FourierStage::Impl::execute(bool synthesis, const BufferView& source,
                                 const BufferView& destination) const {
    BufferView scratch_view;
    if (const uint64_t need = scratch_bytes(); need > 0) {
        std::lock_guard lock(scratch_mutex);
        if (!scratch)
            scratch = vk::allocate_buffer(*state, need, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                          vk::MemoryKind::device_local);
        scratch_view = BufferView{scratch->buffer.get(), 0, scratch->size, scratch->usage};
    }
    state->submit([&](VkCommandBuffer cmd) {
        vk::record_full_barrier(cmd);
        record(cmd, synthesis, source, destination, scratch_view);
        vk::record_full_barrier(cmd);
    });
}

void FourierStage::record_synthesis(VkCommandBuffer cmd, const BufferView& fm, const BufferView& spat,
                                    const BufferView& scratch) const {
    impl_->record(cmd, true, fm, spat, scratch);
}

void FourierStage::record_analysis(VkCommandBuffer cmd, const BufferView& spat, const BufferView& fm,
                                   const BufferView& scratch) const {
    impl_->record(cmd, false, spat, fm, scratch);
}

void FourierStage::synthesize(const BufferView& fm, const BufferView& spat) const {
    impl_->execute(true, fm, spat);
}
void FourierStage::analyze(const BufferView& spat, const BufferView& fm) const {
    impl_->execute(false, spat, fm);
}
void FourierStage::synthesize(const Buffer& fm, const Buffer& spat) const {
    synthesize(fm.view(), spat.view());
}
void FourierStage::analyze(const Buffer& spat, const Buffer& fm) const { analyze(spat.view(), fm.view()); }

}  // namespace twiddle::sht
