// twiddle::Graph: nodes over views of buffers, compiled into levels of independent nodes with
// barriers between levels, transient memory shared across disjoint lifetimes, and chunked arrays
// lowered to dispatches over the pieces of their chunks.
#include "twiddle/graph.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "codegen/graph_kernels.hpp"
#include "core/enum_values.hpp"
#include "core/moved_from.hpp"
#include "twiddle/error.hpp"
#include "twiddle/plan.hpp"
#include "vk/compute_kernel.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"
#include "vk/tuning.hpp"
#include "vk/views.hpp"

namespace twiddle {

namespace {

std::atomic<uint64_t> next_graph_serial{1};

// Transient memory is placed at multiples of this (and of the device's offset alignment).
constexpr uint64_t kTransientAlignment = 256;
// The most bytes of a block of whole transforms a chunked FFT stages at a time.
constexpr uint64_t kMaxBlockBytes = uint64_t(256) << 20;

struct ResourceInfo {
    bool external = false;
    VkBuffer buffer = VK_NULL_HANDLE;
    uint64_t size = 0;
    VkBufferUsageFlags usage = 0;
};

enum class NodeKind {
    fft,
    convolution,
    multiply,
    scale,
    magnitude_squared,
    log_scale,
    copy,
    fftshift,
    zero_pad,
    crop
};

const char* kind_name(NodeKind k) {
    switch (k) {
    case NodeKind::fft: return "fft";
    case NodeKind::convolution: return "convolution";
    case NodeKind::multiply: return "multiply";
    case NodeKind::scale: return "scale";
    case NodeKind::magnitude_squared: return "magnitude_squared";
    case NodeKind::log_scale: return "log_scale";
    case NodeKind::copy: return "copy";
    case NodeKind::fftshift: return "fftshift";
    case NodeKind::zero_pad: return "zero_pad";
    case NodeKind::crop: return "crop";
    }
    return "?";
}

// A node as added: its arrays and parameters, checked by compile().
struct NodeSpec {
    NodeKind kind = NodeKind::copy;
    ChunkedView in;
    ChunkedView out;
    std::optional<ChunkedView> operand;
    // fft
    std::optional<FftDesc> desc;
    Direction direction = Direction::forward;
    Options options;
    FusedOps fused;
    // elementwise: `count` elements of `type` in, `out_type` out
    uint64_t count = 0;
    DataType type = DataType::float32;
    DataType out_type = DataType::float32;
    DataType operand_type = DataType::float32;
    MultiplyOptions multiply;
    double factor = 0;
    // layout
    codegen::LayoutKernel layout;

    explicit NodeSpec(NodeKind k, ChunkedView i, ChunkedView o)
        : kind(k), in(std::move(i)), out(std::move(o)) {}
};

// The elements of a shape; throws twiddle::Error where the count overflows 64 bits.
uint64_t product(const std::vector<uint64_t>& shape) {
    uint64_t p = 1;
    for (uint64_t n : shape) {
        if (n != 0 && p > ~uint64_t(0) / n) throw Error("Graph: a shape of more than 2^64 elements");
        p *= n;
    }
    return p;
}

// Enum arguments are checked as their node is added, where the caller's value is still at hand
// (magnitude_squared and log_scale turn a precision into element types at once); the rest at
// compile().
DataType checked(DataType t, const std::string& function, const char* argument = "type") {
    return detail::checked(t, function + ": " + argument);
}
Precision checked(Precision p, const char* function) {
    return detail::checked(p, std::string(function) + ": precision");
}

// Per-transform elements of each side of a desc, and whether its transforms follow one another
// densely (transform b at b times that many elements on both sides), as chunked arrays need.
struct TransformExtent {
    uint64_t in_elements;
    uint64_t out_elements;
    bool packed;
    bool dense_output;  // every element of a transform's output extent is one of its points
};

TransformExtent transform_extent(const FftDesc& desc) {
    FftDesc one = desc;
    one.with_batch(1);
    uint64_t points = 1;
    for (const Dim& d : one.output_dims()) points *= d.n;
    TransformExtent e{one.input_elements(), one.output_elements(), true, points == one.output_elements()};
    std::vector<Dim> batch = desc.batch_dims();
    std::sort(batch.begin(), batch.end(),
              [](const Dim& a, const Dim& b) { return a.in_stride < b.in_stride; });
    uint64_t in = e.in_elements, out = e.out_elements;
    for (const Dim& b : batch) {
        if (b.n == 1) continue;
        if (b.in_stride != in || b.out_stride != out) e.packed = false;
        in *= b.n;
        out *= b.n;
    }
    return e;
}

// How errors name node i: "Graph node 3 (fft)".
std::string node_name(size_t i, NodeKind kind) {
    return "Graph node " + std::to_string(i) + " (" + kind_name(kind) + ")";
}

// Runs `step`, so that every error it throws names the node `node` ("Graph node N (kind)"):
// those of the planner, the kernel compiler and the descs do not know of it. The type is kept.
template <typename Step>
void naming(const std::string& node, Step step) {
    const auto named = [&](const Error& e) {
        const std::string what = e.what();
        return what.starts_with("Graph node ") ? what : node + ": " + what;
    };
    try {
        step();
    } catch (const VulkanError& e) {
        throw VulkanError(named(e), e.result());
    } catch (const UnsupportedError& e) {
        throw UnsupportedError(named(e));
    } catch (const Error& e) {
        throw Error(named(e));
    }
}

// The operand elements a node's fused callbacks read, where that is known: operand_elements,
// and the product's (its period, else one per spectrum element); 0 for the caller's own code
// without operand_elements.
uint64_t fused_operand_elements(const FusedOps& fused, uint64_t spectrum_elements) {
    uint64_t need = fused.operand_elements;
    if (fused.callbacks.multiply)
        need = std::max(
            need, fused.callbacks.multiply_period ? fused.callbacks.multiply_period : spectrum_elements);
    return need;
}

// The inverse of a forward problem: from its output's layout back to its input's (c2c, or the
// c2r of an r2c).
FftDesc inverse_of(const FftDesc& desc) {
    auto swapped = [](std::vector<Dim> dims) {
        for (Dim& d : dims) std::swap(d.in_stride, d.out_stride);
        return dims;
    };
    return FftDesc::guru(swapped(desc.dims()), swapped(desc.batch_dims()),
                         desc.transform() == Transform::c2c ? Transform::c2c : Transform::c2r,
                         desc.transform() == Transform::c2c ? 0 : desc.spectrum_length())
        .with_precision(desc.precision())
        .with_normalization(desc.normalization());
}

// The usable range of one binding: the device's, less the slack of an offset aligned down.
uint64_t binding_limit(const DeviceCaps& caps) {
    return caps.max_storage_buffer_range - std::max<uint64_t>(1, caps.min_storage_buffer_offset_alignment);
}

// Transforms per block of a chunked FFT whose transforms take `tx` bytes on the larger side: as
// many as fit kMaxBlockBytes and one binding, at least one. Throws UnsupportedError (after
// `where`) when one transform exceeds a binding.
uint64_t block_transforms(const DeviceCaps& caps, uint64_t batch, uint64_t tx, const std::string& where) {
    if (tx > binding_limit(caps))
        throw UnsupportedError(where + ": one transform takes " + std::to_string(tx) +
                               " bytes, over the device's storage-buffer range of " +
                               std::to_string(caps.max_storage_buffer_range));
    return std::min(batch, std::max<uint64_t>(1, std::min(binding_limit(caps), kMaxBlockBytes) / tx));
}

// A range of bytes of one resource.
struct Piece {
    uint32_t resource = 0;
    uint64_t offset = 0;
    uint64_t bytes = 0;
    bool operator==(const Piece&) const = default;
};

bool overlap(const Piece& a, const Piece& b) {
    return a.resource == b.resource && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

// A node's array: chunks end to end, `bytes` of them used.
struct Array {
    std::vector<Piece> chunks;
    std::vector<uint64_t> ends;  // logical byte at each chunk's end
    uint32_t element = 1;
    uint64_t bytes = 0;

    // The pieces holding logical bytes [begin, begin + length), each with its logical start.
    std::vector<std::pair<uint64_t, Piece>> pieces(uint64_t begin, uint64_t length) const {
        std::vector<std::pair<uint64_t, Piece>> out;
        uint64_t start = 0;
        for (size_t c = 0; c < chunks.size() && length > 0; ++c) {
            const uint64_t end = ends[c];
            if (begin < end) {
                const uint64_t within = begin - start;
                const uint64_t take = std::min(length, end - begin);
                out.push_back({begin, Piece{chunks[c].resource, chunks[c].offset + within, take}});
                begin += take;
                length -= take;
            }
            start = end;
        }
        return out;
    }
    std::vector<std::pair<uint64_t, Piece>> used() const { return pieces(0, bytes); }
};

// What a compiled node records.
struct Dispatch {
    const vk::ComputeKernel* kernel;
    std::vector<VkDescriptorBufferInfo> buffers;
    std::vector<uint8_t> push;
    uint64_t workgroups;
};
struct PlanCall {
    const Plan* plan;
    BufferView in, out, scratch;
    Direction direction;
    BufferView operand;  // of fused callbacks, if they read one
};
struct Barrier {};
using Command = std::variant<Dispatch, PlanCall, Barrier>;

struct Access {
    Piece range;
    bool write;
};

}  // namespace

struct Graph::Impl {
    std::shared_ptr<Context::State> state;
    uint64_t serial = 0;
    std::vector<ResourceInfo> resources;
    std::vector<NodeSpec> nodes;

    Node add(NodeSpec spec) {
        nodes.push_back(std::move(spec));
        return Node{static_cast<uint32_t>(nodes.size() - 1)};
    }
};

struct CompiledGraph::Impl {
    std::shared_ptr<Context::State> state;
    std::optional<vk::AllocatedBuffer> transient_memory;
    std::vector<std::unique_ptr<Plan>> plans;
    std::map<std::string, std::unique_ptr<vk::ComputeKernel>> kernels;  // by GLSL
    std::vector<std::vector<uint32_t>> levels;
    std::vector<std::vector<Command>> commands;  // per node
    GraphStats stats;
};

Graph::Graph(const Context& context) : impl_(std::make_unique<Impl>()) {
    impl_->state = context.state();
    impl_->serial = next_graph_serial++;
}
Graph::Graph(Graph&&) noexcept = default;
Graph& Graph::operator=(Graph&&) noexcept = default;
Graph::~Graph() = default;
Graph::Impl& Graph::impl() const { return detail::held(impl_, "Graph"); }

Resource Graph::external(VkBuffer buffer, uint64_t size, VkBufferUsageFlags usage) {
    if (buffer == VK_NULL_HANDLE) throw Error("Graph::external: buffer is null");
    if (size == 0) throw Error("Graph::external: size must be > 0 bytes");
    impl().resources.push_back(ResourceInfo{true, buffer, size, usage});
    return Resource{impl().serial, static_cast<uint32_t>(impl().resources.size() - 1)};
}

Resource Graph::external(const Buffer& buffer) {
    const BufferView v = vk::whole_view(*impl().state, "Graph::external: the", buffer);
    return external(v.buffer, v.size, v.usage);
}

Resource Graph::transient(uint64_t bytes) {
    if (bytes == 0) throw Error("Graph::transient: size must be > 0 bytes");
    impl().resources.push_back(
        ResourceInfo{false, VK_NULL_HANDLE, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT});
    return Resource{impl().serial, static_cast<uint32_t>(impl().resources.size() - 1)};
}

uint64_t Graph::size(const Resource& r) const {
    if (r.graph != impl().serial || r.index >= impl().resources.size())
        throw Error("Graph::size: the resource is not one of this graph's");
    return impl().resources[r.index].size;
}

Node Graph::fft(const FftDesc& desc, const ChunkedView& in, const ChunkedView& out, Direction direction,
                const Options& options) {
    return fft(desc, in, out, direction, options, FusedOps{});
}

Node Graph::fft(const FftDesc& desc, const ChunkedView& in, const ChunkedView& out, Direction direction,
                const Options& options, const FusedOps& fused) {
    NodeSpec s(NodeKind::fft, in, out);
    s.desc = desc;
    s.direction = direction;
    s.options = options;
    s.fused = fused;
    return impl().add(std::move(s));
}

Node Graph::convolution(const FftDesc& desc, const ChunkedView& in, const ChunkedView& out,
                        const FusedOps& product, const Options& options) {
    NodeSpec s(NodeKind::convolution, in, out);
    s.desc = desc;
    s.options = options;
    s.fused = product;
    return impl().add(std::move(s));
}

FusedOps FusedOps::multiply_store(const ChunkedView& operand, Precision precision, uint64_t period,
                                  bool conjugate) {
    if (period > 0xffffffffull)
        throw Error("FusedOps::multiply_store: period must be below 2^32, got " + std::to_string(period));
    FusedOps f;
    f.callbacks.multiply = true;
    f.callbacks.multiply_period = period;
    f.callbacks.multiply_conjugate = conjugate;
    f.callbacks.operand = true;
    f.callbacks.operand_type = complex_type(checked(precision, "FusedOps::multiply_store"));
    f.operand = operand;
    return f;
}

FusedOps FusedOps::window_load(const ChunkedView& window, Precision precision, uint64_t period) {
    if (period == 0 || period > 0xffffffffull)
        throw Error("FusedOps::window_load: period must be in [1, 2^32 - 1], got " + std::to_string(period));
    FusedOps f;
    f.callbacks.load = "return value * operand_at(index % " + std::to_string(period) + "u);";
    f.operand_elements = period;
    f.callbacks.operand = true;
    f.callbacks.operand_type = real_type(checked(precision, "FusedOps::window_load"));
    f.operand = window;
    return f;
}

Node Graph::multiply(const ChunkedView& in, const ChunkedView& operand, const ChunkedView& out,
                     uint64_t count, DataType type, const MultiplyOptions& options) {
    return multiply(in, operand, out, count, type, type, options);
}

Node Graph::multiply(const ChunkedView& in, const ChunkedView& operand, const ChunkedView& out,
                     uint64_t count, DataType type, DataType operand_type, const MultiplyOptions& options) {
    NodeSpec s(NodeKind::multiply, in, out);
    s.operand = operand;
    s.count = count;
    s.type = s.out_type = checked(type, "Graph::multiply");
    s.operand_type = checked(operand_type, "Graph::multiply", "operand_type");
    s.multiply = options;
    return impl().add(std::move(s));
}

Node Graph::scale(const ChunkedView& in, const ChunkedView& out, uint64_t count, DataType type,
                  double factor) {
    NodeSpec s(NodeKind::scale, in, out);
    s.count = count;
    s.type = s.out_type = checked(type, "Graph::scale");
    s.factor = factor;
    return impl().add(std::move(s));
}

Node Graph::magnitude_squared(const ChunkedView& in, const ChunkedView& out, uint64_t count,
                              Precision precision) {
    NodeSpec s(NodeKind::magnitude_squared, in, out);
    s.count = count;
    s.type = complex_type(checked(precision, "Graph::magnitude_squared"));
    s.out_type = real_type(precision);
    return impl().add(std::move(s));
}

Node Graph::log_scale(const ChunkedView& in, const ChunkedView& out, uint64_t count, Precision precision,
                      double floor) {
    NodeSpec s(NodeKind::log_scale, in, out);
    s.count = count;
    s.type = s.out_type = real_type(checked(precision, "Graph::log_scale"));
    s.factor = floor;
    return impl().add(std::move(s));
}

Node Graph::copy(const ChunkedView& in, const ChunkedView& out, uint64_t bytes) {
    NodeSpec s(NodeKind::copy, in, out);
    s.count = bytes;  // checked (a multiple of 4) and turned into words by compile()
    return impl().add(std::move(s));
}

Node Graph::fftshift(const ChunkedView& in, const ChunkedView& out, const std::vector<uint64_t>& shape,
                     const std::vector<int>& axes, DataType type, bool inverse) {
    NodeSpec s(NodeKind::fftshift, in, out);
    s.type = s.out_type = checked(type, "Graph::fftshift");
    s.layout.in_shape = s.layout.out_shape = shape;
    s.layout.shift.assign(shape.size(), 0);
    // Axes are checked here, where their meaning depends on the shape alone; the rest at compile().
    const int rank = static_cast<int>(shape.size());
    std::vector<bool> chosen(shape.size(), axes.empty());
    for (int a : axes) {
        const int axis = a < 0 ? a + rank : a;
        if (axis < 0 || axis >= rank)
            throw Error("Graph::fftshift: axis " + std::to_string(a) + " is out of range for " +
                        std::to_string(rank) + " axes");
        if (chosen[axis]) throw Error("Graph::fftshift: axis " + std::to_string(a) + " is repeated");
        chosen[axis] = true;
    }
    for (int d = 0; d < rank; ++d)
        if (chosen[d]) {
            const int64_t half = static_cast<int64_t>(shape[d] / 2);
            s.layout.shift[d] = inverse ? -half : half;
        }
    return impl().add(std::move(s));
}

namespace {

// A zero_pad or crop node: the layout kernel with no shift (codegen::LayoutKernel).
NodeSpec resize_node(NodeKind kind, const ChunkedView& in, const ChunkedView& out,
                     const std::vector<uint64_t>& in_shape, const std::vector<uint64_t>& out_shape,
                     DataType type) {
    NodeSpec s(kind, in, out);
    s.type = s.out_type = checked(type, std::string("Graph::") + kind_name(kind));
    s.layout.in_shape = in_shape;
    s.layout.out_shape = out_shape;
    s.layout.shift.assign(out_shape.size(), 0);
    return s;
}

}  // namespace

Node Graph::zero_pad(const ChunkedView& in, const ChunkedView& out, const std::vector<uint64_t>& in_shape,
                     const std::vector<uint64_t>& out_shape, DataType type) {
    return impl().add(resize_node(NodeKind::zero_pad, in, out, in_shape, out_shape, type));
}

Node Graph::crop(const ChunkedView& in, const ChunkedView& out, const std::vector<uint64_t>& in_shape,
                 const std::vector<uint64_t>& out_shape, DataType type) {
    return impl().add(resize_node(NodeKind::crop, in, out, in_shape, out_shape, type));
}

namespace {

// compile(): checks each node, finds its accesses and transients, orders the nodes, places the
// transients and lowers each node to commands.
class Compiler {
public:
    Compiler(const Context& context, const Graph::Impl& g, CompiledGraph::Impl& out)
        : context_(context), g_(g), out_(out), s_(*g.state) {}

    void run() {
        const size_t n = g_.nodes.size();
        resources_ = g_.resources;
        // A caller's buffer added twice is one memory: dependencies and overlaps see one resource.
        canonical_.resize(resources_.size());
        for (uint32_t r = 0; r < resources_.size(); ++r) {
            canonical_[r] = r;
            for (uint32_t q = 0; q < r; ++q)
                if (resources_[r].external && resources_[q].external &&
                    resources_[q].buffer == resources_[r].buffer) {
                    canonical_[r] = q;
                    break;
                }
        }
        lowered_.resize(n);
        for (size_t i = 0; i < n; ++i) naming(name(i), [&] { check_node(i); });
        order();
        place_transients();
        out_.commands.resize(n);
        for (size_t i = 0; i < n; ++i) naming(name(i), [&] { lower(i); });
        count();
    }

private:
    // What check_node() learns about a node for lower().
    struct Lowered {
        Array in, out, operand;
        std::vector<Access> accesses;
        NodeStats stats;
        // fft: plans (indices into out_.plans), and the transients it stages through
        const Plan* plan = nullptr;          // the whole problem (direct) or full blocks
        const Plan* inverse_plan = nullptr;  // a convolution in two plans: the inverse's
        const Plan* rest_plan = nullptr;     // the last block, when shorter
        bool direct = false;
        bool in_place = false;
        std::optional<Piece> fused_operand;  // the array the callbacks read
        uint64_t block = 0;                  // transforms per block
        TransformExtent extent{};
        std::optional<uint32_t> scratch, stage_in, stage_out;  // transient resources
    };

    std::string name(size_t i) const { return node_name(i, g_.nodes[i].kind); }

    uint32_t add_transient(uint64_t bytes) {
        resources_.push_back(ResourceInfo{false, VK_NULL_HANDLE, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT});
        return static_cast<uint32_t>(resources_.size() - 1);
    }

    // The usable binding range of one view: the device's, less the slack of an unaligned offset.
    uint64_t binding_limit() const { return twiddle::binding_limit(s_.caps); }

    Array resolve(size_t i, const char* what, const ChunkedView& v, uint32_t element, uint64_t bytes) const {
        Array a;
        a.element = element;
        a.bytes = bytes;
        uint64_t total = 0;
        for (size_t c = 0; c < v.chunks.size(); ++c) {
            const View& view = v.chunks[c];
            const std::string where = name(i) + ": " + what + " chunk " + std::to_string(c);
            if (view.resource.graph != g_.serial || view.resource.index >= g_.resources.size())
                throw Error(where + " is a view of a resource of another graph");
            const ResourceInfo& r = g_.resources[view.resource.index];
            if (view.offset > r.size)
                throw Error(where + " starts at byte " + std::to_string(view.offset) +
                            ", past the resource's " + std::to_string(r.size) + " bytes");
            const uint64_t size = view.size == View::kToEnd ? r.size - view.offset : view.size;
            if (size > r.size - view.offset)
                throw Error(where + " of " + std::to_string(size) + " bytes at offset " +
                            std::to_string(view.offset) + " exceeds the resource's " +
                            std::to_string(r.size) + " bytes");
            if (view.offset % element != 0 || size % element != 0)
                throw Error(where + " (offset " + std::to_string(view.offset) + ", " + std::to_string(size) +
                            " bytes) does not lie on " + std::to_string(element) +
                            "-byte element boundaries");
            if (r.external && !(r.usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT))
                throw Error(where + ": the buffer lacks VK_BUFFER_USAGE_STORAGE_BUFFER_BIT");
            total += size;
            a.chunks.push_back(Piece{canonical_[view.resource.index], view.offset, size});
            a.ends.push_back(total);
        }
        if (total < bytes)
            throw Error(name(i) + ": " + what + " holds " + std::to_string(total) +
                        " bytes; the node needs " + std::to_string(bytes));
        return a;
    }

    static void no_self_overlap(const std::string& where, const Array& a) {
        const auto used = a.used();
        for (size_t p = 0; p < used.size(); ++p)
            for (size_t q = p + 1; q < used.size(); ++q)
                if (overlap(used[p].second, used[q].second))
                    throw Error(where + ": output chunks overlap each other");
    }

    // Elementwise arrays may be one another's memory only element for element.
    static bool same_elements(const Array& a, const Array& b) {
        if (a.element != b.element) return false;
        for (const auto& [pa, x] : a.used())
            for (const auto& [pb, y] : b.used())
                if (overlap(x, y) && (x.offset - pa != y.offset - pb)) return false;
        return true;
    }

    static bool any_overlap(const Array& a, const Array& b) {
        for (const auto& [pa, x] : a.used())
            for (const auto& [pb, y] : b.used())
                if (overlap(x, y)) return true;
        return false;
    }

    static void add_accesses(std::vector<Access>& acc, const Array& a, bool write) {
        for (const auto& [pos, piece] : a.used()) acc.push_back(Access{piece, write});
    }

    const Plan* make_plan(const FftDesc& desc, const Options& options, const FftCallbacks& callbacks = {}) {
        out_.plans.push_back(std::make_unique<Plan>(context_, desc, options, callbacks));
        return out_.plans.back().get();
    }

    void check_node(size_t i);
    void check_fft(size_t i);
    void check_convolution(size_t i);
    void check_fused_operand(size_t i, uint64_t spectrum_elements);
    void order();
    void place_transients();
    void lower(size_t i);
    void lower_fft(size_t i);
    void lower_layout(size_t i);
    void count();

    // Dispatches of an elementwise kernel over `count` elements of the arrays (operand optional),
    // a dispatch per run of elements that lies in one chunk of each, within the binding range.
    void elementwise(std::vector<Command>& cmds, const codegen::ElementwiseKernel& k, const Array& in,
                     const Array& out, const Array* operand, uint64_t count, uint64_t period, double factor);
    // Copies `bytes` from logical byte `from` of `src` to logical byte `to` of `dst` (32-bit words).
    void copy_bytes(std::vector<Command>& cmds, const Array& src, uint64_t from, const Array& dst,
                    uint64_t to, uint64_t bytes);

    const vk::ComputeKernel* kernel(const std::string& glsl, const std::string& label, uint32_t bindings,
                                    uint32_t push_bytes) {
        auto& slot = out_.kernels[glsl];
        if (!slot) slot = std::make_unique<vk::ComputeKernel>(s_, glsl, label, bindings, push_bytes);
        return slot.get();
    }

    // Where a resource's bytes are once transients are placed.
    BufferView view_of(const Piece& p) const {
        const ResourceInfo& r = resources_[p.resource];
        if (r.external) return BufferView{r.buffer, p.offset, p.bytes, r.usage};
        return BufferView{out_.transient_memory->buffer.get(), placed_[p.resource] + p.offset, p.bytes,
                          out_.transient_memory->usage};
    }

    const Context& context_;
    const Graph::Impl& g_;
    CompiledGraph::Impl& out_;
    Context::State& s_;
    std::vector<ResourceInfo> resources_;  // the graph's, then the nodes' own transients
    std::vector<uint32_t> canonical_;      // per graph resource: the first with its VkBuffer
    std::vector<Lowered> lowered_;
    std::vector<uint32_t> level_;
    std::vector<uint64_t> placed_;  // transient offsets in the transient memory
    size_t transient_count_ = 0;
};

void Compiler::check_node(size_t i) {
    const NodeSpec& n = g_.nodes[i];
    Lowered& l = lowered_[i];
    NodeStats& st = l.stats;
    st.kind = kind_name(n.kind);
    st.passes = 1;
    st.workgroup_size = codegen::kGraphWorkgroup;
    switch (n.kind) {
    case NodeKind::fft: check_fft(i); return;
    case NodeKind::convolution: check_convolution(i); return;
    case NodeKind::multiply:
    case NodeKind::scale:
    case NodeKind::magnitude_squared:
    case NodeKind::log_scale:
    case NodeKind::copy: {
        uint64_t count = n.count;
        uint32_t in_el = data_type_bytes(n.type), out_el = data_type_bytes(n.out_type);
        if (n.kind == NodeKind::copy) {
            if (count % 4 != 0)
                throw Error(name(i) + ": copies whole 32-bit words; " + std::to_string(count) +
                            " bytes is not a multiple of 4");
            count /= 4;
            in_el = out_el = 4;
        }
        if (count == 0) throw Error(name(i) + ": count must be > 0 elements");
        if (count > ~uint64_t(0) / std::max(in_el, out_el))
            throw Error(name(i) + ": " + std::to_string(count) + " elements of " +
                        std::string(to_string(n.type)) + " are more than 2^64 bytes");
        l.in = resolve(i, "input", n.in, in_el, count * in_el);
        l.out = resolve(i, "output", n.out, out_el, count * out_el);
        no_self_overlap(name(i), l.out);
        if (any_overlap(l.in, l.out) && !same_elements(l.in, l.out))
            throw Error(name(i) + ": the output overlaps the input other than element for element");
        st.elements = count;
        st.bytes_read = count * in_el;
        st.bytes_written = count * out_el;
        add_accesses(l.accesses, l.in, false);
        if (n.kind == NodeKind::multiply) {
            if (precision_of(n.operand_type) != precision_of(n.type) ||
                (is_complex(n.operand_type) && !is_complex(n.type)))
                throw Error(name(i) + ": an operand of " + std::string(to_string(n.operand_type)) +
                            " cannot multiply " + std::string(to_string(n.type)) +
                            "; it must be of the same type, or real of the same precision");
            const uint64_t period = n.multiply.operand_period;
            const uint32_t op_el = data_type_bytes(n.operand_type);
            if (period > 0xffffffffull)
                throw Error(name(i) + ": operand_period " + std::to_string(period) + " exceeds 2^32 - 1");
            l.operand =
                resolve(i, "operand", *n.operand, op_el, (period ? std::min(period, count) : count) * op_el);
            if (period) {
                if (l.operand.used().size() != 1 || l.operand.bytes > binding_limit())
                    throw UnsupportedError(name(i) +
                                           ": a periodic operand must lie in one chunk within the device's "
                                           "storage-buffer range");
                if (any_overlap(l.operand, l.out))
                    throw Error(name(i) + ": the output overlaps the periodic operand");
            } else if (any_overlap(l.operand, l.out) && !same_elements(l.operand, l.out)) {
                throw Error(name(i) + ": the output overlaps the operand other than element for element");
            }
            st.bytes_read += l.operand.bytes;
            add_accesses(l.accesses, l.operand, false);
        }
        add_accesses(l.accesses, l.out, true);
        return;
    }
    case NodeKind::fftshift:
    case NodeKind::zero_pad:
    case NodeKind::crop: {
        const auto& k = n.layout;
        if (k.in_shape.empty() || k.in_shape.size() != k.out_shape.size())
            throw Error(name(i) + ": the shapes must have the same number of axes, at least one");
        for (size_t d = 0; d < k.in_shape.size(); ++d) {
            if (k.in_shape[d] == 0 || k.out_shape[d] == 0)
                throw Error(name(i) + ": axis " + std::to_string(d) + " has a zero extent");
            if (n.kind == NodeKind::zero_pad && k.out_shape[d] < k.in_shape[d])
                throw Error(name(i) + ": axis " + std::to_string(d) + " shrinks from " +
                            std::to_string(k.in_shape[d]) + " to " + std::to_string(k.out_shape[d]) +
                            "; zero_pad only grows (crop shrinks)");
            if (n.kind == NodeKind::crop && k.out_shape[d] > k.in_shape[d])
                throw Error(name(i) + ": axis " + std::to_string(d) + " grows from " +
                            std::to_string(k.in_shape[d]) + " to " + std::to_string(k.out_shape[d]) +
                            "; crop only shrinks (zero_pad grows)");
        }
        const uint32_t el = data_type_bytes(n.type);
        const uint64_t in_count = product(k.in_shape), out_count = product(k.out_shape);
        if (in_count > binding_limit() / el || out_count > binding_limit() / el)
            throw UnsupportedError(name(i) + ": arrays over the device's storage-buffer range (" +
                                   std::to_string(s_.caps.max_storage_buffer_range) +
                                   " bytes) are not supported by layout nodes");
        l.in = resolve(i, "input", n.in, el, in_count * el);
        l.out = resolve(i, "output", n.out, el, out_count * el);
        no_self_overlap(name(i), l.out);
        if (any_overlap(l.in, l.out)) throw Error(name(i) + ": the output overlaps the input");
        // Chunked arrays are staged whole through transients of their own.
        if (l.in.used().size() > 1) l.stage_in = add_transient(l.in.bytes);
        if (l.out.used().size() > 1) l.stage_out = add_transient(l.out.bytes);
        st.elements = out_count;
        st.bytes_read = in_count * el;
        st.bytes_written = out_count * el;
        add_accesses(l.accesses, l.in, false);
        add_accesses(l.accesses, l.out, true);
        for (auto t : {l.stage_in, l.stage_out})
            if (t) l.accesses.push_back(Access{Piece{*t, 0, resources_[*t].size}, true});
        return;
    }
    }
}

void Compiler::check_fft(size_t i) {
    const NodeSpec& n = g_.nodes[i];
    Lowered& l = lowered_[i];
    const FftDesc& desc = *n.desc;
    detail::checked(n.direction, name(i) + ": direction");
    if (desc.transform() == Transform::r2c && n.direction != Direction::forward)
        throw Error(name(i) + ": an r2c transform runs forward only (its inverse is a c2r transform)");
    if (desc.transform() == Transform::c2r && n.direction != Direction::inverse)
        throw Error(name(i) + ": a c2r transform runs inverse only (its forward is an r2c transform)");
    const uint32_t in_el = desc.input_element_bytes(), out_el = desc.output_element_bytes();
    const uint32_t complex_el = complex_bytes(desc.precision());
    l.in = resolve(i, "input", n.in, in_el, desc.input_bytes());
    l.out = resolve(i, "output", n.out, out_el, desc.output_bytes());
    no_self_overlap(name(i), l.out);
    const auto in_used = l.in.used(), out_used = l.out.used();
    const bool overlapping = any_overlap(l.in, l.out);

    // Direct: each array in one chunk, starting on a complex element, within the binding range.
    auto bindable = [&](const std::vector<std::pair<uint64_t, Piece>>& used) {
        return used.size() == 1 && used[0].second.offset % complex_el == 0 &&
               used[0].second.bytes <= binding_limit();
    };
    l.direct = bindable(in_used) && bindable(out_used);
    l.extent = transform_extent(desc);
    const FusedOps& fused = n.fused;
    if ((!fused.callbacks.empty() || fused.callbacks.operand || fused.operand) && !l.direct)
        throw UnsupportedError(name(i) +
                               ": fused operations need the input and the output each in one chunk, "
                               "starting on a complex element, within the storage-buffer range");
    check_fused_operand(i, desc.output_elements());
    if (l.direct) {
        if (overlapping) {
            const Piece a = in_used[0].second, b = out_used[0].second;
            if (a.resource != b.resource || a.offset != b.offset)
                throw Error(name(i) + ": input and output overlap without being the same range");
            if (!desc.same_layouts())
                throw Error(name(i) +
                            ": in place (input and output the same range) needs input and output laid "
                            "out alike; this problem's differ");
            // One range holds both sides, of different extents for real transforms.
            const uint64_t both = std::max(l.in.bytes, l.out.bytes);
            if (l.in.ends.back() < both || l.in.pieces(0, both).size() != 1 || l.out.ends.back() < both ||
                l.out.pieces(0, both).size() != 1)
                throw Error(name(i) + ": in place, one chunk must hold both sides' " + std::to_string(both) +
                            " bytes");
            l.in.bytes = l.out.bytes = both;
            l.in_place = true;
        }
        l.plan = make_plan(desc, n.options, fused.callbacks);
        const uint64_t scratch =
            l.plan->scratch_bytes(l.in_place ? Placement::in_place : Placement::out_of_place);
        if (scratch > binding_limit())
            throw UnsupportedError(name(i) + ": its scratch of " + std::to_string(scratch) +
                                   " bytes exceeds the device's storage-buffer range");
        if (scratch) l.scratch = add_transient(scratch);
    } else {
        if (!l.extent.packed)
            throw UnsupportedError(
                name(i) +
                ": chunked arrays (or arrays over the storage-buffer range) need a packed "
                "layout, transforms one after another on both sides; this problem's is not");
        if (!l.extent.dense_output)
            throw UnsupportedError(
                name(i) +
                ": chunked arrays (or arrays over the storage-buffer range) need an output "
                "layout without gaps: blocks are scattered back whole");
        if (overlapping) {
            // In place over chunks: each block goes through scratch and back.
            if (desc.transform() != Transform::c2c || !desc.same_layouts() || l.in.chunks != l.out.chunks)
                throw Error(name(i) +
                            ": the output overlaps the input other than as the same chunks of a c2c "
                            "transform");
            l.in_place = true;
        }
        const uint64_t in_tx = l.extent.in_elements * in_el, out_tx = l.extent.out_elements * out_el;
        const uint64_t batch = desc.batch();
        l.block = block_transforms(s_.caps, batch, std::max(in_tx, out_tx), name(i));
        FftDesc block_desc = desc;
        block_desc.with_batch(l.block);
        l.plan = make_plan(block_desc, n.options);
        uint64_t scratch = l.plan->scratch_bytes(Placement::out_of_place);
        if (batch % l.block) {
            FftDesc rest = desc;
            rest.with_batch(batch % l.block);
            l.rest_plan = make_plan(rest, n.options);
            scratch = std::max(scratch, l.rest_plan->scratch_bytes(Placement::out_of_place));
        }
        if (scratch > binding_limit())
            throw UnsupportedError(name(i) + ": its scratch of " + std::to_string(scratch) +
                                   " bytes exceeds the device's storage-buffer range");
        if (scratch) l.scratch = add_transient(scratch);
        // Staging where some block does not lie in one chunk (or must not be written in place).
        bool gather = false, scatter = l.in_place;
        for (uint64_t b0 = 0; b0 < batch; b0 += l.block) {
            const uint64_t count = std::min(l.block, batch - b0);
            if (!bindable(l.in.pieces(b0 * in_tx, count * in_tx))) gather = true;
            if (!bindable(l.out.pieces(b0 * out_tx, count * out_tx))) scatter = true;
        }
        if (gather) l.stage_in = add_transient(l.block * in_tx);
        if (scatter) l.stage_out = add_transient(l.block * out_tx);
    }
    NodeStats& st = l.stats;
    const LogicalPlan& lp = l.plan->logical();
    st.elements = desc.output_elements();
    st.bytes_read += desc.input_bytes();
    st.bytes_written = desc.output_bytes();
    st.passes = lp.passes.size();
    st.workgroup_size = l.plan->workgroup_size();
    st.scratch_bytes = l.scratch ? resources_[*l.scratch].size : 0;
    add_accesses(l.accesses, l.in, false);
    add_accesses(l.accesses, l.out, true);
    for (auto t : {l.scratch, l.stage_in, l.stage_out})
        if (t) l.accesses.push_back(Access{Piece{*t, 0, resources_[*t].size}, true});
}

// The array a node's fused callbacks read: given exactly when they read one; one chunk within the
// binding range, at an offset the storage-buffer alignment allows, not overlapping the output, and
// holding what the product reads (its period, or every point of the `spectrum_elements` it
// multiplies) and FusedOps::operand_elements.
void Compiler::check_fused_operand(size_t i, uint64_t spectrum_elements) {
    const FusedOps& fused = g_.nodes[i].fused;
    Lowered& l = lowered_[i];
    if (fused.callbacks.operand != fused.operand.has_value())
        throw Error(name(i) + (fused.operand
                                   ? ": an operand view for callbacks that read none"
                                   : ": the callbacks read an operand, but no operand view is given"));
    if (fused.operand) {
        const uint32_t el = data_type_bytes(fused.callbacks.operand_type);
        Array op = resolve(i, "operand", *fused.operand, el, 0);
        const auto chunks = op.pieces(0, op.ends.empty() ? 0 : op.ends.back());
        if (chunks.size() != 1 || chunks[0].second.bytes > binding_limit())
            throw Error(name(i) +
                        ": the fused operand must be one chunk, not empty, within the storage-buffer range");
        const uint64_t align = std::max<uint64_t>(1, s_.caps.min_storage_buffer_offset_alignment);
        if (chunks[0].second.offset % align != 0)
            throw Error(name(i) + ": the fused operand's offset " + std::to_string(chunks[0].second.offset) +
                        " is not a multiple of the device's minStorageBufferOffsetAlignment, " +
                        std::to_string(align));
        op.bytes = op.ends.back();
        const uint64_t need = fused_operand_elements(fused, spectrum_elements);
        if (op.bytes < need * el)
            throw Error(name(i) + ": the fused operand holds " + std::to_string(op.bytes / el) +
                        " elements; the callbacks read " + std::to_string(need));
        if (any_overlap(op, l.out)) throw Error(name(i) + ": the output overlaps the fused operand");
        l.fused_operand = chunks[0].second;
        // What the callbacks read where known, else the whole view (the caller's own code).
        l.stats.bytes_read += need ? need * el : op.bytes;
        add_accesses(l.accesses, op, false);
    }
}

// A convolution node: one plan (plan_convolution) where the problem allows, else the forward
// transform with the product in its stores, a transient spectrum (stage_out) and the inverse.
void Compiler::check_convolution(size_t i) {
    const NodeSpec& n = g_.nodes[i];
    Lowered& l = lowered_[i];
    const FftDesc& desc = *n.desc;
    if (desc.transform() == Transform::c2r)
        throw Error(name(i) +
                    ": takes the forward problem, c2c or r2c (its inverse follows from it), not c2r");
    if (n.fused.callbacks.store.empty() && !n.fused.callbacks.multiply)
        throw Error(name(i) +
                    ": the product between the transforms is the FusedOps' store callback; it is empty");
    const FftDesc inverse = inverse_of(desc);
    const uint32_t complex_el = complex_bytes(desc.precision());
    l.in = resolve(i, "input", n.in, desc.input_element_bytes(), desc.input_bytes());
    l.out = resolve(i, "output", n.out, inverse.output_element_bytes(), inverse.output_bytes());
    no_self_overlap(name(i), l.out);
    for (const Array* a : {&l.in, &l.out}) {
        const auto used = a->used();
        if (used.size() != 1 || used[0].second.offset % complex_el != 0 ||
            used[0].second.bytes > binding_limit())
            throw UnsupportedError(name(i) +
                                   ": a convolution needs its input and output each in one chunk, "
                                   "starting on a complex element, within the storage-buffer range");
    }
    l.direct = true;
    if (any_overlap(l.in, l.out)) {
        const Piece a = l.in.used()[0].second, b = l.out.used()[0].second;
        if (a.resource != b.resource || a.offset != b.offset || !desc.same_layouts())
            throw Error(name(i) +
                        ": input and output overlap without being the same range of a problem laid out "
                        "alike on both sides");
        const uint64_t both = std::max(l.in.bytes, l.out.bytes);
        if (l.in.pieces(0, both).size() != 1)
            throw Error(name(i) + ": in place, one chunk must hold both sides' " + std::to_string(both) +
                        " bytes");
        l.in.bytes = l.out.bytes = both;
        l.in_place = true;
    }
    check_fused_operand(i, desc.output_elements());
    const Placement placement = l.in_place ? Placement::in_place : Placement::out_of_place;
    bool one_plan = true;
    try {
        plan_convolution(desc, s_.caps, n.options);
    } catch (const UnsupportedError&) {
        one_plan = false;
    }
    uint64_t scratch = 0;
    if (one_plan) {
        out_.plans.push_back(
            std::make_unique<Plan>(Plan::convolution(context_, desc, n.options, n.fused.callbacks)));
        l.plan = out_.plans.back().get();
        scratch = l.plan->scratch_bytes(placement);
    } else {
        l.plan = make_plan(desc, n.options, n.fused.callbacks);
        l.inverse_plan = make_plan(inverse, n.options);
        l.stage_out = add_transient(desc.output_bytes());
        scratch = std::max(l.plan->scratch_bytes(Placement::out_of_place),
                           l.inverse_plan->scratch_bytes(Placement::out_of_place));
    }
    if (scratch > binding_limit())
        throw UnsupportedError(name(i) + ": its scratch of " + std::to_string(scratch) +
                               " bytes exceeds the device's storage-buffer range");
    if (scratch) l.scratch = add_transient(scratch);
    NodeStats& st = l.stats;
    st.elements = inverse.output_elements();
    st.bytes_read += desc.input_bytes();
    st.bytes_written = inverse.output_bytes();
    st.passes = l.plan->passes() + (l.inverse_plan ? l.inverse_plan->passes() : 0);
    st.workgroup_size =
        std::max(l.plan->workgroup_size(), l.inverse_plan ? l.inverse_plan->workgroup_size() : 0u);
    st.scratch_bytes = scratch;
    add_accesses(l.accesses, l.in, false);
    add_accesses(l.accesses, l.out, true);
    for (auto t : {l.scratch, l.stage_out})
        if (t) l.accesses.push_back(Access{Piece{*t, 0, resources_[*t].size}, true});
}

// Levels: a node runs one level after the latest earlier node it conflicts with (a write of
// either touching the other's bytes); nodes of one level are independent. A binding starts at
// its view's offset aligned down to minStorageBufferOffsetAlignment (vk::bind), so each range
// counts from there: the bytes a binding covers but the kernel does not touch are still a
// hazard to the synchronization validation layer, and nodes whose bindings share them are
// ordered too.
void Compiler::order() {
    const size_t n = g_.nodes.size();
    const uint64_t align = std::max<uint64_t>(1, s_.caps.min_storage_buffer_offset_alignment);
    const auto bound = [align](Piece p) {
        const uint64_t start = p.offset / align * align;
        return Piece{p.resource, start, p.offset - start + p.bytes};
    };
    level_.assign(n, 0);
    uint32_t levels = 0;
    for (size_t j = 0; j < n; ++j) {
        for (size_t i = 0; i < j; ++i) {
            if (level_[i] + 1 <= level_[j]) continue;
            bool conflict = false;
            for (const Access& a : lowered_[i].accesses) {
                for (const Access& b : lowered_[j].accesses)
                    if ((a.write || b.write) && overlap(bound(a.range), bound(b.range))) {
                        conflict = true;
                        break;
                    }
                if (conflict) break;
            }
            if (conflict) level_[j] = level_[i] + 1;
        }
        levels = std::max(levels, level_[j] + 1);
    }
    out_.levels.assign(levels, {});
    for (size_t j = 0; j < n; ++j) out_.levels[level_[j]].push_back(static_cast<uint32_t>(j));
}

// Each transient takes memory from the first to the last level that touches it; transients whose
// levels do not overlap may share it (a barrier separates every two levels). Largest first, each
// at the lowest offset clear of those already placed whose lifetimes overlap its own.
void Compiler::place_transients() {
    const size_t count = resources_.size();
    std::vector<uint32_t> first(count, UINT32_MAX), last(count, 0);
    for (size_t j = 0; j < lowered_.size(); ++j)
        for (const Access& a : lowered_[j].accesses) {
            first[a.range.resource] = std::min(first[a.range.resource], level_[j]);
            last[a.range.resource] = std::max(last[a.range.resource], level_[j]);
        }
    const uint64_t align =
        std::max<uint64_t>(kTransientAlignment, s_.caps.min_storage_buffer_offset_alignment);
    auto round_up = [&](uint64_t v) { return (v + align - 1) / align * align; };
    std::vector<uint32_t> order;
    for (uint32_t r = 0; r < count; ++r)
        if (!resources_[r].external && first[r] != UINT32_MAX) order.push_back(r);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return resources_[a].size > resources_[b].size; });
    placed_.assign(count, 0);
    std::vector<uint32_t> done;
    uint64_t total = 0, separate = 0;
    for (uint32_t r : order) {
        const uint64_t size = round_up(resources_[r].size);
        separate += size;
        std::vector<std::pair<uint64_t, uint64_t>> busy;  // [begin, end) of overlapping lifetimes
        for (uint32_t d : done)
            if (first[d] <= last[r] && first[r] <= last[d])
                busy.push_back({placed_[d], placed_[d] + round_up(resources_[d].size)});
        std::sort(busy.begin(), busy.end());
        uint64_t at = 0;
        for (const auto& [b, e] : busy) {
            if (at + size <= b) break;
            at = std::max(at, e);
        }
        placed_[r] = at;
        total = std::max(total, at + size);
        done.push_back(r);
    }
    transient_count_ = order.size();
    out_.stats.transient_bytes = separate;
    out_.stats.transient_bytes_aliased = total;
    if (total > 0)
        out_.transient_memory =
            vk::allocate_buffer(s_, total,
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                vk::MemoryKind::device_local);
}

void Compiler::elementwise(std::vector<Command>& cmds, const codegen::ElementwiseKernel& k, const Array& in,
                           const Array& out, const Array* operand, uint64_t count, uint64_t period,
                           double factor) {
    // Runs end where a chunk of any array ends, and within the binding range.
    std::vector<uint64_t> cuts{0, count};
    auto add_cuts = [&](const Array& a) {
        for (uint64_t e : a.ends)
            if (e / a.element < count) cuts.push_back(e / a.element);
    };
    add_cuts(in);
    add_cuts(out);
    if (operand && !period) add_cuts(*operand);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    const uint32_t widest = std::max({in.element, out.element, operand ? operand->element : 1u});
    const uint64_t longest = std::min<uint64_t>(binding_limit() / widest, 0xffffffffull);
    const std::string glsl = codegen::generate_elementwise_kernel(k);
    const Precision precision = precision_of(k.type);
    const uint32_t push_bytes = static_cast<uint32_t>(codegen::pack_elementwise_params(precision, {}).size());
    const vk::ComputeKernel* kern =
        kernel(glsl, "graph-elementwise", codegen::elementwise_bindings(k), push_bytes);
    auto bind_at = [&](const Array& a, uint64_t element, uint64_t elements) {
        const auto p = a.pieces(element * a.element, elements * a.element);
        return vk::bind(s_, view_of(p.front().second), elements * a.element, a.element);
    };
    // The dispatches run without barriers between them, each on its own elements; but a binding
    // starts at its offset aligned down (vk::bind), so where one dispatch's bindings share bytes
    // with an earlier one's and either writes them (the destination, binding 1), a barrier comes
    // between them: the synchronization validation layer reports the shared bytes as a hazard.
    std::vector<std::pair<VkDescriptorBufferInfo, bool>> since_barrier;  // binding, written
    auto add = [&](Dispatch d) {
        const auto shares = [](const VkDescriptorBufferInfo& a, const VkDescriptorBufferInfo& b) {
            return a.buffer == b.buffer && a.offset < b.offset + b.range && b.offset < a.offset + a.range;
        };
        bool conflict = false;
        for (size_t b = 0; b < d.buffers.size() && !conflict; ++b)
            for (const auto& [earlier, written] : since_barrier)
                if ((written || b == 1) && shares(earlier, d.buffers[b])) conflict = true;
        if (conflict) {
            cmds.push_back(Barrier{});
            since_barrier.clear();
        }
        for (size_t b = 0; b < d.buffers.size(); ++b) since_barrier.push_back({d.buffers[b], b == 1});
        cmds.push_back(std::move(d));
    };
    for (size_t c = 0; c + 1 < cuts.size(); ++c)
        for (uint64_t e = cuts[c]; e < cuts[c + 1]; e += longest) {
            const uint64_t len = std::min(longest, cuts[c + 1] - e);
            codegen::ElementwiseParams params;
            const vk::Binding src = bind_at(in, e, len), dst = bind_at(out, e, len);
            params.src_offset = src.element_offset;
            params.dst_offset = dst.element_offset;
            params.count = static_cast<uint32_t>(len);
            params.factor = factor;
            Dispatch d{kern,
                       {src.info, dst.info},
                       {},
                       (len + codegen::kGraphWorkgroup - 1) / codegen::kGraphWorkgroup};
            if (operand) {
                const vk::Binding op =
                    period ? bind_at(*operand, 0, std::min(period, count)) : bind_at(*operand, e, len);
                params.operand_offset = op.element_offset;
                params.phase = period ? static_cast<uint32_t>(e % period) : 0;
                params.period = static_cast<uint32_t>(period);
                d.buffers.push_back(op.info);
            }
            d.push = codegen::pack_elementwise_params(precision, params);
            add(std::move(d));
        }
}

void Compiler::copy_bytes(std::vector<Command>& cmds, const Array& src, uint64_t from, const Array& dst,
                          uint64_t to, uint64_t bytes) {
    // The ranges as arrays of their own, in words.
    auto sub = [](const Array& a, uint64_t begin, uint64_t length) {
        Array s;
        s.element = 4;
        s.bytes = length;
        for (const auto& [pos, piece] : a.pieces(begin, length)) {
            s.chunks.push_back(piece);
            s.ends.push_back(pos - begin + piece.bytes);
        }
        return s;
    };
    codegen::ElementwiseKernel k;
    k.op = codegen::ElementwiseOp::copy;
    elementwise(cmds, k, sub(src, from, bytes), sub(dst, to, bytes), nullptr, bytes / 4, 0, 0);
}

void Compiler::lower(size_t i) {
    const NodeSpec& n = g_.nodes[i];
    Lowered& l = lowered_[i];
    auto& cmds = out_.commands[i];
    switch (n.kind) {
    case NodeKind::fft:
    case NodeKind::convolution: lower_fft(i); return;
    case NodeKind::fftshift:
    case NodeKind::zero_pad:
    case NodeKind::crop: lower_layout(i); return;
    case NodeKind::copy: copy_bytes(cmds, l.in, 0, l.out, 0, l.in.bytes); return;
    default: break;
    }
    codegen::ElementwiseKernel k;
    k.type = n.type;
    switch (n.kind) {
    case NodeKind::multiply:
        k.op = codegen::ElementwiseOp::multiply;
        k.operand_type = n.operand_type;
        k.periodic = n.multiply.operand_period != 0;
        k.conjugate = n.multiply.conjugate && is_complex(n.operand_type);
        break;
    case NodeKind::scale: k.op = codegen::ElementwiseOp::scale; break;
    case NodeKind::magnitude_squared: k.op = codegen::ElementwiseOp::magnitude_squared; break;
    default: k.op = codegen::ElementwiseOp::log_scale; break;
    }
    elementwise(cmds, k, l.in, l.out, n.kind == NodeKind::multiply ? &l.operand : nullptr, n.count,
                n.multiply.operand_period, n.factor);
}

void Compiler::lower_layout(size_t i) {
    const NodeSpec& n = g_.nodes[i];
    Lowered& l = lowered_[i];
    auto& cmds = out_.commands[i];
    const uint32_t el = data_type_bytes(n.type);
    auto whole = [&](uint32_t resource, uint64_t bytes) {
        Array a;
        a.element = el;
        a.bytes = bytes;
        a.chunks = {Piece{resource, 0, bytes}};
        a.ends = {bytes};
        return a;
    };
    const Array src = l.stage_in ? whole(*l.stage_in, l.in.bytes) : l.in;
    const Array dst = l.stage_out ? whole(*l.stage_out, l.out.bytes) : l.out;
    if (l.stage_in) {
        copy_bytes(cmds, l.in, 0, src, 0, l.in.bytes);
        cmds.push_back(Barrier{});
    }
    codegen::LayoutKernel k = n.layout;
    k.element_words = el / 4;
    const std::string glsl = codegen::generate_layout_kernel(k);
    const auto* kern =
        kernel(glsl, "graph-layout", 2, static_cast<uint32_t>(codegen::pack_layout_params(0, 0, 0).size()));
    const vk::Binding a = vk::bind(s_, view_of(src.used()[0].second), src.bytes, 4);
    const vk::Binding b = vk::bind(s_, view_of(dst.used()[0].second), dst.bytes, 4);
    const uint64_t count = dst.bytes / el;
    cmds.push_back(Dispatch{
        kern,
        {a.info, b.info},
        codegen::pack_layout_params(a.element_offset, b.element_offset, static_cast<uint32_t>(count)),
        (count + codegen::kGraphWorkgroup - 1) / codegen::kGraphWorkgroup});
    if (l.stage_out) {
        cmds.push_back(Barrier{});
        copy_bytes(cmds, dst, 0, l.out, 0, l.out.bytes);
    }
}

void Compiler::lower_fft(size_t i) {
    const NodeSpec& n = g_.nodes[i];
    Lowered& l = lowered_[i];
    auto& cmds = out_.commands[i];
    const FftDesc& desc = *n.desc;
    const BufferView scratch =
        l.scratch ? view_of(Piece{*l.scratch, 0, resources_[*l.scratch].size}) : BufferView{};
    if (l.inverse_plan) {
        // A convolution in two plans, through its spectrum.
        const BufferView in = view_of(l.in.used()[0].second), out = view_of(l.out.used()[0].second);
        const BufferView spectrum = view_of(Piece{*l.stage_out, 0, resources_[*l.stage_out].size});
        cmds.push_back(PlanCall{l.plan, in, spectrum, scratch, Direction::forward,
                                l.fused_operand ? view_of(*l.fused_operand) : BufferView{}});
        cmds.push_back(Barrier{});
        cmds.push_back(PlanCall{l.inverse_plan, spectrum, out, scratch, Direction::inverse, BufferView{}});
        return;
    }
    if (l.direct) {
        const BufferView in = view_of(l.in.used()[0].second), out = view_of(l.out.used()[0].second);
        cmds.push_back(PlanCall{l.plan, in, out, scratch, n.direction,
                                l.fused_operand ? view_of(*l.fused_operand) : BufferView{}});
        return;
    }
    const uint64_t in_tx = l.extent.in_elements * desc.input_element_bytes();
    const uint64_t out_tx = l.extent.out_elements * desc.output_element_bytes();
    const uint32_t complex_el = complex_bytes(desc.precision());
    auto one_piece = [&](const Array& a, uint64_t begin, uint64_t bytes) -> std::optional<Piece> {
        const auto p = a.pieces(begin, bytes);
        if (p.size() == 1 && p[0].second.offset % complex_el == 0) return p[0].second;
        return std::nullopt;
    };
    const uint64_t batch = desc.batch();
    for (uint64_t b0 = 0; b0 < batch; b0 += l.block) {
        const uint64_t count = std::min(l.block, batch - b0);
        const Plan* plan = count == l.block ? l.plan : l.rest_plan;
        if (b0 > 0 && !std::holds_alternative<Barrier>(cmds.back())) cmds.push_back(Barrier{});
        BufferView in, out;
        if (auto p = one_piece(l.in, b0 * in_tx, count * in_tx)) {
            in = view_of(*p);
        } else {
            Array stage;
            stage.element = 4;
            stage.bytes = count * in_tx;
            stage.chunks = {Piece{*l.stage_in, 0, stage.bytes}};
            stage.ends = {stage.bytes};
            copy_bytes(cmds, l.in, b0 * in_tx, stage, 0, stage.bytes);
            cmds.push_back(Barrier{});
            in = view_of(stage.chunks[0]);
        }
        std::optional<Piece> direct_out =
            l.in_place ? std::nullopt : one_piece(l.out, b0 * out_tx, count * out_tx);
        const Piece staged{l.stage_out.value_or(0), 0, count * out_tx};
        out = view_of(direct_out ? *direct_out : staged);
        cmds.push_back(PlanCall{plan, in, out, scratch, n.direction, BufferView{}});
        if (!direct_out) {
            cmds.push_back(Barrier{});
            Array stage;
            stage.element = 4;
            stage.bytes = staged.bytes;
            stage.chunks = {staged};
            stage.ends = {staged.bytes};
            copy_bytes(cmds, stage, 0, l.out, b0 * out_tx, staged.bytes);
        }
    }
}

void Compiler::count() {
    GraphStats& st = out_.stats;
    st.levels = out_.levels.size();
    st.barriers = (st.levels ? st.levels - 1 : 0) + (out_.transient_memory ? 1 : 0);
    for (size_t i = 0; i < lowered_.size(); ++i) {
        st.nodes.push_back(lowered_[i].stats);
        for (const Command& c : out_.commands[i]) {
            if (std::holds_alternative<Dispatch>(c)) ++st.dispatches;
            if (std::holds_alternative<Barrier>(c)) ++st.barriers;
            if (const auto* p = std::get_if<PlanCall>(&c)) {
                st.dispatches += p->plan->passes();
                if (p->plan->passes() > 1) st.barriers += p->plan->passes() - 1;
            }
        }
    }
}

}  // namespace

GraphStats Graph::stats() const {
    GraphStats st;
    for (size_t i = 0; i < impl().nodes.size(); ++i) {
        const NodeSpec& n = impl().nodes[i];
        NodeStats ns;
        ns.kind = kind_name(n.kind);
        ns.passes = 1;
        ns.workgroup_size = codegen::kGraphWorkgroup;
        // Planning errors name the node, as compile()'s do.
        naming(node_name(i, n.kind), [&] {
            switch (n.kind) {
            case NodeKind::fft: {
                const LogicalPlan lp = vk::plan_tuned(*impl().state, *n.desc, n.options).plan;
                ns.elements = n.desc->output_elements();
                ns.bytes_read = n.desc->input_bytes() + fused_operand_elements(n.fused, ns.elements) *
                                                            data_type_bytes(n.fused.callbacks.operand_type);
                ns.bytes_written = n.desc->output_bytes();
                ns.passes = lp.passes.size();
                ns.workgroup_size = 0;
                for (const auto& p : lp.passes)
                    ns.workgroup_size = std::max(ns.workgroup_size, p.kernel.workgroup_size);
                ns.scratch_bytes = lp.scratch_bytes(Placement::out_of_place);
                break;
            }
            case NodeKind::convolution: {
                const FftDesc inverse = inverse_of(*n.desc);
                LogicalPlan lp;
                size_t passes = 0;
                try {
                    lp = plan_convolution(*n.desc, impl().state->caps, n.options);
                    passes = lp.passes.size();
                } catch (const UnsupportedError&) {
                    lp = vk::plan_tuned(*impl().state, *n.desc, n.options).plan;
                    passes = lp.passes.size() +
                             vk::plan_tuned(*impl().state, inverse, n.options).plan.passes.size();
                }
                ns.elements = inverse.output_elements();
                ns.bytes_read =
                    n.desc->input_bytes() + fused_operand_elements(n.fused, n.desc->output_elements()) *
                                                data_type_bytes(n.fused.callbacks.operand_type);
                ns.bytes_written = inverse.output_bytes();
                ns.passes = passes;
                ns.workgroup_size = 0;
                for (const auto& p : lp.passes)
                    ns.workgroup_size = std::max(ns.workgroup_size, p.kernel.workgroup_size);
                ns.scratch_bytes = lp.scratch_bytes(Placement::out_of_place);
                break;
            }
            case NodeKind::copy:
                ns.elements = n.count / 4;
                ns.bytes_read = ns.bytes_written = n.count;
                break;
            case NodeKind::fftshift:
            case NodeKind::zero_pad:
            case NodeKind::crop:
                ns.elements = product(n.layout.out_shape);
                ns.bytes_read = product(n.layout.in_shape) * data_type_bytes(n.type);
                ns.bytes_written = ns.elements * data_type_bytes(n.type);
                break;
            default: {
                ns.elements = n.count;
                ns.bytes_read = n.count * data_type_bytes(n.type);
                if (n.kind == NodeKind::multiply) {
                    const uint64_t period = n.multiply.operand_period;
                    ns.bytes_read +=
                        (period ? std::min(period, n.count) : n.count) * data_type_bytes(n.operand_type);
                }
                ns.bytes_written = n.count * data_type_bytes(n.out_type);
            }
            }
        });
        st.nodes.push_back(ns);
    }
    return st;
}

CompiledGraph Graph::compile() const {
    const Impl& graph = impl();
    auto compiled = std::make_unique<CompiledGraph::Impl>();
    compiled->state = graph.state;
    const Context context(graph.state);
    Compiler(context, graph, *compiled).run();
    return CompiledGraph(std::move(compiled));
}

CompiledGraph::CompiledGraph(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledGraph::CompiledGraph(CompiledGraph&&) noexcept = default;
CompiledGraph& CompiledGraph::operator=(CompiledGraph&&) noexcept = default;
CompiledGraph::~CompiledGraph() = default;
CompiledGraph::Impl& CompiledGraph::impl() const { return detail::held(impl_, "CompiledGraph"); }

void CompiledGraph::record(VkCommandBuffer cmd) const {
    if (cmd == VK_NULL_HANDLE) throw Error("CompiledGraph::record: command buffer is null");
    const Impl& g = impl();
    // Transient memory may still be in use by an earlier recording of this graph in the same
    // command buffer or queue: its first writes wait for that.
    if (g.transient_memory) vk::record_compute_barrier(cmd);
    for (size_t level = 0; level < g.levels.size(); ++level) {
        if (level > 0) vk::record_compute_barrier(cmd);
        for (uint32_t node : g.levels[level])
            for (const Command& c : g.commands[node]) {
                if (const auto* d = std::get_if<Dispatch>(&c)) {
                    d->kernel->dispatch(cmd, d->buffers, d->push, d->workgroups);
                } else if (const auto* p = std::get_if<PlanCall>(&c)) {
                    p->plan->record(cmd, p->in, p->out, p->scratch, p->direction, p->operand);
                } else {
                    vk::record_compute_barrier(cmd);
                }
            }
    }
}

void CompiledGraph::execute() const {
    impl().state->submit([&](VkCommandBuffer cmd) {
        vk::record_full_barrier(cmd);
        record(cmd);
        vk::record_full_barrier(cmd);
    });
}

GraphStats CompiledGraph::stats() const { return impl().stats; }

std::vector<std::vector<Node>> CompiledGraph::levels() const {
    std::vector<std::vector<Node>> out;
    for (const auto& level : impl().levels) {
        out.emplace_back();
        for (uint32_t n : level) out.back().push_back(Node{n});
    }
    return out;
}

Support support(const Context& context, const FftDesc& desc, const Options& options) {
    // One buffer per array, holding the array from offset 0 (which buffer does not matter to the
    // limits: a placeholder handle stands for it).
    const VkBuffer placeholder = reinterpret_cast<VkBuffer>(uintptr_t(1));
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    return support(context, desc, {BufferView{placeholder, 0, desc.input_bytes(), storage}},
                   {BufferView{placeholder, 0, desc.output_bytes(), storage}}, options);
}

Support support(const Context& context, const FftDesc& desc, const std::vector<BufferView>& in,
                const std::vector<BufferView>& out, const Options& options) {
    const DeviceCaps& caps = context.caps();
    Support r;
    // Each side's chunks: on element boundaries, with storage access, holding the array; each
    // array in one binding, or the transform in blocks.
    bool direct = true;
    const uint32_t complex_el = complex_bytes(desc.precision());
    for (const bool input : {true, false}) {
        const auto& chunks = input ? in : out;
        const std::string side = input ? "input" : "output";
        const uint32_t el = input ? desc.input_element_bytes() : desc.output_element_bytes();
        const uint64_t need = input ? desc.input_bytes() : desc.output_bytes();
        uint64_t total = 0;
        size_t used = 0;
        bool first_aligned = true;
        for (size_t c = 0; c < chunks.size(); ++c) {
            const BufferView& v = chunks[c];
            if (v.buffer == VK_NULL_HANDLE || !(v.usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) ||
                v.offset % el || v.size % el) {
                r.reason = side + " chunk " + std::to_string(c) +
                           ": no buffer, no storage usage, or not on " + std::to_string(el) +
                           "-byte element boundaries";
                return r;
            }
            if (total < need && v.size > 0) {
                if (used == 0) first_aligned = v.offset % complex_el == 0;
                ++used;
            }
            total += v.size;
        }
        if (total < need) {
            r.reason = side + " chunks hold " + std::to_string(total) + " bytes; the transform needs " +
                       std::to_string(need);
            return r;
        }
        if (used > 1 || !first_aligned || need > binding_limit(caps)) direct = false;
    }
    // The plan of the whole problem, or of a block of it.
    FftDesc planned = desc;
    uint64_t staging = 0;
    if (!direct) {
        const TransformExtent e = transform_extent(desc);
        if (!e.packed || !e.dense_output) {
            r.reason = "chunked arrays (or arrays over the storage-buffer range of " +
                       std::to_string(caps.max_storage_buffer_range) +
                       " bytes) need a packed layout, transforms one after another on both sides, and an "
                       "output without gaps";
            return r;
        }
        const uint64_t in_tx = e.in_elements * desc.input_element_bytes();
        const uint64_t out_tx = e.out_elements * desc.output_element_bytes();
        try {
            r.transforms_per_block = block_transforms(caps, desc.batch(), std::max(in_tx, out_tx), "support");
        } catch (const Error& ex) {
            r.reason = ex.what();
            return r;
        }
        r.blocks = true;
        r.block_count = (desc.batch() + r.transforms_per_block - 1) / r.transforms_per_block;
        planned.with_batch(r.transforms_per_block);
        staging = r.transforms_per_block * (in_tx + out_tx);  // a block's input and output, at most
    }
    LogicalPlan lp;
    Options used = options;  // the tuned ones where the plan takes them
    try {
        vk::TunedPlan tp = vk::plan_tuned(*context.state(), planned, options);
        lp = std::move(tp.plan);
        used = tp.options;
    } catch (const Error& e) {
        r.reason = e.what();
        return r;
    }
    r.summary = lp.summary();
    r.passes = lp.passes.size();
    for (const Pass& p : lp.passes) {
        r.workgroup_size = std::max(r.workgroup_size, p.kernel.workgroup_size);
        r.shared_bytes = std::max(r.shared_bytes, p.kernel.shared_bytes);
    }
    r.scratch_bytes = lp.scratch_bytes(Placement::out_of_place) + staging;
    // Exchanges through shuffles: those between the stages of a kernel with lane swaps that are
    // not remaps through shared memory (counting any whose stage finds its points in registers
    // already, which moves nothing).
    auto shuffled = [](const LogicalPlan& l) {
        uint32_t count = 0;
        for (const Pass& p : l.passes)
            if (!p.kernel.lane_swaps.empty())
                count += static_cast<uint32_t>(p.kernel.stages.size() - 1 - p.kernel.lane_remaps.size());
        return count;
    };
    r.subgroup_stages = shuffled(lp);
    const bool subgroup_ops = std::any_of(lp.passes.begin(), lp.passes.end(), [](const Pass& p) {
        return p.kernel.subgroup_exchanges || p.kernel.split_lanes || p.kernel.join_lanes ||
               !p.kernel.lane_swaps.empty();
    });
    r.strategy = used.strategy == Strategy::dft ? Strategy::dft
                 : r.subgroup_stages            ? Strategy::subgroups
                 : subgroup_ops                 ? Strategy::automatic
                                                : Strategy::portable;
    if (used.strategy == Strategy::subgroups) {
        r.subgroup_eligible_stages = r.subgroup_stages;
    } else if (used.strategy != Strategy::dft) {
        Options with = used;
        with.strategy = Strategy::subgroups;
        try {
            r.subgroup_eligible_stages = shuffled(plan(planned, caps, with));
        } catch (const UnsupportedError&) {
            // no subgroup shuffles on this device: none eligible
        }
    }
    r.supported = true;
    return r;
}

}  // namespace twiddle
