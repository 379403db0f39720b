// twiddle fft --mpi: the same transform as without --mpi, over all axes of a 2D or 3D array, run
// by the ranks of MPI_COMM_WORLD (mpirun -np P twiddle fft IN OUT --axes all --mpi). Rank 0 reads
// IN, scatters it in slabs of axis 0, every rank transforms with twiddle::dist::DistPlan, and rank
// 0 gathers the slabs and writes OUT. For checking and scripting; programs use the library with
// boxes of their own.
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <span>

#include "commands.hpp"
#include "fft_mpi.hpp"
#include "npy.hpp"
#include "shape_args.hpp"
#include "twiddle/dist.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

// What rank 0 tells the others about the problem once it has read and checked IN.
struct Problem {
    int32_t ok = 0;
    char error[512] = {};
    int32_t dims = 0;
    uint64_t shape[3] = {};  // the signal's grid (reals for --real)
    int32_t real = 0, inverse = 0, f64 = 0;
    int32_t normalization = 0;
};

int rank_of(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
}

// Throws on every rank where any rank's `step` threw, with that rank's message where it has one.
template <typename F>
void on_every_rank(MPI_Comm comm, F&& step) {
    std::string why;
    try {
        step();
    } catch (const std::exception& e) {
        why = e.what();
    }
    int ok = why.empty(), all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all) throw Error(why.empty() ? "another rank failed" : why);
}

// Rank 0: IN read and checked, as the problem to broadcast; `data` gets IN's elements, with an
// inverse real transform's spectrum cropped or zero-padded along the last axis to n / 2 + 1.
Problem read_problem(const FftMpiArgs& args, std::vector<uint8_t>& data) {
    Problem p;
    const npy::NpyArray array = npy::read_npy(args.in);
    const size_t d = array.shape.size();
    if (d != 2 && d != 3)
        throw Error(args.in + " has " + std::to_string(d) + " axes; --mpi transforms 2D and 3D arrays");
    // All axes, in order: the last one is the halved one of a real transform.
    if (!args.has_axes)
        throw Error("--mpi transforms every axis of the array (numpy.fft.fftn): give --axes all");
    const std::vector<int> axes = parse_axes(args.axes);
    check_axes(args.in, array.shape, args.axes, axes);
    std::vector<int> listed;
    for (int a : axes) listed.push_back(a < 0 ? a + static_cast<int>(d) : a);
    std::vector<int> all(d);
    std::iota(all.begin(), all.end(), 0);
    if (!axes.empty() && listed != all)
        throw Error("--mpi transforms every axis of the array in order: give --axes all (or " +
                    std::string(d == 2 ? "0,1" : "0,1,2") + ")");
    for (uint64_t n : array.shape)
        if (n == 0) throw Error(args.in + " has an axis of length 0; a transform needs at least 1 point");
    p.dims = static_cast<int32_t>(d);
    p.real = args.real;
    p.inverse = args.inverse;
    if (args.real) {
        p.f64 = array.dtype == (args.inverse ? npy::kComplex128 : npy::kFloat64);
        if (array.dtype != (args.inverse ? npy::kComplex64 : npy::kFloat32) && !p.f64)
            throw Error(args.in + " has dtype " + array.dtype.name() +
                        (args.inverse
                             ? "; an inverse real transform takes a complex64 or complex128 half spectrum"
                             : "; a real transform takes float32 or float64"));
    } else {
        if (array.dtype != npy::kComplex64 && array.dtype != npy::kComplex128)
            throw Error(
                args.in + " has dtype " + array.dtype.name() +
                "; twiddle fft transforms complex64 and complex128, and float32 and float64 with --real");
        p.f64 = array.dtype == npy::kComplex128;
    }
    for (size_t k = 0; k < d; ++k) p.shape[k] = array.shape[k];
    data.resize(array.data.size());
    std::memcpy(data.data(), array.data.data(), array.data.size());
    if (args.real && args.inverse) {
        // The real grid's last axis (--n, or 2 (m - 1)), and the spectrum fitted to it.
        const uint64_t m = array.shape.back(), n = args.n ? args.n : 2 * (m - 1);
        if (n == 0)
            throw Error(args.in + ": its last axis has 1 point, an inverse real transform of 0; give --n");
        p.shape[d - 1] = n;
        const size_t element = p.f64 ? 16 : 8;
        const uint64_t keep = std::min(m, n / 2 + 1), rows = array.elements() / m;
        std::vector<uint8_t> fitted(rows * (n / 2 + 1) * element, 0);
        for (uint64_t r = 0; r < rows; ++r)
            std::memcpy(fitted.data() + r * (n / 2 + 1) * element, data.data() + r * m * element,
                        keep * element);
        data = std::move(fitted);
    }
    p.ok = 1;
    return p;
}

}  // namespace

void init_mpi() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    int provided = 0;
    if (!initialized) MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
}

int run_fft_mpi(const FftMpiArgs& args) {
    init_mpi();
    const MPI_Comm comm = MPI_COMM_WORLD;
    const int me = rank_of(comm);
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    int status = 0;
    try {
        // Rank 0 reads and checks IN; every rank learns the problem, or why there is none.
        Problem p;
        std::vector<uint8_t> file_data;
        if (me == 0) {
            try {
                p = read_problem(args, file_data);
            } catch (const std::exception& e) {
                std::snprintf(p.error, sizeof p.error, "%s", e.what());
            }
        }
        MPI_Bcast(&p, sizeof p, MPI_BYTE, 0, comm);
        if (!p.ok) throw Error(p.error);

        dist::DistDesc desc;
        desc.shape.assign(p.shape, p.shape + p.dims);
        desc.transform = p.real ? Transform::r2c : Transform::c2c;
        desc.precision = p.f64 ? Precision::f64 : Precision::f32;
        desc.normalization = parse_normalization(args.norm);
        const bool inverse = p.inverse;
        const std::vector<uint64_t> spectrum = desc.complex_shape();
        // The slabs of axis 0 each rank holds of the input and of the output grids.
        const std::vector<uint64_t>& in_grid = inverse ? spectrum : desc.shape;
        const std::vector<uint64_t>& out_grid = inverse ? desc.shape : spectrum;
        const size_t real_bytes = p.f64 ? 8 : 4, complex_bytes = 2 * real_bytes;
        const size_t in_element = p.real && !inverse ? real_bytes : complex_bytes;
        const size_t out_element = p.real && inverse ? real_bytes : complex_bytes;

        std::optional<Context> context;
        on_every_rank(comm, [&] { context.emplace(dist::local_context(comm)); });
        const dist::DistPlan plan(*context, comm, desc, dist::slab_boxes(desc.shape, ranks, 0)[me]);
        const dist::Box in_box = inverse ? plan.out_box() : plan.in_box();
        const dist::Box out_box = inverse ? plan.in_box() : plan.out_box();

        // Scatter: slabs of axis 0 are contiguous runs of the C-order array.
        std::vector<int> counts(ranks), displs(ranks);
        auto runs = [&](const std::vector<uint64_t>& grid, size_t element) {
            const std::vector<dist::Box> slabs = dist::slab_boxes(grid, ranks, 0);
            uint64_t at = 0;
            for (int r = 0; r < ranks; ++r) {
                const uint64_t bytes = slabs[r].count() * element;
                if (at + bytes > uint64_t(std::numeric_limits<int>::max()))
                    throw UnsupportedError("--mpi: the array exceeds 2 GiB, MPI's int counts of bytes");
                counts[r] = static_cast<int>(bytes);
                displs[r] = static_cast<int>(at);
                at += bytes;
            }
        };
        on_every_rank(comm, [&] { runs(in_grid, in_element); });
        std::vector<uint8_t> mine(std::max<size_t>(counts[me], 1));
        MPI_Scatterv(file_data.data(), counts.data(), displs.data(), MPI_BYTE, mine.data(), counts[me],
                     MPI_BYTE, 0, comm);
        std::vector<uint8_t>().swap(file_data);

        std::optional<Buffer> in, out;
        on_every_rank(comm, [&] {
            in.emplace(*context, std::max<uint64_t>(in_box.count() * in_element, 16));
            out.emplace(*context, std::max<uint64_t>(out_box.count() * out_element, 16));
            if (counts[me]) in->upload(mine.data(), counts[me]);
        });
        plan.execute(*in, *out, inverse ? Direction::inverse : Direction::forward);
        on_every_rank(comm, [&] { check_validation(*context); });

        // Gather the output's slabs on rank 0, which writes OUT.
        on_every_rank(comm, [&] { runs(out_grid, out_element); });
        std::vector<uint8_t> result(std::max<size_t>(counts[me], 1));
        on_every_rank(comm, [&] {
            if (counts[me]) out->download(result.data(), counts[me]);
        });
        std::vector<uint8_t> all;
        if (me == 0) all.resize(std::max<uint64_t>(uint64_t(displs[ranks - 1]) + counts[ranks - 1], 1));
        MPI_Gatherv(result.data(), counts[me], MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                    0, comm);
        if (me == 0) {
            const size_t bytes = size_t(displs[ranks - 1]) + size_t(counts[ranks - 1]);
            auto write = [&](auto element) {
                using T = decltype(element);
                npy::write_npy_atomic(
                    args.out, out_grid,
                    std::span<const T>(reinterpret_cast<const T*>(all.data()), bytes / sizeof(T)));
            };
            if (p.real && inverse)
                p.f64 ? write(double{}) : write(float{});
            else
                p.f64 ? write(std::complex<double>{}) : write(std::complex<float>{});
        }
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
