// twiddle: the device plan. Owns the pipelines and twiddle table of one logical plan and records
// its passes into a command buffer.
#pragma once

#include <vulkan/vulkan.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "twiddle/buffer.hpp"
#include "twiddle/context.hpp"
#include "twiddle/desc.hpp"
#include "twiddle/export.hpp"
#include "twiddle/logical_plan.hpp"

namespace twiddle {

class TWIDDLE_API Plan {
public:
    // Plans `desc` for the context's device and builds its kernels (compiled, or loaded from
    // the disk cache). Throws UnsupportedError for problems the device cannot run.
    Plan(const Context& context, const FftDesc& desc, const Options& options = {});
    Plan(Plan&&) noexcept;
    Plan& operator=(Plan&&) noexcept;
    ~Plan();

    const FftDesc& desc() const;
    const LogicalPlan& logical() const;
    size_t passes() const;
    // Bytes of scratch buffer record() needs for the placement (0: none).
    uint64_t scratch_bytes(Placement placement) const;
    // The largest workgroup any pass dispatches, in invocations.
    uint32_t workgroup_size() const;
    // Per pass, the driver's statistics of its kernel as (name, value) pairs: registers, spills
    // and the like. Empty unless the context captures them (ContextOptions::kernel_statistics).
    std::vector<std::vector<std::pair<std::string, std::string>>> kernel_statistics() const;

    // Appends the transform's dispatches, with barriers between passes, to `cmd`; never submits.
    // `in` holds desc().input_bytes() and `out` desc().output_bytes(); they are either the same
    // range (in place, which needs desc().same_layouts()) or disjoint. `scratch` holds
    // scratch_bytes() for that placement or may be empty when that is 0. The caller orders earlier
    // writes of `in` before compute-shader reads, and later reads of `out` after compute-shader
    // writes. Throws twiddle::Error, before recording anything, for a view that is too small,
    // lacks storage usage, overlaps another wrongly, or exceeds the device's storage-buffer range.
    // Only the output layout's elements of `out` are written; the input is only read (out of place).
    void record(VkCommandBuffer cmd, const BufferView& in, const BufferView& out, const BufferView& scratch,
                Direction direction) const;

    // Records into a one-time command buffer, submits and waits. Allocates the scratch buffer
    // itself (once, kept with the plan) when the placement needs one.
    void execute(const BufferView& in, const BufferView& out, Direction direction) const;
    void execute(const Buffer& in, const Buffer& out, Direction direction) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace twiddle
