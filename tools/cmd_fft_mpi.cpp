// twiddle fft --mpi: the transform of twiddle fft without --mpi (any --axes, --real, --inverse,
// --n, --norm), run by the ranks of MPI_COMM_WORLD (mpirun -np P twiddle fft IN OUT ... --mpi).
// Rank 0 reads IN and checks it as twiddle fft does, scatters it in slabs (slab_boxes: uneven
// where P does not divide the axis, empty for ranks beyond its extent), gathers the slabs of the
// result and writes OUT. The slabs are of
// - the first axis that is not transformed, where there is one: each slab is then a batch of
//   whole transforms, which each rank runs with twiddle fft's own code (fft_of) on its device,
//   with no exchange. Any such axis would do; the first makes the longest contiguous runs to
//   copy between the array and its slabs.
// - axis 0, where every axis of a 2D or 3D array is transformed: twiddle::dist::DistPlan runs the
//   transform over all of the ranks. It halves the last axis of a real transform, so --real
//   needs that axis listed last (numpy's rfftn halves the last listed axis).
// Every axis of a 1D array, or of one with more than 3 axes, is refused. For checking and
// scripting; programs use the library with boxes of their own.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "commands.hpp"
#include "dist/agreement.hpp"
#include "fft_command.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "twiddle/dist.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

// What rank 0 tells the others once it has read and checked IN. IN's shape follows in a broadcast
// of its own (it may have any number of axes).
struct Problem {
    int32_t ok = 0;
    char error[512] = {};
    npy::Dtype dtype;           // IN's
    int32_t dims = 0;           // IN's number of axes
    int32_t scatter_axis = -1;  // the first axis not transformed; -1: there is none (DistPlan)
};
// Broadcast as bytes.
static_assert(std::is_trivially_copyable_v<Problem>);

int rank_of(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
}

int size_of(MPI_Comm comm) {
    int n = 1;
    MPI_Comm_size(comm, &n);
    return n;
}

// Throws on every rank where any rank's `step` threw, with the first such rank's message.
template <typename F>
void on_every_rank(MPI_Comm comm, F&& step) {
    std::string why;
    try {
        step();
    } catch (const std::exception& e) {
        why = *e.what() ? e.what() : "an error without a message";
    }
    if (const std::string failure = dist::detail::first_failure(comm, why); !failure.empty())
        throw Error(failure);
}

// Rank 0: IN read into `array` and checked, and the way --mpi runs its transform.
Problem read_problem(const FftArgs& args, npy::NpyArray& array) {
    check_writable(args.out);
    array = npy::read_npy(args.in);
    const std::vector<int> axes = check_fft(args, array);
    Problem p;
    p.dtype = array.dtype;
    p.dims = static_cast<int32_t>(array.shape.size());
    for (int k = 0; k < p.dims && p.scatter_axis < 0; ++k)
        if (std::find(axes.begin(), axes.end(), k) == axes.end()) p.scatter_axis = k;
    if (p.scatter_axis < 0) {
        if (p.dims != 2 && p.dims != 3)
            throw Error(args.in + " has " + std::to_string(p.dims) + (p.dims == 1 ? " axis" : " axes") +
                        ", all transformed; --mpi splits an array along an axis that is not "
                        "transformed, or transforms every axis of a 2D or 3D array");
        if (args.real && axes.back() != p.dims - 1)
            throw Error("--mpi --real over every axis halves the array's last axis (" +
                        std::to_string(p.dims - 1) +
                        "): list it last in --axes (as all does), or run without --mpi");
    }
    p.ok = 1;
    return p;
}

// The slabs of `axis` of a C-order array of `shape`, with elements of `element` bytes, one per
// rank as slab_boxes deals them out, laid one after another in rank order: each rank's bytes and
// where they start there, as MPI_Scatterv and MPI_Gatherv count them.
struct Slabs {
    std::vector<dist::Box> boxes;
    std::vector<int> counts, displs;
    size_t bytes = 0;  // of all of them

    Slabs(const std::vector<uint64_t>& shape, size_t element, int axis, int ranks)
        : boxes(dist::slab_boxes(shape, ranks, axis)), counts(ranks), displs(ranks) {
        for (int r = 0; r < ranks; ++r) {
            const uint64_t count = boxes[r].count() * element;
            if (bytes + count > uint64_t(std::numeric_limits<int>::max()))
                throw UnsupportedError("--mpi: the array exceeds 2 GiB, MPI's int counts of bytes");
            counts[r] = static_cast<int>(count);
            displs[r] = static_cast<int>(bytes);
            bytes += count;
        }
    }
};

// Copies a C-order array of `shape` into `slabs`' layout (pack: `from` is the array, `to` the
// slabs) or back (`from` the slabs, `to` the array).
void repack(const std::byte* from, std::byte* to, const std::vector<uint64_t>& shape, size_t element,
            int axis, const Slabs& slabs, bool pack) {
    uint64_t outer = 1, run = element;  // run: the bytes of one index along `axis`
    for (size_t k = 0; k < shape.size(); ++k) {
        if (k < size_t(axis)) outer *= shape[k];
        if (k > size_t(axis)) run *= shape[k];
    }
    for (size_t r = 0; r < slabs.boxes.size(); ++r) {
        const uint64_t low = slabs.boxes[r].low[axis], rows = slabs.boxes[r].high[axis] - low;
        for (uint64_t o = 0; o < outer; ++o) {
            const uint64_t in_array = (o * shape[axis] + low) * run,
                           in_slabs = slabs.displs[r] + o * rows * run;
            std::memcpy(to + (pack ? in_slabs : in_array), from + (pack ? in_array : in_slabs), rows * run);
        }
    }
}

// This rank's slab of `axis` of rank 0's `whole`, an array of `shape` and `dtype`.
npy::NpyArray scatter(MPI_Comm comm, const npy::NpyArray& whole, const std::vector<uint64_t>& shape,
                      npy::Dtype dtype, int axis) {
    const int me = rank_of(comm);
    const Slabs slabs(shape, dtype.size, axis, size_of(comm));
    // Slabs of axis 0 are contiguous runs of the array already.
    std::vector<std::byte> packed;
    if (me == 0 && axis > 0) {
        packed.resize(slabs.bytes);
        repack(whole.data.data(), packed.data(), shape, dtype.size, axis, slabs, true);
    }
    npy::NpyArray slab{dtype, shape, std::vector<std::byte>(slabs.counts[me])};
    slab.shape[axis] = slabs.boxes[me].high[axis] - slabs.boxes[me].low[axis];
    MPI_Scatterv(axis > 0 ? packed.data() : whole.data.data(), slabs.counts.data(), slabs.displs.data(),
                 MPI_BYTE, slab.data.data(), slabs.counts[me], MPI_BYTE, 0, comm);
    return slab;
}

// The ranks' slabs of `axis` gathered into one array of `shape` on rank 0 (empty elsewhere).
npy::NpyArray gather(MPI_Comm comm, const npy::NpyArray& slab, const std::vector<uint64_t>& shape, int axis) {
    const int me = rank_of(comm);
    const Slabs slabs(shape, slab.dtype.size, axis, size_of(comm));
    std::vector<std::byte> packed(me == 0 ? slabs.bytes : 0);
    MPI_Gatherv(slab.data.data(), slabs.counts[me], MPI_BYTE, packed.data(), slabs.counts.data(),
                slabs.displs.data(), MPI_BYTE, 0, comm);
    if (me != 0) return {};
    if (axis == 0) return {slab.dtype, shape, std::move(packed)};
    npy::NpyArray whole{slab.dtype, shape, std::vector<std::byte>(slabs.bytes)};
    repack(packed.data(), whole.data.data(), shape, slab.dtype.size, axis, slabs, false);
    return whole;
}

// Every axis of a 2D or 3D array of `shape` and `dtype` transformed by a DistPlan over slabs of
// axis 0: rank 0's `array` (IN, released once scattered) in, the whole result out on rank 0.
npy::NpyArray distributed(const FftArgs& args, const Context& context, MPI_Comm comm, npy::NpyArray& array,
                          const std::vector<uint64_t>& shape, npy::Dtype dtype) {
    const bool f64 = dtype == npy::kComplex128 || dtype == npy::kFloat64;
    dist::DistDesc desc;
    desc.shape = signal_shape(args, shape, shape.size() - 1);
    desc.transform = args.real ? Transform::r2c : Transform::c2c;
    desc.precision = f64 ? Precision::f64 : Precision::f32;
    desc.normalization = parse_normalization(args.norm);
    const bool inverse = args.inverse;
    const std::vector<uint64_t> spectrum = desc.complex_shape();
    const std::vector<uint64_t>& in_grid = inverse ? spectrum : desc.shape;
    const std::vector<uint64_t>& out_grid = inverse ? desc.shape : spectrum;
    const npy::Dtype out_dtype = args.real && inverse ? (f64 ? npy::kFloat64 : npy::kFloat32)
                                                      : (f64 ? npy::kComplex128 : npy::kComplex64);
    const dist::DistPlan plan(context, comm, desc,
                              dist::slab_boxes(desc.shape, size_of(comm), 0)[rank_of(comm)]);
    // irfftn crops or zero-pads its input along the halved axis, as without --mpi (after the plan
    // has checked the sizes).
    if (rank_of(comm) == 0 && args.real && inverse) array = fit_axis(array, shape.size() - 1, in_grid.back());
    const dist::Box out_box = inverse ? plan.in_box() : plan.out_box();
    const npy::NpyArray mine = scatter(comm, array, in_grid, dtype, 0);
    array = {};  // rank 0's copy: every rank holds its slab now
    npy::NpyArray result{out_dtype, out_box.shape(),
                         std::vector<std::byte>(out_box.count() * out_dtype.size)};
    std::optional<Buffer> in, out;
    on_every_rank(comm, [&] {
        in.emplace(context, std::max<uint64_t>(mine.data.size(), 16));
        out.emplace(context, std::max<uint64_t>(result.data.size(), 16));
        if (!mine.data.empty()) in->upload(mine.data.data(), mine.data.size());
    });
    plan.execute(*in, *out, inverse ? Direction::inverse : Direction::forward);
    on_every_rank(comm, [&] {
        check_validation(context);
        if (!result.data.empty()) out->download(result.data.data(), result.data.size());
    });
    return gather(comm, result, out_grid, 0);
}

}  // namespace

void init_mpi() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    int provided = 0;
    if (!initialized) MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
}

int run_fft_mpi(const FftArgs& args) {
    init_mpi();
    const MPI_Comm comm = MPI_COMM_WORLD;
    const int me = rank_of(comm);
    int status = 0;
    try {
        // Rank 0 reads and checks IN; every rank learns the problem, or why there is none.
        Problem p;
        npy::NpyArray array;
        if (me == 0) {
            try {
                p = read_problem(args, array);
            } catch (const std::exception& e) {
                std::snprintf(p.error, sizeof p.error, "%s", e.what());
            }
        }
        MPI_Bcast(&p, sizeof p, MPI_BYTE, 0, comm);
        if (!p.ok) throw Error(p.error);
        std::vector<uint64_t> shape = array.shape;
        shape.resize(p.dims);
        MPI_Bcast(shape.data(), p.dims, MPI_UINT64_T, 0, comm);

        std::optional<Context> context;
        on_every_rank(comm, [&] { context.emplace(dist::local_context(comm)); });
        npy::NpyArray result;
        if (p.scatter_axis >= 0) {
            const int axis = p.scatter_axis;
            const npy::NpyArray slab = scatter(comm, array, shape, p.dtype, axis);
            array = {};  // rank 0's copy: every rank holds its slab now
            npy::NpyArray transformed;
            on_every_rank(comm, [&] {
                transformed = fft_of(args, slab, Options{}, [&]() -> const Context& { return *context; });
            });
            // The result's slabs are the input's along `axis`, which no transform changes.
            std::vector<uint64_t> out_shape = transformed.shape;
            out_shape[axis] = shape[axis];
            result = gather(comm, transformed, out_shape, axis);
        } else {
            result = distributed(args, *context, comm, array, shape, p.dtype);
        }
        if (me == 0) write_npy(args.out, result);
    } catch (const std::exception& e) {
        // One line, from rank 0 (every rank reached the same error), or from the rank that alone
        // failed writing.
        if (me == 0) std::fprintf(stderr, "twiddle: error: %s\n", e.what());
        status = 1;
    }
    MPI_Finalize();
    return status;
}

}  // namespace twiddle::cli
