// twiddle bench --mpi: distributed 3D (or 2D) C2C transforms on the ranks of mpirun, each rank on
// its own device. Per shape: the time of one distributed forward transform (the slowest rank's,
// median over the repetitions) split as DistPlan::last_timing() splits it; beside it the same
// transform on one device (rank 0's), and the bound the host-staged all-to-all sets: the plan's
// exchanges, each timed as every rank's device copying its box into host-visible memory,
// MPI_Alltoall of it in equal parts, and the device copying it back. Gated on the round trip's
// error.
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <random>
#include <sstream>

#include "bench.hpp"
#include "dist/host_staging.hpp"
#include "fft_command.hpp"
#include "shape_args.hpp"
#include "twiddle/dist.hpp"
#include "vk/warm_up.hpp"

namespace twiddle::cli {

namespace {

struct MpiRow {
    std::string shape;
    int ranks = 1;
    std::string decomposition;
    size_t exchanges = 0;
    double total = 0, local_fft = 0, staging = 0, staging_wait = 0, alltoall = 0;  // ms, slowest rank,
                                                                                   // median
    double single = -1;          // ms, rank 0's device; -1: not run
    double staged_alltoall = 0;  // ms, one exchange's bound
    double error = 0;
    bool ok = false;
};

double slowest(MPI_Comm comm, double seconds) {
    double max = 0;
    MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, comm);
    return max * 1e3;
}

// One exchange at the bound: every rank's box (the largest rank's `bytes`, so that the counts
// match) copied by its device into host-visible memory, MPI_Alltoall of it in equal parts into
// host-visible memory, and copied back by the device: the path DistPlan's exchanges take, without
// their packing and without overlap. Milliseconds of the slowest rank, median of `reps`.
double staged_alltoall_ms(MPI_Comm comm, const Context& ctx, uint64_t bytes, int ranks, uint32_t reps) {
    uint64_t largest = 0;
    MPI_Allreduce(&bytes, &largest, 1, MPI_UINT64_T, MPI_MAX, comm);
    const uint64_t part = std::max<uint64_t>(largest / ranks / 8, 1) * 8;  // whole 8-byte words
    if (part / 8 > uint64_t(std::numeric_limits<int>::max()))
        throw UnsupportedError("bench --mpi: a rank's part of the exchange exceeds MPI's int counts");
    const uint64_t total = part * ranks;
    Buffer device(ctx, total);
    const dist::detail::HostBuffer send(ctx, total), recv(ctx, total);
    dist::detail::Copier copier(ctx, 1);
    const VkBufferCopy whole{0, 0, total};
    std::vector<double> times;
    for (uint32_t r = 0; r < reps + 1; ++r) {
        MPI_Barrier(comm);
        const double t0 = MPI_Wtime();
        copier.submit(0, device.handle(), send.handle(), {&whole, 1});
        copier.wait(0);
        MPI_Alltoall(send.data(), static_cast<int>(part / 8), MPI_DOUBLE, recv.data(),
                     static_cast<int>(part / 8), MPI_DOUBLE, comm);
        copier.submit(0, recv.handle(), device.handle(), {&whole, 1});
        copier.wait(0);
        const double ms = slowest(comm, MPI_Wtime() - t0);
        if (r > 0) times.push_back(ms);  // the first warms up
    }
    return median(times);
}

template <typename C>
MpiRow run_shape(MPI_Comm comm, const Context& ctx, const std::vector<uint64_t>& shape,
                 const BenchArgs& args) {
    int me = 0, ranks = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &ranks);
    MpiRow row;
    row.shape = shape_name(shape);
    row.ranks = ranks;
    dist::DistDesc desc{.shape = shape, .precision = args.f64 ? Precision::f64 : Precision::f32};
    const dist::DistPlan plan(ctx, comm, desc, dist::slab_boxes(shape, ranks, 0)[me]);
    row.decomposition = dist::to_string(plan.decomposition());
    row.exchanges = plan.exchanges();

    // This rank's box of a random array.
    std::vector<C> x(plan.in_box().count());
    std::mt19937 gen(17 + me);
    std::uniform_real_distribution<double> d(-1, 1);
    for (auto& v : x) v = C(d(gen), d(gen));
    const uint64_t bytes = std::max<uint64_t>(plan.in_bytes(), 16);
    Buffer in(ctx, bytes), out(ctx, std::max<uint64_t>(plan.out_bytes(), 16)), back(ctx, bytes);
    if (!x.empty()) in.upload(x.data(), plan.in_bytes());

    // Timed as time_median times one device: vk::kTimedRounds rounds, each a warm-up (batches of
    // executions as rank 0's vk::WarmUp says, so that the GPUs' clocks have risen; rank 0 decides
    // for every rank whether to go on and how many executions the next batch takes) and then
    // `reps` timed executions. The round of the lowest median total is kept; every rank keeps the
    // same one, since the figures are the slowest rank's.
    plan.execute(in, out, Direction::forward);
    for (int round = 0; round < vk::kTimedRounds; ++round) {
        vk::WarmUp warm(args.warm_up);
        const double warm_start = MPI_Wtime();
        int step[2] = {warm.running() ? 1 : 0, static_cast<int>(warm.batch())};
        MPI_Bcast(step, 2, MPI_INT, 0, comm);
        while (step[0]) {
            const double t0 = MPI_Wtime();
            for (int i = 0; i < step[1]; ++i) plan.execute(in, out, Direction::forward);
            if (me == 0) {
                const double now = MPI_Wtime();
                warm.ran(now - t0, now - warm_start);
                step[0] = warm.running() ? 1 : 0;
                step[1] = static_cast<int>(warm.batch());
            }
            MPI_Bcast(step, 2, MPI_INT, 0, comm);
        }
        std::vector<double> total, local, staging, waiting, alltoall;
        for (uint32_t r = 0; r < args.reps; ++r) {
            MPI_Barrier(comm);
            const double t0 = MPI_Wtime();
            plan.execute(in, out, Direction::forward);
            const double t = slowest(comm, MPI_Wtime() - t0);
            const dist::DistTiming& parts = plan.last_timing();
            const double l = slowest(comm, parts.local_fft), s = slowest(comm, parts.staging),
                         a = slowest(comm, parts.alltoall);
            total.push_back(t);
            local.push_back(l);
            staging.push_back(s);
            waiting.push_back(slowest(comm, parts.staging_wait));
            alltoall.push_back(a);
        }
        if (round > 0 && median(total) >= row.total) continue;
        row.total = median(total);
        row.local_fft = median(local);
        row.staging = median(staging);
        row.staging_wait = median(waiting);
        row.alltoall = median(alltoall);
    }

    // The gate: the inverse of the forward transform against the input, on every rank.
    plan.execute(out, back, Direction::inverse);
    std::vector<C> again(x.size());
    if (!again.empty()) back.download(again.data(), plan.in_bytes());
    double num = 0, den = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        num += std::norm(std::complex<double>(again[i]) - std::complex<double>(x[i]));
        den += std::norm(std::complex<double>(x[i]));
    }
    double sums[2] = {num, den}, all[2] = {};
    MPI_Allreduce(sums, all, 2, MPI_DOUBLE, MPI_SUM, comm);
    row.error = all[1] > 0 ? std::sqrt(all[0] / all[1]) : 0;
    row.ok = row.error <= (args.max_error > 0 ? args.max_error : args.f64 ? 1e-14 : 1e-6);

    row.staged_alltoall = staged_alltoall_ms(comm, ctx, plan.in_bytes(), ranks, args.reps);

    // The same transform on rank 0's device alone, where it fits there.
    double single = -1;
    if (me == 0) {
        try {
            const Plan whole(ctx, FftDesc::nd(shape).with_precision(desc.precision));
            Buffer a(ctx, whole.desc().bytes()),
                scratch(ctx, std::max<uint64_t>(whole.scratch_bytes(Placement::in_place), 16));
            a.fill(0);
            single = time_median(ctx, args.reps, args.warm_up, [&](VkCommandBuffer cmd) {
                whole.record(cmd, a.view(), a.view(), scratch.view(), Direction::forward);
            });
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bench --mpi: %s on one device: %s\n", row.shape.c_str(), e.what());
        }
    }
    MPI_Bcast(&single, 1, MPI_DOUBLE, 0, comm);
    row.single = single;
    return row;
}

}  // namespace

void run_bench_mpi(const BenchArgs& args) {
    init_mpi();
    const MPI_Comm comm = MPI_COMM_WORLD;
    int me = 0;
    MPI_Comm_rank(comm, &me);
    std::string failure;
    try {
        std::vector<std::vector<uint64_t>> shapes;
        for (const std::string& s : args.shapes) shapes.push_back(parse_shape(s));
        if (shapes.empty()) shapes = {{512, 512, 512}, {1024, 1024, 1024}};
        const Context ctx = dist::local_context(comm);
        std::vector<MpiRow> rows;
        for (const auto& shape : shapes)
            rows.push_back(args.f64 ? run_shape<std::complex<double>>(comm, ctx, shape, args)
                                    : run_shape<std::complex<float>>(comm, ctx, shape, args));
        if (me == 0) {
            std::printf("%16s %5s %9s %3s %10s %10s %10s %10s %10s %10s %10s %10s %6s %9s  %s\n", "shape",
                        "ranks", "layout", "ex", "total_ms", "local_ms", "staging_ms", "wait_ms", "a2a_ms",
                        "sum_ms", "one_gpu_ms", "bound_ms", "bound%", "rel_l2", "status");
            for (const MpiRow& r : rows) {
                const double bound = r.exchanges * r.staged_alltoall;
                std::printf(
                    "%16s %5d %9s %3zu %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %5.0f%% %9.2e "
                    " %s\n",
                    r.shape.c_str(), r.ranks, r.decomposition.c_str(), r.exchanges, r.total, r.local_fft,
                    r.staging, r.staging_wait, r.alltoall, r.local_fft + r.staging + r.alltoall, r.single,
                    bound, 100 * bound / r.total, r.error, r.ok ? "ok" : "failed");
            }
            if (!args.out.empty()) {
                std::ostringstream f;
                nlohmann::json cases = nlohmann::json::array();
                f << "shape,ranks,decomposition,exchanges,total_ms,local_fft_ms,staging_ms,staging_wait_ms,"
                     "alltoall_ms,single_gpu_ms,staged_alltoall_ms,bound_ms,rel_l2,status\n";
                for (const MpiRow& r : rows) {
                    const double bound = r.exchanges * r.staged_alltoall;
                    const char* status = r.ok ? "ok" : "failed";
                    f << r.shape << ',' << r.ranks << ',' << r.decomposition << ',' << r.exchanges << ','
                      << r.total << ',' << r.local_fft << ',' << r.staging << ',' << r.staging_wait << ','
                      << r.alltoall << ',' << r.single << ',' << r.staged_alltoall << ',' << bound << ','
                      << r.error << ',' << status << '\n';
                    cases.push_back({{"shape", r.shape},
                                     {"ranks", r.ranks},
                                     {"decomposition", r.decomposition},
                                     {"exchanges", r.exchanges},
                                     {"total_ms", r.total},
                                     {"local_fft_ms", r.local_fft},
                                     {"staging_ms", r.staging},
                                     {"staging_wait_ms", r.staging_wait},
                                     {"alltoall_ms", r.alltoall},
                                     {"single_gpu_ms", r.single},
                                     {"staged_alltoall_ms", r.staged_alltoall},
                                     {"bound_ms", bound},
                                     {"rel_l2", r.error},
                                     {"status", status}});
                }
                write_results_file(args.out, ctx.caps(), std::move(cases), f.str(), nlohmann::json::object());
            }
        }
        for (const MpiRow& r : rows)
            if (!r.ok)
                failure =
                    r.shape + ": the round trip's error " + std::to_string(r.error) + " is over the bound";
    } catch (const std::exception& e) {
        failure = e.what();
    }
    MPI_Finalize();
    if (!failure.empty()) throw Error(failure);
}

}  // namespace twiddle::cli
