// Uses an installed twiddle::dist under mpirun: a 2D C2C transform of a small grid distributed over
// slabs of axis 0, each rank's box of the spectrum checked against the definition, the inverse
// checked to give the rank's box back, and a bad problem checked to throw twiddle::Error on every
// rank. Every rank reaches the same verdict.
#include <mpi.h>

#include <twiddle/dist.hpp>
#include <twiddle/twiddle.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numbers>
#include <string>
#include <vector>

namespace {

constexpr uint64_t kRows = 12, kColumns = 10;
constexpr double kBound = 1e-5;  // relative to the largest value

using Complex = std::complex<float>;

Complex signal(uint64_t row, uint64_t column) {
    const double i = static_cast<double>(row * kColumns + column);
    return {static_cast<float>(std::sin(0.37 * i)), static_cast<float>(std::cos(1.3 * i + row))};
}

// The 2D DFT of the whole signal at (k0, k1), by the definition, in f64.
std::complex<double> spectrum(uint64_t k0, uint64_t k1) {
    std::complex<double> sum = 0;
    for (uint64_t j0 = 0; j0 < kRows; ++j0) {
        for (uint64_t j1 = 0; j1 < kColumns; ++j1) {
            const double turns = static_cast<double>(j0 * k0 % kRows) / kRows +
                                 static_cast<double>(j1 * k1 % kColumns) / kColumns;
            sum += std::complex<double>(signal(j0, j1)) * std::polar(1.0, -2 * std::numbers::pi * turns);
        }
    }
    return sum;
}

// The largest difference from `want` over the elements of `box`, in C order, and the largest |want|.
template <typename Want>
std::pair<double, double> compare(const std::vector<Complex>& got, const twiddle::dist::Box& box, Want want) {
    double error = 0, largest = 0;
    size_t i = 0;
    for (int64_t r = box.low[0]; r < box.high[0]; ++r) {
        for (int64_t c = box.low[1]; c < box.high[1]; ++c, ++i) {
            const std::complex<double> w = want(static_cast<uint64_t>(r), static_cast<uint64_t>(c));
            error = std::max(error, std::abs(std::complex<double>(got[i]) - w));
            largest = std::max(largest, std::abs(w));
        }
    }
    return {error, largest};
}

bool check(int rank, int ranks) {
    const twiddle::Context ctx = twiddle::dist::local_context(MPI_COMM_WORLD);
    const twiddle::dist::DistDesc desc{.shape = {kRows, kColumns}};
    const std::vector<twiddle::dist::Box> boxes = twiddle::dist::slab_boxes(desc.shape, ranks, 0);
    const twiddle::dist::Box& mine = boxes[static_cast<size_t>(rank)];
    const twiddle::dist::DistPlan plan(ctx, MPI_COMM_WORLD, desc, mine);
    bool ok = plan.in_box() == mine && plan.out_box() == mine;

    std::vector<Complex> x;
    for (int64_t r = mine.low[0]; r < mine.high[0]; ++r)
        for (int64_t c = mine.low[1]; c < mine.high[1]; ++c)
            x.push_back(signal(static_cast<uint64_t>(r), static_cast<uint64_t>(c)));
    const uint64_t bytes = std::max<uint64_t>({plan.in_bytes(), plan.out_bytes(), 16});
    twiddle::Buffer data(ctx, bytes), back(ctx, bytes);
    if (!x.empty()) data.upload(x.data(), x.size() * sizeof(Complex));
    plan.execute(data, data, twiddle::Direction::forward);
    std::vector<Complex> got(mine.count());
    if (!got.empty()) data.download(got.data(), got.size() * sizeof(Complex));
    const auto [forward_error, forward_largest] = compare(got, mine, spectrum);

    plan.execute(data, back, twiddle::Direction::inverse);
    if (!got.empty()) back.download(got.data(), got.size() * sizeof(Complex));
    const auto [inverse_error, inverse_largest] = compare(got, mine, signal);

    // The largest errors and values over all ranks (a rank's box may be empty), so that every rank
    // decides alike.
    const double mine_max[4] = {forward_error, forward_largest, inverse_error, inverse_largest};
    double all_max[4] = {};
    MPI_Allreduce(mine_max, all_max, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const double worst[2] = {all_max[0] / all_max[1], all_max[2] / all_max[3]};
    ok = ok && worst[0] <= kBound && worst[1] <= kBound;
    if (rank == 0) {
        std::printf("twiddle %s, %d ranks on %s: %s, max relative error %.3g, inverse %.3g\n",
                    TWIDDLE_VERSION_STRING, ranks, ctx.caps().name.c_str(),
                    twiddle::dist::whole(desc.shape).str().c_str(), worst[0], worst[1]);
    }

    bool caught = false;
    try {
        // One axis: every rank throws, none hangs.
        const twiddle::dist::DistDesc line{.shape = {kRows}};
        const twiddle::dist::DistPlan unsupported(
            ctx, MPI_COMM_WORLD, line,
            twiddle::dist::slab_boxes(line.shape, ranks, 0)[static_cast<size_t>(rank)]);
    } catch (const twiddle::Error&) {
        caught = true;
    }
    if (!caught) {
        std::fprintf(stderr, "rank %d: a 1D distributed plan did not throw twiddle::Error\n", rank);
        ok = false;
    }
    for (const std::string& message : ctx.take_validation_messages()) {
        std::fprintf(stderr, "rank %d: validation: %s\n", rank, message.c_str());
        ok = false;
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);  // DistPlan calls MPI from this thread only
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int failed = 1;
    try {
        failed = check(rank, ranks) ? 0 : 1;
    } catch (const std::exception& e) {
        // The other ranks may be inside a collective this rank will not reach: end them all
        // rather than hang.
        std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any != 0 && rank == 0) std::fprintf(stderr, "FAILED\n");
    MPI_Finalize();
    return any;
}
