// twiddle::dist: 2D and 3D transforms distributed over the ranks of an MPI communicator, each
// rank with its own Vulkan device. Built into libtwiddle_dist (CMake target twiddle::dist) when
// MPI is found; the rest of twiddle never needs MPI.
//
// Each rank owns a box of the global index space for the input and one for the output, as
// heFFTe's boxes do, stored on its device packed in C order. The plan moves the data between its
// own boxes, slabs or pencils, along which every local transform has all of its points, with
// MPI_Alltoallv through host-visible memory the device copies into and out of (the plan keeps two
// slots of its largest chunk each way), and runs the local transforms with twiddle's plans:
//
//   MPI_Init(&argc, &argv);  // the plan calls MPI and Vulkan from the calling thread only
//   twiddle::Context ctx = twiddle::dist::local_context(MPI_COMM_WORLD);
//   twiddle::dist::DistDesc desc{.shape = {512, 512, 512}};
//   auto boxes = twiddle::dist::slab_boxes(desc.shape, ranks, 0);
//   twiddle::dist::DistPlan plan(ctx, MPI_COMM_WORLD, desc, boxes[rank]);  // out box = in box
//   twiddle::Buffer data(ctx, std::max<uint64_t>({plan.in_bytes(), plan.out_bytes(), 16}));
//   ... upload the rank's box ...
//   plan.execute(data, data, twiddle::Direction::forward);  // collective
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "twiddle/buffer.hpp"
#include "twiddle/context.hpp"
#include "twiddle/export.hpp"
#include "twiddle/plan.hpp"
#include "twiddle/types.hpp"

namespace twiddle::dist {

// The elements i of a global array with low[k] <= i[k] < high[k] along every axis k (axis 0 the
// slowest, as in C order), held by one rank packed in C order. An empty box (some high[k] <=
// low[k]) holds nothing: a rank may own no part of a grid.
struct TWIDDLE_API Box {
    std::vector<int64_t> low;
    std::vector<int64_t> high;

    size_t rank() const { return low.size(); }
    // The extent along each axis (0 where empty), and their product.
    std::vector<uint64_t> shape() const;
    uint64_t count() const;
    bool empty() const { return count() == 0; }
    // The part of this box inside `other` (same rank), possibly empty.
    Box intersect(const Box& other) const;
    bool operator==(const Box&) const = default;
    std::string str() const;  // "[0,256)x[0,512)"
};

// The box of the whole of `shape`.
TWIDDLE_API Box whole(const std::vector<uint64_t>& shape);

// `ranks` slabs of `shape` split along `axis` (negative counts from the end), in rank order: rank
// r gets [r * n / ranks, (r + 1) * n / ranks) there, and all of the other axes. Ranks beyond the
// axis's extent get empty boxes.
TWIDDLE_API std::vector<Box> slab_boxes(const std::vector<uint64_t>& shape, int ranks, int axis = 0);

// Pencils of a 3D `shape` that each hold all of `axis`, on a process grid of grid[0] x grid[1]
// ranks: the other two axes, in increasing order, are split grid[0] and grid[1] ways, rank
// r = r0 * grid[1] + r1 taking part r0 of the first and r1 of the second.
TWIDDLE_API std::vector<Box> pencil_boxes(const std::vector<uint64_t>& shape, std::array<int, 2> grid,
                                          int axis);

// The most nearly square grid of `ranks` ranks, grid[0] <= grid[1].
TWIDDLE_API std::array<int, 2> process_grid(int ranks);

// How the plan splits the grid among the ranks for the local transforms.
enum class Decomposition {
    automatic,  // 2D: slabs. 3D: slabs where every rank can have planes of both slab layouts,
                // else pencils. (Ranks beyond a layout's planes hold empty boxes.)
    slab,       // 1D process grid: 2D transforms over the last axes of slabs of axis 0, then
                // along axis 0 in slabs of axis 1 (two layouts)
    pencil,     // 2D process grid, 3D grids only: along axis 2, then 1, then 0 (three layouts)
};

// Where the output lands.
enum class OutputLayout {
    natural,     // in the output box given to the plan (default: the input box)
    transposed,  // in the plan's last layout (out_box()): one exchange fewer. Slabs: slab_boxes
                 // along axis 1 of the output grid; pencils: pencil_boxes holding axis 0. An
                 // inverse transform then takes its input in that layout and returns the output
                 // in the box given.
};

TWIDDLE_API const char* to_string(Decomposition d);
TWIDDLE_API const char* to_string(OutputLayout l);

// The distributed problem: a 2D or 3D grid transformed over all of its axes (numpy fftn), or a
// real one (Transform::r2c: rfftn forward, whose spectrum has shape[last] / 2 + 1 points along
// the last axis, and irfftn inverse).
struct TWIDDLE_API DistDesc {
    std::vector<uint64_t> shape;
    Transform transform = Transform::c2c;
    Precision precision = Precision::f32;
    Normalization normalization = Normalization::backward;

    // The grid of the spectrum side: shape, with the last axis halved for r2c.
    std::vector<uint64_t> complex_shape() const;
    bool operator==(const DistDesc&) const = default;
};

struct DistOptions {
    Decomposition decomposition = Decomposition::automatic;
    OutputLayout output = OutputLayout::natural;
    // Pieces each exchange moves in turn (every rank's box cut along its axis 0), so that one
    // piece's MPI_Alltoallv overlaps the device's copies of its neighbours into and out of host
    // memory. The plan keeps 4 host-visible slots of a piece (2 x 2 / chunks of the largest
    // box's bytes). 1 (or 0): one piece, nothing overlapped.
    uint32_t chunks = 4;
    // The most bytes of a rank's box (on either side) one local transform takes; 0: the device's
    // maxStorageBufferRange, the most one kernel can bind. A stage over a larger box runs in
    // pieces cut along the first axis it does not transform; where that is not axis 0, the device
    // gathers each piece into a scratch buffer the plan keeps (up to this size) and scatters it
    // back. A piece holds at least one plane (two where a plane of an r2c stage holds an odd
    // number of reals), even where that is more than this. Ranks may differ.
    uint64_t max_piece_bytes = 0;
    Options local;  // for the local transforms' plans
};

// Seconds the last execute() spent in each part, on this rank. The device's copies run while MPI
// moves other chunks, so where they overlap, local_fft + staging + alltoall exceeds total.
struct DistTiming {
    double local_fft = 0;     // the local transforms on the device
    double staging = 0;       // the device copying (packing and unpacking) between its boxes and host
                              // memory, by its timestamps (where the queue has none: staging_wait)
    double staging_wait = 0;  // the host queueing those copies and waiting for them: the part of
                              // staging that the all-to-all did not hide
    double alltoall = 0;      // MPI_Alltoallv
    double total = 0;
};

// A Context on this rank's device: the rank's index among the ranks of its node (MPI's shared-memory
// split of `comm`) modulo the number of devices of the kind the default choice takes (discrete
// GPUs, else integrated ones, else any), unless TWIDDLE_DEVICE (or options.device) names one.
// Collective over comm.
TWIDDLE_API Context local_context(MPI_Comm comm, ContextOptions options = {});

class TWIDDLE_API DistPlan {
public:
    // Collective over `comm`: every rank calls it with the same desc and options and its own
    // boxes. in_box is over desc.shape (the signal: reals for r2c); out_box, over
    // complex_shape() (the spectrum), is where a forward transform's output lands
    // (OutputLayout::natural). Its default is in_box, for r2c with the last axis halved where
    // in_box holds all of it. With OutputLayout::transposed it must be left out.
    // Throws twiddle::Error on every rank, and hangs none, where any rank's boxes are outside
    // their grid or have other than the grid's number of axes, the boxes of all ranks do not
    // cover a grid exactly once, or ranks disagree on the desc, the decomposition, the output
    // layout, the chunks or whether they give out_box (options.local may differ: it only tunes a rank's
    // kernels); for grids of other than 2 or 3 axes, a zero extent, pencils of a 2D grid,
    // Transform::c2r (an r2c plan runs both ways), an out_box with OutputLayout::transposed, r2c
    // without out_box where an input box splits the last axis; and where any rank cannot plan
    // its local transforms.
    DistPlan(const Context& context, MPI_Comm comm, const DistDesc& desc, const Box& in_box,
             std::optional<Box> out_box = std::nullopt, const DistOptions& options = {});
    DistPlan(DistPlan&&) noexcept;
    DistPlan& operator=(DistPlan&&) noexcept;
    ~DistPlan();

    const DistDesc& desc() const;
    Decomposition decomposition() const;  // as chosen
    const Box& in_box() const;
    const Box& out_box() const;
    // Bytes of this rank's in_box() (of reals for r2c) and out_box() (of complex values), packed.
    uint64_t in_bytes() const;
    uint64_t out_bytes() const;

    // Collective. Forward: reads this rank's in_box() of the signal from `in` and writes its
    // out_box() of the spectrum to `out`. Inverse, as heFFTe's backward: reads out_box() of the
    // spectrum from `in` and writes in_box() of the signal to `out` (irfftn for r2c). Device
    // buffers of at least those boxes' bytes (a Buffer has at least one byte, also on a rank
    // whose box is empty). Out of place, `in` is left as it was; `in` and `out` may be the same
    // buffer (large enough for both boxes). Throws twiddle::Error on every rank where any rank's
    // buffers are too small or any rank's step fails (each step is agreed, so none hangs).
    // Its submissions take the context's queue lock, as twiddle's others do: other threads may use
    // the context meanwhile (their work on the queue then runs between this plan's steps, and
    // last_timing().staging_wait counts what of it the copies waited for).
    void execute(const Buffer& in, Buffer& out, Direction direction) const;

    const DistTiming& last_timing() const;
    // The all-to-all exchanges one execute() makes (either direction): those of the plan's
    // reshapes in which some rank's box changes.
    size_t exchanges() const;

private:
    struct Impl;
    Impl& impl() const;  // throws twiddle::Error once moved from
    std::unique_ptr<Impl> impl_;
};

}  // namespace twiddle::dist
