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

struct TunedChoice;
struct TuneOptions;

// GLSL fused into a plan's kernels, as cuFFT's load and store callbacks: applied as the first pass
// reads each complex value of the input, and as the last pass writes each complex value of the
// output, with no pass of their own. Each is the body of a function of the value and of its
// element index in the array as laid out (elements from the view's start):
//   load:  T twiddle_load(T value, uint index)   the value as stored, before the transform;
//   store: T twiddle_store(T value, uint index)  the value to store, normalized;
// T is vec2 in f32 and dvec2 in f64. Empty: none. A body must be a pure function of its arguments
// and the operand (a kernel may read one element more than once), and may read `operand_at(i)`,
// element i of the operand array that record() binds (U operand_at(uint i): vec2, dvec2, float or
// double as operand_type), and call cmul(a, b), the complex product. Only complex sides take a
// callback: the input of c2c and c2r, the output of c2c and r2c.
//
//   FftCallbacks window{.load = "return value * operand_at(index % 4096u);",
//                       .operand = true, .operand_type = DataType::float32};
struct TWIDDLE_API FftCallbacks {
    std::string load;
    std::string store;
    bool operand = false;
    DataType operand_type = DataType::complex64;
    // The store callback as a product by a complex operand, in place of a `store` body:
    // value * operand_at(index mod multiply_period) (0: operand_at(index)), or by its conjugate
    // where multiply_conjugate. A convolution kernel loads these factors with its tile, ahead of its
    // first transform, so that their latency hides behind it.
    bool multiply = false;
    uint64_t multiply_period = 0;
    bool multiply_conjugate = false;
    bool empty() const { return load.empty() && store.empty() && !multiply; }
    // The store callback's body: `store`, or the product's GLSL.
    std::string store_body(Precision precision) const;
    bool operator==(const FftCallbacks&) const = default;
};

// Where the first passes of a plan leave their result (Plan::record_first_passes): which of
// the views given to record() holds it, and from which element of that view. The partial result
// is laid out as the pass left it: for a 2D transform's row and column passes, as the output.
struct PartialResult {
    BufferRole buffer = BufferRole::input;
    uint64_t element_offset = 0;
};

class TWIDDLE_API Plan {
public:
    // Plans `desc` for the context's device and builds its kernels (compiled, or loaded from
    // the disk cache). Throws UnsupportedError for problems the device cannot run.
    Plan(const Context& context, const FftDesc& desc, const Options& options = {});
    // With `callbacks` compiled into its first and last passes. Throws twiddle::Error for a
    // callback on a real side, an operand type of another precision, or GLSL that does not
    // compile (with the compiler's message).
    Plan(const Context& context, const FftDesc& desc, const Options& options, const FftCallbacks& callbacks);
    // The circular convolution ifft(product(fft(x))) of a c2c problem as one plan
    // (plan_convolution): product is callbacks.store, applied to each point of the spectrum
    // between the transforms (a load callback applies to x). One pass for a 1D length of one pass,
    // three for 2D of a pass per dim. The result carries both directions' normalization (backward:
    // 1 / N). Recorded with Direction::forward. Throws UnsupportedError where plan_convolution
    // does, and twiddle::Error without a store callback.
    static Plan convolution(const Context& context, const FftDesc& desc, const Options& options,
                            const FftCallbacks& product);
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
    // writes of `in` before compute-shader reads (and writes, in place), and later reads of `out`
    // after compute-shader writes; a view at an offset that is not a multiple of
    // minStorageBufferOffsetAlignment is bound from the offset rounded down, and the bytes between
    // need the same ordering (docs/api.md, "record"). Throws twiddle::Error, before recording anything, for a
    // view that is too small, lacks storage usage, overlaps another wrongly, or exceeds the device's
    // storage-buffer range. Only the output layout's elements of `out` are written; the input is only read
    // (out of place).
    void record(VkCommandBuffer cmd, const BufferView& in, const BufferView& out, const BufferView& scratch,
                Direction direction) const;
    // The same for a plan whose callbacks read an operand: `operand` is the array operand_at()
    // reads, whose offset must be a multiple of the device's minStorageBufferOffsetAlignment. It
    // must not overlap the output or the scratch.
    void record(VkCommandBuffer cmd, const BufferView& in, const BufferView& out, const BufferView& scratch,
                Direction direction, const BufferView& operand) const;
    const FftCallbacks& callbacks() const;
    // Records only the first `passes` of the plan's passes (0 to passes()), for watching a
    // transform take shape: a 512 x 512 plan with Options::radix = 2 has 18, nine down the
    // columns and then nine along the rows. Returns where their result lies. Views and errors are as
    // for record(); the result is unnormalized unless `passes` is passes(), and in the
    // direction's sign (an inverse's partial result is that of the e^{+} transform). Partial
    // results of Bluestein's passes and of real transforms' split and join steps are
    // intermediate data with no such meaning. Throws twiddle::Error for more passes than the plan
    // has, for a convolution plan unless all of them, and for a plan whose callbacks read an
    // operand (record() binds it).
    [[nodiscard]] PartialResult record_first_passes(VkCommandBuffer cmd, const BufferView& in,
                                                    const BufferView& out, const BufferView& scratch,
                                                    Direction direction, size_t passes) const;

    // Records into a one-time command buffer, submits and waits. Allocates the scratch buffer
    // itself (once, kept with the plan) when the placement needs one.
    void execute(const BufferView& in, const BufferView& out, Direction direction) const;
    void execute(const Buffer& in, const Buffer& out, Direction direction) const;

private:
    PartialResult record_passes(VkCommandBuffer cmd, const BufferView& in, const BufferView& out,
                                const BufferView& scratch, Direction direction, const BufferView& operand,
                                size_t passes) const;
    friend TunedChoice tune(const Context&, Transform, Precision, uint64_t, const TuneOptions&);
    Plan(const Context& context, LogicalPlan logical, const FftCallbacks& callbacks);
    struct Impl;
    Impl& impl() const;  // throws twiddle::Error once moved from
    std::unique_ptr<Impl> impl_;
};

}  // namespace twiddle
