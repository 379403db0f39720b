// twiddle::sht::FourierStage: the fft strategy as two real plans whose descs carry the seed's
// layouts (the m-major change fused into their loads and stores), or in two passes each
// (Passes::two: a kernel of sht/four_step on the m-major side and a c2c plan along the rows);
// the dft strategy as two kernels of its own.
#include <algorithm>
#include <mutex>
#include <optional>

#include "core/enum_values.hpp"
#include "core/moved_from.hpp"
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

namespace twiddle::detail {

template <>
struct EnumValues<sht::Strategy> {
    static constexpr std::string_view name = "twiddle::sht::Strategy";
    static constexpr std::array values{sht::Strategy::fft, sht::Strategy::dft};
};
template <>
struct EnumValues<sht::Passes> {
    static constexpr std::string_view name = "twiddle::sht::Passes";
    static constexpr std::array values{sht::Passes::automatic, sht::Passes::one, sht::Passes::two};
};

}  // namespace twiddle::detail

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

void validate(const StageOptions& o) {
    detail::checked(o.strategy, "StageOptions.strategy");
    detail::checked(o.passes, "StageOptions.passes");
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
    detail::checked(precision, "sht::Grid.precision");
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
        for (bool synthesis : {true, false}) {
            StrategySupport::Run& run = synthesis ? fft.synthesis : fft.analysis;
            if (!takes_two_passes(caps, grid, options, synthesis)) {
                run =
                    describe(plan(synthesis ? synthesis_desc(grid) : analysis_desc(grid), caps, options.fft));
                continue;
            }
            run =
                describe(plan(four_step_row_desc(grid, synthesis), caps, four_step_row_options(options.fft)));
            run.passes += 1;
            run.workgroup_size = std::max(run.workgroup_size, four_step_workgroup(grid.precision));
            run.shared_bytes = std::max(run.shared_bytes, four_step_shared_bytes(grid));
            run.summary = "four-step: " + std::to_string(four_step_columns(grid)) + " columns of " +
                          std::to_string(four_step_points()) + " points, the m-major pass in runs of " +
                          std::to_string(four_step_latitudes(grid.precision)) + " latitudes, then " +
                          run.summary;
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
    // fft in two passes (four_step) in either direction: its plan is the row pass, its kernel
    // the m-major pass (table: W_nphi^k, k < M), with the row pass's factors (one table for both
    // directions).
    bool synthesis_four_step = false, analysis_four_step = false;
    std::optional<vk::AllocatedBuffer> row_factors;
    // dft (table: W_nphi^e, e < nphi), and the m-major pass of four_step
    std::optional<vk::ComputeKernel> synthesis_kernel;
    std::optional<vk::ComputeKernel> analysis_kernel;
    std::optional<vk::AllocatedBuffer> table;

    mutable std::mutex scratch_mutex;
    mutable std::optional<vk::AllocatedBuffer> scratch;  // synthesize()'s and analyze()'s

    // The four-step form's rows between its passes (the spatial side's size), before the row
    // passes' own scratch.
    uint64_t row_bytes() const {
        return synthesis_four_step || analysis_four_step ? grid.spatial_bytes() : 0;
    }
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
    if (options.strategy == Strategy::fft) {
        p.synthesis_four_step = takes_two_passes(context.caps(), grid, options, true);
        p.analysis_four_step = takes_two_passes(context.caps(), grid, options, false);
        for (bool synthesis : {true, false}) {
            std::optional<Plan>& plan = synthesis ? p.synthesis_plan : p.analysis_plan;
            if (synthesis ? p.synthesis_four_step : p.analysis_four_step)
                plan.emplace(context, four_step_row_desc(grid, synthesis), four_step_row_options(options.fft),
                             four_step_callbacks(grid, synthesis));
            else
                plan.emplace(context, synthesis ? synthesis_desc(grid) : analysis_desc(grid), options.fft);
        }
        if (!p.synthesis_four_step && !p.analysis_four_step) return;
        std::vector<std::complex<long double>> roots(grid.nphi / 2);  // W_nphi^k, k < M
        for (uint64_t k = 0; k < roots.size(); ++k) roots[k] = unit_root(k, grid.nphi);
        p.table = vk::upload_table(*p.state, roots, grid.precision);
        p.row_factors = vk::upload_table(*p.state, four_step_row_factors(grid), grid.precision);
        if (p.synthesis_four_step)
            p.synthesis_kernel.emplace(*p.state, generate_four_step_synthesis(grid),
                                       "sht-four-step-synthesis", 3, kPushBytes);
        if (p.analysis_four_step)
            p.analysis_kernel.emplace(*p.state, generate_four_step_analysis(grid), "sht-four-step-analysis",
                                      3, kPushBytes);
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
FourierStage::Impl& FourierStage::impl() const { return twiddle::detail::held(impl_, "sht::FourierStage"); }

const Grid& FourierStage::grid() const { return impl().grid; }
const StageOptions& FourierStage::options() const { return impl().options; }
uint64_t FourierStage::scratch_bytes() const { return impl().scratch_bytes(); }

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
    if (synthesis ? synthesis_four_step : analysis_four_step) {
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
    impl().record(cmd, true, fm, spat, scratch);
}

void FourierStage::record_analysis(VkCommandBuffer cmd, const BufferView& spat, const BufferView& fm,
                                   const BufferView& scratch) const {
    impl().record(cmd, false, spat, fm, scratch);
}

void FourierStage::synthesize(const BufferView& fm, const BufferView& spat) const {
    impl().execute(true, fm, spat);
}
void FourierStage::analyze(const BufferView& spat, const BufferView& fm) const {
    impl().execute(false, spat, fm);
}
void FourierStage::synthesize(const Buffer& fm, const Buffer& spat) const {
    const Context::State& s = *impl().state;
    // In turn, so that an error names the first argument first.
    const BufferView fm_view = vk::whole_view(s, "FourierStage::synthesize: the fm", fm);
    synthesize(fm_view, vk::whole_view(s, "FourierStage::synthesize: the spat", spat));
}
void FourierStage::analyze(const Buffer& spat, const Buffer& fm) const {
    const Context::State& s = *impl().state;
    const BufferView spat_view = vk::whole_view(s, "FourierStage::analyze: the spat", spat);
    analyze(spat_view, vk::whole_view(s, "FourierStage::analyze: the fm", fm));
}

}  // namespace twiddle::sht
