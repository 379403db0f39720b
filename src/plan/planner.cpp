// The logical planner: splits a transform into passes and sizes each pass's kernel from the
// device's limits. No Vulkan here.
#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "core/enum_values.hpp"
#include "core/unit_root.hpp"
#include "twiddle/error.hpp"
#include "twiddle/logical_plan.hpp"

namespace twiddle {

namespace detail {
// A real plan's complex sub-problems. Their layouts come from a validated real problem; the
// half-length transform of a band-limited one writes rows of n / 2 points of which its fused
// split stores fewer, so that its output need not nest (FftDesc::make).
struct DescAccess {
    static FftDesc unchecked(const std::vector<Dim>& dims, const std::vector<Dim>& batch) {
        return FftDesc::make(dims, batch, Transform::c2c, 0, false);
    }
};
}  // namespace detail

namespace {

constexpr uint32_t kDefaultRadix = 16;  // largest butterfly held in registers by default
constexpr uint32_t kMaxRadix = 32;      // largest butterfly the code generator writes
// Invocations a one-pass workgroup aims for when its columns are short. H200: 512 ran N = 8 at
// 95% of copy against 86% with 256, and matched 256 within noise elsewhere.
constexpr uint32_t kTargetWorkgroup = 512;
// One-pass workgroups of 1D complex transforms of kShortColumnMin to kShortColumn points (powers of
// two, f32, those of 32 points, taken whole, apart) aim for kShortWorkgroup invocations instead,
// where plan_problem allows it (Allow::short_workgroups). H200, GB/s against 512 invocations,
// alternated twice (bench/RESULTS.md, thirty-third run): 8 4152-4158 against 4041-4042, 16
// 4130-4137 against 3996-4003, 64 4119-4155 against 4028-4035, 128 4124-4126 against 4059-4065,
// 256 4159-4161 against 4099; 32 lost (2713-2717 against 4021), and so did r2c 256's half
// transform with its split (2776 against 3278), which keeps 512.
constexpr uint32_t kShortColumnMin = 8;
constexpr uint32_t kShortColumn = 256;
constexpr uint32_t kShortWorkgroup = 64;
// One-pass workgroups of lengths other than powers of two that would take at least
// kLargeMixedWorkgroup invocations aim for kMixedWorkgroup instead. H200, 2^26 points, % of copy
// with the first fit against about 64: 36 68/79, 100 82/92, 144 94/96, 160 68/80, 200 85/87,
// 500 67/75, 1000 69/71; 12, 48 and 80 within 1. Where the first fit is smaller (at most 240
// invocations), 64 lost or tied: 24 91/73, 60 70/60, 120 84/77, 400 90/84, 1200 57/49 (but 720
// 55/71). Rader's kernels keep the first fit (measured with it).
constexpr uint32_t kLargeMixedWorkgroup = 250;
constexpr uint32_t kMixedWorkgroup = 64;
// Columns per workgroup tried for multi-pass kernels, best first. Neighbouring invocations take
// neighbouring columns, so this many points are contiguous in memory per load and store.
// Transforms of a power-of-two length try 32 first: runs of 256 bytes in f32. H200, f32, 2^26
// values (with one component per exchange round, below): 2^21 1284 GB/s against 1243 with 16,
// 2^22 1261 against 1224, 2^23 1232 against 1207, 32768 1908 against 1882, the rest the same;
// 10007 (Bluestein through 20480 points) lost, 425 against 456, so other lengths keep 16.
constexpr uint32_t kColumnBlocks[] = {16, 8};
constexpr uint32_t kPow2ColumnBlocks[] = {32, 16, 8};
// Columns per workgroup the passes after Rader's first try before kColumnBlocks (Allow::
// after_rader). H100, f32, 2^26 points, that pass's ms with 16 / 32 / 64 columns: 1110 = 37 x 30
// 0.507 / 0.498 / 0.476, 2368 = 37 x 64 0.759 / 0.537 / 0.405.
constexpr uint32_t kAfterRaderColumnBlocks[] = {64, 32};
// Multi-pass kernels exchange one component of their points per round (PassKernel::
// exchange_rounds) even where both would fit in the shared memory: H200, f32, 2^26 values, 2^21
// at 1243 GB/s against 1077, 2^22 1224 against 1084, 2^23 1207 against 1131, 32768 1882 against
// 1716, 10007 456 against 355; 65536 to 2^20, 2^24, 10^6 and 1024^2 to 4096^2 the same (their
// kernels took one component per round already).
constexpr uint32_t kMultiPassMinRounds = 2;
// Columns per workgroup of a last pass with Allow::wide_last_tiles.
constexpr uint32_t kWideColumns = 32;
// The fewest columns per workgroup the planner gives a last pass with split fused into it.
constexpr uint32_t kMinMirroredColumns = 8;
// Multi-pass columns at least this long take 32 points per invocation.
constexpr uint32_t kLongColumn = 512;
// Columns per workgroup of a two-pass plan that wide tiles would make three passes.
constexpr uint32_t kTwoPassColumns = 4;
// Tiles each workgroup transforms in turn by default (Options::tiles_per_workgroup) in one-pass
// and multi-pass kernels, and the fewest tiles a pass must have before its workgroups loop. H200,
// 2^26 values: looping sped multi-pass transforms up by 10-25% (8 a little ahead of 4) and left
// one-pass ones within noise.
constexpr uint32_t kTilesPerWorkgroupOnePass = 4;
// One-pass kernels that take all of the shared memory, one workgroup per multiprocessor, loop
// over more (H200, 8192 points: 8 tiles 3259 GB/s, 4 tiles 3161-3167 in the same run).
constexpr uint32_t kTilesPerWorkgroupFullShared = 8;
constexpr uint32_t kTilesPerWorkgroupMultiPass = 8;
// Strided transforms taken side by side (PassKernel::vectorized) in tiles of less than 128 bytes
// per row loop over 2 (H200, the strided pass of 1024^2 f32, 8 columns: 0.569-0.576 ms for the
// 2D transform against 0.604-0.608 with 4; 512^2, 16 columns, lost: 0.564-0.574 against 0.553).
constexpr uint32_t kTilesPerWorkgroupNarrowStrided = 2;
constexpr uint32_t kWideStridedRowBytes = 128;
constexpr uint64_t kMinLoopingTiles = 4096;
// Looping holds two tiles in registers: the one being transformed and the next. Beyond this many
// bytes per tile that spills (H200, 16384 f32 points in one pass: 128 registers per invocation
// with spilling, 1912-1980 GB/s, against 2732 without looping), so such passes do not loop by
// default.
constexpr uint64_t kMaxLoopingTileBytes = 8192 * 8;
// Spans up to which a pass's twiddle steps are one table rather than two (PassKernel::step_split).
constexpr uint32_t kOneStepTableSpan = 4096;
// A column needs this many invocations for direct loads to fill whole 32-byte memory sectors;
// shorter columns go through shared memory.
constexpr uint32_t kMinDirectThreads = 4;

// r2c rows whose halves have kSplitRadixHalfMin or kSplitRadixHalf points (128 and 256 reals;
// shorter halves take a row per invocation) take radix kSplitRadix, so that a column spreads over
// more invocations and the fused split's pairs over more of them. Measured on an H100 (not yet on
// the H200, where r2c 256 ran at 0.95x cuFFT with radix 16), 2^26 values, alternated twice
// (bench/RESULTS.md, fortieth run): r2c 128 2869-2873 GB/s against 2374-2377, 256 2886-2890
// against 2433-2437, 2D 256 x 256 +7.8%; f64 128 +4.3%, 256 +2.5%. Longer rows lost (f32 1024
// -4 to -5%, f64 512 -9.5%); c2r too (f32 128 -7%, 256 -10%). Other lengths are not measured.
constexpr uint32_t kSplitRadix = 4;
constexpr uint32_t kSplitRadixHalfMin = 64;
constexpr uint32_t kSplitRadixHalf = 128;
// c2r rows of 64 reals (halves of kJoinRadixHalf points, which alone would take a row per
// invocation) take radix kJoinRadix: 4 invocations per row, which each join and transform 8
// points. Measured on an H100 (not yet on the H200), 2^26 values, each alternated twice
// (bench/RESULTS.md, forty-first run): f32 2645-2649 GB/s against 2484-2491 (+6.3%), f64 2960-2966
// against 2728-2733 (+8.5%), irfftn 256 x 64 +4.6%, 64 x 64 +1.3%. Rows of 32 reals gained 0.7% at
// radix 8, radix 4 and 16 lost at 64 (2360 and 2534); r2c 64 lost at radix 8 (2159).
constexpr uint32_t kJoinRadix = 8;
constexpr uint32_t kJoinRadixHalf = 32;
// The most lane swaps (PassKernel::lane_swaps) a kernel takes under Strategy::automatic (see
// assign_lane_swaps).
constexpr size_t kAutomaticLaneSwaps = 1;

uint32_t log2u(uint64_t x) { return static_cast<uint32_t>(std::bit_width(x) - 1); }

// The primes a length may have for the register butterflies (radices up to 32 built from them).
// Primes 17 to 31 take a butterfly of their own (a stage of radix p, on p registers).
constexpr uint32_t kPrimes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31};
// Non-uniform kernels: the largest butterfly of a stage, and the most registers per invocation.
// H200: radices up to 32 saved a stage at 3003, 6000 and 10000 (8-10% faster) but ran 4095 and
// 2310 21% slower (13 x 15 x 21 against 3 x 7 x 13 x 15, 5 x 21 x 22 against 11 x 14 x 15).
constexpr uint32_t kMixedRadix = 16;
constexpr uint32_t kMaxPoints = 32;

// The prime factors of n in ascending order, or empty if n has a prime factor above 31.
std::vector<uint32_t> smooth_factors(uint64_t n) {
    std::vector<uint32_t> out;
    for (uint32_t p : kPrimes)
        for (; n % p == 0; n /= p) out.push_back(p);
    if (n != 1) out.clear();
    return out;
}

// How a column of `radix` points is spread over invocations (PassKernel::threads_per_column).
struct ColumnLayout {
    uint32_t points = 1;   // registers per invocation
    uint32_t threads = 1;  // invocations per column
    std::vector<uint32_t> stages;
};

// Stage radices for an R-point pass whose invocations hold P points each, in a uniform layout
// (every stage radix divides P): repeatedly the largest radix dividing both P and what is left,
// remainders first (2048 with P = 16: 8 x 16 x 16). Empty if R has a prime factor that P lacks.
std::vector<uint32_t> uniform_stages(uint32_t radix, uint32_t points) {
    std::vector<uint32_t> out;
    for (uint32_t left = radix; left > 1;) {
        const uint32_t r = std::gcd(left, points);
        if (r == 1) return {};
        out.push_back(r);
        left /= r;
    }
    std::reverse(out.begin(), out.end());
    return out;
}

// A layout for a column length that is not a power of two, from its prime factors (which
// smooth_factors has checked). Uniform where some P <= kMaxPoints holds every prime of the
// length: the fewest stages, then P at most 16, then the largest P; with a caller's max_radix,
// the fewest stages, then the largest P up to it, or up to the product of the length's distinct
// primes where that is more, since every uniform P is a multiple of it (20 = 2^2 5 under
// max_radix 4: P = 10). Where there is none (lengths such as
// 4095 = 3^2 5 7 13), or where it saves a stage, a non-uniform layout: stages from the primes
// packed into radices up to kMixedRadix, and the invocation count that wastes the fewest
// butterfly slots within kMaxPoints registers. Only layouts of at most `max_threads`
// invocations per column are considered.
std::optional<ColumnLayout> mixed_layout(uint32_t radix, bool uniform_only, uint32_t max_radix,
                                         uint32_t max_threads) {
    std::optional<ColumnLayout> best;
    auto rank = [&](const ColumnLayout& l) {
        return std::make_tuple(l.stages.size(), !max_radix && l.points > kDefaultRadix, -int64_t(l.points));
    };
    std::vector<uint32_t> primes = smooth_factors(radix);
    uint32_t primes_product = 1;
    for (uint32_t q : primes)
        if (primes_product % q != 0) primes_product *= q;
    const uint32_t most = max_radix ? std::min(kMaxPoints, std::max(max_radix, primes_product)) : kMaxPoints;
    for (uint32_t p = 1; p <= std::min(radix, most); ++p) {
        if (radix % p != 0 || radix / p > max_threads) continue;
        ColumnLayout l{p, radix / p, uniform_stages(radix, p)};
        if (l.stages.empty() && radix > 1) continue;
        if (!best || rank(l) < rank(*best)) best = l;
    }
    if (uniform_only || radix == 1) return best;

    // First-fit decreasing of the primes into radices of at most kMixedRadix.
    std::vector<uint32_t> bins;
    std::sort(primes.rbegin(), primes.rend());
    for (uint32_t p : primes) {
        auto fit = std::find_if(bins.begin(), bins.end(), [&](uint32_t b) { return b * p <= kMixedRadix; });
        if (fit != bins.end())
            *fit *= p;
        else
            bins.push_back(p);
    }
    std::sort(bins.begin(), bins.end());
    // Non-uniform only where it saves a stage.
    if (best && best->stages.size() <= bins.size()) return best;
    std::optional<ColumnLayout> spread;
    uint64_t best_cost = UINT64_MAX;
    // Fewer than radix / kMaxPoints invocations cannot hold a column.
    for (uint32_t threads = std::max(1u, radix / kMaxPoints); threads <= std::min(radix, max_threads);
         ++threads) {
        uint32_t points = 0;
        uint64_t cost = 0;  // butterfly-point slots the column's invocations run, idle ones included
        for (uint32_t r : bins) {
            const uint32_t groups = (radix / r + threads - 1) / threads;
            points = std::max(points, groups * r);
            cost += uint64_t(groups) * r * threads;
        }
        if (points > kMaxPoints || cost >= best_cost) continue;
        best_cost = cost;
        spread = ColumnLayout{points, threads, bins};
    }
    return spread ? spread : best;
}

// Geometry the planner allows beyond the defaults, for plans that need it.
struct Allow {
    bool half_rounds = false;    // one-column kernels exchanging half of their points at a time
    bool column_halves = false;  // kernels of several columns too (for a split taken across them)
    bool narrow_tiles = false;   // multi-pass tiles of kTwoPassColumns where wider ones do not fit
    // The last of several passes takes kWideColumns columns per workgroup where they fit and
    // divide its span: for split fused into it, whose mirrored tiles then load and store runs of
    // kWideColumns / 2 points (H200, r2c 65536: 1465-1485 GB/s against 1370 with 16 columns).
    bool wide_last_tiles = false;
    // One-pass kernels of short columns aim for kShortWorkgroup invocations: for batches of
    // unit-stride 1D c2c transforms on GPUs with the default radices, not convolutions'
    // (plan_problem), as measured.
    bool short_workgroups = false;
    // The passes after Rader's first (rader_first_passes) try kAfterRaderColumnBlocks first: their
    // rows, p points apart for a prime p, are not aligned, and wider tiles load and store longer
    // runs of them.
    bool after_rader = false;
};

// The batch dims of a side (`batch_stride` picks its strides) that nest densely from a
// transform's extent (row_points()), each stepping past the whole extent of those before it:
// how many columns the leading ones hold together with one transform's, and whether all do.
struct DenseRun {
    uint64_t columns;
    bool all_dims;
};
template <typename Stride>
DenseRun dense_run(const PassKernel& k, Stride batch_stride) {
    DenseRun out{k.columns_per_transform(), true};
    uint64_t extent = k.row_points();
    for (const PassKernel::BatchDim& d : k.batch_dims) {
        if (batch_stride(d) != extent) return {out.columns, false};
        out.columns *= d.count;
        extent *= d.count;
    }
    return out;
}
const auto src_stride_of = [](const PassKernel::BatchDim& d) { return d.src_stride; };
const auto dst_stride_of = [](const PassKernel::BatchDim& d) { return d.dst_stride; };

// Fills in the geometry of a kernel for `radix` points per column, or returns false if no
// geometry fits the device.
bool fit_kernel(PassKernel& k, const DeviceCaps& caps, const Options& options, Allow allow = {}) {
    const bool pow2 = std::has_single_bit(k.radix);
    // One-pass columns of 64 points take 8 per invocation by default, so that 8 invocations
    // share a column and load it directly (H200: 90% of copy against 76-78% with 16 per
    // invocation).
    const bool narrow = !options.max_radix && k.points_contiguous && k.radix == 64;
    // The rules for 32 points per invocation below were measured in f32. In f64 the same points
    // take twice the registers, so f64 keeps 16 until measured.
    const bool f32 = k.precision == Precision::f32;
    // One-pass columns of 32 points take all 32 in one invocation, loaded and stored through
    // shared memory (H200: 93-94% of copy in three runs, against 82-89% with 8 per invocation).
    const bool whole = f32 && !options.max_radix && k.points_contiguous && k.radix == 32;
    // One-pass columns of more than 16 and up to 32 times the subgroup size take 32 per
    // invocation, which puts a column's invocations in one subgroup, whose exchanges then wait
    // on the subgroup only (H200: N = 1024 at 87% of copy against 78-82%). At 16 times the
    // subgroup size 16 per invocation fill one subgroup already: N = 512 ran 4066-4076 GB/s
    // (2 x 16 x 16) against 3958-3965 with 32 (16 x 32) in the same run.
    const bool subgroups = options.subgroup_barriers && caps.has_subgroup_operation("basic");
    const bool wide = f32 && !options.max_radix && k.points_contiguous && subgroups &&
                      k.radix / kDefaultRadix > caps.subgroup_size && k.radix / 32 <= caps.subgroup_size;
    // Multi-pass columns of 512 points or more take 32 per invocation: one exchange fewer, and
    // twice the invocations per column for the narrow tiles of long passes (H200: 2^18 at 1594
    // GB/s against 1472, 2^19 1258 against 1212, 2^20 1364 against 1187; shorter columns lost,
    // 65536 at 1744 against 1855).
    const bool long_columns = f32 && !options.max_radix && !k.points_contiguous && k.radix >= kLongColumn;
    const uint32_t largest = options.max_radix               ? options.max_radix
                             : narrow                        ? 8
                             : whole || wide || long_columns ? 32
                                                             : kDefaultRadix;
    const uint32_t max_threads = std::min(caps.max_workgroup_invocations, caps.max_workgroup_size[0]);
    ColumnLayout layout;
    if (pow2) {
        layout.points = std::min(k.radix, largest);
        layout.threads = k.radix / layout.points;
        layout.stages = uniform_stages(k.radix, layout.points);
    } else if (auto l = mixed_layout(k.radix, !k.points_contiguous, options.max_radix,
                                     k.points_contiguous ? max_threads : max_threads / kTwoPassColumns)) {
        // Pass twiddles (multi-pass kernels) need the uniform layout.
        layout = *l;
    } else {
        return false;
    }
    const uint32_t threads_per_column = layout.threads;
    const uint32_t word = k.precision == Precision::f32 ? 4u : 8u;
    const uint32_t shared_limit = options.max_shared_memory
                                      ? std::min(options.max_shared_memory, caps.max_shared_memory_bytes)
                                      : caps.max_shared_memory_bytes / 2;

    // Candidate columns per workgroup, best first.
    std::vector<uint32_t> blocks;
    const bool short_workgroup = allow.short_workgroups && f32 && pow2 && k.points_contiguous &&
                                 k.radix >= kShortColumnMin && k.radix <= kShortColumn && k.radix != 32;
    const uint32_t target_workgroup = options.workgroup_size ? options.workgroup_size
                                      : short_workgroup      ? kShortWorkgroup
                                                             : kTargetWorkgroup;
    if (k.points_contiguous)
        for (uint32_t b = std::max(1u, target_workgroup / threads_per_column); b >= 1; b /= 2)
            blocks.push_back(b);
    else if (options.columns_per_workgroup)
        blocks.push_back(options.columns_per_workgroup);
    else if (std::has_single_bit(k.length))
        blocks.assign(std::begin(kPow2ColumnBlocks), std::end(kPow2ColumnBlocks));
    else
        blocks.assign(std::begin(kColumnBlocks), std::end(kColumnBlocks));
    if (!k.points_contiguous && !k.vectorized && !options.columns_per_workgroup && allow.after_rader)
        blocks.insert(blocks.begin(), std::begin(kAfterRaderColumnBlocks), std::end(kAfterRaderColumnBlocks));
    if (!k.points_contiguous && !options.columns_per_workgroup && allow.narrow_tiles)
        blocks.push_back(kTwoPassColumns);
    if (!k.points_contiguous && !options.columns_per_workgroup && allow.wide_last_tiles &&
        k.span * k.radix == k.length && k.span % kWideColumns == 0)
        blocks.insert(blocks.begin(), kWideColumns);

    const bool short_columns = k.points_contiguous && k.radix > 1 && threads_per_column < kMinDirectThreads;
    // Staging moves whole tiles as one run of memory: where transforms follow one another densely,
    // or where a tile lies within a run of columns: those of one transform of unit stride, and of
    // the batch dims after it that nest densely (Rader's first pass: its t, whose p-point results
    // lie t p + r, before the padded rows of a real transform's half length).
    // (packed: PassKernel::packed_src() or packed_dst(); columns: 0 where the side has no run.)
    struct Runs {
        bool packed;
        uint64_t columns;
    };
    auto runs = [&](uint32_t stride, auto stride_of) {
        if (stride != 1 || k.vectorized) return Runs{false, 0};
        const DenseRun dense = dense_run(k, stride_of);
        return Runs{dense.all_dims, dense.columns};
    };
    const Runs src = runs(k.src_stride, src_stride_of), dst = runs(k.dst_stride, dst_stride_of);
    auto run = [](const Runs& side, uint32_t block) {
        return side.packed || (side.columns > 0 && side.columns % block == 0);
    };
    // Rader's transforms scatter their results (X_{g^-m}), which a staged store writes as one run
    // (H100, 41984 = 41 x 1024: Rader's pass 0.89 -> 0.41 ms). A block whose tiles are no run
    // gives way to the largest divisor of the run of columns that keeps at least half of its
    // invocations (r2c 4736: 64 columns, not 85).
    if (k.rader_prime && dst.columns > 0)
        for (uint32_t& block : blocks) {
            if (run(dst, block)) continue;
            uint32_t divisor = block;
            while (dst.columns % divisor != 0) --divisor;
            if (divisor > 1 && 2 * divisor >= block) block = divisor;
        }
    const auto& stages = layout.stages;
    const bool subgroup_exchanges = subgroups && k.points_contiguous && stages.size() > 1 &&
                                    caps.subgroup_size > 0 && caps.subgroup_size % threads_per_column == 0;
    // The flag through which a workgroup agrees whether its subgroups are laid out as expected.
    const uint64_t flag_bytes = subgroup_exchanges ? 4 : 0;

    for (uint32_t block : blocks) {
        const uint64_t threads = uint64_t(block) * threads_per_column;
        if (threads > max_threads) continue;
        // Bluestein's chirp reads and writes the transforms point by point.
        // Rader's permutations gather and scatter through shared memory where a tile is one run.
        const bool staged_load = (short_columns || k.rader_prime) && !k.chirp_load && run(src, block);
        const bool staged_store = (short_columns || k.rader_prime || (!k.points_contiguous && k.span == 1)) &&
                                  !k.chirp_store && run(dst, block);
        const bool exchanges = stages.size() > 1 || staged_load || staged_store;
        // Both components in one round if they fit (one-pass kernels only: kMultiPassMinRounds),
        // else one component at a time, else one component of half the points
        // (PassKernel::exchange_rounds).
        const bool halves = (allow.half_rounds || allow.column_halves) && pow2 &&
                            (block == 1 || allow.column_halves) && k.points_contiguous && stages.size() > 1 &&
                            !staged_load && !staged_store;
        uint32_t rounds = 0;
        uint64_t shared = 0;
        for (uint32_t r : {1u, 2u, 4u}) {
            if (r == 4 && !halves) break;
            if (!k.points_contiguous && r < kMultiPassMinRounds) continue;
            // Rader's staged tiles hold p points per column (PassKernel::row_points).
            const uint64_t words =
                exchanges
                    ? exchange_array_words(uint64_t(block) * (k.rader_prime ? k.row_points() : k.radix), r)
                    : 0;
            shared = (r == 1 ? 2 : 1) * words * word + flag_bytes;
            rounds = r;
            if (shared <= shared_limit) break;
        }
        if (shared > shared_limit) continue;

        k.points_per_thread = layout.points;
        k.threads_per_column = threads_per_column;
        k.columns_per_workgroup = block;
        k.workgroup_size = static_cast<uint32_t>(threads);
        k.staged_load = staged_load;
        k.staged_store = staged_store;
        k.exchange_rounds = rounds;
        k.shared_bytes = static_cast<uint32_t>(shared);
        k.subgroup_exchanges = subgroup_exchanges;
        k.stages.clear();
        uint32_t span = 1;
        for (uint32_t r : stages) {
            k.stages.push_back(Stage{r, span, 0});
            span *= r;
        }
        if (!pow2 && k.points_contiguous && !k.rader_prime && !options.workgroup_size &&
            threads >= kLargeMixedWorkgroup) {
            Options smaller = options;
            smaller.workgroup_size = kMixedWorkgroup;
            PassKernel small = k;
            if (fit_kernel(small, caps, smaller, allow)) k = small;
        }
        return true;
    }
    return false;
}

// Whether a kernel for `radix` points per column fits.
bool fits(uint32_t radix, bool contiguous, const DeviceCaps& caps, const Options& options,
          Precision precision, Allow allow = {}) {
    PassKernel k;
    k.precision = precision;
    k.radix = k.length = radix;
    k.points_contiguous = contiguous;
    return fit_kernel(k, caps, options, allow);
}

// The longest power-of-two pass that fits the device in the given access pattern.
uint32_t longest_pass(const DeviceCaps& caps, const Options& options, Precision precision,
                      bool points_contiguous, Allow allow = {}) {
    for (uint32_t bits = 30; bits > 0; --bits)
        if (fits(1u << bits, points_contiguous, caps, options, precision, allow)) return 1u << bits;
    return 1;
}

class TwiddleTableBuilder {
public:
    // Stage factors W_{span*radix}^{j*m} at [(m - 1) * span + j]; shared between stages of
    // equal shape.
    uint32_t stage_table(uint32_t radix, uint32_t span) {
        auto key = std::make_pair(radix, span);
        if (auto it = stages_.find(key); it != stages_.end()) return it->second;
        const uint32_t offset = static_cast<uint32_t>(entries_.size());
        for (uint32_t m = 1; m < radix; ++m)
            for (uint32_t j = 0; j < span; ++j) entries_.push_back({j * m, span * radix});
        stages_[key] = offset;
        return offset;
    }

    // The pass twiddle tables (see PassKernel::lane_columns): the steps W_{span P}^{j m} as
    // low[m - 1][j mod split] * high[m - 1][j / split]; for more than one invocation per column
    // also lanes[i][j_lo] = W^{j_lo i} and a two-level table of W^e: fine[lo] = W^lo,
    // coarse[hi] = W^(hi << bits).
    void pass_tables(PassKernel& k) {
        const uint32_t period = k.span * k.radix, P = k.points_per_thread, threads = k.threads_per_column;
        // One table of (P - 1) * span steps while that is small, else two of about sqrt(span)
        // (a single table held 15 * 2^18 entries at 2^27 points).
        k.step_split = k.span <= kOneStepTableSpan ? k.span : 1u << ((log2u(k.span) + 1) / 2);
        k.step_low_offset = static_cast<uint32_t>(entries_.size());
        for (uint32_t m = 1; m < P; ++m)
            for (uint32_t lo = 0; lo < k.step_split; ++lo) entries_.push_back({lo * m, k.span * P});
        k.step_high_offset = static_cast<uint32_t>(entries_.size());
        if (k.step_split < k.span)
            for (uint32_t m = 1; m < P; ++m)
                for (uint32_t hi = 0; hi < (k.span + k.step_split - 1) / k.step_split; ++hi)
                    entries_.push_back({hi * k.step_split * m, k.span * P});
        if (threads == 1) return;
        k.lane_columns = std::min(k.span, k.columns_per_workgroup);
        k.lane_offset = static_cast<uint32_t>(entries_.size());
        for (uint32_t i = 0; i < threads; ++i)
            for (uint32_t lo = 0; lo < k.lane_columns; ++lo) entries_.push_back({lo * i, period});
        // e = j_hi * i < span * threads.
        const uint32_t range = k.span * threads;
        const uint32_t bits = (log2u(range) + 1) / 2;
        k.fine_bits = bits;
        k.fine_offset = static_cast<uint32_t>(entries_.size());
        for (uint32_t lo = 0; lo < (1u << bits); ++lo) entries_.push_back({lo, period});
        k.coarse_offset = static_cast<uint32_t>(entries_.size());
        for (uint32_t hi = 0; hi < (range + (1u << bits) - 1) >> bits; ++hi)
            entries_.push_back({hi << bits, period});
    }

    // W_N^e for e < N, the direct sum's factors.
    uint32_t direct_table(uint32_t n) {
        if (auto it = direct_.find(n); it != direct_.end()) return it->second;
        const uint32_t offset = static_cast<uint32_t>(entries_.size());
        for (uint32_t e = 0; e < n; ++e) entries_.push_back({e, n});
        direct_[n] = offset;
        return offset;
    }

    // W_n^k for k < count: the factors of a real transform's split and join steps.
    uint32_t roots_table(uint32_t n, uint32_t count) {
        if (auto it = roots_.find({n, count}); it != roots_.end()) return it->second;
        const uint32_t offset = static_cast<uint32_t>(entries_.size());
        for (uint32_t k = 0; k < count; ++k) entries_.push_back({k, n});
        roots_[{n, count}] = offset;
        return offset;
    }

    // The chirp c_x = W_{2n}^{x^2 mod 2n}, x < n, of Bluestein's transform of n points.
    uint32_t chirp_table(uint32_t n) {
        if (auto it = chirps_.find(n); it != chirps_.end()) return it->second;
        const uint32_t offset = static_cast<uint32_t>(entries_.size());
        const uint64_t period = 2 * uint64_t(n);
        for (uint64_t x = 0; x < n; ++x)
            entries_.push_back({static_cast<uint32_t>(x * x % period), static_cast<uint32_t>(period)});
        chirps_[n] = offset;
        return offset;
    }

    // Room for a spectrum (its values are not roots of unity: LogicalPlan::SpectrumTable): the
    // chirp's of Bluestein's transform of n points through m (generator 0), or the one of
    // Rader's transform of the prime n (m = n - 1) with primitive root `generator`.
    uint32_t spectrum_table(uint32_t n, uint32_t m, uint32_t generator = 0) {
        for (const auto& t : spectra_)
            if (t.n == n && t.m == m && t.generator == generator) return t.offset;
        const uint32_t offset = static_cast<uint32_t>(entries_.size());
        entries_.resize(entries_.size() + m, TwiddleEntry{0, 1});
        spectra_.push_back({n, m, offset, generator});
        return offset;
    }

    std::vector<TwiddleEntry> take() { return std::move(entries_); }
    std::vector<LogicalPlan::SpectrumTable> take_spectra() { return std::move(spectra_); }

private:
    std::vector<TwiddleEntry> entries_;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> stages_;
    std::map<uint32_t, uint32_t> direct_;
    std::map<uint32_t, uint32_t> chirps_;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> roots_;
    std::vector<LogicalPlan::SpectrumTable> spectra_;
};

// The buffers each pass reads and writes. Every pass but the last is out-of-place (Stockham);
// the last (span * radix == length) reads and writes the same elements in each workgroup, so it
// may run in place. Walking back from the output, passes alternate between the output and the
// scratch buffer; when that would make the first pass write its own input, the last pass runs
// in place instead and the alternation starts one pass earlier.
std::vector<Route> make_routes(size_t passes, Placement placement) {
    std::vector<Route> routes(passes);
    if (passes == 0) return routes;
    // dest(k): the buffer pass k (1-based) writes when the alternation ends at pass `last`.
    auto dest = [](size_t k, size_t last) {
        return (last - k) % 2 == 0 ? BufferRole::output : BufferRole::scratch;
    };
    // The in-place-last layout never needs more scratch than the plain one, so prefer it when
    // the first pass would not overwrite its own input.
    const bool last_in_place =
        passes == 1 || placement == Placement::out_of_place || dest(1, passes - 1) != BufferRole::output;
    const size_t last = last_in_place ? passes - 1 : passes;
    BufferRole src = placement == Placement::in_place ? BufferRole::output : BufferRole::input;
    for (size_t k = 1; k <= passes; ++k) {
        const BufferRole dst = k <= last ? dest(k, last) : BufferRole::output;
        routes[k - 1] = Route{src, dst};
        src = dst;
    }
    return routes;
}

// The passes of a transform: their radices (largest first), and the kernel options and
// geometry they are fitted with.
struct PassChoice {
    std::vector<uint32_t> radices;
    Options kernel_options;
    Allow allow;
    bool all_shared = false;  // the one pass takes all of the shared memory by default
    // The last pass takes all of the shared memory by default, for wider tiles than the others'.
    bool last_all_shared = false;
};

// One pass of strided transforms taken side by side (PassKernel::vectorized), if one fits: the
// widest tiles (most columns per workgroup) that fit, within half of the shared memory if they
// can, else all of it. H200, the strided dim of 2D f32 (with the contiguous dim's pass):
// 256 x 256 at 1991 GB/s with 16 columns in half of the shared memory, 1868 in all of it;
// 512 x 512 1927 with 16 columns in all of it against 1700 with 8 in half; 1024 x 1024 1796 with
// 8 columns in all of it against 1553 with 4 in half; 2048 x 2048 1434 in one pass of 4 columns
// against 1246 in two. In f64 powers of two also take 2 columns, which puts a 2048-point dim in
// one pass (H100, f64, 2^26 values, against two passes of 32 columns: c2c 2048 x 2048 1240 GB/s
// against 984, 2048 x 1024 1280 against 986, 2048 x 256 1297 against 991; rfftn of those shapes
// +20%, irfftn +2% to +7%). Not in f32, where it would put 4096 points in one pass: rfftn
// 4096 x 4096 ran at 209 GB/s so against 338 in two passes.
std::optional<PassChoice> wide_strided_pass(uint32_t n, const DeviceCaps& caps, const Options& options,
                                            Precision precision) {
    const bool two = precision == Precision::f64 && std::has_single_bit(n);
    const std::vector<uint32_t> widths = options.columns_per_workgroup
                                             ? std::vector<uint32_t>{options.columns_per_workgroup}
                                         : two ? std::vector<uint32_t>{16, 8, 4, 2}
                                               : std::vector<uint32_t>{16, 8, 4};
    for (uint32_t columns : widths) {
        for (uint32_t shared : {caps.max_shared_memory_bytes / 2, caps.max_shared_memory_bytes}) {
            Options wide = options;
            wide.columns_per_workgroup = columns;
            if (wide.max_shared_memory == 0) wide.max_shared_memory = shared;
            if (fits(n, false, caps, wide, precision)) return PassChoice{{n}, wide, {}, false};
        }
    }
    return std::nullopt;
}

// `vectorized`: the transforms are strided and taken by neighbouring invocations side by side
// (PassKernel::vectorized), so even one pass uses a multi-pass kernel's columns.
PassChoice pow2_passes(uint64_t n, const DeviceCaps& caps, const Options& options, Precision precision,
                       bool vectorized) {
    auto cap = [&](uint32_t r) { return options.max_pass_length ? std::min(r, options.max_pass_length) : r; };
    if (vectorized && (!options.max_pass_length || n <= options.max_pass_length))
        if (auto wide = wide_strided_pass(static_cast<uint32_t>(n), caps, options, precision)) return *wide;
    // Kernels keep within half the shared memory by default (Options::max_shared_memory), except
    // that one pass with all of it beats two passes (H200, 8192 points: 2694 GB/s against 1797).
    // Such a pass takes 32 points per invocation by default: fewer exchanges, which each wait on
    // the whole workgroup (H200, 8192 points: 3193 GB/s against 2692-2791 with 16). Failing that,
    // one pass that exchanges half the points at a time (16384 on the H200).
    Options kernel_options = options;
    Allow allow;
    bool all_shared = false;  // the one pass takes all of the shared memory by default
    bool last_all_shared = false;
    uint32_t one_pass = vectorized ? 1 : cap(longest_pass(caps, options, precision, true));
    if (n > one_pass && options.max_shared_memory == 0 && !vectorized) {
        Options full = options;
        full.max_shared_memory = caps.max_shared_memory_bytes;
        if (full.max_radix == 0 && precision == Precision::f32) full.max_radix = kMaxRadix;
        for (bool halves : {false, true})
            if (n <= cap(longest_pass(caps, full, precision, true, Allow{.half_rounds = halves}))) {
                kernel_options = full;
                all_shared = true;
                allow.half_rounds = halves;
                one_pass = static_cast<uint32_t>(n);
                break;
            }
    }
    // A caller's shared-memory limit: one pass in halves rather than more passes.
    if (n > one_pass && options.max_shared_memory != 0 && !vectorized &&
        n <= cap(longest_pass(caps, options, precision, true, Allow{.half_rounds = true}))) {
        allow.half_rounds = true;
        one_pass = static_cast<uint32_t>(n);
    }
    uint32_t per_pass = cap(longest_pass(caps, options, precision, false));
    if (per_pass < 2 && n > one_pass)
        throw UnsupportedError("the device's shared memory and workgroup limits fit no multi-pass kernel");
    const uint32_t bits = log2u(n);
    auto passes_of = [&](uint32_t longest) { return (bits + log2u(longest) - 1) / log2u(longest); };
    // Two passes with narrow tiles where wide ones do not fit beat three of wide ones (H200: 2^19
    // at 1224 GB/s against 1163, 2^20 at 1205 against 1131-1137), though not two passes of wide
    // tiles. Each pass takes the widest tiles that fit.
    if (n > one_pass && options.columns_per_workgroup == 0 && passes_of(per_pass) == 3) {
        const uint32_t longest =
            cap(longest_pass(caps, kernel_options, precision, false, Allow{.narrow_tiles = true}));
        if (longest >= 2 && passes_of(longest) == 2) {
            allow.narrow_tiles = true;
            per_pass = longest;
            // f32 only: in f64 the last pass lost with all of the shared memory (H200, 2^17 1697
            // GB/s against 1762, 2^18 1534 against 1625).
            last_all_shared = options.max_shared_memory == 0 && precision == Precision::f32;
        }
    }

    // Pass radices, largest first, as even as the bits allow.
    std::vector<uint32_t> radices;
    if (n <= one_pass) {
        radices.push_back(static_cast<uint32_t>(n));
    } else {
        const uint32_t per = log2u(per_pass);
        const uint32_t count = (bits + per - 1) / per;
        for (uint32_t i = 0; i < count; ++i)
            radices.push_back(1u << (bits / count + (i < bits % count ? 1 : 0)));
    }

    return PassChoice{radices, kernel_options, allow, all_shared, last_all_shared};
}

// One pass of r points (not a power of two), if it fits: strided transforms side by side, or
// contiguous ones within the default shared memory, else with all of it.
std::optional<PassChoice> mixed_one_pass(uint32_t r, const DeviceCaps& caps, const Options& options,
                                         Precision precision, bool vectorized) {
    if (vectorized) return wide_strided_pass(r, caps, options, precision);
    if (fits(r, true, caps, options, precision)) return PassChoice{{r}, options, {}, false};
    if (options.max_shared_memory == 0) {
        Options full = options;
        full.max_shared_memory = caps.max_shared_memory_bytes;
        if (fits(r, true, caps, full, precision)) return PassChoice{{r}, full, {}, true};
    }
    return std::nullopt;
}

// Lengths that are not powers of two: one pass if it fits (with all of the shared memory if
// need be), else the fewest passes whose radices divide n and fit, the most even first.
// `later`: the passes follow an earlier one (Rader's, rader_first_passes), so all of them take
// the multi-pass layout, and one such pass of all n points is the best split.
PassChoice mixed_passes(uint64_t n, const DeviceCaps& caps, const Options& options, Precision precision,
                        bool vectorized, bool later = false) {
    PassChoice c{{}, options, {}, false};
    // A pass holds at least one of the length's primes, whatever max_pass_length says.
    const uint64_t max_pass = options.max_pass_length
                                  ? std::max<uint64_t>(options.max_pass_length, smooth_factors(n).back())
                                  : UINT32_MAX;
    if (n <= max_pass && !later)
        if (auto one = mixed_one_pass(static_cast<uint32_t>(n), caps, options, precision, vectorized))
            return *one;
    // Divisors of n that fit a multi-pass kernel, any tile width.
    c.allow.narrow_tiles = options.columns_per_workgroup == 0;
    std::vector<uint32_t> divisors;
    // A multi-pass column holds at least one word per point in shared memory.
    const uint64_t longest =
        std::min<uint64_t>({later ? n : n / 2, max_pass, caps.max_shared_memory_bytes / 4});
    for (uint64_t d = 2; d <= longest; ++d)
        if (n % d == 0 && fits(static_cast<uint32_t>(d), false, caps, options, precision, c.allow))
            divisors.push_back(static_cast<uint32_t>(d));
    // Factorizations of `left` into exactly `count` of those divisors, in non-increasing order up
    // to `cap`; keeps the one whose largest factor is smallest.
    std::vector<uint32_t> current, best;
    auto search = [&](auto& self, uint64_t left, uint32_t count, uint64_t cap) -> void {
        if (count == 1) {
            if (left <= cap && std::binary_search(divisors.begin(), divisors.end(), left)) {
                current.push_back(static_cast<uint32_t>(left));
                if (best.empty() || current.front() < best.front()) best = current;
                current.pop_back();
            }
            return;
        }
        for (auto it = divisors.rbegin(); it != divisors.rend(); ++it) {
            const uint64_t d = *it;
            if (d > cap || left % d != 0) continue;
            if (!best.empty() && current.empty() && d >= best.front()) continue;
            current.push_back(*it);
            self(self, left / d, count - 1, d);
            current.pop_back();
        }
    };
    for (uint32_t count = later ? 1 : 2; count <= 64 && best.empty(); ++count) search(search, n, count, n);
    if (best.empty())
        throw UnsupportedError("no split of length " + std::to_string(n) +
                               " into passes fits the device's shared memory and workgroup limits");
    c.radices = best;
    // After Rader's pass, a last pass that takes narrow tiles in half of the shared memory takes
    // all of it, for wider tiles, as the last of two power-of-two passes does (pow2_passes; f32
    // only). H100, 41984 = 41 x 1024: its pass of 1024 points 0.912 -> 0.763 ms with 8 columns
    // in 48 KiB against 4 in 24 KiB.
    c.last_all_shared = later && options.max_shared_memory == 0 && precision == Precision::f32 &&
                        !fits(best.back(), false, caps, options, precision);
    return c;
}

// How one dim's transforms lie in memory, for the kernels of its passes (see
// PassKernel::batch_dims).
struct DimLayout {
    uint64_t length = 1;
    uint64_t batch = 1;                            // transforms
    std::vector<PassKernel::BatchDim> batch_dims;  // empty: packed
    uint64_t src_stride = 1;
    uint64_t dst_stride = 1;
    bool vectorized = false;
};

// The layout of `length`-point transforms of strides src_stride and dst_stride, repeated over
// `others` (fastest in the output first). Neighbouring batch dims that continue one another in
// both buffers merge into one; transforms that are strided while another dim is adjacent in
// memory are taken side by side (vectorized), unless `points_together` asks for each transform's
// points in neighbouring invocations whatever the output's strides (for a fused real split,
// which then stores across the columns: PassKernel::spectrum_across_columns).
DimLayout make_layout(uint64_t length, uint64_t src_stride, uint64_t dst_stride,
                      const std::vector<PassKernel::BatchDim>& others, bool points_together = false) {
    DimLayout l;
    l.length = length;
    l.src_stride = src_stride;
    l.dst_stride = dst_stride;
    std::vector<PassKernel::BatchDim> merged;
    for (const auto& d : others) {
        l.batch *= d.count;
        if (!merged.empty()) {
            auto& m = merged.back();
            if (d.src_stride == uint64_t(m.count) * m.src_stride &&
                d.dst_stride == uint64_t(m.count) * m.dst_stride) {
                m.count *= d.count;
                continue;
            }
        }
        merged.push_back(d);
    }
    l.vectorized = !points_together && !merged.empty() && merged.front().dst_stride < dst_stride;
    const bool packed = !l.vectorized && src_stride == 1 && dst_stride == 1 &&
                        (merged.empty() || (merged.size() == 1 && merged[0].src_stride == length &&
                                            merged[0].dst_stride == length));
    if (!packed) l.batch_dims = std::move(merged);
    return l;
}

void apply_layout(PassKernel& k, const DimLayout& l) {
    k.batch_dims = l.batch_dims;
    k.src_stride = static_cast<uint32_t>(l.src_stride);
    k.dst_stride = static_cast<uint32_t>(l.dst_stride);
    k.vectorized = l.vectorized;
}

// A dim of the problem as the planner sees it: a transform dim (dim >= 0, its index in
// FftDesc::dims()) or a batch dim (dim = -1).
struct PlanDim {
    uint64_t n;
    uint64_t in_stride;
    uint64_t out_stride;
    int dim;
};

// Every dim but all[axis] as batch dims, in the order of `all`; the source is the input buffer
// (reads_input) or a buffer in the output's layout.
std::vector<PassKernel::BatchDim> other_dims(const std::vector<PlanDim>& all, size_t axis, bool reads_input) {
    std::vector<PassKernel::BatchDim> others;
    for (size_t i = 0; i < all.size(); ++i)
        if (i != axis)
            others.push_back({static_cast<uint32_t>(all[i].n),
                              static_cast<uint32_t>(reads_input ? all[i].in_stride : all[i].out_stride),
                              static_cast<uint32_t>(all[i].out_stride)});
    return others;
}

// The layout of the transforms along all[axis], batched over every other dim; the source is the
// input buffer (reads_input) or a buffer in the output's layout.
DimLayout dim_layout(const std::vector<PlanDim>& all, size_t axis, bool reads_input,
                     bool points_together = false) {
    const PlanDim& a = all[axis];
    return make_layout(a.n, reads_input ? a.in_stride : a.out_stride, a.out_stride,
                       other_dims(all, axis, reads_input), points_together);
}

// A pass that copies every point of `layout` (transforms of one point).
Pass copy_pass(const DimLayout& layout, Precision precision, const DeviceCaps& caps) {
    PassKernel copy;
    copy.precision = precision;
    apply_layout(copy, layout);
    if (!fit_kernel(copy, caps, Options{})) throw UnsupportedError("no copy kernel fits the device");
    Pass p;
    p.kernel = copy;
    p.dim = -1;
    p.columns = layout.batch;
    p.tiles = p.workgroups = (p.columns + copy.columns_per_workgroup - 1) / copy.columns_per_workgroup;
    return p;
}

// The direct sum (Strategy::dft): one pass of direct kernels, each workgroup computing a block
// of one transform's outputs from all of its inputs. A workgroup reads its whole transform
// before it writes, so a transform of one block may run in place; longer ones write to scratch
// in place and a copy pass (a transform of length 1 over every element) brings them back.
constexpr uint32_t kDirectOutputs = 4;      // outputs per invocation
constexpr uint32_t kDirectWorkgroup = 256;  // most invocations per workgroup

std::vector<Pass> direct_passes(const DimLayout& layout, int dim, const std::vector<PlanDim>& all,
                                Precision precision, const DeviceCaps& caps, TwiddleTableBuilder& table) {
    const uint64_t n = layout.length;
    PassKernel k;
    k.kind = KernelKind::direct;
    k.precision = precision;
    k.length = k.radix = static_cast<uint32_t>(n);
    apply_layout(k, layout);
    k.vectorized = false;  // a workgroup computes one transform
    k.points_per_thread = kDirectOutputs;
    const uint32_t max_threads =
        std::min({caps.max_workgroup_invocations, caps.max_workgroup_size[0], kDirectWorkgroup});
    k.workgroup_size = k.threads_per_column = std::min<uint32_t>(
        max_threads, std::bit_ceil(static_cast<uint32_t>((n + kDirectOutputs - 1) / kDirectOutputs)));
    k.output_blocks = static_cast<uint32_t>((n + uint64_t(k.workgroup_size) * kDirectOutputs - 1) /
                                            (uint64_t(k.workgroup_size) * kDirectOutputs));
    k.table_offset = table.direct_table(static_cast<uint32_t>(n));

    std::vector<Pass> out;
    Pass direct;
    direct.kernel = k;
    direct.dim = dim;
    direct.columns = layout.batch;
    direct.tiles = direct.workgroups = layout.batch * k.output_blocks;
    out.push_back(direct);
    if (k.output_blocks > 1) {
        // The copy reads and writes the output's layout: every dim a batch dim.
        std::vector<PassKernel::BatchDim> every;
        for (const PlanDim& d : all)
            every.push_back({static_cast<uint32_t>(d.n), static_cast<uint32_t>(d.out_stride),
                             static_cast<uint32_t>(d.out_stride)});
        out.push_back(copy_pass(make_layout(1, 1, 1, every), precision, caps));
    }
    return out;
}

// A pass of kernel `k` over `batch` transforms, its workgroups looping over `looping` tiles each
// where that pays (Options::tiles_per_workgroup).
Pass make_pass(PassKernel k, uint64_t batch, int dim, uint32_t looping, const Options& options) {
    Pass p;
    p.dim = dim;
    p.columns = batch * k.columns_per_transform();
    p.tiles = (p.columns + k.columns_per_workgroup - 1) / k.columns_per_workgroup;
    // By default looping pays only where many tiles keep every workgroup busy for several turns,
    // and two tiles fit in registers.
    const bool loops =
        p.tiles >= kMinLoopingTiles &&
        uint64_t(k.columns_per_workgroup) * k.radix * complex_bytes(k.precision) <= kMaxLoopingTileBytes;
    const uint64_t per_group = std::min<uint64_t>(
        p.tiles, options.tiles_per_workgroup ? options.tiles_per_workgroup : (loops ? looping : 1));
    k.prefetch = per_group > 1;
    p.workgroups = (p.tiles + per_group - 1) / per_group;
    p.kernel = std::move(k);
    return p;
}

// A pass launched with one workgroup per tile instead of looping, as make_pass gives it under
// Options::tiles_per_workgroup = 1.
void one_tile_per_workgroup(Pass& p) {
    p.kernel.prefetch = false;
    p.workgroups = p.tiles;
}

// The passes of transforms of n points: pass p of `count` reads and writes `layout_for(p,
// count)`, and `fuse` (if any) adds fused steps to its kernel. `first_span` > 1: the passes
// after earlier ones whose radices multiply to it (Rader's pass: rader_first_passes), which
// leave the span-`first_span` Stockham layout in the output's layout.
using LayoutFor = std::function<DimLayout(size_t pass, size_t count)>;
using Fuse = std::function<void(PassKernel& kernel, size_t pass, size_t count)>;

std::vector<Pass> fast_passes(uint64_t n, bool vectorized, const LayoutFor& layout_for, int dim,
                              Precision precision, const DeviceCaps& caps, const Options& options,
                              TwiddleTableBuilder& table, const Fuse& fuse = {}, Allow extra = {},
                              uint32_t first_span = 1) {
    const bool later = first_span > 1;
    PassChoice choice = later ? mixed_passes(n / first_span, caps, options, precision, vectorized, true)
                        : std::has_single_bit(n) ? pow2_passes(n, caps, options, precision, vectorized)
                                                 : mixed_passes(n, caps, options, precision, vectorized);
    choice.allow.column_halves = extra.column_halves;
    choice.allow.short_workgroups = extra.short_workgroups;
    choice.allow.after_rader = later;
    const std::vector<uint32_t>& radices = choice.radices;
    // Several passes of the transform in all, so each takes the multi-pass layout.
    const bool several = radices.size() > 1 || later;
    std::vector<Pass> out;
    uint32_t span = first_span;
    for (uint32_t radix : radices) {
        PassKernel k;
        k.precision = precision;
        k.length = static_cast<uint32_t>(n);
        k.radix = radix;
        k.span = span;
        k.points_contiguous = !several && !vectorized;
        const DimLayout layout = layout_for(out.size(), radices.size());
        apply_layout(k, layout);
        if (fuse) fuse(k, out.size(), radices.size());
        Allow allow = choice.allow;
        const bool last = several && out.size() + 1 == radices.size();
        allow.wide_last_tiles = extra.wide_last_tiles && last;
        // The last of two passes of narrow tiles takes all of the shared memory, for wider tiles:
        // it reads and writes runs of a tile's columns, where the first pass writes whole
        // columns (H200, 2^20: that pass 0.344 ms with 8 columns in 48 KiB against 0.406 with 4
        // in 24 KiB, while the first pass lost with 8: 0.396 against 0.353).
        Options kernel_options = choice.kernel_options;
        if (last && choice.last_all_shared) kernel_options.max_shared_memory = caps.max_shared_memory_bytes;
        if (!fit_kernel(k, caps, kernel_options, allow))
            throw UnsupportedError("no kernel of radix " + std::to_string(radix) +
                                   " fits the device's limits");
        for (Stage& s : k.stages)
            if (s.span > 1) s.twiddle_offset = table.stage_table(s.radix, s.span);
        if (span > 1) table.pass_tables(k);

        const bool narrow_strided =
            vectorized && !several &&
            uint64_t(k.columns_per_workgroup) * complex_bytes(precision) < kWideStridedRowBytes;
        out.push_back(make_pass(k, layout.batch, dim,
                                several             ? kTilesPerWorkgroupMultiPass
                                : narrow_strided    ? kTilesPerWorkgroupNarrowStrided
                                : choice.all_shared ? kTilesPerWorkgroupFullShared
                                                    : kTilesPerWorkgroupOnePass,
                                options));
        span *= radix;
    }
    return out;
}

// Small dims that lie together in memory, transformed in one pass: from the fastest dim of the
// problem, the transform dims (powers of two) whose strides are 1, n_0, n_0 n_1, ... in both
// layouts, consecutive in desc.dims(), whose block of points fits a one-pass kernel. Returns
// their indices in `all`, fastest first, or nothing for fewer than two.
std::vector<size_t> combinable_dims(const std::vector<PlanDim>& all, const DeviceCaps& caps,
                                    const Options& options, Precision precision) {
    const uint64_t one_pass =
        std::min<uint64_t>(longest_pass(caps, options, precision, true),
                           options.max_pass_length ? options.max_pass_length : UINT32_MAX);
    std::vector<size_t> group;
    uint64_t block = 1;
    for (size_t i = 0; i < all.size(); ++i) {
        const PlanDim& d = all[i];
        const bool next_dim = group.empty() || d.dim + 1 == all[group.back()].dim;
        if (d.dim < 0 || !next_dim || !std::has_single_bit(d.n) || d.in_stride != block ||
            d.out_stride != block || block * d.n > one_pass)
            break;
        group.push_back(i);
        block *= d.n;
    }
    if (group.size() < 2) group.clear();
    return group;
}

// The one pass of the dims all[group] (combinable_dims), or nothing if its kernel does not fit
// with one group of stages per dim.
std::optional<Pass> combined_pass(const std::vector<PlanDim>& all, const std::vector<size_t>& group,
                                  Precision precision, const DeviceCaps& caps, const Options& options,
                                  TwiddleTableBuilder& table) {
    uint64_t block = 1;
    std::vector<PassKernel::BatchDim> others;
    for (size_t i = 0; i < all.size(); ++i) {
        if (std::find(group.begin(), group.end(), i) != group.end()) {
            block *= all[i].n;
            continue;
        }
        others.push_back({static_cast<uint32_t>(all[i].n), static_cast<uint32_t>(all[i].in_stride),
                          static_cast<uint32_t>(all[i].out_stride)});
    }
    const DimLayout layout = make_layout(block, 1, 1, others);
    PassKernel k;
    k.precision = precision;
    k.length = k.radix = static_cast<uint32_t>(block);
    k.points_contiguous = !layout.vectorized;
    apply_layout(k, layout);
    // The geometry of a transform of the whole block; its exchanges must exist for the groups'.
    if (!k.points_contiguous || !fit_kernel(k, caps, options) || k.shared_bytes == 0 ||
        k.exchange_rounds == 4)
        return std::nullopt;
    k.stages.clear();
    for (auto it = group.rbegin(); it != group.rend(); ++it) {
        const std::vector<uint32_t> radices =
            uniform_stages(static_cast<uint32_t>(all[*it].n), k.points_per_thread);
        uint32_t span = 1;
        for (uint32_t r : radices) {
            k.stages.push_back(Stage{r, span, span > 1 ? table.stage_table(r, span) : 0});
            span *= r;
        }
    }
    Pass p = make_pass(k, layout.batch, all[group.back()].dim, kTilesPerWorkgroupOnePass, options);
    p.dim_count = static_cast<uint32_t>(group.size());
    return p;
}

// Rader's algorithm takes primes up to this (its kernels multiply residues mod p in 32 bits).
constexpr uint64_t kMaxRaderPrime = 65535;
// Rader's kernels hold both transforms of p - 1 points; where p - 1 takes a non-uniform layout
// they need many registers. H200, f32, 2^26 points, Rader against Bluestein (GB/s): uniform
// 37 2092/905, 97 2203/1006, 151 1466/992, 577 1344/439, 4001 906/735; non-uniform 43 1309/884,
// 211 1457/1039, 641 914/861, but 1009 814/938, 1021 656/946, 2017 676/900, 7681 527/702. So
// non-uniform layouts take Rader's algorithm below this prime only.
constexpr uint64_t kMaxNonUniformRaderPrime = 1000;
// Rader's workgroups transform one tile each: in the same run, looping over 4 tiles with the
// next one's loads in flight ran 37 2000 GB/s against 2092, 97 1921/2203, 211 998/1457 and
// 7681 304/527 (but 41 1703/1572, 101 1723/1441).
constexpr uint32_t kTilesPerWorkgroupRader = 1;

// The smallest primitive root mod the prime p: g whose powers g^((p-1)/q) differ from 1 for
// every prime q dividing p - 1.
uint32_t primitive_root(uint32_t p) {
    std::vector<uint32_t> qs;
    for (uint32_t left = p - 1, q = 2; left > 1; ++q)
        if (left % q == 0) {
            qs.push_back(q);
            while (left % q == 0) left /= q;
        }
    for (uint32_t g = 2;; ++g)
        if (std::all_of(qs.begin(), qs.end(), [&](uint32_t q) { return pow_mod(g, (p - 1) / q, p) != 1; }))
            return g;
}

bool is_prime(uint64_t n) {
    if (n < 2) return false;
    for (uint64_t d = 2; d * d <= n; ++d)
        if (n % d == 0) return false;
    return true;
}

// Rader's algorithm for a prime above 31 (PassKernel::rader_prime): one pass whose kernel does
// both transforms of the p - 1 points of the cyclic convolution in registers and shared
// memory, if p - 1 has no prime factor above 31 and such a kernel fits (uniform, or below
// kMaxNonUniformRaderPrime); else nothing, and Bluestein's algorithm takes the length.
std::optional<Pass> rader_pass(const DimLayout& layout, int dim, Precision precision, const DeviceCaps& caps,
                               const Options& options, TwiddleTableBuilder& table) {
    const uint64_t p = layout.length;
    if (p <= kPrimes[std::size(kPrimes) - 1] || p > kMaxRaderPrime || !is_prime(p) ||
        smooth_factors(p - 1).empty() || (options.max_pass_length && p - 1 > options.max_pass_length))
        return std::nullopt;
    const uint32_t r = static_cast<uint32_t>(p - 1);
    const auto choice = mixed_one_pass(r, caps, options, precision, layout.vectorized);
    if (!choice) return std::nullopt;
    PassKernel k;
    k.precision = precision;
    k.length = k.radix = r;
    k.points_contiguous = !layout.vectorized;
    apply_layout(k, layout);
    k.rader_prime = static_cast<uint32_t>(p);
    k.rader_generator = primitive_root(k.rader_prime);
    if (!fit_kernel(k, caps, choice->kernel_options, choice->allow) ||
        (!k.uniform() && p > kMaxNonUniformRaderPrime))
        return std::nullopt;
    for (Stage& s : k.stages)
        if (s.span > 1) s.twiddle_offset = table.stage_table(s.radix, s.span);
    k.rader_offset = table.spectrum_table(k.rader_prime, r, k.rader_generator);
    return make_pass(k, layout.batch, dim, kTilesPerWorkgroupRader, options);
}

// Rader's algorithm inside a longer length n = p m, for a prime p above 31 and an m > 1 without
// prime factors above 31 (so p does not divide m). The Stockham pass of span 1 and radix p is
// Rader's pass over its columns: column t < m holds the points t + r m, r < p, whose transform
// lands at t p + r (PassKernel's store), so the pass transforms p-point rows of stride m batched
// over t, from the source's layout into the output's. Stockham passes of span p then take m
// (fast_passes' first_span). Nothing when n is not of that form or a kernel does not fit;
// Bluestein's algorithm then takes the length. Rader's pass first beat Bluestein's two
// transforms at every length measured, since its pass stores staged tiles (H100, 2^26 points,
// GB/s, Bluestein against Rader first, f32: 74 822/996, 111 909/984, 148 930/1021, 222 906/1089,
// 296 657/1105, 444 909/1150, 592 474/1161, 740 957/1159, 999 910/1127, 1110 766/1166, 41 x 1024
// 511/755; f64, 2^25 points: 74 765/1130, 296 405/1233, 740 945/1257, 999 931/1255), and needs no
// scratch of Bluestein's longer length.
std::optional<std::vector<Pass>> rader_first_passes(const std::vector<PlanDim>& all, size_t axis,
                                                    bool reads_input, bool points_together,
                                                    Precision precision, const DeviceCaps& caps,
                                                    const Options& options, TwiddleTableBuilder& table) {
    const PlanDim& a = all[axis];
    uint64_t m = 1;
    for (uint32_t q : kPrimes)
        while ((a.n / m) % q == 0) m *= q;
    const uint64_t p = a.n / m;
    if (m == 1 || p <= kPrimes[std::size(kPrimes) - 1] || !is_prime(p)) return std::nullopt;

    // The rows' batch dim t sits among the others by its stride in the output (see dim_layout).
    const uint64_t src = reads_input ? a.in_stride : a.out_stride;
    const PassKernel::BatchDim columns{static_cast<uint32_t>(m), static_cast<uint32_t>(src),
                                       static_cast<uint32_t>(p * a.out_stride)};
    std::vector<PassKernel::BatchDim> others = other_dims(all, axis, reads_input);
    others.insert(
        std::find_if(others.begin(), others.end(),
                     [&](const PassKernel::BatchDim& d) { return d.dst_stride > columns.dst_stride; }),
        columns);
    const DimLayout rows = make_layout(p, m * src, a.out_stride, others, points_together);
    const DimLayout rest = dim_layout(all, axis, false, points_together);

    // The table keeps the entries of a plan that fits only.
    TwiddleTableBuilder trial = table;
    const auto rader = rader_pass(rows, a.dim, precision, caps, options, trial);
    if (!rader) return std::nullopt;
    std::vector<Pass> out{*rader};
    try {
        const auto later = fast_passes(
            a.n, rest.vectorized, [&](size_t, size_t) { return rest; }, a.dim, precision, caps, options,
            trial, {}, {}, static_cast<uint32_t>(p));
        out.insert(out.end(), later.begin(), later.end());
    } catch (const UnsupportedError&) {
        return std::nullopt;  // no split of m whose kernels fit
    }
    table = std::move(trial);
    return out;
}

// Bluestein's algorithm for a length with a prime factor above 31: transforms of m >= 2n - 1
// points, m the smallest power of two times one of kBluesteinOdd.
constexpr uint64_t kBluesteinOdd[] = {1, 3, 5};

uint64_t bluestein_length(uint64_t n) {
    const uint64_t need = 2 * n - 1;
    uint64_t best = UINT64_MAX;
    for (uint64_t odd : kBluesteinOdd) best = std::min(best, odd * std::bit_ceil((need + odd - 1) / odd));
    return best;
}

// The passes of Bluestein's transforms along all[axis] and their routes: transforms of m points
// of the chirped input (read from the source's layout into packed arrays of m points in scratch,
// the spectrum multiply fused into the last pass), then of the product (the chirp and the
// output's layout fused into the last pass). The passes alternate between two regions of
// batch * m elements of scratch.
struct RoutedPasses {
    std::vector<Pass> passes;
    std::vector<Route> routes;  // with the first pass reading BufferRole::input; see plan()
    uint64_t scratch_elements = 0;
};

RoutedPasses bluestein_passes(const std::vector<PlanDim>& all, size_t axis, bool reads_input,
                              Precision precision, const DeviceCaps& caps, const Options& options,
                              TwiddleTableBuilder& table) {
    const PlanDim& a = all[axis];
    const uint64_t n = a.n, m = bluestein_length(n);
    // Layouts: from the source (user) into packed arrays of m points, packed to packed, and
    // packed into the output. The others dims keep their order; packed strides follow it.
    std::vector<PassKernel::BatchDim> load, store;
    uint64_t batch = 1;
    for (size_t i = 0; i < all.size(); ++i) {
        if (i == axis) continue;
        const uint32_t packed = static_cast<uint32_t>(m * batch);
        load.push_back({static_cast<uint32_t>(all[i].n),
                        static_cast<uint32_t>(reads_input ? all[i].in_stride : all[i].out_stride), packed});
        store.push_back({static_cast<uint32_t>(all[i].n), packed, static_cast<uint32_t>(all[i].out_stride)});
        batch *= all[i].n;
    }
    if (batch * m * 2 >= (uint64_t(1) << 32))
        throw UnsupportedError("Bluestein's transform of length " + std::to_string(n) + " needs 2 x " +
                               std::to_string(batch) + " x " + std::to_string(m) +
                               " elements of scratch, over the 2^32 the kernels index");
    if (batch * m * 2 * complex_bytes(precision) > caps.max_storage_buffer_range)
        throw UnsupportedError("Bluestein's transform of length " + std::to_string(n) + " needs " +
                               std::to_string(batch * m * 2 * complex_bytes(precision)) +
                               " bytes of scratch (2 x " + std::to_string(batch) + " x " + std::to_string(m) +
                               " elements), over the device's maxStorageBufferRange of " +
                               std::to_string(caps.max_storage_buffer_range));
    // Strided transforms are not taken side by side here: one side of each pass is packed.
    auto flat = [](DimLayout l) {
        l.vectorized = false;
        return l;
    };
    const DimLayout from_source = flat(make_layout(m, reads_input ? a.in_stride : a.out_stride, 1, load));
    const DimLayout packed = make_layout(
        m, 1, 1, {{static_cast<uint32_t>(batch), static_cast<uint32_t>(m), static_cast<uint32_t>(m)}});
    const DimLayout to_output = flat(make_layout(m, 1, a.out_stride, store));
    const uint32_t chirp = table.chirp_table(static_cast<uint32_t>(n));
    const uint32_t spectrum = table.spectrum_table(static_cast<uint32_t>(n), static_cast<uint32_t>(m));
    auto chirped = [&](PassKernel& k) {
        k.chirp_length = static_cast<uint32_t>(n);
        k.chirp_offset = chirp;
        k.spectrum_offset = spectrum;
    };
    RoutedPasses out;
    out.passes = fast_passes(
        m, false, [&](size_t p, size_t) { return p == 0 ? from_source : packed; }, a.dim, precision, caps,
        options, table,
        [&](PassKernel& k, size_t p, size_t count) {
            chirped(k);
            k.chirp_load = p == 0;
            k.spectrum_store = p + 1 == count;
        });
    auto second = fast_passes(
        m, false, [&](size_t p, size_t count) { return p + 1 == count ? to_output : packed; }, a.dim,
        precision, caps, options, table,
        [&](PassKernel& k, size_t p, size_t count) {
            chirped(k);
            k.chirp_store = p + 1 == count;
        });
    out.passes.insert(out.passes.end(), second.begin(), second.end());
    const size_t count = out.passes.size();
    const uint64_t region = batch * m;
    for (size_t p = 0; p < count; ++p) {
        Route r{BufferRole::scratch, BufferRole::scratch, ((p + 1) % 2) * region, (p % 2) * region};
        if (p == 0) r.src = BufferRole::input, r.src_at = 0;
        if (p + 1 == count) r.dst = BufferRole::output, r.dst_at = 0;
        out.routes.push_back(r);
    }
    out.scratch_elements = 2 * region;
    return out;
}

}  // namespace

namespace {

// The places of a kernel's point bits (see PassKernel::lane_swaps): places[b] is lane bit l < t or
// register bit l - t.
using BitPlaces = std::vector<uint8_t>;

void apply_swap(BitPlaces& at, const LaneSwap& swap, uint32_t t) {
    const uint8_t reg = static_cast<uint8_t>(t + swap.reg_bit);
    for (uint8_t& place : at) place = place == swap.lane_bit ? reg : place == reg ? swap.lane_bit : place;
}

// The layout a remap before a stage takes (PassKernel::lane_remaps), given the span bits
// `span_bits` that the stages before it consumed: the point bits still to consume, in the order
// the stages take them (the top first), fill the registers and then the lowest lane bits, which
// shuffles reach; the consumed bits below t take the other lane bits, where the stores want them
// and where they stay, and the others the remaining registers.
BitPlaces remap_layout(uint32_t n, uint32_t t, uint32_t span_bits) {
    BitPlaces at(n);
    uint8_t reg = static_cast<uint8_t>(t), lane = 0;
    for (uint32_t b = n; b-- > span_bits;) at[b] = reg < n ? reg++ : lane++;
    for (uint32_t b = 0; b < span_bits; ++b) at[b] = b < t ? lane++ : reg++;
    return at;
}

// How a kernel's stages exchange under Strategy::subgroups: lane swaps, and remaps through shared
// memory where a stage needs a bit that no shuffle reaches.
struct LaneExchanges {
    std::vector<LaneSwap> swaps;
    std::vector<LaneRemap> remaps;
};

// The fewest remaps, then the fewest swaps, that bring each stage's point bits into registers
// and leave the lanes holding the point's t lowest bits after the last stage; nullopt where none
// do. Swaps trade lane bits below g only (those within a subgroup); remaps only where
// `remaps_allowed`. A depth-first search over which free register bits take the lane bits; the
// stages are few and the bits at most 5, and states already reached at no more cost are skipped.
std::optional<LaneExchanges> plan_lane_exchanges(uint32_t n, uint32_t t, uint32_t g,
                                                 const std::vector<uint32_t>& radices, bool remaps_allowed) {
    using Cost = std::pair<size_t, size_t>;  // (remaps, swaps)
    std::optional<LaneExchanges> best;
    std::map<std::pair<size_t, BitPlaces>, Cost> reached;  // (stage, places) -> least cost so far
    LaneExchanges now;
    auto cost = [](const LaneExchanges& e) { return Cost{e.remaps.size(), e.swaps.size()}; };
    std::function<void(size_t, const BitPlaces&, uint32_t)> visit = [&](size_t stage, const BitPlaces& at,
                                                                        uint32_t span_bits) {
        if (best && cost(now) >= cost(*best)) return;
        if (stage == radices.size()) {
            if (std::all_of(at.begin(), at.begin() + t, [&](uint8_t place) { return place < t; })) best = now;
            return;
        }
        auto [it, fresh] = reached.try_emplace({stage, at}, cost(now));
        if (!fresh && it->second <= cost(now)) return;
        it->second = cost(now);
        const uint32_t kr = static_cast<uint32_t>(std::countr_zero(radices[stage]));
        if (remaps_allowed && stage > 0) {
            // (The stage's bits land in registers: a stage's radix is at most the registers'.)
            BitPlaces remapped = remap_layout(n, t, span_bits);
            if (remapped != at &&
                std::all_of(remapped.end() - kr, remapped.end(), [&](uint8_t place) { return place >= t; })) {
                now.remaps.push_back({static_cast<uint8_t>(stage), remapped});
                visit(stage + 1, lane_layout_after_stage(remapped, span_bits, kr), span_bits + kr);
                now.remaps.pop_back();
            }
        }
        std::vector<uint8_t> in_lanes, free_regs;  // point bits of the stage in lanes; registers to trade
        for (uint32_t b = 0; b < n; ++b) {
            const bool needed = b >= n - kr;
            if (needed && at[b] < t) in_lanes.push_back(static_cast<uint8_t>(b));
            if (!needed && at[b] >= t) free_regs.push_back(at[b]);
        }
        if (std::any_of(in_lanes.begin(), in_lanes.end(), [&](uint8_t b) { return at[b] >= g; })) return;
        // Each ordered choice of free registers for the lane bits, through the permutations of a
        // sorted list whose first in_lanes.size() entries are taken.
        std::sort(free_regs.begin(), free_regs.end());
        std::set<uint64_t> tried;  // the choices' places, 8 bits each
        do {
            uint64_t chosen = 0;
            for (size_t i = 0; i < in_lanes.size(); ++i) chosen |= uint64_t(free_regs[i]) << (8 * i);
            if (!tried.insert(chosen).second) continue;
            BitPlaces next = at;
            const size_t before = now.swaps.size();
            for (size_t i = 0; i < in_lanes.size(); ++i) {
                const LaneSwap swap{static_cast<uint8_t>(stage), at[in_lanes[i]],
                                    static_cast<uint8_t>(free_regs[i] - t)};
                apply_swap(next, swap, t);
                now.swaps.push_back(swap);
            }
            visit(stage + 1, lane_layout_after_stage(next, span_bits, kr), span_bits + kr);
            now.swaps.resize(before);
        } while (std::next_permutation(free_regs.begin(), free_regs.end()));
    };
    BitPlaces identity(n);
    std::iota(identity.begin(), identity.end(), uint8_t(0));
    visit(0, identity, 0);
    return best;
}

// Exchanges through subgroup shuffles (PassKernel::lane_swaps) for the kernels that can take
// them. Under Strategy::subgroups, all of them, those whose columns span several subgroups too
// (with remaps through shared memory where a stage needs bits that lie in other subgroups, if
// that leaves at least one exchange to shuffles). Under automatic, where the device has shuffles
// (and Options::subgroup_shuffles allows them), those whose columns lie in one subgroup and that
// need one swap only (P / 2 shuffles). On the H200 (results/2026-12-01f-h200) one swap beat
// shared memory (f64 N = 32: 3533 GB/s against 3274), three or four swaps of 8 or 16 registers
// tied it (N = 64 to 256, within 1%), and four or five of 32 registers lost 13-25% (N = 512 and
// 1024 in f32: each swap moves half of the registers).
void assign_lane_swaps(LogicalPlan& p, const DeviceCaps& caps, const Options& options) {
    const bool shuffles = caps.has_subgroup_operation("basic") && caps.has_subgroup_operation("shuffle") &&
                          options.subgroup_shuffles;
    const bool all = options.strategy == Strategy::subgroups;
    if (!all && !(options.strategy == Strategy::automatic && shuffles)) return;
    const uint32_t sg = caps.subgroup_size;
    for (Pass& pass : p.passes) {
        PassKernel& k = pass.kernel;
        const uint32_t tpc = k.threads_per_column;
        // Columns in one subgroup, or (Strategy::subgroups) in whole subgroups of a power-of-two size.
        const bool in_one = tpc <= sg && sg % tpc == 0;
        const bool in_several = all && tpc > sg && std::has_single_bit(sg) && sg >= 2 && tpc % sg == 0;
        if (k.kind != KernelKind::stockham || !std::has_single_bit(k.radix) || k.radix != k.length ||
            k.span != 1 || !k.points_contiguous || !k.uniform() || k.stages.size() < 2 || tpc < 2 ||
            !(in_one || in_several) || k.split_store || k.join_load || k.split_lanes || k.convolution ||
            k.chirp_load || k.chirp_store || k.spectrum_store || k.rader_prime || pass.dim_count != 1)
            continue;
        // The lane check's flag, which kernels without subgroup_exchanges do not count yet.
        const uint32_t flag_bytes = k.subgroup_exchanges ? 0 : 4;
        if (k.shared_bytes + flag_bytes > caps.max_shared_memory_bytes) continue;
        std::vector<uint32_t> radices;
        for (const Stage& st : k.stages) radices.push_back(st.radix);
        const uint32_t t = static_cast<uint32_t>(std::countr_zero(tpc));
        const uint32_t g = in_one ? t : static_cast<uint32_t>(std::countr_zero(sg));
        auto ex = plan_lane_exchanges(static_cast<uint32_t>(std::countr_zero(k.radix)), t, g, radices, all);
        if (!ex || ex->swaps.empty() || ex->remaps.size() + 1 >= k.stages.size()) continue;
        if (all || (ex->remaps.empty() && ex->swaps.size() <= kAutomaticLaneSwaps)) {
            k.lane_swaps = std::move(ex->swaps);
            k.lane_remaps = std::move(ex->remaps);
            k.shared_bytes += flag_bytes;
        }
    }
}

// Whether a looping kernel holds its stage twiddles in registers (PassKernel::
// twiddles_in_registers): kernels of two twiddled stages or more, which read about two twiddles
// per point of each tile, where the points of two tiles and the twiddles fit in
// kHeldTwiddleWords 32-bit registers, or in kHeldTwiddleWordsFullShared for a kernel that takes
// more than half of the shared memory (one workgroup per multiprocessor whatever its registers).
// H200, f32, 2^26 values: 1000 (10 x 10 x 10, 76 words) 3450-3508 -> 3667-3781 GB/s; 8192 (all of
// the shared memory, 252 words) 3394-3421 -> 3743. Not beyond: 2048 and 4096 (124 words, then
// 148-154 registers, too many for two workgroups of 256 per multiprocessor) lost 10%, the strided
// pass of 1024^2 (190 words) 1.5%. One twiddled stage (100 = 10 x 10) gained nothing. r2c 16384
// (split through shuffles, 252 words) 2371-2385 -> 2539-2554.
constexpr uint32_t kHeldTwiddleWords = 96;
constexpr uint32_t kHeldTwiddleWordsFullShared = 255;
bool holds_twiddles(const PassKernel& k, const DeviceCaps& caps) {
    if (!k.prefetch || k.kind != KernelKind::stockham || !k.lane_swaps.empty() || !k.points_contiguous)
        return false;
    uint32_t twiddles = 0, stages = 0;
    for (const Stage& st : k.stages)
        if (st.span > 1) {
            twiddles += k.groups(st.radix) * (st.radix - 1);
            ++stages;
        }
    // Two words per complex value in f32, four in f64: the registers of two tiles, and the twiddles.
    const uint32_t words = (4 * k.points_per_thread + 2 * twiddles) * (k.precision == Precision::f64 ? 2 : 1);
    const bool all_shared = k.shared_bytes > caps.max_shared_memory_bytes / 2;
    return stages >= 2 && words <= (all_shared ? kHeldTwiddleWordsFullShared : kHeldTwiddleWords);
}

}  // namespace

std::vector<uint8_t> lane_layout_after_stage(const std::vector<uint8_t>& at, uint32_t span_bits,
                                             uint32_t radix_bits) {
    const uint32_t n = static_cast<uint32_t>(at.size()), s = span_bits, kr = radix_bits;
    std::vector<uint8_t> out(n);
    for (uint32_t b = 0; b < s; ++b) out[b] = at[b];
    for (uint32_t j = 0; j < kr; ++j) out[s + j] = at[n - kr + j];
    for (uint32_t b = s; b < n - kr; ++b) out[b + kr] = at[b];
    return out;
}

std::vector<std::vector<uint8_t>> lane_layouts(const PassKernel& k) {
    const uint32_t n = static_cast<uint32_t>(std::countr_zero(k.radix));
    const uint32_t t = static_cast<uint32_t>(std::countr_zero(k.threads_per_column));
    BitPlaces at(n);
    std::iota(at.begin(), at.end(), uint8_t(0));
    std::vector<BitPlaces> out;
    uint32_t span_bits = 0;
    for (size_t s = 0; s < k.stages.size(); ++s) {
        for (const LaneRemap& remap : k.lane_remaps)
            if (remap.stage == s) at = remap.places;
        for (const LaneSwap& swap : k.lane_swaps)
            if (swap.stage == s) apply_swap(at, swap, t);
        out.push_back(at);
        const uint32_t kr = static_cast<uint32_t>(std::countr_zero(k.stages[s].radix));
        at = lane_layout_after_stage(at, span_bits, kr);
        span_bits += kr;
    }
    out.push_back(at);
    return out;
}

PassKernel::ColumnPlace PassKernel::place(uint64_t column) const {
    const uint64_t T = columns_per_transform();
    if (batch_dims.empty()) return {column % T, column / T * row_points(), column / T * row_points()};
    ColumnPlace out{0, 0, 0};
    uint64_t rest = column;
    size_t first = 0;
    if (vectorized) {
        const uint64_t b0 = rest % batch_dims[0].count;
        out.src += b0 * batch_dims[0].src_stride;
        out.dst += b0 * batch_dims[0].dst_stride;
        rest /= batch_dims[0].count;
        first = 1;
    }
    out.t = rest % T;
    rest /= T;
    for (size_t k = first; k < batch_dims.size(); ++k) {
        const uint64_t b = k + 1 == batch_dims.size() ? rest : rest % batch_dims[k].count;
        out.src += b * batch_dims[k].src_stride;
        out.dst += b * batch_dims[k].dst_stride;
        rest /= batch_dims[k].count;
    }
    return out;
}

namespace {
template <typename Stride>
bool packed(const PassKernel& k, uint32_t stride, Stride batch_stride) {
    // With no batch dims there is one transform. Otherwise transforms lie b * row_points() apart
    // with unit stride where each batch dim steps past the whole extent of those before it: one
    // dim of stride row_points(), or several such as the t and batch dims of Rader's first pass,
    // whose p-point results lie densely (t p + r).
    if (k.batch_dims.empty()) return stride == 1;
    return stride == 1 && !k.vectorized && dense_run(k, batch_stride).all_dims;
}
}  // namespace

std::string_view to_string(TileOrder order) {
    switch (order) {
    case TileOrder::interleaved: return "interleaved";
    case TileOrder::forward: return "forward";
    case TileOrder::backward: return "backward";
    }
    return "?";
}

std::string_view to_string(RealStep step) {
    switch (step) {
    case RealStep::split: return "split";
    case RealStep::join: return "join";
    case RealStep::widen: return "widen";
    case RealStep::crop: return "crop";
    case RealStep::mirror: return "mirror";
    case RealStep::narrow: return "narrow";
    }
    return "?";
}

uint32_t PassKernel::real_items() const {
    switch (real_step) {
    case RealStep::split:
    case RealStep::join: return length / 4 + 1;  // the pairs k, n/2 - k for k <= n/4
    case RealStep::crop: return spectrum_points;
    case RealStep::widen:
    case RealStep::mirror:
    case RealStep::narrow: break;
    }
    return length;
}

bool PassKernel::packed_src() const { return packed(*this, src_stride, src_stride_of); }
bool PassKernel::packed_dst() const { return packed(*this, dst_stride, dst_stride_of); }

uint64_t LogicalPlan::scratch_bytes(Placement p) const {
    return (detail::checked(p, "scratch_bytes: placement") == Placement::in_place
                ? scratch_elements_in_place
                : scratch_elements_out_of_place) *
           complex_bytes(desc.precision());
}

std::string LogicalPlan::summary() const {
    std::ostringstream s;
    const auto& dims = desc.dims();
    if (desc.transform() != Transform::c2c) s << to_string(desc.transform()) << " ";
    for (size_t d = 0; d < dims.size(); ++d) s << (d ? " x " : "") << dims[d].n;
    s << (dims.size() > 1 ? ":" : " =");
    bool first_group = true;
    for (size_t i = 0; i < passes.size();) {
        // The passes of one dim, or one copy.
        size_t end = i + 1;
        while (end < passes.size() && passes[end].dim == passes[i].dim && passes[i].dim >= 0 &&
               passes[i].kernel.kind == KernelKind::stockham &&
               passes[end].kernel.kind == KernelKind::stockham)
            ++end;
        s << (first_group ? " " : ", ");
        first_group = false;
        if (passes[i].dim_count > 1)
            s << "dims " << passes[i].dim << "-" << passes[i].dim + passes[i].dim_count - 1 << " = ";
        else if (dims.size() > 1 && passes[i].dim >= 0 && passes[i].kernel.kind != KernelKind::real)
            s << "dim " << passes[i].dim << " = ";
        const auto& k0 = passes[i].kernel;
        if (k0.kind == KernelKind::real) {
            s << to_string(k0.real_step);
        } else if (k0.kind == KernelKind::direct || passes[i].dim < 0) {
            s << (k0.kind == KernelKind::direct ? "direct sum" : "copy");
        } else {
            // Bluestein's two transforms through M: the first of them. (Rader's two share a pass,
            // the first of a longer length's: rader_first_passes.)
            const size_t shown_end = k0.chirp_length ? i + (end - i) / 2 : end;
            const bool several = shown_end - i > 1;
            // A real transform's half-length transform of its reals as complex pairs.
            const uint64_t points = k0.chirp_length              ? k0.chirp_length
                                    : k0.rader_prime && !several ? k0.rader_prime
                                                                 : passes[end - 1].kernel.length;
            if (desc.transform() != Transform::c2c && passes[i].dim >= 0 &&
                2 * points == dims[passes[i].dim].n)
                s << "half " << points << " = ";
            if (k0.chirp_length) s << "Bluestein, twice " << k0.length << " = ";
            if (k0.rader_prime && !several) s << "Rader, twice " << k0.length << " = ";
            for (size_t j = i; j < shown_end; ++j) {
                const auto& k = passes[j].kernel;
                s << (j > i ? " x " : "") << (several ? "(" : "");
                if (k.rader_prime && several)
                    s << "Rader " << k.rader_prime << ", twice " << k.length << " = ";
                if (k.stages.empty()) s << 1;
                // A new dim's stages (span 1 again) after a semicolon.
                for (size_t t = 0; t < k.stages.size(); ++t)
                    s << (t == 0 ? "" : k.stages[t].span == 1 ? "; " : " x ") << k.stages[t].radix;
                s << (several ? ")" : "");
            }
            // A real transform's split or join fused into the pass (PassKernel::split_store, join_load).
            if (k0.join_load) s << " with join";
            if (passes[end - 1].kernel.split_store) s << " with split";
        }
        i = end;
    }
    s << " in " << passes.size() << (passes.size() == 1 ? " pass" : " passes");
    return s.str();
}

namespace {

void check_problem(const FftDesc& desc, const DeviceCaps& caps, const Options& options) {
    detail::checked(options.strategy, "Options.strategy");
    detail::checked(options.real_path, "Options.real_path");
    for (size_t d = 0; d < desc.dims().size(); ++d) {
        const uint64_t n = desc.dims()[d].n;
        const std::string what =
            desc.dims().size() == 1 ? "FftDesc.length " : "FftDesc dim " + std::to_string(d) + ": length ";
        if (n >= (uint64_t(1) << 31))
            throw UnsupportedError(what + std::to_string(n) + " is over the 2^31 - 1 points a dim may have");
        if (options.strategy == Strategy::dft && n > kMaxDirectLength)
            throw UnsupportedError("the direct sum takes lengths up to " + std::to_string(kMaxDirectLength) +
                                   ", got " + std::to_string(n));
    }
    if (desc.precision() == Precision::f64 && !caps.shader_float64)
        throw UnsupportedError("the device lacks shaderFloat64, which f64 transforms need");
    if (options.strategy == Strategy::subgroups &&
        !(caps.has_subgroup_operation("basic") && caps.has_subgroup_operation("shuffle") &&
          caps.subgroup_size >= 2))
        throw UnsupportedError(
            "strategy subgroups needs subgroup shuffles in compute shaders (and subgroups "
            "of 2 or more), which the device lacks");
    for (const auto& [elements, bytes, name] :
         {std::tuple{desc.input_elements(), desc.input_bytes(), "input"},
          std::tuple{desc.output_elements(), desc.output_bytes(), "output"}}) {
        if (bytes > caps.max_storage_buffer_range)
            throw UnsupportedError(std::string("an ") + name + " buffer of " + std::to_string(elements) +
                                   " elements (" + std::to_string(bytes) + " bytes) exceeds the device's " +
                                   "maxStorageBufferRange of " +
                                   std::to_string(caps.max_storage_buffer_range) + " bytes");
        // Kernels index elements with 32-bit integers; the range limit above (itself a 32-bit
        // value) already keeps a buffer under 2^29 f32 elements, and this states the requirement.
        if (elements >= (uint64_t(1) << 32))
            throw UnsupportedError(std::string("the ") + name +
                                   " buffer must hold below 2^32 elements, got " + std::to_string(elements));
    }
    if (options.max_pass_length != 0 &&
        (options.max_pass_length < 2 || !std::has_single_bit(options.max_pass_length)))
        throw Error("Options.max_pass_length must be 0 or a power of two >= 2, got " +
                    std::to_string(options.max_pass_length));
    if (options.max_radix != 0 &&
        (options.max_radix < 2 || options.max_radix > kMaxRadix || !std::has_single_bit(options.max_radix)))
        throw Error("Options.max_radix must be 0, 2, 4, 8, 16 or 32, got " +
                    std::to_string(options.max_radix));
    if (options.radix != 0 &&
        (options.radix < 2 || options.radix > kMaxRadix || !std::has_single_bit(options.radix)))
        throw Error("Options.radix must be 0, 2, 4, 8, 16 or 32, got " + std::to_string(options.radix));
    if (options.radix != 0)
        for (const Dim& d : desc.dims())
            if (!std::has_single_bit(d.n))
                throw Error("Options.radix takes lengths that are powers of two, got " + std::to_string(d.n));
    if (options.workgroup_size != 0 && !std::has_single_bit(options.workgroup_size))
        throw Error("Options.workgroup_size must be 0 or a power of two, got " +
                    std::to_string(options.workgroup_size));
    if (options.columns_per_workgroup != 0 && !std::has_single_bit(options.columns_per_workgroup))
        throw Error("Options.columns_per_workgroup must be 0 or a power of two, got " +
                    std::to_string(options.columns_per_workgroup));
}

// The passes and routes of a complex problem (without its table, which `table` collects).
// `points_together`: see make_layout; `extra`: Allow's column_halves, wide_last_tiles and
// short_workgroups for the fast transforms' passes.
LogicalPlan plan_complex(const FftDesc& desc, const DeviceCaps& caps, const Options& options,
                         TwiddleTableBuilder& table, bool points_together = false, Allow extra = {}) {
    // The dims of more than one point, fastest in the output first. Each transform dim is done
    // in turn, in the reverse order (below): the first reads the input, the others the output.
    std::vector<PlanDim> all;
    for (size_t d = 0; d < desc.dims().size(); ++d) {
        const Dim& x = desc.dims()[d];
        if (x.n > 1) all.push_back({x.n, x.in_stride, x.out_stride, static_cast<int>(d)});
    }
    for (const Dim& x : desc.batch_dims())
        if (x.n > 1) all.push_back({x.n, x.in_stride, x.out_stride, -1});
    std::stable_sort(all.begin(), all.end(),
                     [](const PlanDim& a, const PlanDim& b) { return a.out_stride < b.out_stride; });

    LogicalPlan out;
    out.desc = desc;
    bool reads_input = true;
    // Appends one dim's passes with their routes: each dim's passes end in the output buffer.
    // Stockham passes keep data in the output's layout in scratch.
    auto add = [&](std::vector<Pass> passes) {
        for (auto [routes, scratch, placement] :
             {std::tuple{&out.out_of_place, &out.scratch_elements_out_of_place, Placement::out_of_place},
              std::tuple{&out.in_place, &out.scratch_elements_in_place, Placement::in_place}}) {
            const auto r = make_routes(passes.size(), reads_input ? placement : Placement::in_place);
            for (const Route& route : r)
                if (route.src == BufferRole::scratch || route.dst == BufferRole::scratch)
                    *scratch = std::max(*scratch, desc.output_elements());
            routes->insert(routes->end(), r.begin(), r.end());
        }
        out.passes.insert(out.passes.end(), passes.begin(), passes.end());
        reads_input = false;
    };
    // Bluestein's passes come with their own routes, whose first pass reads the input out of
    // place and the output in place (or after another dim).
    auto add_routed = [&](const RoutedPasses& r) {
        for (auto [routes, scratch, placement] :
             {std::tuple{&out.out_of_place, &out.scratch_elements_out_of_place, Placement::out_of_place},
              std::tuple{&out.in_place, &out.scratch_elements_in_place, Placement::in_place}}) {
            std::vector<Route> mine = r.routes;
            if (!(reads_input && placement == Placement::out_of_place)) mine.front().src = BufferRole::output;
            *scratch = std::max(*scratch, r.scratch_elements);
            routes->insert(routes->end(), mine.begin(), mine.end());
        }
        out.passes.insert(out.passes.end(), r.passes.begin(), r.passes.end());
        reads_input = false;
    };
    // Small dims that lie together: one pass for all of them.
    std::vector<size_t> combined = options.strategy == Strategy::dft
                                       ? std::vector<size_t>{}
                                       : combinable_dims(all, caps, options, desc.precision());
    if (!combined.empty()) {
        if (auto pass = combined_pass(all, combined, desc.precision(), caps, options, table))
            add({*pass});
        else
            combined.clear();
    }
    // The dims in turn, the most strided first: its pass reads the input, and the contiguous dim's
    // pass comes last, reading (backward: TileOrder) what the strided pass left in the cache.
    // H200, ms, against the contiguous dim first, interleaved: 256^2 0.5280 against 0.5314, 512^2
    // 0.5381 against 0.5423, 1024^2 0.5597 against 0.5700; 2048^2 lost, 0.7243 against 0.7206;
    // 64^3, 128^3 and 4096^2 within 0.2%.
    for (size_t j = 0; j < all.size(); ++j) {
        const size_t i = all.size() - 1 - j;
        if (all[i].dim < 0 || std::find(combined.begin(), combined.end(), i) != combined.end()) continue;
        const DimLayout layout = dim_layout(all, i, reads_input, points_together);
        const bool smooth = !smooth_factors(layout.length).empty();
        if (options.strategy == Strategy::dft) {
            add(direct_passes(layout, all[i].dim, all, desc.precision(), caps, table));
        } else if (!smooth) {
            if (auto rader = rader_pass(layout, all[i].dim, desc.precision(), caps, options, table))
                add({*rader});
            else if (auto passes = rader_first_passes(all, i, reads_input, points_together, desc.precision(),
                                                      caps, options, table))
                add(*passes);
            else
                add_routed(bluestein_passes(all, i, reads_input, desc.precision(), caps, options, table));
        } else {
            const DimLayout rest = dim_layout(all, i, false, points_together);
            add(fast_passes(
                layout.length, layout.vectorized, [&](size_t p, size_t) { return p == 0 ? layout : rest; },
                all[i].dim, desc.precision(), caps, options, table, {}, extra));
        }
    }
    if (out.passes.empty()) {
        // Every dim has one point: the transform is a copy (with the normalization, 1).
        std::vector<PassKernel::BatchDim> every;
        for (const PlanDim& d : all)
            every.push_back({static_cast<uint32_t>(d.n), static_cast<uint32_t>(d.in_stride),
                             static_cast<uint32_t>(d.out_stride)});
        add({copy_pass(make_layout(1, 1, 1, every), desc.precision(), caps)});
    }
    return out;
}

// Real transforms (Transform::r2c, c2r) in steps: complex sub-problems planned as any other,
// and real steps (RealStep) between them, each reading and writing a place in the real plan's
// buffers. Along the halved dim of n points (M = n / 2, m = FftDesc::spectrum_length(), at most
// n / 2 + 1):
//   r2c, even n with unit real stride there: the M-point transform of the reals read as complex
//       pairs, into the output, then split in place (through scratch when the output's rows of m
//       points cannot hold the M points), or split fused into the transform's one pass or last
//       pass (fuse_real_step); the other dims after, in place in the output.
//   c2r, even n likewise: the other dims first, from the input into scratch (the input is only
//       read); join fused into the transform's one pass or first pass (fuse_real_step), else
//       join into the output read as complex pairs, then the M-point transform in place.
//   Otherwise: through a region of scratch holding n complex points per row: widen, transform,
//       crop (r2c); mirror, transform, narrow (c2r).
// A real transform runs its inverse as the complex ones do, conjugated on its first load and its
// last store; every step between computes forward transforms.

// Where a step finds or leaves its data: a buffer and the element of it where the data begin.
struct Place {
    BufferRole role = BufferRole::output;
    uint64_t at = 0;
    bool operator==(const Place&) const = default;
};

// The same place for both placements of the whole transform (out of place, in place).
using Places = std::array<Place, 2>;
Places both(Place p) { return {p, p}; }

class RealPlanBuilder {
public:
    RealPlanBuilder(const FftDesc& desc, const DeviceCaps& caps, TwiddleTableBuilder& table, uint64_t region)
        : caps_(caps), table_(table), region_(region) {
        out_.desc = desc;
        out_.scratch_elements_out_of_place = out_.scratch_elements_in_place = region;
    }

    // Appends the passes of `p`, a complex sub-problem's plan, which reads `src` and writes `dst`;
    // it runs in place where those are one place. Its dim d is the real problem's dims[d].
    void complex(LogicalPlan p, const std::vector<int>& dims, const Places& src, const Places& dst) {
        for (Pass& pass : p.passes)
            if (pass.dim >= 0) pass.dim = dims[pass.dim];
        for (size_t i = 0; i < 2; ++i) {
            const Place s = normal(src[i], i), d = normal(dst[i], i);
            const Placement own = s == d ? Placement::in_place : Placement::out_of_place;
            auto map = [&](BufferRole role, uint64_t at) {
                if (role == BufferRole::input) return Place{s.role, s.at + at};
                if (role == BufferRole::output) return Place{d.role, d.at + at};
                return Place{BufferRole::scratch, region_ + at};
            };
            for (const Route& r : p.routes(own)) {
                const Place a = map(r.src, r.src_at), b = map(r.dst, r.dst_at);
                routes(i).push_back(Route{a.role, b.role, a.at, b.at});
            }
            const uint64_t used =
                own == Placement::in_place ? p.scratch_elements_in_place : p.scratch_elements_out_of_place;
            if (used) scratch(i) = std::max(scratch(i), region_ + used);
        }
        out_.passes.insert(out_.passes.end(), p.passes.begin(), p.passes.end());
    }

    // Appends one pass of real step `step` over rows of n points: along the row, `src_stride`
    // and `dst_stride` apart; `rows` the other dims (count, source and destination strides).
    void step(RealStep step, uint64_t n, uint64_t src_stride, uint64_t dst_stride,
              const std::vector<PassKernel::BatchDim>& rows, const Places& src, const Places& dst) {
        PassKernel k;
        k.kind = KernelKind::real;
        k.precision = out_.desc.precision();
        k.length = k.radix = static_cast<uint32_t>(n);
        k.real_step = step;
        k.spectrum_points = static_cast<uint32_t>(out_.desc.spectrum_length());
        k.src_stride = static_cast<uint32_t>(src_stride);
        k.dst_stride = static_cast<uint32_t>(dst_stride);
        for (const auto& r : rows)
            if (r.count > 1) k.batch_dims.push_back(r);
        if (step == RealStep::split || step == RealStep::join)
            k.table_offset = table_.roots_table(static_cast<uint32_t>(n), static_cast<uint32_t>(n / 4 + 1));
        k.workgroup_size = k.threads_per_column =
            std::min({caps_.max_workgroup_invocations, caps_.max_workgroup_size[0], kRealStepWorkgroup});
        Pass pass;
        pass.dim = static_cast<int>(out_.desc.dims().size()) - 1;
        pass.columns = 1;
        for (const auto& r : k.batch_dims) pass.columns *= r.count;
        pass.tiles = pass.workgroups =
            (pass.columns * k.real_items() + k.workgroup_size - 1) / k.workgroup_size;
        pass.kernel = std::move(k);
        out_.passes.push_back(std::move(pass));
        for (size_t i = 0; i < 2; ++i) {
            const Place s = normal(src[i], i), d = normal(dst[i], i);
            routes(i).push_back(Route{s.role, d.role, s.at, d.at});
        }
    }

    LogicalPlan take() { return std::move(out_); }

private:
    static constexpr uint32_t kRealStepWorkgroup = 256;

    // In place the input is the output buffer: one name for it, so that equal places compare equal.
    static Place normal(Place p, size_t placement) {
        if (placement == 1 && p.role == BufferRole::input) p.role = BufferRole::output;
        return p;
    }
    std::vector<Route>& routes(size_t i) { return i == 0 ? out_.out_of_place : out_.in_place; }
    uint64_t& scratch(size_t i) {
        return i == 0 ? out_.scratch_elements_out_of_place : out_.scratch_elements_in_place;
    }

    const DeviceCaps& caps_;
    TwiddleTableBuilder& table_;
    uint64_t region_;  // scratch elements the real plan keeps for itself, before any sub-problem's
    LogicalPlan out_;
};

// The blocks of lanes through which a one-pass kernel's fused split or join pairs its points
// (PassKernel::split_lanes, join_lanes), or 0 where it cannot: fewer than 16 invocations per
// column, a layout that is not uniform, no subgroup shuffles. Counts the lane check's 4 bytes of
// shared memory into the kernel's.
uint32_t shuffle_lanes(PassKernel& k, const DeviceCaps& caps, const Options& options) {
    const uint32_t threads = k.threads_per_column, lanes = std::min(threads, caps.subgroup_size);
    const uint32_t flag_bytes = k.subgroup_exchanges ? 0 : 4;
    if (!options.subgroup_shuffles || !caps.has_subgroup_operation("basic") ||
        !caps.has_subgroup_operation("shuffle") || threads < 2 * PassKernel::kSplitRun ||
        !std::has_single_bit(threads) || !std::has_single_bit(caps.subgroup_size) || lanes < 2 ||
        !k.uniform() || k.shared_bytes + flag_bytes > caps.max_shared_memory_bytes)
        return 0;
    k.shared_bytes += flag_bytes;
    return lanes;
}

// Fuses a real transform's split (r2c) or join (c2r) into its half-length transform `p`
// (PassKernel::split_store, join_load) where that is one Stockham pass of whole columns whose
// tile fits the shared memory for split's exchange (and join's, taken across columns), split
// into the last of several Stockham passes whose tiles can be mirrored, or join into the first of
// several; returns whether it did. `m` is the complex side's points per row
// (FftDesc::spectrum_length).
bool fuse_real_step(LogicalPlan& p, RealStep step, uint64_t n, uint64_t m, const DeviceCaps& caps,
                    const Options& options, TwiddleTableBuilder& table) {
    const bool join = step == RealStep::join;
    if (p.passes.empty()) return false;
    const bool several = p.passes.size() > 1;
    Pass& pass = join ? p.passes.front() : p.passes.back();
    PassKernel& k = pass.kernel;
    // Join fused into the first pass of several: each point of a column, x = t + r T, read with
    // its mirror M - x straight from the spectrum's rows (PassKernel::join_load), which only this
    // pass reads; the mirror's column T - t lies in another tile of the same transform, so that
    // its second read mostly meets the cache.
    if (join && several &&
        (k.kind != KernelKind::stockham || k.span != 1 || k.columns_per_transform() < 2 ||
         k.points_contiguous || k.vectorized || k.staged_load || k.rader_prime || k.chirp_length ||
         k.stages.empty()))
        return false;
    // Split fused into the last pass of several: mirrored tiles of whole transforms' columns
    // (PassKernel::split_store). The passes before keep the half-length transform's points in
    // the output's rows, so these must hold at least M points (not band-limited below M). The
    // planner's tiles take kMinMirroredColumns columns or more, since they load and store runs
    // of half as many points (H200, r2c 2^21 with 4-column tiles: 725 GB/s in two passes).
    const bool last_of_several = several && !join;
    const uint32_t min_columns = options.columns_per_workgroup ? 2 : kMinMirroredColumns;
    if (last_of_several &&
        (m < k.length || k.kind != KernelKind::stockham || k.span < 2 || k.span * k.radix != k.length ||
         k.points_contiguous || !k.uniform() || k.columns_per_workgroup < min_columns ||
         k.columns_per_workgroup % 2 != 0 || k.span % k.columns_per_workgroup != 0 || k.vectorized ||
         k.staged_load || k.staged_store || k.rader_prime || k.chirp_length || k.stages.empty()))
        return false;
    if (!several && (k.kind != KernelKind::stockham || k.radix != k.length || k.span != 1 ||
                     k.stages.empty() || !k.points_contiguous || k.rader_prime || k.chirp_length))
        return false;
    // The complex side's rows strided and its transforms side by side: take the spectrum across
    // the tile's columns (PassKernel::spectrum_across_columns).
    const uint32_t row_stride = join ? k.src_stride : k.dst_stride;
    const bool across = !several && row_stride > 1 && !k.batch_dims.empty() && !k.vectorized &&
                        (join ? k.batch_dims[0].src_stride : k.batch_dims[0].dst_stride) == 1;
    if (join && k.staged_load) return false;  // tiles of rows of M points; join's rows have M + 1
    if ((!join || across) && k.shared_bytes == 0) {
        // The exchange holds the tile: both components at once if they fit, else one at a time.
        const uint32_t word = k.precision == Precision::f32 ? 4u : 8u;
        const uint32_t limit = options.max_shared_memory
                                   ? std::min(options.max_shared_memory, caps.max_shared_memory_bytes)
                                   : caps.max_shared_memory_bytes / 2;
        const uint64_t words = exchange_array_words(uint64_t(k.columns_per_workgroup) * k.radix, 1);
        if (words * word > limit) return false;
        k.exchange_rounds = 2 * words * word <= limit ? 1 : 2;
        k.shared_bytes = static_cast<uint32_t>((k.exchange_rounds == 1 ? 2 : 1) * words * word);
    }
    k.spectrum_points = static_cast<uint32_t>(m);
    k.spectrum_across_columns = across;
    if (join) {
        k.join_load = true;
        k.real_offset = table.roots_table(static_cast<uint32_t>(n), static_cast<uint32_t>(n / 2));
        // Options::join_through_shared_memory: one pass whose stages exchange takes the mirrors
        // from the tile in shared memory (PassKernel::join_exchange).
        k.join_exchange = options.join_through_shared_memory && !several && !across && k.shared_bytes > 0 &&
                          k.stages.size() > 1;
        // Join's loads from memory take each point with its mirror, so a looping workgroup holds
        // more than two tiles' worth at once. By default it does not loop:
        // - where its tiles are more than half of kMaxLoopingTileBytes, which spill when looping
        //   (H100, c2r 16384 f32: 255 registers with spilling and 1558 GB/s looping over 4 tiles;
        //   193 registers and 2097 GB/s over one);
        // - in one pass of fewer than 32 points per invocation (H100, c2r f32: 3-12% faster over
        //   one tile at 128 to 1024, 4096, 8192, 100, 1000, 1536 and 4000, 3000 even, while r2c
        //   and c2c lost up to 6.5% so at 4096, 8192, 1000 and 4000). Kernels of 32 points per
        //   invocation hold so many registers that too few workgroups run to hide memory's
        //   latency without looping (c2r 2048, 253 registers: 4.6% slower over one tile).
        const bool big_tiles = uint64_t(k.columns_per_workgroup) * k.radix * complex_bytes(k.precision) >
                               kMaxLoopingTileBytes / 2;
        // Join through shared memory holds its mirrors beside the points too: big tiles spill
        // (H100, c2r 16384: 1418-1439 GB/s looping, 1906 over one tile).
        if (k.prefetch && options.tiles_per_workgroup == 0 &&
            (big_tiles || (!k.join_exchange && !several && k.points_per_thread < 32)))
            one_tile_per_workgroup(pass);
        // A one-pass kernel that still loops takes the mirrors through subgroup shuffles
        // (PassKernel::join_lanes), so that the next tile it holds is one value per point, not
        // two. H100, c2r 2048 (32 points per invocation, 4 tiles), alternated twice in two calls
        // (bench/RESULTS.md, fortieth run): 2787-2791 and 2836 GB/s against 2650-2686. Kernels that
        // do not loop lost with them (c2r 512 to 32768 4-14%, f64 1024 to 8192 9-12%): their second
        // read of memory meets the cache, and the shuffles wait on the loads.
        if (k.prefetch && !k.join_exchange && !several && !across && k.stages.size() > 1)
            k.join_lanes = shuffle_lanes(k, caps, options);
        return true;
    }
    k.split_store = true;
    k.staged_store = false;
    // A one-pass split whose rows lie in one invocation each (r2c of 64 reals or fewer: the whole
    // half in registers, its tile staged through shared memory) does not loop over tiles by
    // default. H100, 2^26 values, alternated twice (bench/RESULTS.md, forty-first run): f32 16, 32
    // and 64 reals +4.4%, +3.9%, +4.7% (64: 2786-2787 GB/s against 2660-2661), f64 16 and 32 +3.2%
    // and +2.6% (f64 64, two invocations per row, gained 1.6% and loops). Not yet measured on the
    // H200.
    if (!several && k.prefetch && options.tiles_per_workgroup == 0 && k.threads_per_column == 1)
        one_tile_per_workgroup(pass);
    // Pairs through subgroup shuffles (PassKernel::split_lanes) where columns have 16 invocations
    // or more (H200, r2c: 1024 5% faster than through shared memory, 2048 8%, 16384 and 32768 12%,
    // 4096 and 8192 within 1%; 256, 8 invocations per column, 3% slower).
    // The last stage takes one butterfly per invocation.
    if (!across && !last_of_several && k.stages.back().radix * k.threads_per_column == k.radix)
        k.split_lanes = shuffle_lanes(k, caps, options);
    k.real_offset = table.roots_table(static_cast<uint32_t>(n), static_cast<uint32_t>(n / 4 + 1));
    return true;
}

LogicalPlan plan_real(const FftDesc& desc, const DeviceCaps& caps, const Options& options,
                      TwiddleTableBuilder& table) {
    const bool r2c = desc.transform() == Transform::r2c;
    const Dim h = desc.dims().back();
    const uint64_t n = h.n, half = n / 2, m = desc.spectrum_length();
    // Strides on the real side.
    auto real_stride = [&](const Dim& d) { return r2c ? d.in_stride : d.out_stride; };
    // The other transform dims and the batch dims: rows along the halved dim.
    std::vector<Dim> others(desc.dims().begin(), desc.dims().end() - 1), rows = others;
    rows.insert(rows.end(), desc.batch_dims().begin(), desc.batch_dims().end());
    const bool other_dims = std::any_of(others.begin(), others.end(), [](const Dim& d) { return d.n > 1; });
    // Reals read or written as complex pairs: unit stride along the halved dim, even strides
    // elsewhere.
    const bool pairs = options.real_path == RealPath::half_length && n % 2 == 0 && real_stride(h) == 1 &&
                       std::all_of(rows.begin(), rows.end(),
                                   [&](const Dim& d) { return d.n == 1 || real_stride(d) % 2 == 0; });
    // Packed strides for a scratch region of `points` complex values per row.
    auto packed = [&](uint64_t points) {
        std::vector<uint64_t> s;
        uint64_t stride = points;
        for (const Dim& d : rows) {
            s.push_back(stride);
            stride *= d.n;
        }
        s.push_back(stride);  // the region's size
        return s;
    };
    const uint64_t row_count = desc.batch() * (desc.length() / n);
    // The plan of a complex sub-problem of the desc's precision.
    auto sub = [&](std::vector<Dim> dims, std::vector<Dim> batch, bool points_together = false,
                   const Options* with = nullptr, Allow extra = {}) {
        return plan_complex(detail::DescAccess::unchecked(dims, batch).with_precision(desc.precision()), caps,
                            with ? *with : options, table, points_together, extra);
    };
    auto dims_with = [&](auto stride_in, auto stride_out) {
        std::vector<Dim> out;
        for (size_t i = 0; i < rows.size(); ++i) out.push_back({rows[i].n, stride_in(i), stride_out(i)});
        return out;
    };
    // The half-length transform over `dims` and `batch` with split or join fused into it, where
    // it can be. A spectrum whose rows are strided while other rows lie side by side (m-major:
    // `across`) keeps each transform's points together, for a split or join taken across
    // columns (PassKernel::spectrum_across_columns), one tile per workgroup. Where the default
    // gives one transform per workgroup, all of the shared memory takes more: for split four,
    // exchanging half of the points at a time (Allow::column_halves), else two. On the H200 the
    // 4096-point halves of 4096 x 8192 m-major spectra (bench/RESULTS.md, ninth and tenth runs):
    // join 1281 GB/s with one persistent transform per workgroup, 1565 with two; split 552, 1190
    // with two, 1623-1641 with four in halves (join with four in halves: 1059).
    auto fused_half = [&](RealStep step, const std::vector<Dim>& dims, const std::vector<Dim>& batch,
                          bool across) -> std::optional<LogicalPlan> {
        Options o = options;
        if (across && o.tiles_per_workgroup == 0) o.tiles_per_workgroup = 1;
        if (step == RealStep::split && !across && o.max_radix == 0 && std::has_single_bit(half) &&
            half >= kSplitRadixHalfMin && half <= kSplitRadixHalf)
            o.max_radix = kSplitRadix;
        if (step == RealStep::join && !across && o.max_radix == 0 && half == kJoinRadixHalf)
            o.max_radix = kJoinRadix;
        // Each candidate is planned from the twiddle tables as they were before the first, so
        // that the ones not taken leave no tables in the plan.
        const TwiddleTableBuilder before = table;
        for (bool together : across ? std::vector{true, false} : std::vector{false}) {
            table = before;
            // Split into the last of several passes takes wide mirrored tiles (Allow).
            LogicalPlan p = sub(dims, batch, together, &o, Allow{.wide_last_tiles = step == RealStep::split});
            // Transforms kept together in several passes (not vectorized) would store the strided
            // spectrum point by point: those take split apart, after vectorized passes.
            if (together && p.passes.size() > 1) continue;
            if (!fuse_real_step(p, step, n, m, caps, o, table)) continue;
            if (across && p.passes[0].kernel.columns_per_workgroup == 1 && options.max_shared_memory == 0) {
                const TwiddleTableBuilder with_p = table;
                Options wide = o;
                wide.max_shared_memory = caps.max_shared_memory_bytes;
                const uint32_t want = step == RealStep::split ? 4 : 2;
                if (step == RealStep::split && wide.workgroup_size == 0)
                    wide.workgroup_size = want * p.passes[0].kernel.threads_per_column;
                table = before;
                LogicalPlan q =
                    sub(dims, batch, together, &wide, Allow{.column_halves = step == RealStep::split});
                if (fuse_real_step(q, step, n, m, caps, wide, table) &&
                    q.passes[0].kernel.columns_per_workgroup >= want)
                    return q;
                if (step == RealStep::split) {  // two in one component at a time, then
                    wide.workgroup_size = o.workgroup_size;
                    table = before;
                    q = sub(dims, batch, together, &wide);
                    if (fuse_real_step(q, step, n, m, caps, wide, table) &&
                        q.passes[0].kernel.columns_per_workgroup > 1)
                        return q;
                }
                table = with_p;
            }
            return p;
        }
        table = before;
        return std::nullopt;
    };
    // r2c of pairs: the half-length transform, with split fused into it where it can be. Unfused,
    // split runs in place in the output, unless its rows are band-limited to fewer than M points:
    // then the transform goes to scratch (M points per row there) and split from there.
    // Whether some row of more than one point has unit stride on the complex side (`stride`).
    auto rows_side_by_side = [&](auto stride) {
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].n > 1 && stride(i) == 1) return true;
        return false;
    };
    std::optional<LogicalPlan> half_plan;
    bool split_fused = false, split_from_scratch = false;
    if (r2c && pairs) {
        // Complex strides of the reals: half of theirs.
        const std::vector<Dim> half_dims{{half, 1, h.out_stride}};
        const auto half_batch = dims_with([&](size_t i) { return rows[i].in_stride / 2; },
                                          [&](size_t i) { return rows[i].out_stride; });
        half_plan =
            fused_half(RealStep::split, half_dims, half_batch,
                       h.out_stride > 1 && rows_side_by_side([&](size_t i) { return rows[i].out_stride; }));
        split_fused = half_plan.has_value();
        split_from_scratch = !split_fused && m < half + 1;
        if (!split_fused && !split_from_scratch) half_plan = sub(half_dims, half_batch);
    }
    // c2r through scratch when other dims precede: m points per row there.
    const bool staged = !r2c && other_dims;
    const uint64_t region =
        (pairs ? (split_from_scratch ? row_count * half : 0) : row_count * n) + (staged ? row_count * m : 0);
    const uint64_t wide_at = staged ? row_count * m : 0;  // the n-point rows, after the staged spectrum
    const auto wide = packed(n), spectrum = packed(m), halves = packed(half);

    auto batch_dims = [&](auto src, auto dst) {
        std::vector<PassKernel::BatchDim> out;
        for (size_t i = 0; i < rows.size(); ++i)
            out.push_back({static_cast<uint32_t>(rows[i].n), static_cast<uint32_t>(src(i)),
                           static_cast<uint32_t>(dst(i))});
        return out;
    };
    // The dims of the sub-problems as the real problem's: the halved dim's, or the others'.
    const std::vector<int> halved_dim{static_cast<int>(others.size())};
    std::vector<int> other_dim_indices(others.size());
    std::iota(other_dim_indices.begin(), other_dim_indices.end(), 0);
    const Place input{BufferRole::input}, output{BufferRole::output};
    const Place wide_place{BufferRole::scratch, wide_at}, spectrum_place{BufferRole::scratch, 0};
    RealPlanBuilder b(desc, caps, table, region);
    // The transforms over the other dims (the half spectrum's columns: r2c's after split, c2r's
    // before join) take one tile per workgroup by default, except r2c's passes of 32 points per
    // invocation. H100, f32, 2^26 reals, alternated twice (bench/RESULTS.md, forty-first run), GB/s
    // of the whole transform: r2c 64^2 1070 -> 1359, 128^2 1209 -> 1393, 256^2 1302 -> 1431,
    // 4096^2 +7%, 64 x 1024 +19%, 64^3 +20%, 128^3 +11%, 256^3 +6% (0.80-0.98x cuFFT R2C -> 0.89-
    // 1.13x); r2c passes of 32 points per invocation lost 1.5-4.6% so (512^2 to 2048^2, 1024 x 64);
    // c2r +5% to +21% at all twelve shapes (512^2 1126 -> 1364). Complex 2D transforms gained 1-2.4%
    // only (128^2 to 512^2). In f64 (16 points per invocation), r2c passes of 512 points or more
    // and c2r passes of 1024 or more lost so, and keep looping; H100, forty-third run, against
    // looping: r2c 512^2 -7.3%, 1024^2 -8.9%, 1024 x 256 -9.1%; c2r 1024^2 -2.6%, 1024 x 256 -3.6%;
    // elsewhere (rows of 128 reals or more) r2c 0 to +4.9% (2048^2 +3.8%, 128 x 2048 +4.7%), c2r
    // +1.5% to +9.6% (512^2). Not yet measured on the H200.
    const bool f64 = desc.precision() == Precision::f64;
    auto plan_other_dims = [&](std::vector<Dim> dims, std::vector<Dim> batch) {
        LogicalPlan p = sub(std::move(dims), std::move(batch));
        if (options.tiles_per_workgroup == 0)
            for (Pass& q : p.passes) {
                const uint32_t length = q.kernel.radix;
                const bool keeps_looping =
                    r2c ? q.kernel.points_per_thread >= 32 || (f64 && length >= 512) : f64 && length >= 1024;
                if (q.kernel.prefetch && !keeps_looping) one_tile_per_workgroup(q);
            }
        return p;
    };

    if (r2c) {
        if (split_from_scratch) {
            b.complex(sub({{half, 1, 1}}, dims_with([&](size_t i) { return rows[i].in_stride / 2; },
                                                    [&](size_t i) { return halves[i]; })),
                      halved_dim, both(input), both(wide_place));
            b.step(
                RealStep::split, n, 1, h.out_stride,
                batch_dims([&](size_t i) { return halves[i]; }, [&](size_t i) { return rows[i].out_stride; }),
                both(wide_place), both(output));
        } else if (pairs) {
            b.complex(std::move(*half_plan), halved_dim, both(input), both(output));
            if (!split_fused)
                b.step(RealStep::split, n, h.out_stride, h.out_stride,
                       batch_dims([&](size_t i) { return rows[i].out_stride; },
                                  [&](size_t i) { return rows[i].out_stride; }),
                       both(output), both(output));
        } else {
            b.step(RealStep::widen, n, h.in_stride, 1,
                   batch_dims([&](size_t i) { return rows[i].in_stride; }, [&](size_t i) { return wide[i]; }),
                   both(input), both(wide_place));
            b.complex(sub({{n, 1, 1}},
                          dims_with([&](size_t i) { return wide[i]; }, [&](size_t i) { return wide[i]; })),
                      halved_dim, both(wide_place), both(wide_place));
            b.step(
                RealStep::crop, n, 1, h.out_stride,
                batch_dims([&](size_t i) { return wide[i]; }, [&](size_t i) { return rows[i].out_stride; }),
                both(wide_place), both(output));
        }
        if (other_dims) {
            // The other dims of the half spectrum, in place in the output.
            std::vector<Dim> dims, batch{{m, h.out_stride, h.out_stride}};
            for (const Dim& d : others) dims.push_back({d.n, d.out_stride, d.out_stride});
            for (const Dim& d : desc.batch_dims()) batch.push_back({d.n, d.out_stride, d.out_stride});
            b.complex(plan_other_dims(dims, batch), other_dim_indices, both(output), both(output));
        }
        return b.take();
    }

    // c2r. The half spectrum: in the input, or in scratch after the other dims' transforms.
    Place spec = input;
    uint64_t spec_stride = h.in_stride;
    auto spec_row = [&](size_t i) { return staged ? spectrum[i] : rows[i].in_stride; };
    if (staged) {
        std::vector<Dim> dims, batch{{m, h.in_stride, 1}};
        for (size_t i = 0; i < others.size(); ++i)
            dims.push_back({others[i].n, others[i].in_stride, spectrum[i]});
        for (size_t i = others.size(); i < rows.size(); ++i)
            batch.push_back({rows[i].n, rows[i].in_stride, spectrum[i]});
        b.complex(plan_other_dims(dims, batch), other_dim_indices, both(input), both(spectrum_place));
        spec = spectrum_place;
        spec_stride = 1;
    }
    std::optional<LogicalPlan> joined;
    if (pairs) {
        // The half-length transform reading join's outputs straight from the half spectrum.
        joined = fused_half(RealStep::join, {{half, spec_stride, 1}},
                            dims_with(spec_row, [&](size_t i) { return rows[i].out_stride / 2; }),
                            spec_stride > 1 && rows_side_by_side(spec_row));
    }
    if (joined) {
        b.complex(std::move(*joined), halved_dim, both(spec), both(output));
    } else if (pairs) {
        b.step(RealStep::join, n, spec_stride, 1,
               batch_dims(spec_row, [&](size_t i) { return rows[i].out_stride / 2; }), both(spec),
               both(output));
        b.complex(sub({{half, 1, 1}}, dims_with([&](size_t i) { return rows[i].out_stride / 2; },
                                                [&](size_t i) { return rows[i].out_stride / 2; })),
                  halved_dim, both(output), both(output));
    } else {
        b.step(RealStep::mirror, n, spec_stride, 1, batch_dims(spec_row, [&](size_t i) { return wide[i]; }),
               both(spec), both(wide_place));
        b.complex(
            sub({{n, 1, 1}}, dims_with([&](size_t i) { return wide[i]; }, [&](size_t i) { return wide[i]; })),
            halved_dim, both(wide_place), both(wide_place));
        b.step(RealStep::narrow, n, 1, h.out_stride,
               batch_dims([&](size_t i) { return wide[i]; }, [&](size_t i) { return rows[i].out_stride; }),
               both(wide_place), both(output));
    }
    return b.take();
}

// The passes of a multi-pass plan sweep their tiles forward and backward in turn (TileOrder).
// One-pass plans keep the interleaved order: H200, N = 100 (4 tiles per workgroup) ran 0.2629-0.2631
// ms with it against 0.2660-0.2665 forward, in the same run.
void alternate_tile_order(LogicalPlan& p) {
    for (size_t i = 0; i < p.passes.size(); ++i)
        p.passes[i].kernel.tile_order = p.passes.size() == 1 ? TileOrder::interleaved
                                        : i % 2 == 0         ? TileOrder::forward
                                                             : TileOrder::backward;
}

// The plan of `desc`; `measured_shapes`: whether rules measured on one shape of problem alone
// (Allow::short_workgroups) may apply.
LogicalPlan plan_problem(const FftDesc& desc, const DeviceCaps& caps, const Options& requested,
                         bool measured_shapes) {
    check_problem(desc, caps, requested);
    // Strategy::portable uses no subgroup operations at all.
    Options options = requested;
    if (options.strategy == Strategy::portable) options.subgroup_barriers = options.subgroup_shuffles = false;
    if (options.radix != 0) options.max_radix = options.max_pass_length = options.radix;
    TwiddleTableBuilder table;
    // Short workgroups were measured on a GPU with the default radices, for batches of unit-stride
    // 1D c2c transforms: on lavapipe 8 and 64 points ran 1.4-1.7 times longer with them.
    const Dim& last = desc.dims().back();
    const bool short_workgroups = measured_shapes && caps.type != DeviceType::cpu &&
                                  desc.transform() == Transform::c2c && desc.dims().size() == 1 &&
                                  last.in_stride == 1 && last.out_stride == 1 && !options.max_radix;
    LogicalPlan out;
    try {
        out = desc.transform() == Transform::c2c ? plan_complex(desc, caps, options, table, false,
                                                                Allow{.short_workgroups = short_workgroups})
                                                 : plan_real(desc, caps, options, table);
    } catch (const UnsupportedError& e) {
        // Nothing the device can run: name the caller's tuning limits too, which may be what
        // excluded the kernels that fit.
        std::string limits;
        for (const auto& [name, value] :
             {std::pair{"max_pass_length", requested.max_pass_length},
              std::pair{"max_radix", requested.max_radix}, std::pair{"radix", requested.radix},
              std::pair{"workgroup_size", requested.workgroup_size},
              std::pair{"columns_per_workgroup", requested.columns_per_workgroup},
              std::pair{"max_shared_memory", requested.max_shared_memory}})
            if (value != 0)
                limits += (limits.empty() ? " (Options." : ", Options.") + std::string(name) + " = " +
                          std::to_string(value);
        if (limits.empty()) throw;
        throw UnsupportedError(e.what() + limits + ")");
    }
    const uint64_t max_groups = uint64_t(caps.max_workgroup_count[0]) * caps.max_workgroup_count[1];
    for (const Pass& p : out.passes)
        if (p.workgroups > max_groups)
            throw UnsupportedError("batch " + std::to_string(desc.batch()) + " needs " +
                                   std::to_string(p.workgroups) +
                                   " workgroups, over the device's dispatch limit");
    for (Placement p : {Placement::out_of_place, Placement::in_place})
        if (out.scratch_bytes(p) > caps.max_storage_buffer_range)
            throw UnsupportedError("the plan needs " + std::to_string(out.scratch_bytes(p)) +
                                   " bytes of scratch, over the device's maxStorageBufferRange of " +
                                   std::to_string(caps.max_storage_buffer_range));
    assign_lane_swaps(out, caps, options);
    for (Pass& p : out.passes) p.kernel.twiddles_in_registers = holds_twiddles(p.kernel, caps);
    alternate_tile_order(out);
    out.twiddles = table.take();
    out.spectra = table.take_spectra();
    return out;
}

}  // namespace

LogicalPlan plan(const FftDesc& desc, const DeviceCaps& caps, const Options& requested) {
    return plan_problem(desc, caps, requested, true);
}

LogicalPlan plan_convolution(const FftDesc& desc, const DeviceCaps& caps, const Options& options) {
    if (desc.transform() != Transform::c2c)
        throw UnsupportedError("plan_convolution: c2c problems only, not " +
                               std::string(to_string(desc.transform())));
    if (!desc.same_layouts())
        throw UnsupportedError("plan_convolution: the input and the output must be laid out alike");
    LogicalPlan p = plan_problem(desc, caps, options, false);  // the product's kernels: not measured
    for (const Pass& pass : p.passes) {
        const PassKernel& k = pass.kernel;
        // Each pass completes its dims, so the inverse may take them in any order.
        if (k.kind != KernelKind::stockham || k.span != 1 || k.radix != k.length || k.rader_prime ||
            k.chirp_length)
            throw UnsupportedError("plan_convolution: " + p.summary() +
                                   " has passes that do not complete their dims (or Rader's or Bluestein's)");
    }
    // The pass that becomes the convolution kernel (two transforms in one): one over contiguous
    // points if any (strided passes ran slower on the H200), with the least shared memory. Not
    // one that needs more than half the device's shared memory or exchanges in halves: there,
    // two passes with the product in the forward one's stores ran faster (H200, 8192 and 16384).
    std::optional<size_t> fused;
    for (size_t i = 0; i < p.passes.size(); ++i) {
        const PassKernel& k = p.passes[i].kernel;
        if (k.staged_load || k.staged_store || k.exchange_rounds == 4 ||
            k.shared_bytes > caps.max_shared_memory_bytes / 2)
            continue;
        auto better = [&](const PassKernel& a, const PassKernel& b) {
            return a.vectorized != b.vectorized ? !a.vectorized : a.shared_bytes < b.shared_bytes;
        };
        if (!fused || better(k, p.passes[*fused].kernel)) fused = i;
    }
    if (!fused)
        throw UnsupportedError("plan_convolution: no pass of " + p.summary() +
                               " makes a convolution kernel that beats two transforms");
    // The dims commute: the others forward, the fused pass, the others again in reverse order.
    std::vector<Pass> others;
    for (size_t i = 0; i < p.passes.size(); ++i)
        if (i != *fused) others.push_back(p.passes[i]);
    Pass middle = p.passes[*fused];
    middle.kernel.convolution = true;
    middle.kernel.lane_swaps.clear();  // a convolution's second transform starts in the stores' layout
    middle.kernel.lane_remaps.clear();
    p.passes = others;
    p.passes.push_back(middle);
    p.passes.insert(p.passes.end(), others.rbegin(), others.rend());
    p.convolution = true;
    alternate_tile_order(p);
    p.out_of_place.assign(p.passes.size(), Route{BufferRole::output, BufferRole::output});
    p.out_of_place.front().src = BufferRole::input;
    p.in_place.assign(p.passes.size(), Route{BufferRole::output, BufferRole::output});
    p.scratch_elements_out_of_place = p.scratch_elements_in_place = 0;
    return p;
}

}  // namespace twiddle
