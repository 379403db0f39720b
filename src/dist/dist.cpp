// twiddle::dist: distributed 2D and 3D transforms over MPI (include/twiddle/dist.hpp).
//
// Data flow of a forward transform (an inverse runs it backwards):
//   the rank's in_box --reshape--> layout 0 --local FFT over its axes--> --reshape--> layout 1
//   --local FFT--> ... --reshape--> out_box
// A layout gives every rank a box that holds all of the points along the axes its local transform
// runs over (slabs or pencils). A reshape moves the data between two sets of boxes: each rank
// has its device copy the part of its box every other rank's new box holds, packed, into
// host-visible memory (detail::HostBuffer), MPI_Alltoallv moves it, and the device copies what
// was received into the rank's new box (host_staging.hpp).
#include "twiddle/dist.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <sstream>
#include <tuple>

#include "agreement.hpp"
#include "core/enum_values.hpp"
#include "core/moved_from.hpp"
#include "host_staging.hpp"
#include "twiddle/error.hpp"

namespace twiddle::detail {

template <>
struct EnumValues<dist::Decomposition> {
    static constexpr std::string_view name = "Decomposition";
    static constexpr std::array values{dist::Decomposition::automatic, dist::Decomposition::slab,
                                       dist::Decomposition::pencil};
};
template <>
struct EnumValues<dist::OutputLayout> {
    static constexpr std::string_view name = "OutputLayout";
    static constexpr std::array values{dist::OutputLayout::natural, dist::OutputLayout::transposed};
};

}  // namespace twiddle::detail

namespace twiddle::dist {

namespace {

constexpr int kMaxDims = 3;

int64_t as_signed(uint64_t v) { return static_cast<int64_t>(v); }

// Sizes MPI counts in int: a reshape's counts are elements, each a contiguous datatype.
int checked_count(uint64_t n) {
    if (n > static_cast<uint64_t>(std::numeric_limits<int>::max()))
        throw UnsupportedError("dist: a rank's share of an exchange (" + std::to_string(n) +
                               " elements) exceeds MPI's int counts");
    return static_cast<int>(n);
}

// The index of `axis` (negative from the end) among `dims` axes, or -1.
int resolve_axis(int axis, size_t dims) {
    const int d = static_cast<int>(dims);
    const int a = axis < 0 ? axis + d : axis;
    return a >= 0 && a < d ? a : -1;
}

// Part k of n of the range [0, extent): [k * extent / n, (k + 1) * extent / n).
std::pair<int64_t, int64_t> part(uint64_t extent, int k, int n) {
    return {as_signed(extent * k / n), as_signed(extent * (k + 1) / n)};
}

// The boxes of one layout for every rank, and the axes its local transform runs over.
struct Layout {
    std::vector<Box> boxes;  // per rank, over the grid the layout's data lives on
    std::vector<int> axes;
};

// One reshape: every rank's box before and after (over the same grid), and this rank's index.
// Run backwards (an inverse transform), the boxes swap roles.
struct Reshape {
    std::vector<Box> from, to;
    int me = 0;
    size_t element_bytes = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;  // one element
    bool moves = false;                     // whether any rank's box changes (every rank sees all)
};

Reshape make_reshape(const std::vector<Box>& from, const std::vector<Box>& to, int me, size_t element_bytes,
                     MPI_Datatype type) {
    Reshape r{from, to, me, element_bytes, type, false};
    for (size_t q = 0; q < from.size(); ++q) r.moves = r.moves || !(from[q] == to[q]);
    return r;  // (MPI's int counts are checked per chunk, where the plan sizes its slots)
}

// Part c of `chunks` of `box` along its axis 0 (empty where the box has fewer planes).
Box chunk_of(const Box& box, uint32_t c, uint32_t chunks) {
    if (box.empty()) return box;
    Box b = box;
    const uint64_t planes = box.shape()[0];
    b.low[0] = box.low[0] + as_signed(planes * c / chunks);
    b.high[0] = box.low[0] + as_signed(planes * (c + 1) / chunks);
    return b;
}

// The fixed-size record each rank contributes to the plan's agreement check.
struct PlanRecord {
    int32_t dims;
    int32_t transform, precision, normalization, decomposition, output;
    uint32_t chunks;
    int32_t has_out;
    uint64_t shape[kMaxDims];
    int64_t in_low[kMaxDims], in_high[kMaxDims], out_low[kMaxDims], out_high[kMaxDims];
    int32_t in_low_size, in_high_size, out_low_size, out_high_size;  // the boxes' own axes
};

// Whether `boxes` lie inside `shape` and cover it exactly once; else why not.
std::string check_cover(const std::vector<Box>& boxes, const std::vector<uint64_t>& shape,
                        const char* which) {
    const Box all = whole(shape);
    uint64_t total = 0;
    for (size_t r = 0; r < boxes.size(); ++r) {
        const Box& b = boxes[r];
        if (b.rank() != shape.size())
            return std::string("rank ") + std::to_string(r) + "'s " + which + " box has " +
                   std::to_string(b.rank()) + " axes, the grid " + std::to_string(shape.size());
        if (!b.empty() && !(b.intersect(all) == b))
            return std::string("rank ") + std::to_string(r) + "'s " + which + " box " + b.str() +
                   " lies outside the grid " + all.str();
        total += b.count();
    }
    for (size_t r = 0; r < boxes.size(); ++r)
        for (size_t q = r + 1; q < boxes.size(); ++q)
            if (!boxes[r].intersect(boxes[q]).empty())
                return std::string("the ") + which + " boxes of ranks " + std::to_string(r) + " and " +
                       std::to_string(q) + " overlap (" + boxes[r].str() + ", " + boxes[q].str() + ")";
    if (total != all.count())
        return std::string("the ") + which + " boxes hold " + std::to_string(total) + " of the grid's " +
               std::to_string(all.count()) + " elements";
    return "";
}

// A box as recorded, or nullopt where it was not one of up to kMaxDims axes with as many
// highs as lows.
std::optional<Box> box_of(int32_t low_size, int32_t high_size, const int64_t* low, const int64_t* high) {
    if (low_size != high_size || low_size < 0 || low_size > kMaxDims) return std::nullopt;
    Box b;
    for (int32_t k = 0; k < low_size; ++k) {
        b.low.push_back(low[k]);
        b.high.push_back(high[k]);
    }
    return b;
}

// Records `box` into low, high and their sizes (at most kMaxDims axes kept; the sizes tell).
void record_box(const Box& box, int32_t& low_size, int32_t& high_size, int64_t* low, int64_t* high) {
    low_size = static_cast<int32_t>(box.low.size());
    high_size = static_cast<int32_t>(box.high.size());
    for (size_t k = 0; k < std::min<size_t>(box.low.size(), kMaxDims); ++k) low[k] = box.low[k];
    for (size_t k = 0; k < std::min<size_t>(box.high.size(), kMaxDims); ++k) high[k] = box.high[k];
}

double now() { return MPI_Wtime(); }

// Throws on every rank of `comm` where some rank failed a step (`why` not empty), with the first
// failing rank's reason (detail::first_failure). Collective.
void agree(MPI_Comm comm, const std::string& why, const std::string& what) {
    if (const std::string failure = detail::first_failure(comm, why); !failure.empty())
        throw Error(what + ": " + failure);
}

// Runs `step` and returns its exception's message, or "" where it succeeded.
template <typename F>
std::string attempt(F&& step) {
    try {
        step();
    } catch (const std::exception& e) {
        return *e.what() ? e.what() : "an error without a message";
    } catch (...) {
        return "an exception that is not a std::exception";
    }
    return "";
}

}  // namespace

std::vector<uint64_t> Box::shape() const {
    std::vector<uint64_t> s(low.size());
    for (size_t k = 0; k < low.size(); ++k)
        s[k] = high[k] > low[k] ? static_cast<uint64_t>(high[k] - low[k]) : 0;
    return s;
}

uint64_t Box::count() const {
    if (low.empty()) return 0;
    uint64_t n = 1;
    for (uint64_t e : shape()) n *= e;
    return n;
}

Box Box::intersect(const Box& other) const {
    Box b;
    for (size_t k = 0; k < std::min(rank(), other.rank()); ++k) {
        b.low.push_back(std::max(low[k], other.low[k]));
        b.high.push_back(std::min(high[k], other.high[k]));
    }
    return b;
}

std::string Box::str() const {
    std::string s;
    for (size_t k = 0; k < low.size(); ++k)
        s += (k ? "x[" : "[") + std::to_string(low[k]) + "," + std::to_string(high[k]) + ")";
    return s.empty() ? "[]" : s;
}

Box whole(const std::vector<uint64_t>& shape) {
    Box b;
    for (uint64_t n : shape) {
        b.low.push_back(0);
        b.high.push_back(as_signed(n));
    }
    return b;
}

std::vector<Box> slab_boxes(const std::vector<uint64_t>& shape, int ranks, int axis) {
    const int a = resolve_axis(axis, shape.size());
    if (a < 0) throw Error("slab_boxes: axis " + std::to_string(axis) + " is out of range");
    if (ranks < 1) throw Error("slab_boxes: ranks must be at least 1, not " + std::to_string(ranks));
    std::vector<Box> boxes(ranks, whole(shape));
    for (int r = 0; r < ranks; ++r) std::tie(boxes[r].low[a], boxes[r].high[a]) = part(shape[a], r, ranks);
    return boxes;
}

std::vector<Box> pencil_boxes(const std::vector<uint64_t>& shape, std::array<int, 2> grid, int axis) {
    if (shape.size() != 3) throw Error("pencil_boxes: pencils need a 3D shape");
    const int a = resolve_axis(axis, shape.size());
    if (a < 0) throw Error("pencil_boxes: axis " + std::to_string(axis) + " is out of range");
    if (grid[0] < 1 || grid[1] < 1)
        throw Error("pencil_boxes: the process grid needs at least one rank each way");
    std::array<int, 2> split{};
    for (int k = 0, j = 0; k < 3; ++k)
        if (k != a) split[j++] = k;
    std::vector<Box> boxes;
    for (int r0 = 0; r0 < grid[0]; ++r0)
        for (int r1 = 0; r1 < grid[1]; ++r1) {
            Box b = whole(shape);
            std::tie(b.low[split[0]], b.high[split[0]]) = part(shape[split[0]], r0, grid[0]);
            std::tie(b.low[split[1]], b.high[split[1]]) = part(shape[split[1]], r1, grid[1]);
            boxes.push_back(b);
        }
    return boxes;
}

std::array<int, 2> process_grid(int ranks) {
    if (ranks < 1) throw Error("process_grid: ranks must be at least 1, not " + std::to_string(ranks));
    int a = 1;
    for (int f = 1; f * f <= ranks; ++f)
        if (ranks % f == 0) a = f;
    return {a, ranks / a};
}

const char* to_string(Decomposition d) {
    switch (d) {
    case Decomposition::automatic: return "automatic";
    case Decomposition::slab: return "slab";
    case Decomposition::pencil: return "pencil";
    }
    return "?";
}

const char* to_string(OutputLayout l) {
    switch (l) {
    case OutputLayout::natural: return "natural";
    case OutputLayout::transposed: return "transposed";
    }
    return "?";
}

std::vector<uint64_t> DistDesc::complex_shape() const {
    std::vector<uint64_t> s = shape;
    if (transform == Transform::r2c && !s.empty()) s.back() = s.back() / 2 + 1;
    return s;
}

Context local_context(MPI_Comm comm, ContextOptions options) {
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int local = 0;
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    const char* env = std::getenv("TWIDDLE_DEVICE");
    if (options.device.empty() && !(env && *env)) {
        // The kind of device the default choice takes (discrete, else integrated, else any),
        // dealt out round-robin.
        const std::vector<DeviceCaps> devices = Context::list_devices();
        std::vector<size_t> pick;
        for (DeviceType kind : {DeviceType::discrete_gpu, DeviceType::integrated_gpu}) {
            for (size_t i = 0; i < devices.size(); ++i)
                if (devices[i].type == kind) pick.push_back(i);
            if (!pick.empty()) break;
        }
        if (pick.empty())
            for (size_t i = 0; i < devices.size(); ++i) pick.push_back(i);
        if (!pick.empty()) options.device = std::to_string(pick[static_cast<size_t>(local) % pick.size()]);
    }
    return Context(options);
}

struct DistPlan::Impl {
    MPI_Comm comm = MPI_COMM_NULL;     // a duplicate, owned
    VkDevice device = VK_NULL_HANDLE;  // the context's: execute() takes buffers of it only
    int me = 0, ranks = 1;
    DistDesc desc;
    DistOptions options;
    Decomposition decomposition = Decomposition::slab;
    Box in_box, out_box;
    size_t real_bytes = 0, complex_bytes = 0;
    MPI_Datatype real_type = MPI_DATATYPE_NULL, complex_type = MPI_DATATYPE_NULL;

    std::vector<Layout> layouts;  // in forward order; layout 0 over the signal's grid for r2c
    // A stage's local transforms on this rank, over pieces of its box of at most
    // DistOptions::max_piece_bytes (or the device's maxStorageBufferRange) on either side, cut
    // along the first axis the stage does not transform. Cut along axis 0, each piece is a run
    // of the box, transformed where it lies; else the device gathers each into `scratch`,
    // transforms it there and scatters it into the stage's output.
    struct Piece {
        size_t plan = 0;                               // of the stage's plans
        Box box;                                       // of the stage's box (signal side)
        uint64_t signal_at = 0, signal_bytes = 0;      // a run: where it lies forward, in and
        uint64_t spectrum_at = 0, spectrum_bytes = 0;  // out
    };
    struct Stage {
        Box box;                                 // this rank's (forward input; c2c both sides)
        bool runs = true;                        // pieces are runs (or there is one piece)
        std::vector<Plan> plans, inverse_plans;  // forward; for r2c's stage 0, the c2r plans alike
        std::vector<Piece> pieces;               // none where the rank's box is empty
    };
    std::vector<Stage> stages;      // per layout
    std::optional<Buffer> scratch;  // the largest gathered piece, where a stage gathers
    Reshape into_first;             // in_box -> layout 0 (signal grid)
    std::vector<Reshape> between;   // stage s's output -> layout s + 1 (spectrum grid)
    Reshape onto_out;               // the last layout -> out_box (spectrum grid)
    mutable std::optional<Buffer> work[2];
    uint64_t work_bytes = 0;
    // The exchanges' host side (reshape()): two slots each way, of the largest chunk any of the
    // plan's reshapes sends or receives, and the device copies (slots 0-1 pack, 2-3 unpack).
    // None where no reshape moves anything.
    detail::HostBuffer send[2], recv[2];
    mutable std::optional<detail::Copier> copier;
    mutable DistTiming timing;

    std::vector<const Reshape*> reshapes() const {
        std::vector<const Reshape*> all = {&into_first, &onto_out};
        for (const Reshape& r : between) all.push_back(&r);
        return all;
    }

    ~Impl() {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (finalized) return;  // MPI took its handles with it
        if (real_type != MPI_DATATYPE_NULL) MPI_Type_free(&real_type);
        if (complex_type != MPI_DATATYPE_NULL) MPI_Type_free(&complex_type);
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    }

    // Moves this rank's data from `src` (its box of r.from, or of r.to when backward) to `dst`.
    // The exchange runs in chunks (DistOptions::chunks, every rank's box cut alike along its axis
    // 0), each through a pair of the plan's host-visible slots: the device copies chunk c's runs
    // into send slot c % 2, packed by destination rank; MPI_Alltoallv moves them from there to
    // receive slot c % 2; the device copies them from there into dst. The device's copies of
    // chunks c + 1 (packing) and c - 1 (unpacking) run while MPI moves chunk c.
    void reshape(const Reshape& r, bool backward, const Buffer& src, Buffer& dst) const {
        const std::vector<Box>& from = backward ? r.to : r.from;
        const std::vector<Box>& to = backward ? r.from : r.to;
        const Box &mine_from = from[r.me], &mine_to = to[r.me];
        const size_t e = r.element_bytes;
        const std::vector<Chunk> plan = chunk_plan(r, backward);
        const auto chunks = static_cast<uint32_t>(plan.size());
        std::vector<VkBufferCopy> regions;
        // Where a step fails on some rank, every rank throws with copies still queued that read
        // src and write dst: they finish before the caller may free either.
        struct Drain {
            detail::Copier& copier;
            ~Drain() {
                for (uint32_t slot = 0; slot < 4; ++slot) try {
                        copier.wait(slot);
                    } catch (...) {  // a lost device: nothing is running any more
                    }
            }
        } drain{*copier};
        auto pack = [&](uint32_t c) {  // queue chunk c's runs from the box into send slot c % 2
            regions.clear();
            for (int q = 0; q < ranks; ++q)
                detail::append_copies(regions, plan[c].send[q], mine_from, 0, plan[c].send[q],
                                      uint64_t(plan[c].send_displs[q]) * e, e);
            copier->submit(c % 2, src.handle(), send[c % 2].handle(), regions);
        };
        auto unpack = [&](uint32_t c) {  // queue chunk c's runs from receive slot c % 2 into the box
            regions.clear();
            for (int q = 0; q < ranks; ++q)
                detail::append_copies(regions, plan[c].recv[q], plan[c].recv[q],
                                      uint64_t(plan[c].recv_displs[q]) * e, mine_to, 0, e);
            copier->submit(2 + c % 2, recv[c % 2].handle(), dst.handle(), regions);
        };
        double busy = 0, in_mpi = 0;  // seconds queueing and awaiting the device's copies; in MPI
        const double device_before = copier->device_seconds();
        auto timed = [&](auto&& step) {
            return attempt([&] {
                const double t = now();
                step();
                busy += now() - t;
            });
        };
        agree(comm, timed([&] {
                  for (uint32_t c = 0; c < std::min<uint32_t>(chunks, 2); ++c) pack(c);
              }),
              "DistPlan::execute");
        for (uint32_t c = 0; c < chunks; ++c) {
            // Chunk c packed, and receive slot c % 2 free (chunk c - 2 unpacked).
            agree(comm, timed([&] {
                      copier->wait(c % 2);
                      copier->wait(2 + c % 2);
                  }),
                  "DistPlan::execute");
            const double t = now();
            const int mpi = MPI_Alltoallv(
                send[c % 2].data(), plan[c].send_counts.data(), plan[c].send_displs.data(), r.type,
                recv[c % 2].data(), plan[c].recv_counts.data(), plan[c].recv_displs.data(), r.type, comm);
            in_mpi += now() - t;
            // (Under MPI_ERRORS_RETURN a failed all-to-all returns here, on some ranks or all.)
            agree(
                comm,
                mpi != MPI_SUCCESS ? "MPI_Alltoallv failed (error " + std::to_string(mpi) + ")" : timed([&] {
                    unpack(c);
                    if (c + 2 < chunks) pack(c + 2);  // send slot c % 2 is free again
                }),
                "DistPlan::execute");
        }
        agree(comm, timed([&] {
                  for (uint32_t slot = 0; slot < 4; ++slot) copier->wait(slot);
              }),
              "DistPlan::execute");
        timing.staging_wait += busy;
        timing.staging += copier->timed() ? copier->device_seconds() - device_before : busy;
        timing.alltoall += in_mpi;
    }

    // Per chunk of a reshape (run backwards where `backward`) and rank: the regions this rank
    // sends and receives, their counts and displacements in elements from the chunk's slot.
    struct Chunk {
        std::vector<Box> send, recv;
        std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
        uint64_t send_total = 0, recv_total = 0;  // elements
    };
    std::vector<Chunk> chunk_plan(const Reshape& r, bool backward) const {
        const std::vector<Box>& from = backward ? r.to : r.from;
        const std::vector<Box>& to = backward ? r.from : r.to;
        const uint32_t chunks = std::max<uint32_t>(options.chunks, 1);
        std::vector<Chunk> plan(chunks);
        for (uint32_t c = 0; c < chunks; ++c) {
            Chunk& k = plan[c];
            for (int q = 0; q < ranks; ++q) {
                k.send.push_back(chunk_of(from[r.me], c, chunks).intersect(to[q]));
                k.recv.push_back(chunk_of(from[q], c, chunks).intersect(to[r.me]));
                k.send_displs.push_back(checked_count(k.send_total));
                k.recv_displs.push_back(checked_count(k.recv_total));
                k.send_counts.push_back(checked_count(k.send.back().count()));
                k.recv_counts.push_back(checked_count(k.recv.back().count()));
                k.send_total += k.send.back().count();
                k.recv_total += k.recv.back().count();
            }
        }
        return plan;
    }
};

DistPlan::DistPlan(const Context& context, MPI_Comm comm, const DistDesc& desc, const Box& in_box,
                   std::optional<Box> out_box, const DistOptions& options)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    MPI_Comm_dup(comm, &m.comm);
    MPI_Comm_rank(m.comm, &m.me);
    MPI_Comm_size(m.comm, &m.ranks);
    m.desc = desc;
    m.options = options;

    // Every rank's view of the problem, gathered before anything is checked, so that every rank
    // reaches the same verdict from the same data and none is left waiting.
    PlanRecord mine{};
    mine.dims = static_cast<int32_t>(desc.shape.size());
    mine.transform = static_cast<int32_t>(desc.transform);
    mine.precision = static_cast<int32_t>(desc.precision);
    mine.normalization = static_cast<int32_t>(desc.normalization);
    mine.decomposition = static_cast<int32_t>(options.decomposition);
    mine.output = static_cast<int32_t>(options.output);
    mine.chunks = options.chunks;
    mine.has_out = out_box.has_value();
    for (size_t k = 0; k < std::min<size_t>(desc.shape.size(), kMaxDims); ++k) mine.shape[k] = desc.shape[k];
    record_box(in_box, mine.in_low_size, mine.in_high_size, mine.in_low, mine.in_high);
    if (out_box) record_box(*out_box, mine.out_low_size, mine.out_high_size, mine.out_low, mine.out_high);
    std::vector<PlanRecord> all(m.ranks);
    MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, m.comm);

    auto fail = [&](const std::string& why) { throw Error("DistPlan: " + why); };
    const PlanRecord& first = all[0];
    for (int r = 1; r < m.ranks; ++r) {
        const PlanRecord& o = all[r];
        const bool same = o.dims == first.dims && o.transform == first.transform &&
                          o.precision == first.precision && o.normalization == first.normalization &&
                          o.decomposition == first.decomposition && o.output == first.output &&
                          o.chunks == first.chunks && o.has_out == first.has_out &&
                          std::equal(o.shape, o.shape + kMaxDims, first.shape);
        if (!same) fail("rank " + std::to_string(r) + " disagrees with rank 0 on the problem or the options");
    }
    // Checks every rank makes alike (the desc and options are the same everywhere by now).
    twiddle::detail::checked(desc.transform, "DistPlan: DistDesc.transform");
    twiddle::detail::checked(desc.precision, "DistPlan: DistDesc.precision");
    twiddle::detail::checked(desc.normalization, "DistPlan: DistDesc.normalization");
    twiddle::detail::checked(options.decomposition, "DistPlan: DistOptions.decomposition");
    twiddle::detail::checked(options.output, "DistPlan: DistOptions.output");
    if (desc.shape.size() != 2 && desc.shape.size() != 3)
        fail("a distributed grid has 2 or 3 axes, not " + std::to_string(desc.shape.size()));
    uint64_t elements = 1;
    for (uint64_t n : desc.shape) {
        if (n == 0) fail("the grid has an axis of extent 0");
        // Room for 16-byte elements, as FftDesc leaves, so that no size computed below overflows.
        if (n > std::numeric_limits<uint64_t>::max() / 16 / elements)
            fail("the grid's extent " + std::to_string(n) + " makes more elements than 2^60");
        elements *= n;
    }
    if (desc.transform == Transform::c2r)
        fail("Transform::c2r: an r2c plan runs both ways (inverse: irfftn)");
    if (options.output == OutputLayout::transposed && mine.has_out)
        fail("a transposed output lands in the plan's own boxes: leave out_box out");
    const size_t dims = desc.shape.size();
    const std::vector<uint64_t> signal = desc.shape, spectrum = desc.complex_shape();
    std::vector<Box> in_boxes, out_boxes;
    auto gather_boxes = [&](bool out, std::vector<Box>& boxes) {
        for (int r = 0; r < m.ranks; ++r) {
            const PlanRecord& o = all[r];
            const std::optional<Box> b = out ? box_of(o.out_low_size, o.out_high_size, o.out_low, o.out_high)
                                             : box_of(o.in_low_size, o.in_high_size, o.in_low, o.in_high);
            if (!b || b->rank() != dims)
                fail("rank " + std::to_string(r) + "'s " + (out ? "output" : "input") +
                     " box does not have " + std::to_string(dims) + " lows and " + std::to_string(dims) +
                     " highs");
            boxes.push_back(*b);
        }
        if (std::string why = check_cover(boxes, out ? spectrum : signal, out ? "output" : "input");
            !why.empty())
            fail(why);
    };
    gather_boxes(false, in_boxes);
    if (mine.has_out) gather_boxes(true, out_boxes);

    // The decomposition, and its layouts.
    m.decomposition = options.decomposition;
    if (m.decomposition == Decomposition::automatic)
        m.decomposition = dims == 2 || (uint64_t(m.ranks) <= signal[0] && uint64_t(m.ranks) <= signal[1])
                              ? Decomposition::slab
                              : Decomposition::pencil;
    if (m.decomposition == Decomposition::pencil && dims != 3) fail("pencils need a 3D grid");
    if (m.decomposition == Decomposition::slab) {
        std::vector<int> rows(dims - 1);
        std::iota(rows.begin(), rows.end(), 1);
        m.layouts.push_back({slab_boxes(signal, m.ranks, 0), rows});
        m.layouts.push_back({slab_boxes(spectrum, m.ranks, 1), {0}});
    } else {
        const std::array<int, 2> grid = process_grid(m.ranks);
        m.layouts.push_back({pencil_boxes(signal, grid, 2), {2}});
        m.layouts.push_back({pencil_boxes(spectrum, grid, 1), {1}});
        m.layouts.push_back({pencil_boxes(spectrum, grid, 0), {0}});
    }
    // Layout 0's boxes hold all of the last axis, so on the spectrum grid they are the same boxes
    // with that axis cut to its extent there.
    std::vector<Box> first_out = m.layouts[0].boxes;
    for (Box& b : first_out)
        if (!b.empty()) b.high.back() = as_signed(spectrum.back());
    if (options.output == OutputLayout::transposed) {
        out_boxes = m.layouts.back().boxes;
    } else if (!mine.has_out) {
        // The default: each rank's input box, cut like layout 0's where the grids differ.
        for (int r = 0; r < m.ranks; ++r) {
            Box b = in_boxes[r];
            if (spectrum.back() != signal.back() && !b.empty()) {
                if (b.low.back() != 0 || uint64_t(b.high.back()) != signal.back())
                    fail("rank " + std::to_string(r) + "'s input box " + b.str() +
                         " does not hold all of the last axis: give the output boxes");
                b.high.back() = as_signed(spectrum.back());
            }
            out_boxes.push_back(b);
        }
    }
    m.in_box = in_boxes[m.me];
    m.out_box = out_boxes[m.me];

    m.real_bytes = real_bytes(desc.precision);
    m.complex_bytes = complex_bytes(desc.precision);
    MPI_Type_contiguous(static_cast<int>(m.real_bytes), MPI_BYTE, &m.real_type);
    MPI_Type_commit(&m.real_type);
    MPI_Type_contiguous(static_cast<int>(m.complex_bytes), MPI_BYTE, &m.complex_type);
    MPI_Type_commit(&m.complex_type);
    const bool real = desc.transform == Transform::r2c;
    // The exchanges, the local transforms over the stage's axes of the rank's box (a packed
    // C-order array), and the work buffers. Agreed like the boxes: a rank that cannot make its
    // part fails them all.
    const std::string why = attempt([&] {
        m.into_first = make_reshape(in_boxes, m.layouts[0].boxes, m.me, real ? m.real_bytes : m.complex_bytes,
                                    real ? m.real_type : m.complex_type);
        for (size_t s = 0; s + 1 < m.layouts.size(); ++s)
            m.between.push_back(make_reshape(s == 0 ? first_out : m.layouts[s].boxes, m.layouts[s + 1].boxes,
                                             m.me, m.complex_bytes, m.complex_type));
        m.onto_out = make_reshape(m.layouts.back().boxes, out_boxes, m.me, m.complex_bytes, m.complex_type);

        m.device = context.device();
        const uint64_t limit =
            options.max_piece_bytes > 0
                ? std::min<uint64_t>(options.max_piece_bytes, context.caps().max_storage_buffer_range)
                : context.caps().max_storage_buffer_range;
        uint64_t scratch_bytes = 0;
        for (size_t s = 0; s < m.layouts.size(); ++s) {
            Impl::Stage& stage = m.stages.emplace_back();
            const Box& b = m.layouts[s].boxes[m.me];
            if (b.empty()) continue;
            stage.box = b;
            const bool real_stage = s == 0 && real;
            const uint64_t signal_bytes = b.count() * (real_stage ? m.real_bytes : m.complex_bytes),
                           spectrum_bytes = (s == 0 ? first_out[m.me] : b).count() * m.complex_bytes;
            m.work_bytes = std::max({m.work_bytes, signal_bytes, spectrum_bytes});
            // Pieces along the first axis the stage does not transform (the halved axis of r2c,
            // the last, is transformed), of as many of its planes as the limit allows.
            const std::vector<int>& axes = m.layouts[s].axes;
            int split = 0;
            while (std::find(axes.begin(), axes.end(), split) != axes.end()) ++split;
            const uint64_t planes = b.shape()[split];
            const uint64_t plane_signal = signal_bytes / planes, plane_spectrum = spectrum_bytes / planes;
            // Pieces of whole steps of planes, so that each starts on a complex element, as a
            // plan's arrays do: two planes where a plane holds an odd number of reals.
            const uint64_t step = plane_signal % m.complex_bytes == 0 ? 1 : 2;
            const uint64_t steps = (planes + step - 1) / step;
            const uint64_t per_piece =
                std::max<uint64_t>(limit / (step * std::max(plane_signal, plane_spectrum)), 1);
            const uint64_t pieces =
                std::max(signal_bytes, spectrum_bytes) > limit ? (steps + per_piece - 1) / per_piece : 1;
            stage.runs = split == 0 || pieces == 1;
            std::vector<uint64_t> plan_planes;  // the planes of each plan's pieces
            for (uint64_t j = 0; j < pieces; ++j) {
                const uint64_t low = std::min(planes, steps * j / pieces * step);
                const uint64_t n = std::min(planes, steps * (j + 1) / pieces * step) - low;
                Impl::Piece piece{
                    0, b, low * plane_signal, n * plane_signal, low * plane_spectrum, n * plane_spectrum};
                piece.box.low[split] = b.low[split] + as_signed(low);
                piece.box.high[split] = piece.box.low[split] + as_signed(n);
                auto found = std::find(plan_planes.begin(), plan_planes.end(), n);
                if (found == plan_planes.end()) {
                    auto local = [&](FftDesc d) {
                        return d.with_precision(desc.precision).with_normalization(desc.normalization);
                    };
                    const std::vector<uint64_t> shape = piece.box.shape();
                    if (real_stage) {
                        stage.plans.emplace_back(context, local(FftDesc::r2c_nd(shape, axes)), options.local);
                        stage.inverse_plans.emplace_back(context, local(FftDesc::c2r_nd(shape, axes)),
                                                         options.local);
                    } else {
                        stage.plans.emplace_back(context, local(FftDesc::nd(shape, axes)), options.local);
                    }
                    plan_planes.push_back(n);
                    found = plan_planes.end() - 1;
                }
                piece.plan = static_cast<size_t>(found - plan_planes.begin());
                stage.pieces.push_back(piece);
                // Gathered pieces are of a stage along axis 0, never r2c's stage 0: c2c, in place.
                if (!stage.runs) scratch_bytes = std::max(scratch_bytes, n * plane_signal);
            }
        }
        if (scratch_bytes > 0) m.scratch.emplace(context, scratch_bytes);
        // (At least a word each: a rank whose boxes are all empty still passes them around.)
        for (auto& w : m.work) w.emplace(context, std::max<uint64_t>(m.work_bytes, 16));
        // The host side of the exchanges, so that execute() allocates no buffer: slots of the
        // largest chunk sent and received, either way.
        uint64_t most_sent = 0, most_received = 0;
        bool moves = false;
        for (const Reshape* r : m.reshapes()) {
            if (!r->moves) continue;
            moves = true;
            for (bool backward : {false, true})
                for (const Impl::Chunk& k : m.chunk_plan(*r, backward)) {
                    most_sent = std::max(most_sent, k.send_total * r->element_bytes);
                    most_received = std::max(most_received, k.recv_total * r->element_bytes);
                }
        }
        if (moves) {
            for (auto& b : m.send) b = detail::HostBuffer(context, most_sent);
            for (auto& b : m.recv) b = detail::HostBuffer(context, most_received);
        }
        if (moves || m.scratch) m.copier.emplace(context, 4);
    });
    agree(m.comm, why, "DistPlan");
}

DistPlan::DistPlan(DistPlan&&) noexcept = default;
DistPlan& DistPlan::operator=(DistPlan&&) noexcept = default;
DistPlan::~DistPlan() = default;
DistPlan::Impl& DistPlan::impl() const { return twiddle::detail::held(impl_, "dist::DistPlan"); }

const DistDesc& DistPlan::desc() const { return impl().desc; }
Decomposition DistPlan::decomposition() const { return impl().decomposition; }
const Box& DistPlan::in_box() const { return impl().in_box; }
const Box& DistPlan::out_box() const { return impl().out_box; }
uint64_t DistPlan::in_bytes() const {
    return impl().in_box.count() *
           (impl().desc.transform == Transform::r2c ? impl().real_bytes : impl().complex_bytes);
}
uint64_t DistPlan::out_bytes() const { return impl().out_box.count() * impl().complex_bytes; }
const DistTiming& DistPlan::last_timing() const { return impl().timing; }
size_t DistPlan::exchanges() const {
    const std::vector<const Reshape*> all = impl().reshapes();
    return static_cast<size_t>(
        std::count_if(all.begin(), all.end(), [](const Reshape* r) { return r->moves; }));
}

void DistPlan::execute(const Buffer& in, Buffer& out, Direction direction) const {
    const Impl& m = impl();
    const bool forward = direction == Direction::forward;
    const uint64_t need_in = forward ? in_bytes() : out_bytes(),
                   need_out = forward ? out_bytes() : in_bytes();
    // Every step is agreed (agree()), so that one rank's failure leaves none waiting.
    std::string why;
    if (in.device() != m.device || out.device() != m.device)
        why = std::string("the ") + (in.device() != m.device ? "input" : "output") +
              " buffer was made on another Context's device";
    else if (in.size() < need_in)
        why = "the input buffer holds " + std::to_string(in.size()) + " bytes of the " +
              std::to_string(need_in) + " this rank's box needs";
    else if (out.size() < need_out)
        why = "the output buffer holds " + std::to_string(out.size()) + " bytes of the " +
              std::to_string(need_out) + " this rank's box needs";
    agree(m.comm, why, "DistPlan::execute");

    m.timing = {};
    const double start = now();
    const size_t stages = m.layouts.size();
    // The data's place: the caller's input first, then the work buffers in turn, never writing
    // to `in` and ending in `out`.
    const Buffer* at = &in;
    int next = 0;
    auto work = [&]() -> Buffer& { return *m.work[next ^= 1]; };
    auto fft = [&](size_t s, Buffer& dst) {
        const double t0 = now();
        const Impl::Stage& stage = m.stages[s];
        // r2c's stage 0 runs its c2r plans inverse; forward reads each piece's signal side and
        // writes its spectrum side, inverse the other way round.
        const std::vector<Plan>& plans =
            s == 0 && !forward && !stage.inverse_plans.empty() ? stage.inverse_plans : stage.plans;
        agree(m.comm, attempt([&] {
                  std::vector<VkBufferCopy> regions;
                  for (const Impl::Piece& p : stage.pieces) {
                      const Plan& plan = plans[p.plan];
                      if (stage.runs) {
                          plan.execute(at->view(forward ? p.signal_at : p.spectrum_at,
                                                forward ? p.signal_bytes : p.spectrum_bytes),
                                       dst.view(forward ? p.spectrum_at : p.signal_at,
                                                forward ? p.spectrum_bytes : p.signal_bytes),
                                       direction);
                          continue;
                      }
                      const BufferView piece = m.scratch->view(0, p.signal_bytes);
                      regions.clear();
                      detail::append_copies(regions, p.box, stage.box, 0, p.box, 0, m.complex_bytes);
                      m.copier->submit(0, at->handle(), m.scratch->handle(), regions);
                      m.copier->wait(0);
                      plan.execute(piece, piece, direction);
                      regions.clear();
                      detail::append_copies(regions, p.box, p.box, 0, stage.box, 0, m.complex_bytes);
                      m.copier->submit(0, m.scratch->handle(), dst.handle(), regions);
                      m.copier->wait(0);
                  }
              }),
              "DistPlan::execute");
        m.timing.local_fft += now() - t0;
        at = &dst;
    };
    auto move = [&](const Reshape& r, Buffer& dst) {
        m.reshape(r, !forward, *at, dst);
        at = &dst;
    };
    if (forward) {
        if (m.into_first.moves) move(m.into_first, work());
        for (size_t s = 0; s < stages; ++s) {
            const bool last = s + 1 == stages;
            fft(s, last && !m.onto_out.moves ? out : work());
            if (!last && m.between[s].moves) move(m.between[s], work());
        }
        if (m.onto_out.moves) move(m.onto_out, out);
    } else {
        if (m.onto_out.moves) move(m.onto_out, work());
        for (size_t s = stages; s-- > 0;) {
            fft(s, s == 0 && !m.into_first.moves ? out : work());
            if (s > 0 && m.between[s - 1].moves) move(m.between[s - 1], work());
        }
        if (m.into_first.moves) move(m.into_first, out);
    }
    m.timing.total = now() - start;
}

}  // namespace twiddle::dist
