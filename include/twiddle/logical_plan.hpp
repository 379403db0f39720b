// twiddle: the logical plan. Pure data and no Vulkan: which passes run, with which kernels,
// reading and writing which buffers, and the twiddle table they share. Made by `plan()` from the
// problem and the device's capabilities; turned into pipelines by twiddle::Plan; executable in
// long double on the CPU (src/cpu) to test the decomposition apart from the shaders.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "twiddle/caps.hpp"
#include "twiddle/desc.hpp"
#include "twiddle/export.hpp"
#include "twiddle/types.hpp"

namespace twiddle {

// Choices a caller may make about a plan. Every field has a documented default; the default is
// what the planner thinks fastest on the device.
struct Options {
    // The longest transform one pass may do, in points (a power of two; for other lengths at
    // least their largest prime factor). 0: as long as the device's shared memory and workgroup
    // limits allow. Smaller values force more passes, for tests and tuning.
    uint32_t max_pass_length = 0;
    // Tuning: the most points one invocation holds in registers, which is also the largest
    // butterfly (2, 4, 8, 16 or 32). 0: 16, and 8 for one pass of length 64. In f32 also 32: for
    // one pass of length 32, of 16 to 32 times the subgroup size (512 and 1024 on 32-wide
    // subgroups, whose invocations then lie in one subgroup), or needing all of the shared memory;
    // and in multi-pass passes of 512 points or more. r2c rows of 128 and 256 reals take 4 in their
    // half-length transform (split fused into it), c2r rows of 64 reals 8 (join fused into it;
    // not for m-major spectra). For lengths other than powers of two, the most registers of a
    // uniform layout, taking the largest that gives the fewest stages; where the length's primes
    // need more (a uniform layout's registers are a multiple of each), the fewest that hold them,
    // as 10 for 20 points under 4. Smaller butterflies also
    // make smaller kernels, which a plan without its disk cache compiles sooner: on the H200 8
    // brought such plans of 1024, 4096 and 2^20 points from 130-440 ms to 80-92 ms, and their
    // kernels ran 20-27% slower (bench/RESULTS.md, thirty-third run).
    uint32_t max_radix = 0;
    // Tuning: the invocations a one-pass workgroup aims for when its columns are short, and the
    // columns a multi-pass workgroup takes (a power of two). 0: the planner's choice.
    uint32_t workgroup_size = 0;
    uint32_t columns_per_workgroup = 0;
    // Tuning: the shared memory a workgroup may use, in bytes (at most the device's limit).
    // 0: half the device's limit, or all of it for a transform that fits one workgroup only that
    // way, and in f32 for the last of two multi-pass passes of narrow tiles, or the last pass
    // after Rader's first where its tiles would be narrow. On the H200 about
    // 56 KiB serve each multiprocessor, so 33 KiB workgroups run one at a time; with half the
    // limit, one-pass kernels ran 1.3 to 4 times faster.
    uint32_t max_shared_memory = 0;
    // Tuning: tiles (columns_per_workgroup columns each) one workgroup transforms in turn. Above 1
    // a workgroup loads its next tile while it transforms the current one, which keeps memory
    // busy through its barriers; 1 launches one workgroup per tile. 0: the planner's choice.
    uint32_t tiles_per_workgroup = 0;
    // Tuning: where each transform's invocations lie in one subgroup, synchronize its exchanges
    // between stages with subgroup barriers instead of workgroup barriers (needs the device's
    // basic subgroup operations in compute shaders; kernels check the lane layout and fall back
    // to workgroup barriers by themselves). false: workgroup barriers only.
    bool subgroup_barriers = true;
    // Tuning: a real transform's split fused into a one-pass kernel (PassKernel::split_lanes) pairs
    // its points k and M - k through subgroup shuffles instead of a shared-memory exchange, a
    // c2r transform's join fused into a one-pass kernel that loops over tiles takes its mirrors
    // through them (PassKernel::join_lanes) instead of a second read of memory, and
    // under Strategy::automatic kernels of one lane swap exchange through shuffles
    // (PassKernel::lane_swaps), where the device has subgroup shuffles in compute shaders
    // (kernels check the lane layout and fall back to shared memory by themselves). false:
    // through shared memory (Strategy::subgroups still takes lane swaps).
    bool subgroup_shuffles = true;
    // Tuning: a c2r transform's join fused into a one-pass kernel whose stages exchange through
    // shared memory takes each point's mirror from the tile in shared memory
    // (PassKernel::join_exchange) instead of reading it from memory a second time. false: from
    // memory, which measured faster at most lengths (H100, c2r through shared memory: 2048 +3.2%,
    // 8192 -4.4%, 10000 -11.4%, 16384 -31%; bench/RESULTS.md, thirty-ninth run).
    bool join_through_shared_memory = false;
    // Teaching: every pass is one butterfly step of this radix (a power of two, 2 to 32; it sets
    // max_radix and max_pass_length to it), so that a plan shows the textbook steps one pass at a
    // time: 512 x 512 with radix 2 takes 18 passes, nine down the columns and then nine along
    // the rows (see Plan::record_first_passes). Where a length is a power of two but not of the
    // radix, its last pass is shorter; lengths other than powers of two are refused. 0: the
    // planner's choice.
    uint32_t radix = 0;
    // How the transform is computed (see Strategy). automatic: the fast transforms.
    Strategy strategy = Strategy::automatic;
    // How r2c and c2r plans transform rows of even length (see RealPath).
    RealPath real_path = RealPath::half_length;
    bool operator==(const Options&) const = default;
};

// One entry of the twiddle table: the complex root of unity e^{-2 pi i exponent / period}.
// The device plan rounds each entry to the working precision from a long-double value.
struct TwiddleEntry {
    uint32_t exponent;
    uint32_t period;
    bool operator==(const TwiddleEntry&) const = default;
};

// One radix step inside a pass: `radix`-point butterflies whose inputs were combined `span`
// points at a time by the earlier steps (the Stockham "Ns"). The steps of a 1D transform of R
// points end with span * radix == R. A pass over several dims at once (Pass::dim_count) runs the
// steps of each dim as if they began a transform of R points, span 1 again at each dim's
// first step: after the steps of a dim of n points, slowest first, the block's points hold
// that dim's transforms, and the next dim's steps find their points again n * ... apart.
struct Stage {
    uint32_t radix;
    uint32_t span;
    // Offset in the twiddle table of this stage's factors W_{span*radix}^{j*m}, stored at
    // [(m - 1) * span + j] for j < span, 1 <= m < radix, so that invocations doing neighbouring
    // butterflies read neighbouring entries. Unused when span == 1.
    uint32_t twiddle_offset = 0;
    bool operator==(const Stage&) const = default;
};

// One exchange of a subgroup-shuffle kernel (PassKernel::lane_swaps): before stage `stage`, bit
// `lane_bit` of each invocation's index in its column trades places with bit `reg_bit` of the
// register index. For each pair of registers a, b = a | 2^reg_bit, the invocation whose lane bit
// is 0 sends b and keeps a, its partner (lane XOR 2^lane_bit) sends a and keeps b, and each puts
// what it receives in place of what it sent: one subgroupShuffleXor per pair.
struct LaneSwap {
    uint8_t stage;
    uint8_t lane_bit;
    uint8_t reg_bit;
    bool operator==(const LaneSwap&) const = default;
};

// An exchange through shared memory in a subgroup-shuffle kernel whose columns span several
// subgroups (PassKernel::lane_remaps): before stage `stage`, each invocation writes its points to
// the column's shared array and reads back those of the layout `places` (place of each point bit,
// as lane_layouts gives them), where the next stage needs a point bit that lies in lanes of
// other subgroups, which shuffles cannot reach.
struct LaneRemap {
    uint8_t stage;
    std::vector<uint8_t> places;
    bool operator==(const LaneRemap&) const = default;
};

// What a pass's kernel computes: a Stockham radix pass (below), the direct sum
// X_k = sum_j x_j W_N^{jk} of whole transforms (Strategy::dft), or a step of a real transform
// (RealStep).
enum class KernelKind { stockham, direct, real };

// The order in which the workgroups of a Stockham pass take its tiles, W workgroups in all,
// where each loops over several (PassKernel::prefetch; else workgroup w takes tile w, or the
// last tile less w backward):
//   interleaved: workgroup w takes tiles w, w + W, w + 2 W, ... (one-pass plans);
//   forward:     groups of consecutive workgroups take consecutive runs of tiles, so that the
//                memory the pass touches moves from its first tile to its last as it runs;
//   backward:    the same from the last tile to the first.
// The passes of a multi-pass plan alternate forward and backward: each then starts on the tiles
// its predecessor wrote last, which may still be in the cache (H200: 50 MB of L2).
enum class TileOrder { interleaved, forward, backward };
TWIDDLE_API std::string_view to_string(TileOrder order);

// The steps that make real transforms out of complex ones (KernelKind::real). Each runs over rows
// of a real transform of n = PassKernel::length points (the halved dim), with M = n / 2:
//   split:  r2c of even n. The row's reals read as M complex pairs z_j = x_2j + i x_2j+1 and
//           transformed give Z (M points); split writes the n / 2 + 1 points X_k = E_k + W_n^k O_k
//           from the pairs k, M - k (Z_M meaning Z_0):
//             a = Z_k, b = conj(Z_{M-k}), e = (a + b) / 2, t = W_n^k (a - b) / 2i,
//             X_k = e + t, X_{M-k} = conj(e - t).
//   join:   c2r of even n. An inverse transform runs conjugated (its first load and last store
//           conjugate), so join sees conj(X) and writes conj(2 Z), the input of a forward
//           transform of M points whose conjugate is n times the reals as complex pairs: the
//           same arithmetic as split with factors 1 instead of 1/2, from n / 2 + 1 points to M.
//           It takes only the real parts of X_0 and X_M, as numpy does.
//   widen:  r2c of any n: reals x_j to complex (x_j, 0).
//   crop:   r2c: points k <= n / 2 of a transform of n points.
//   mirror: c2r of any n: X_k for k <= n / 2 to all n points, X_{n-k} = conj(X_k), with the real
//           parts only of X_0 and (even n) X_{n/2}.
//   narrow: c2r: the real parts of n points.
// Each writes `real_items()` items per row: a pair (split, join) or a point (the others).
// A band-limited complex side (PassKernel::spectrum_points m below n / 2 + 1) holds X_k for k < m
// only: split and crop write no more, join and mirror read the rest as 0.
enum class RealStep { split, join, widen, crop, mirror, narrow };
TWIDDLE_API std::string_view to_string(RealStep step);

// One pass: one compute dispatch that reads every element once and writes every element once.
//
// The transform of `length` points is viewed as `length / radix` interleaved columns of `radix`
// points each: column t holds points t + r * (length / radix), r < radix. The pass multiplies
// point r of column t by W_{span*radix}^{(t mod span) * r}, does a `radix`-point DFT of the
// column, and stores result r at (t - t mod span) * radix + t mod span + r * span (Stockham
// autosort). The first pass has span 1; each pass multiplies span by its radix.
struct TWIDDLE_API PassKernel {
    KernelKind kind = KernelKind::stockham;
    Precision precision = Precision::f32;
    uint32_t length = 1;        // points in the whole transform
    uint32_t radix = 1;         // points per column in this pass
    uint32_t span = 1;          // product of the earlier passes' radices
    std::vector<Stage> stages;  // the in-workgroup steps, their radices multiply to `radix`

    // Invocations per column, and the registers of data each holds. Stage s of radix r has
    // radix / r butterflies; invocation i does butterflies q = i + g * threads_per_column for
    // g < ceil((radix / r) / threads_per_column), skipping q >= radix / r. Its register
    // g + m * (that count) holds point q + m * (radix / r). When every stage's butterflies divide
    // evenly ("uniform": points_per_thread * threads_per_column == radix, always so for powers
    // of two and for multi-pass passes), register m holds point i + m * threads_per_column in
    // every stage; otherwise points_per_thread is the largest register count of any stage.
    uint32_t threads_per_column = 1;
    uint32_t points_per_thread = 1;
    uint32_t columns_per_workgroup = 1;  // columns a workgroup transforms together
    uint32_t workgroup_size = 1;         // columns_per_workgroup * threads_per_column
    // true: neighbouring invocations take neighbouring points of one column (columns are
    // contiguous: one-pass transforms). false: they take neighbouring columns (multi-pass).
    bool points_contiguous = true;
    // Move the workgroup's tile of columns_per_workgroup * radix points between memory and
    // registers through shared memory, so that neighbouring invocations touch neighbouring
    // addresses: for one-pass columns too short to coalesce from registers, and for the stores
    // of a multi-pass kernel's first pass, whose columns land as contiguous runs.
    bool staged_load = false;
    bool staged_store = false;
    // How many rounds each shared-memory exchange takes: 1 (real and imaginary together), 2 (one
    // component at a time, when a whole tile does not fit, and in every multi-pass kernel) or 4 (one
    // component of half the points at a time: one-pass kernels of one column, first the points below radix /
    // 2; and of several columns with a split fused across them, point x of column c then at c * radix / 2 + x
    // mod radix / 2 of its half's array).
    uint32_t exchange_rounds = 1;
    // All the shared memory the kernel declares: the exchange buffers, plus 4 bytes for the lane
    // check of subgroup_exchanges, split_lanes, join_lanes or lane_swaps.
    uint32_t shared_bytes = 0;
    // Persistent workgroups: each loops over tiles and loads the next tile's points into
    // registers before it transforms the current one.
    bool prefetch = false;
    // With prefetch: the stage twiddles (Stage::twiddle_offset), which depend on the invocation
    // only, are read into registers once, before the first tile, instead of once per tile.
    // Not with lane_swaps. With split_lanes, the last stage's are read for the dealt butterflies.
    bool twiddles_in_registers = false;
    TileOrder tile_order = TileOrder::interleaved;
    // The invocations of each column lie in one subgroup (one-pass kernels whose columns take at
    // most subgroup-size invocations): the exchanges between stages, which stay within a
    // column, synchronize that subgroup only. The kernel checks at its start that subgroups are
    // runs of consecutive local indices of a size the column's invocations divide, and uses
    // workgroup barriers if not.
    bool subgroup_exchanges = false;
    // Strategy::subgroups: the exchanges between stages go through subgroup shuffles, not shared
    // memory (power-of-two one-pass kernels of span 1, with loads and stores of their own: no
    // fused real step, Bluestein or convolution). Bit b of a point's index in its column (n =
    // log2 radix bits, t = log2 threads_per_column of them in the invocation's index) lives at a
    // place: lane bit l < t of the invocation's index i, or register bit l - t of the register's
    // index. The loads place bit b at b (register r holds
    // point i + r * threads_per_column). A stage of radix 2^kr and span 2^s needs its point bits
    // (the top kr) in registers; these swaps bring them there; then its butterfly q = (the other
    // bits) writes output m at point (q - q mod 2^s) 2^kr + q mod 2^s + m 2^s without moving
    // (the places of the bits are renamed). After the last stage the lane bits hold the
    // point's t lowest bits in some order (lane_layouts), so that the stores of a subgroup cover
    // the same runs of memory as with shared-memory exchanges. Empty: through shared memory.
    // The kernel checks the lane layout at its start (as for subgroup_exchanges) and exchanges
    // through shared memory if it is not as expected.
    // Columns of more invocations than a subgroup has swap only lane bits below the subgroup's
    // (bit l < log2 of the subgroup size; the lane check requires the device's subgroups to be a
    // multiple of 2^(l + 1) for the highest l swapped), and exchange through shared memory
    // (lane_remaps) before the stages that need bits in the other lane bits.
    std::vector<LaneSwap> lane_swaps;
    std::vector<LaneRemap> lane_remaps;

    // Pass twiddles W_{span*radix}^{j*r} (j = column mod span, r = point), for span > 1 (uniform
    // kernels only). The invocation holding points r = i + m * threads (threads =
    // threads_per_column, m < points_per_thread) computes one per-invocation factor and multiplies it by a
    // per-register step:
    //   W_{span*radix}^{j*(i + m*threads)} = W_{span*radix}^{j*i} * W_{span*points_per_thread}^{j*m}.
    // The step is low[(m - 1) * step_split + j mod step_split], times
    // high[(m - 1) * ceil(span / step_split) + j / step_split] when step_split < span: neighbouring
    // invocations take neighbouring columns, so they read neighbouring low entries and the same
    // high entry, and the tables stay small for long spans. The per-invocation factor
    // (threads > 1 only) is a product of three entries that keep reads coalesced or uniform
    // across a workgroup: with j = j_hi + j_lo, j_lo = j mod lane_columns, and e = j_hi * i,
    //   W^{j*i} = coarse[e >> fine_bits] * fine[e mod 2^fine_bits] * lanes[i * lane_columns + j_lo].
    uint32_t lane_columns = 0;
    uint32_t lane_offset = 0;
    uint32_t fine_bits = 0;
    uint32_t fine_offset = 0;
    uint32_t coarse_offset = 0;
    uint32_t step_split = 0;
    uint32_t step_low_offset = 0;
    uint32_t step_high_offset = 0;

    // Direct kernels: radix == length, points_per_thread outputs per invocation, `output_blocks`
    // workgroups per transform, each computing workgroup_size * points_per_thread outputs from
    // the twiddle table's W_N^e, e < N, at table_offset + e.
    uint32_t output_blocks = 1;
    uint32_t table_offset = 0;

    // Bluestein's steps, fused into the passes of its length-M transforms (M = length, at least
    // 2 * chirp_length - 1), for a transform of chirp_length = N points whose length has a prime
    // factor above 31. With the chirp c_x = e^{-i pi x^2 / N} at table[chirp_offset + x], x < N:
    //   chirp_load:     point x of the source transform (N points) is read as x_x * c_x, after
    //                   load_sign; points x >= N read as 0 (zero padding to M).
    //   spectrum_store: point k is stored as conj(y_k * table[spectrum_offset + k]), the
    //                   chirp's spectrum scaled by 1 / M (a LogicalPlan::SpectrumTable).
    //   chirp_store:    only points k < N are stored, into a destination transform of N points,
    //                   as c_k * conj(y_k), before store_re and store_im.
    // A forward transform of the chirped input, the spectrum store, and a second forward
    // transform with the chirp store make X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), the DFT.
    uint32_t chirp_length = 0;
    uint32_t chirp_offset = 0;
    uint32_t spectrum_offset = 0;
    bool chirp_load = false;
    bool spectrum_store = false;
    bool chirp_store = false;

    // Rader's algorithm for a prime length p = rader_prime above 31, in one pass of span 1: the
    // stages transform the p - 1 points of a cyclic convolution (length = radix = p - 1), twice.
    // With g = rader_generator, a primitive root mod p, and the spectrum
    // table[rader_offset + k] = FFT_{p-1}(b)_k / (p - 1) of b_q = W_p^{g^-q} (a
    // LogicalPlan::SpectrumTable):
    //   load:   point q of the first transform is x_{g^q mod p}, after load_sign; x_0 is kept.
    //   middle: output k of the first transform becomes conj(y_k * table[rader_offset + k]), the
    //           input of the second; output 0 plus x_0 is X_0.
    //   store:  output m of the second transform, conjugated, plus x_0, is X_{g^-m mod p}.
    // Then X_{g^-m} = x_0 + sum_q x_{g^q} W_p^{g^(q-m)}, the DFT. Transforms are p points in
    // memory (row_points()). In a longer length p m (m > 1 without prime factors above 31) this
    // pass is the first: its transforms are the columns t of the span-1 pass of radix p (points
    // t + r m, results at t p + r), batched over t, and Stockham passes of span p follow.
    uint32_t rader_prime = 0;
    uint32_t rader_generator = 0;
    uint32_t rader_offset = 0;

    // A real transform's split or join fused into a one-pass Stockham kernel of M = length points
    // (one transform per column, span 1), which then does without the RealStep pass:
    //   split_store: the columns' outputs Z go through shared memory (or subgroup shuffles:
    //                split_lanes), and the store writes the points X_k of split
    //                (k < spectrum_points <= M + 1) in the destination;
    //   join_load:   point k is read as output k of join, from points k and M - k (X_M for k = 0)
    //                of the source's rows of spectrum_points points, after load_sign.
    // split_store also fuses split into the last pass of several (span S > 1, S columns per
    // transform, multi-pass layout, spectrum_points >= M): column t's point r is Z_k, k = t + S r,
    // and Z_{M-k} is point radix - 1 - r of column S - t (column 0: point radix - r; column S / 2
    // holds both). A workgroup's tile then holds mirrored columns: tile tb of a transform (S /
    // columns_per_workgroup tiles each) takes t = tb h + c for c < h = columns_per_workgroup / 2,
    // and S - t for its c-th column from the end (S / 2 in place of S). The tile's outputs pass
    // through shared memory, and each invocation stores X_k for its own points, also X_M from
    // Z_0. columns_per_workgroup is even and divides S. join_load also fuses join into the first
    // pass of several (span 1, T = length / radix columns per transform, multi-pass layout):
    // column t's point r is read as join's output x = t + T r, from points x and M - x of the
    // source's row.
    // With W_{2M}^k at table[real_offset + k] (k <= M / 2 for split, k < M for join).
    bool split_store = false;
    bool join_load = false;
    // join_load in one pass of whole contiguous columns whose stages exchange through shared
    // memory: each invocation reads only its own points (X_M travelling as X_0's imaginary part,
    // which join ignores), and the mirrors M - k come from the tile in shared memory, not from a
    // second read of memory.
    bool join_exchange = false;
    uint32_t real_offset = 0;
    // A split fused into one pass (not across columns) takes each column's pairs in the column's
    // own invocations where a column has at least kSplitRun of them, so that they store runs of
    // that many points; shorter columns spread the tile's pairs over the workgroup.
    static constexpr uint32_t kSplitRun = 8;
    // A split fused into one pass, with columns of kSplitRun or more invocations (the planner:
    // 2 * kSplitRun; a power of two, the last stage one butterfly per invocation) may pair points
    // through subgroup shuffles, in blocks of
    // split_lanes = min(threads_per_column, subgroup size) consecutive invocations; 0: through
    // shared memory. The last stage then deals its butterflies so that the invocations l and
    // l XOR (split_lanes - 1) of a block hold the points i + r T and T - i + (R/T - 1 - r) T
    // (T = threads_per_column), mirror images whose pairs k, M - k lie one in each: block b's
    // lower half takes i = b h + l (h = split_lanes / 2, l < h), its upper half the mirrors
    // T - i, and the upper lane of i = 0, whose mirror T is no point, takes T / 2 (its own
    // mirror). Each invocation receives the mirror's upper half of registers and stores X_k and
    // X_{M-k} for the pairs of its lower half. The kernel checks the lane layout at its start and,
    // if subgroups are laid out otherwise, exchanges the same values through shared memory by
    // local index, one component at a time (slow, but no second code path's registers).
    uint32_t split_lanes = 0;
    // A join fused into one pass (join_load, not join_exchange, whole contiguous columns whose
    // stages exchange, the first stage's slots the points i + r T for r < R/T) may take each
    // point's mirror through subgroup shuffles, in blocks of join_lanes consecutive invocations
    // (as split_lanes; the planner sets it where such a kernel loops over tiles and has 16 or
    // more invocations per column, any uniform first stage): the first stage deals its
    // butterflies as split_lanes deals the last one's, so that invocation l and l XOR (join_lanes -
    // 1) of a block hold the points x = i + r T and M - x = T - i + (R/T - 1 - r) T, and each
    // invocation reads only its own points (X_M as X_0's imaginary part). Invocations 0 and T / 2
    // are their own mirrors. If the lane check fails, the shuffles go through shared memory
    // (split_lanes' fallback). 0: join reads each mirror from memory.
    uint32_t join_lanes = 0;
    // A convolution in one pass (span 1, whole columns, stored point by point; see
    // plan_convolution): the stages run, each output X_k becomes conj(twiddle_middle(X_k, index)),
    // index being where the store of X_k would write (a GLSL function the kernel declares and the
    // plan's callbacks define), and the stages run again on those values, whose results the
    // stores write: the conjugate of the inverse transform, unnormalized.
    bool convolution = false;
    // A convolution kernel's middle as a product by a complex operand array (binding 3, GLSL
    // operand_at()): each X_k times operand_at(index mod convolution_period) (0: index), or its
    // conjugate, the factors loaded with the tile before the first transform; false: twiddle_middle.
    bool convolution_product = false;
    uint32_t convolution_period = 0;
    bool convolution_conjugate = false;
    // Real steps (fused or KernelKind::real): the points of the complex side's rows, m; X_k exists
    // for k < m only (FftDesc::spectrum_length). n / 2 + 1 unless band-limited.
    uint32_t spectrum_points = 0;
    // A fused split's stores, or join's loads, take neighbouring transforms of the tile in
    // neighbouring invocations (transforms first, then points), through shared memory: for a
    // complex side whose rows are strided and whose transforms lie side by side (the m-major
    // spectra of twiddle::sht, fm[m * nlat + ilat]), so that accesses still coalesce.
    bool spectrum_across_columns = false;

    // KernelKind::real: the step, with W_n^k for k <= n / 4 at table[table_offset + k] (split and
    // join). Rows are the columns (length == radix): invocation g of the dispatch does item
    // g mod real_items() of row g / real_items(), placed as a column is (place()). widen reads
    // and narrow writes reals; strides and offsets count elements of each side's own type.
    RealStep real_step = RealStep::split;

    // Where the pass finds its transforms. Point x of transform b lies at element
    // offset(b) + x * stride of the source (src_stride) and destination (dst_stride) buffers.
    // With no batch dims the transforms are packed: offset(b) = b * row_points() and both strides
    // are 1. Otherwise b counts through the batch dims, the first fastest:
    // offset(b) = sum_k b_k * stride_k with b = b_0 + count_0 * (b_1 + count_1 * (...)).
    // Columns are numbered c = b * columns_per_transform() + t, so that neighbouring invocations
    // take neighbouring columns t of one transform; or, with `vectorized`, c = (b_rest *
    // columns_per_transform() + t) * count_0 + b_0, so that they take neighbouring transforms
    // along batch dim 0, the one adjacent in memory when the transformed dim is strided (the
    // columns of a C-order 2D array).
    struct BatchDim {
        uint32_t count = 1;
        uint32_t src_stride = 0;
        uint32_t dst_stride = 0;
        bool operator==(const BatchDim&) const = default;
    };
    std::vector<BatchDim> batch_dims;
    uint32_t src_stride = 1;
    uint32_t dst_stride = 1;
    bool vectorized = false;

    // Where column c (numbered as above) lies: its t, and the element offsets of its transform's
    // point 0 in the source and destination (without the binding offsets).
    struct ColumnPlace {
        uint64_t t;
        uint64_t src;
        uint64_t dst;
    };
    ColumnPlace place(uint64_t column) const;
    // Whether transforms follow one another densely in the source or destination: point x of
    // transform b at b * row_points() + x, as staged loads and stores of whole tiles need.
    bool packed_src() const;
    bool packed_dst() const;

    uint32_t columns_per_transform() const { return length / radix; }
    // Items per row of a real step (KernelKind::real).
    uint32_t real_items() const;
    bool reads_real() const { return kind == KernelKind::real && real_step == RealStep::widen; }
    bool writes_real() const { return kind == KernelKind::real && real_step == RealStep::narrow; }
    // Points of each transform in the source and destination: length, or Rader's prime.
    uint32_t row_points() const { return rader_prime ? rader_prime : length; }
    bool uniform() const { return points_per_thread * threads_per_column == radix; }
    // Butterflies per invocation in a stage of radix r: ceil((radix / r) / threads_per_column).
    uint32_t groups(uint32_t r) const { return (radix / r + threads_per_column - 1) / threads_per_column; }
    bool operator==(const PassKernel&) const = default;
};

struct Pass {
    PassKernel kernel;
    // The dim of the problem (an index into desc.dims()) the pass transforms; -1 for a pass
    // that copies (the direct sum's, or a problem whose dims all have one point). A pass may
    // transform dim_count consecutive dims at once (dim, dim + 1, ...; small dims that lie
    // together in memory): its kernel's stages are then one group per dim, slowest first, each
    // group's spans starting again at 1.
    int dim = 0;
    uint32_t dim_count = 1;
    uint64_t columns = 0;     // batch * columns_per_transform
    uint64_t tiles = 0;       // ceil(columns / columns_per_workgroup)
    uint64_t workgroups = 0;  // tiles, or fewer when kernel.prefetch (each loops over tiles)
};

// Which buffer each pass reads and writes for one placement, and from which element of it: the
// passes of Bluestein's transforms use two regions of the scratch buffer.
struct Route {
    BufferRole src;
    BufferRole dst;
    uint64_t src_at = 0;
    uint64_t dst_at = 0;
};

struct TWIDDLE_API LogicalPlan {
    FftDesc desc{1};
    std::vector<Pass> passes;
    std::vector<TwiddleEntry> twiddles;
    // Tables that are not roots of unity, spectra FFT_m(b) / m of sequences b of m points:
    //   Bluestein's transform of n points through m (generator 0): the chirp
    //   b_j = e^{i pi j^2 / n} for j < n, b_{m-j} = b_j, 0 between;
    //   Rader's transform of the prime n (m = n - 1, generator g): b_q = W_n^{g^-q mod n}.
    // Each takes table entries [offset, offset + m), whose `twiddles` entries are placeholders.
    struct SpectrumTable {
        uint32_t n;
        uint32_t m;
        uint32_t offset;
        uint32_t generator = 0;
        bool operator==(const SpectrumTable&) const = default;
    };
    std::vector<SpectrumTable> spectra;
    // Scratch elements each placement's routes reach (0: no scratch).
    uint64_t scratch_elements_out_of_place = 0;
    uint64_t scratch_elements_in_place = 0;
    std::vector<Route> out_of_place;  // one per pass
    std::vector<Route> in_place;      // one per pass; input and output are the same buffer
    // A convolution plan (plan_convolution): the passes after the one with a convolution kernel
    // transform conjugated values, and the last stores their conjugate.
    bool convolution = false;

    const std::vector<Route>& routes(Placement p) const {
        return p == Placement::in_place ? in_place : out_of_place;
    }
    // Bytes of scratch buffer the placement needs (0: none): desc.output_bytes() where passes
    // keep data in the output's layout there, two arrays of batch * M for Bluestein's
    // transforms, a real transform's complex rows (c2r of several dims, odd or strided lengths).
    uint64_t scratch_bytes(Placement p) const;
    // A one-line summary: "4096 = 16 x 16 x 16 in 1 pass", "65536 = (16 x 16) x (16 x 16) in 2 passes",
    // or per dim for several: "512 x 1024: dim 1 = 4 x 16 x 16, dim 0 = (32) x (32) in 3 passes".
    std::string summary() const;
};

// The words of each shared-memory exchange array of a kernel whose tile holds `tile_points`
// points: one float (or double) per point, or per point of half the tile with exchange_rounds 4,
// and a spare word per 16 so that strided exchanges do not pile onto one bank. The code
// generator maps points to those words (GLSL `pad()`, a word after every 32, or a map chosen per
// exchange).
constexpr uint64_t exchange_array_words(uint64_t tile_points, uint32_t exchange_rounds) {
    const uint64_t points = exchange_rounds == 4 ? tile_points / 2 : tile_points;
    return points + points / 16;
}

// The places of a one-pass kernel's point bits (PassKernel::lane_swaps) as each stage begins,
// after its remap or swaps: layouts[s][b] is the place of bit b at stage s (lane bit l < t, or register
// bit l - t); layouts[stages] is the layout after the last stage, which the stores use.
TWIDDLE_API std::vector<std::vector<uint8_t>> lane_layouts(const PassKernel& k);
// The places of the point bits after a stage of radix 2^radix_bits whose span is 2^span_bits,
// starting from `at` (a lane layout): output m of butterfly q (the point bits below n - radix_bits)
// lands at point (q >> span_bits << (span_bits + radix_bits)) | m << span_bits | (q mod 2^span_bits),
// where it already is.
TWIDDLE_API std::vector<uint8_t> lane_layout_after_stage(const std::vector<uint8_t>& at, uint32_t span_bits,
                                                         uint32_t radix_bits);

// Plans `desc` for a device with capabilities `caps`. Throws twiddle::UnsupportedError for
// lengths or sizes this version or this device cannot do.
TWIDDLE_API LogicalPlan plan(const FftDesc& desc, const DeviceCaps& caps, const Options& options = {});

// Plans the convolution ifft(middle(fft(x))) of a c2c `desc` whose input and output are laid out
// alike, where plan() gives passes of span 1 that each complete their dims (one-pass 1D lengths,
// N-D arrays whose dims take a pass each), so that the dims commute: the other passes forward,
// one pass as a convolution kernel (PassKernel::convolution: that pass of the forward and of the
// inverse transform), then the other passes again in reverse order on conjugated values. The
// fused pass is one over contiguous points where there is one, with the least shared memory, and
// not one that needs more than half the device's shared memory or exchanges in halves (where two
// passes ran faster). A 1D transform in one pass becomes one pass; 2D of a pass per dim three
// instead of four. Routes: input to output, then in place in the output. Throws
// UnsupportedError for other problems.
TWIDDLE_API LogicalPlan plan_convolution(const FftDesc& desc, const DeviceCaps& caps,
                                         const Options& options = {});

}  // namespace twiddle
