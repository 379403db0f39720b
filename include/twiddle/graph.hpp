// twiddle::Graph: transforms and the operations around them composed into one command graph.
//
// A graph names buffers (resources: the caller's, or transient ones it allocates itself), views of
// them, and nodes that read and write views: FFTs of any plan, pointwise operations, and layout
// changes. compile() orders the nodes, places barriers only between nodes that depend on each
// other, and gives transient buffers whose lifetimes do not overlap the same memory. The compiled
// graph records into a command buffer and never submits or reads back, so a forward transform, a
// multiplication and an inverse transform run in one submission:
//
//   twiddle::Graph g(context);
//   auto a = g.external(signal), k = g.external(kernel), y = g.external(result);
//   auto fa = g.transient(desc.output_bytes()), fk = g.transient(desc.output_bytes());
//   g.fft(desc, a, fa, Direction::forward);
//   g.fft(desc, k, fk, Direction::forward);
//   g.multiply(fa, fk, fa, n * batch, DataType::complex64);
//   g.fft(desc, fa, y, Direction::inverse);
//   twiddle::CompiledGraph run = g.compile();
//   run.record(cmd);  // or run.execute()
//
// Node semantics are those of a program: nodes take effect in the order they were added, and a
// node that reads bytes an earlier node writes (or writes bytes an earlier node reads or writes)
// runs after it. Independent nodes share a level and run without a barrier between them.
//
// Chunked views. A node's array may lie in several plain views, chunks, end to end: element e of
// the array is in the first chunk whose cumulative size passes e * element bytes. Chunks may split
// anywhere on element boundaries (also inside one transform), may be empty, start at any offset
// aligned to the element, and hold spare capacity past the array's end; the chunks of a node's
// input and output need not match. Only the array's own elements are read or written: output tails
// stay unchanged. FFT and elementwise nodes also take a plain view larger than the device's
// maxStorageBufferRange as chunks by themselves: FFT nodes run chunked arrays in blocks of whole
// transforms through bounded scratch (graph-owned, reused from block to block), binding chunks
// directly where a block lies in one, for packed layouts whose output has no gaps. Layout nodes,
// periodic operands, fused operations and convolutions need arrays within the range.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "twiddle/buffer.hpp"
#include "twiddle/context.hpp"
#include "twiddle/desc.hpp"
#include "twiddle/export.hpp"
#include "twiddle/logical_plan.hpp"
#include "twiddle/plan.hpp"
#include "twiddle/types.hpp"

namespace twiddle {

// A buffer of one graph (a handle; the graph keeps what it refers to).
struct Resource {
    uint64_t graph = 0;  // the graph's serial number
    uint32_t index = 0;
};

// `size` bytes of a resource from byte `offset` (0 bytes: an empty chunk); kToEnd: the rest of
// the resource.
struct View {
    static constexpr uint64_t kToEnd = ~uint64_t(0);
    Resource resource;
    uint64_t offset = 0;
    uint64_t size = kToEnd;
};

// An array held by plain views end to end (see the chunk rules above). A plain view or a whole
// resource converts to a chunked view of one chunk.
struct ChunkedView {
    std::vector<View> chunks;
    ChunkedView(const Resource& r) : chunks{View{r}} {}
    ChunkedView(const View& v) : chunks{v} {}
    ChunkedView(std::vector<View> c) : chunks(std::move(c)) {}
};

// A node of a graph (a handle, in the order nodes were added).
struct Node {
    uint32_t index = 0;
};

// What a node does, as logical figures (before chunks are lowered).
struct NodeStats {
    std::string kind;         // "fft", "multiply", "scale", "magnitude_squared", ...
    uint64_t elements = 0;    // elements written
    uint64_t bytes_read = 0;  // of the node's arrays and operands
    uint64_t bytes_written = 0;
    size_t passes = 0;            // passes through memory (dispatches of the contiguous case)
    uint32_t workgroup_size = 0;  // largest workgroup, invocations
    uint64_t scratch_bytes = 0;   // transient scratch the node needs itself
};

struct GraphStats {
    std::vector<NodeStats> nodes;  // in the order they were added
    // Compiled figures (0 in Graph::stats()):
    size_t levels = 0;                     // groups of independent nodes, run in turn
    size_t dispatches = 0;                 // compute dispatches recorded
    size_t barriers = 0;                   // pipeline barriers recorded, inside nodes too
    uint64_t transient_bytes = 0;          // transient buffers and scratch, each its own
    uint64_t transient_bytes_aliased = 0;  // the memory they take sharing it across lifetimes
};

// Options of Graph::multiply.
struct MultiplyOptions {
    // The operand's elements repeat every `operand_period` elements of the array (0: none): one
    // filter for every row of a batch.
    uint64_t operand_period = 0;
    // Multiply by the operand's complex conjugate (a correlation instead of a convolution).
    bool conjugate = false;
};

// Operations fused into an FFT node's kernels (FftCallbacks: GLSL applied as its first pass
// loads and its last pass stores, with no pass of their own), and the array their operand_at()
// reads: one chunk, at an offset that is a multiple of the device's minStorageBufferOffsetAlignment.
struct TWIDDLE_API FusedOps {
    FftCallbacks callbacks;
    std::optional<ChunkedView> operand;
    // The operand's elements the callbacks read at least, checked by compile() (a product checks
    // its own: its period, or every point of the spectrum). Set it for GLSL bodies of your own.
    uint64_t operand_elements = 0;

    // Stores X_k * operand[k mod period] (period 0: operand[k]; or by the operand's conjugate):
    // the product of a convolution (or a correlation) fused into the forward transform, the
    // operand a complex array of the output's layout and precision (with a period: of one
    // transform, the same filter for every transform of a packed batch).
    static FusedOps multiply_store(const ChunkedView& operand, Precision precision, uint64_t period = 0,
                                   bool conjugate = false);
    // Loads x_j * window[j mod period]: a real window of `period` points of the input's precision
    // over each row of a c2c or c2r input.
    static FusedOps window_load(const ChunkedView& window, Precision precision, uint64_t period);
};

// Whether a transform fits a device and how it would run, from the device's limits and the
// planner (nothing is compiled): for arrays in one buffer each, or in the given chunks.
struct Support {
    bool supported = false;
    std::string reason;   // why not: the planner's or a limit's message
    std::string summary;  // the planner's one-line summary
    size_t passes = 0;
    uint32_t workgroup_size = 0;  // largest workgroup, invocations
    uint32_t shared_bytes = 0;    // most shared memory of one workgroup
    uint64_t scratch_bytes = 0;   // transient memory a graph node of it takes
    // How the plan computes (with the context's tuned options where it takes them): dft;
    // subgroups where some kernel exchanges butterfly points through subgroup shuffles
    // (PassKernel::lane_swaps); automatic where kernels use other subgroup operations (barriers
    // of subgroup_exchanges, a real split's shuffles); portable where none does. Meaningful only
    // when supported.
    Strategy strategy = Strategy::automatic;
    // Exchanges between stages that go through subgroup shuffles in this plan, and those that
    // would under Strategy::subgroups on this device (0 where it lacks subgroup shuffles).
    uint32_t subgroup_stages = 0;
    uint32_t subgroup_eligible_stages = 0;
    // Arrays that are chunked, or over the storage-buffer range, run in blocks of whole transforms
    // (Graph's chunk rules): how many, of how many transforms.
    bool blocks = false;
    uint64_t block_count = 0;
    uint64_t transforms_per_block = 0;
};
// For arrays in one buffer each, from offset 0.
TWIDDLE_API Support support(const Context& context, const FftDesc& desc, const Options& options = {});
// For arrays in these chunks (each a range of a buffer, as Graph's chunked views).
TWIDDLE_API Support support(const Context& context, const FftDesc& desc, const std::vector<BufferView>& in,
                            const std::vector<BufferView>& out, const Options& options = {});

class CompiledGraph;

class TWIDDLE_API Graph {
public:
    explicit Graph(const Context& context);
    Graph(Graph&&) noexcept;
    Graph& operator=(Graph&&) noexcept;
    ~Graph();

    // The caller's buffer, which it keeps owning and keeps alive while the compiled graph is
    // used: `size` bytes, with the usage flags it was created with (they must allow storage
    // access, which compile() checks).
    Resource external(VkBuffer buffer, uint64_t size, VkBufferUsageFlags usage);
    Resource external(const Buffer& buffer);
    // A buffer of `bytes` the compiled graph owns. Its contents exist only between the nodes of
    // one recording: it shares memory with transients whose lifetimes are disjoint.
    Resource transient(uint64_t bytes);
    uint64_t size(const Resource& r) const;

    // Nodes. Each returns its handle; arguments are checked when compile() runs, which throws
    // twiddle::Error naming the node (enum values and fftshift's axes already as the node is
    // added). `count` counts elements of `type`.

    // The transform of `desc` (any plan: c2c, r2c, c2r, N-D, guru layouts) from `in` to `out`.
    // In place when both are the same single view (which needs desc.same_layouts()); otherwise
    // they must not overlap. Chunked arrays need a packed layout: transforms one after another.
    Node fft(const FftDesc& desc, const ChunkedView& in, const ChunkedView& out, Direction direction,
             const Options& options = {});
    // The same with `fused` operations compiled into its kernels. Each array must then lie in one
    // chunk within the device's storage-buffer range.
    Node fft(const FftDesc& desc, const ChunkedView& in, const ChunkedView& out, Direction direction,
             const Options& options, const FusedOps& fused);
    // The circular convolution ifft(product(fft(in))) along desc's dims (c2c, or r2c through its
    // c2r inverse): `product` is applied to each point of the spectrum as its store callback
    // (FusedOps::multiply_store(filter spectrum, ...) for a convolution with a filter). Where
    // plan_convolution takes the problem (c2c whose dims each take one pass), one plan: one pass for
    // a one-pass 1D length, three for 2D. Otherwise the forward transform with the product fused
    // into its stores, a transient spectrum (in desc's output layout), and the inverse. The result
    // is laid out as the input (desc's input layout, where a guru desc's sides differ). Each
    // array in one chunk. The result carries both directions' normalization (backward: 1 / N).
    Node convolution(const FftDesc& desc, const ChunkedView& in, const ChunkedView& out,
                     const FusedOps& product, const Options& options = {});
    // out[i] = in[i] * operand[i] for i < count. `type` is in's and out's; the operand is of
    // `type` too, or real of its precision (operand_type; default: `type`).
    Node multiply(const ChunkedView& in, const ChunkedView& operand, const ChunkedView& out, uint64_t count,
                  DataType type, const MultiplyOptions& options = {});
    Node multiply(const ChunkedView& in, const ChunkedView& operand, const ChunkedView& out, uint64_t count,
                  DataType type, DataType operand_type, const MultiplyOptions& options = {});
    // out[i] = factor * in[i].
    Node scale(const ChunkedView& in, const ChunkedView& out, uint64_t count, DataType type, double factor);
    // out[i] = |in[i]|^2: complex in, real of the same precision out.
    Node magnitude_squared(const ChunkedView& in, const ChunkedView& out, uint64_t count,
                           Precision precision);
    // out[i] = log10(max(in[i], floor)) on reals: a power spectrum on a log scale for display.
    // Without a floor above 0, log10 of 0 is -inf and of a value below 0 (or NaN) NaN.
    Node log_scale(const ChunkedView& in, const ChunkedView& out, uint64_t count, Precision precision,
                   double floor = 1e-30);
    // Copies `bytes` (a multiple of 4).
    Node copy(const ChunkedView& in, const ChunkedView& out, uint64_t bytes);
    // numpy.fft.fftshift (inverse: ifftshift) of a C-order array of `shape` over `axes` (empty:
    // every axis; negative ones count from the end).
    Node fftshift(const ChunkedView& in, const ChunkedView& out, const std::vector<uint64_t>& shape,
                  const std::vector<int>& axes, DataType type, bool inverse = false);
    // A C-order array of `in_shape` into one of `out_shape` (as many axes): elements at indices
    // inside both shapes are copied, the others of out are 0. zero_pad needs out_shape >= in_shape
    // on every axis (numpy.fft's zero padding at the end of each axis), crop out_shape <= in_shape.
    Node zero_pad(const ChunkedView& in, const ChunkedView& out, const std::vector<uint64_t>& in_shape,
                  const std::vector<uint64_t>& out_shape, DataType type);
    Node crop(const ChunkedView& in, const ChunkedView& out, const std::vector<uint64_t>& in_shape,
              const std::vector<uint64_t>& out_shape, DataType type);

    // Logical statistics of the nodes so far (compiled figures 0). Before compile() finds which
    // FFT nodes run in place (input and output the same range), their scratch is that of the
    // transform out of place; CompiledGraph::stats() has the one it takes.
    GraphStats stats() const;

    // Checks every node, orders them, builds their kernels and plans and allocates the transient
    // memory. Throws twiddle::Error for a bad node (naming it); UnsupportedError for what the
    // device cannot run. The graph stays usable: compiling again gives another compiled graph.
    CompiledGraph compile() const;

    struct Impl;

private:
    Impl& impl() const;  // throws twiddle::Error once moved from
    std::unique_ptr<Impl> impl_;
};

// A compiled graph: its plans, kernels and transient memory. Move-only.
class TWIDDLE_API CompiledGraph {
public:
    CompiledGraph(CompiledGraph&&) noexcept;
    CompiledGraph& operator=(CompiledGraph&&) noexcept;
    ~CompiledGraph();

    // Appends every node's dispatches, with barriers where dependencies need them (and one first,
    // where the graph has transient memory, against an earlier recording of it), to `cmd`; never
    // submits. The caller orders its earlier writes of external buffers before
    // compute-shader reads, and its later uses after compute-shader writes (as Plan::record).
    void record(VkCommandBuffer cmd) const;
    // Records into a one-time command buffer, submits and waits.
    void execute() const;

    GraphStats stats() const;
    // Nodes in the order they run, level by level (each inner vector one level).
    std::vector<std::vector<Node>> levels() const;

    struct Impl;

private:
    friend class Graph;
    explicit CompiledGraph(std::unique_ptr<Impl> impl);
    Impl& impl() const;  // throws twiddle::Error once moved from
    std::unique_ptr<Impl> impl_;
};

}  // namespace twiddle
