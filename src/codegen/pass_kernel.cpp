#include "codegen/pass_kernel.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "codegen/butterfly.hpp"
#include "codegen/glsl_writer.hpp"
#include "core/unit_root.hpp"

namespace twiddle::codegen {

namespace {

std::string u(uint64_t v) { return std::to_string(v) + "u"; }

// Workgroups per group of TileOrder::forward and backward: about as many as run at once. H200,
// against TileOrder::interleaved, with alternate passes backward in both, ms: 2048^2 0.7188 against 0.7317,
// 256^3 0.8261 against 0.8383, 2^20 0.7609 against 0.7628, 1024^2 0.5693 against 0.5669; 256 workgroups:
// 0.7263, 0.8316, 0.7737, 0.5706.
constexpr uint32_t kTileGroup = 128;

// The smallest radix whose stage twiddles a kernel forms as products of fewer table reads
// (emit_stage_factors in generate_pass_kernel).
constexpr uint32_t kFactoredTwiddleRadix = 32;

// Which invocations an exchange moves values between: those of one column (the stages of a
// one-pass kernel), or any of the workgroup's.
enum class Scope { column, workgroup };

// An additive map of shared-memory indices, a -> a + sum_k shifts[k - 5] * (a >> k) for k = 5..9
// + skew * (a / block), that spreads strided accesses over the banks. Being a sum, it distributes
// over base + offset wherever that sum carries past none of its shifts and blocks (folds), so that
// an exchange pads each base once and its offsets stay constants of the accesses; an XOR swizzle
// would cost index arithmetic per access. It is increasing, so no two indices meet. The skew of
// blocks of a length other than a power of two serves mixed radices: in 1000 = 10 x 10 x 10, the
// second exchange writes runs of 10 at stride 100 (3-way conflicts), which a + 6 (a / 100) puts
// in distinct banks.
struct BankMap {
    std::array<uint32_t, 5> shifts{};
    uint32_t block = 0;  // 0: no skew
    uint32_t skew = 0;

    uint32_t apply(uint32_t a) const {
        uint32_t r = a;
        for (uint32_t k = 0; k < shifts.size(); ++k) r += shifts[k] * (a >> (k + 5));
        if (block) r += skew * (a / block);
        return r;
    }
    bool identity() const { return shifts == std::array<uint32_t, 5>{} && block == 0; }
    bool operator==(const BankMap&) const = default;
    // Of a set of bases, the largest remainder each of the map's terms leaves (the low bits under
    // its shift, or modulo its block), for folds().
    std::array<uint32_t, 6> largest_remainders(const std::vector<uint32_t>& bases) const {
        std::array<uint32_t, 6> r{};
        for (const uint32_t b : bases) {
            for (uint32_t k = 0; k < shifts.size(); ++k)
                if (shifts[k]) r[k] = std::max(r[k], b & ((1u << (k + 5)) - 1));
            if (block) r[5] = std::max(r[5], b % block);
        }
        return r;
    }
    // Whether apply(base + offset) == apply(base) + apply(offset) for every base of a set, given
    // its largest_remainders.
    bool folds(const std::array<uint32_t, 6>& remainders, uint32_t offset) const {
        for (uint32_t k = 0; k < shifts.size(); ++k) {
            const uint32_t mask = (1u << (k + 5)) - 1;
            if (shifts[k] && remainders[k] + (offset & mask) > mask) return false;
        }
        return block == 0 || remainders[5] + offset % block < block;
    }
    // GLSL of the map applied to `a`: the kernel's pad() for kPadMap (see below).
    std::string glsl(const std::string& a) const {
        if (identity()) return a;
        if (*this == BankMap{{1, 0, 0, 0, 0}}) return "pad(" + a + ")";
        std::string r = "(" + a + ")";
        for (uint32_t k = 0; k < shifts.size(); ++k)
            if (shifts[k])
                r += " + " + (shifts[k] > 1 ? std::to_string(shifts[k]) + "u * " : std::string()) + "((" + a +
                     ") >> " + std::to_string(k + 5) + "u)";
        if (block)
            r += " + " + (skew > 1 ? std::to_string(skew) + "u * " : std::string()) + "((" + a + ") / " +
                 std::to_string(block) + "u)";
        return "(" + r + ")";
    }
};

// pad(): a word after every 32.
constexpr BankMap kPadMap{{1, 0, 0, 0, 0}};
// The largest skew (BankMap::skew) an exchange tries: 1 to 8 found the modeled best of every
// mixed-radix kernel of the H200 sweep and of 40 to 6561 points but 640's (921 wavefronts, 903
// with 22), at half the generation time of 1 to 31.
constexpr uint32_t kMaxSkew = 8;
// The maps an exchange may take, the first of the fewest modeled wavefronts that fits the array
// (exchange_array_words' room: a word per 16). a + (a >> 6) + 6 (a >> 7) takes the stride-128 runs
// of 8 (writes of a radix-16 stage after a radix-8 one) and the mirrored runs of 16 (reads of r2c's
// split dealt in lanes, PassKernel::split_lanes) to distinct banks, where pad() gives 2-way
// conflicts: on the H200 c2c 2048 +1.9%, 4096 +1.3%, 131072 +2.3%, r2c 4096 +2.5%, 8192 +2.7%
// (bench/RESULTS.md, twenty-sixth run). The last four came from a search over every map of this
// form with coefficients to 7 on the sweep's kernels (RESULTS.md, 2026-12-05, third session):
// a + (a >> 7) leaves the first exchange of a multi-pass plan's first pass no conflicts (640
// wavefronts a round to 256), the others take 64, 128 and r2c 1536 and 16384 closer.
constexpr BankMap kExchangeMaps[] = {kPadMap,           {{0, 1, 0, 4, 0}}, {{0, 1, 2, 0, 0}},
                                     {{0, 0, 4, 0, 0}}, {{0, 1, 6, 0, 0}}, {{0, 0, 1, 0, 0}},
                                     {{2, 0, 0, 0, 0}}, {{1, 1, 0, 0, 0}}, {{0, 0, 1, 6, 0}}};

// Whether a kernel's shared-memory indices are padded (kPadMap, or a map of kExchangeMaps chosen
// per exchange) or plain, and what its exchanges cost either way: the bank-conflict wavefronts of
// every move whose addresses are known (SharedExchange::Move::words), summed over the workgroup's
// warps.
struct SharedPadding {
    bool padded = true;
    uint64_t wavefronts_padded = 0;
    uint64_t wavefronts_plain = 0;
    // Whether a padded kernel's exchanges took any map but none.
    bool mapped = false;
    // Warp-wide accesses whose padded index the map computes in full (no fold), where padded.
    uint64_t unfolded = 0;
    // Where set, every exchange of a padded kernel takes this map. A kernel whose column
    // exchanges wait by subgroup needs one map for all of them: under two maps a column's words
    // in one exchange can be another column's in the next, which only a workgroup wait orders.
    std::optional<BankMap> kernel_map;
    // Per map that every exchange could take (fits, words known), its cost summed over the
    // exchanges, for choosing kernel_map; the maps in the order the exchanges try them.
    std::vector<std::pair<BankMap, double>> totals;
    bool totals_valid = true;
    // The map every exchange took, where they all took one (nullopt: none yet, or several).
    std::optional<BankMap> one_map;
    bool several_maps = false;
};

// Wavefronts of one shared access whose invocation tid reaches element `words[tid]` mapped by
// `map`: per group of lanes that share one pass through the 32 four-byte banks (32 lanes for
// 4-byte elements, 16 for 8-byte ones), the most distinct elements that fall in one bank.
uint64_t access_wavefronts(const std::vector<uint32_t>& words, uint32_t element_bytes, const BankMap& map) {
    const uint32_t lanes = element_bytes == 8 ? 16 : 32, banks = lanes;
    uint64_t total = 0;
    // Per bank, the distinct elements the group reaches in it (lanes that reach one element share
    // its pass). Fixed arrays: the planner generates kernels at every plan, warm ones too.
    std::array<std::array<uint32_t, 32>, 32> in_bank;
    for (size_t first = 0; first < words.size(); first += lanes) {
        std::array<uint32_t, 32> distinct{};
        uint32_t worst = 0;
        for (size_t t = first; t < std::min(words.size(), first + lanes); ++t) {
            const uint32_t a = map.apply(words[t]);
            auto& bank = in_bank[a % banks];
            uint32_t& n = distinct[a % banks];
            if (std::find(bank.begin(), bank.begin() + n, a) != bank.begin() + n) continue;
            bank[n++] = a;
            worst = std::max(worst, n);
        }
        total += worst;
    }
    return total;
}

// Shared-memory traffic of one kernel. Each exchange writes values, waits, and reads them back;
// a wait goes before the next write only if reads are pending. A wait covers the workgroup,
// or, for exchanges within a column when the kernel's columns lie in subgroups, the subgroup if
// the lane check at the kernel's start passed (`subgroup_sync`).
class SharedExchange {
public:
    // `pending`: shared memory may still be read by earlier code (a previous loop trip) in
    // that scope.
    // `array_words`: the words of each exchange array, which a map's indices must stay below.
    SharedExchange(GlslWriter& w, const PassKernel& k, std::optional<Scope> pending, SharedPadding& padding,
                   uint64_t array_words)
        : w_(w),
          padding_(padding),
          array_words_(array_words),
          element_bytes_(k.precision == Precision::f64 ? 8 : 4),
          rounds_(k.exchange_rounds),
          half_points_(k.radix / 2),
          columns_(k.columns_per_workgroup),
          subgroups_(k.subgroup_exchanges),
          pending_(pending),
          type_(types(k.precision).complex) {
        // Blocks of a length other than a power of two whose skew an exchange may take: the spans
        // of the column's stages and, with several columns, the column.
        uint32_t span = 1;
        for (const auto& stage : k.stages) {
            if (span > 1 && !std::has_single_bit(span)) skew_blocks_.push_back(span);
            span *= stage.radix;
        }
        if (columns_ > 1 && !std::has_single_bit(k.radix)) skew_blocks_.push_back(k.radix);
    }

    struct Move {
        std::string value;    // register written (for writes) or assigned (for reads)
        std::string address;  // unpadded shared index expression
        // Whether the point is in the column's upper half, for exchange_rounds == 4: "true",
        // "false", or a GLSL expression evaluated at run time.
        std::string upper = "false";
        // A GLSL condition under which the move happens (empty: always), for invocations
        // without a butterfly in the last group of a non-uniform stage.
        std::string guard = "";
        // Set where address == base + offset, base taking the values `base_values` (see
        // fold_shared_address): where the exchange's map folds for each of them (BankMap::folds),
        // the exchange pads each base once, and the offset becomes a constant of the access instead
        // of index arithmetic per access (NVIDIA H200: one-pass 2048 3747 -> 3844 GB/s, 4096 3652
        // -> 3792, multi-pass +1-5%).
        std::string base = "";
        uint32_t offset = 0;
        std::vector<uint32_t> base_values = {};
        // The unpadded element each invocation of the workgroup reaches (empty: not known), for
        // SharedPadding's tally.
        std::vector<uint32_t> words = {};
    };

    void operator()(Scope scope, const std::vector<Move>& writes, const std::vector<Move>& reads_in) {
        static const char* comp[] = {"x", "y"};
        // In halves, a read of the lower half can land in a register whose old value an upper-half
        // write still needs, so reads go to fresh registers, copied over after the last round.
        std::vector<Move> reads = reads_in;
        if (rounds_ == 4)
            for (Move& m : reads) {
                const std::string fresh = "xr" + std::to_string(fresh_++);
                w_.line(type_ + " " + fresh + ";");
                m.value = fresh;
            }
        const BankMap map = choose_map(writes, reads);
        auto folds = [&](const Move& m) { return folds_under(map, m); };
        // Each distinct base of the moves that fold, mapped once (halves map addresses apart).
        std::map<std::string, std::string> padded;
        if (rounds_ < 4)
            for (const std::vector<Move>* moves : {&writes, static_cast<const std::vector<Move>*>(&reads)})
                for (const Move& m : *moves)
                    if (folds(m) && !padded.contains(m.base)) {
                        const std::string name = "pb" + std::to_string(bases_++);
                        w_.line("uint " + name + " = " + map.glsl(m.base) + ";");
                        padded.emplace(m.base, name);
                    }
        for (uint32_t round = 0; round < rounds_; ++round) {
            // Rounds 2 and 4 move one component, and rounds 4 half the points, at a time.
            const std::string c = comp[rounds_ == 4 ? round / 2 : round];
            const bool upper = rounds_ == 4 && round % 2 == 1;
            // The moves of this round and the shared index of each.
            auto in_round = [&](const Move& m) {
                return rounds_ < 4 || m.upper != (upper ? "false" : "true");
            };
            // Index lc * R + x of point x of column lc lands at lc * R / 2 + x mod R / 2 of
            // its half's array (R a power of two); one column: x - R / 2 in the upper half.
            auto word = [&](const Move& m) {
                if (rounds_ == 4 && columns_ > 1) {
                    const std::string mask = std::to_string(half_points_ - 1) + "u";
                    return "pad(((" + m.address + ") >> 1u & ~" + mask + ") | ((" + m.address + ") & " +
                           mask + "))";
                }
                if (rounds_ == 4) return "pad(" + m.address + (upper ? " - " + u(half_points_) : "") + ")";
                if (folds(m)) return padded.at(m.base) + " + " + u(map.apply(m.offset));
                return map.glsl(m.address);
            };
            if (pending_)
                wait(*pending_ == Scope::column && scope == Scope::column ? Scope::column : Scope::workgroup);
            for (const Move& m : writes) {
                if (!in_round(m)) continue;
                const std::string a = word(m);
                if (!m.guard.empty()) w_.open("if (" + m.guard + ")");
                if (rounds_ == 1) {
                    w_.line("sh0[" + a + "] = " + m.value + ".x;");
                    w_.line("sh1[" + a + "] = " + m.value + ".y;");
                } else if (rounds_ == 4 && m.upper != "true" && m.upper != "false") {
                    w_.line("if (" + std::string(upper ? "" : "!") + "(" + m.upper + ")) sh0[" + a +
                            "] = " + m.value + "." + c + ";");
                } else {
                    w_.line("sh0[" + a + "] = " + m.value + "." + c + ";");
                }
                if (!m.guard.empty()) w_.close();
            }
            wait(scope);
            for (const Move& m : reads) {
                if (!in_round(m)) continue;
                const std::string a = word(m);
                if (!m.guard.empty()) w_.line("if (" + m.guard + ")");
                if (rounds_ == 1)
                    w_.line(m.value + " = " + type_ + "(sh0[" + a + "], sh1[" + a + "]);");
                else if (rounds_ == 4 && m.upper != "true" && m.upper != "false")
                    w_.line("if (" + std::string(upper ? "" : "!") + "(" + m.upper + ")) " + m.value + "." +
                            c + " = sh0[" + a + "];");
                else
                    w_.line(m.value + "." + c + " = sh0[" + a + "];");
            }
            pending_ = scope;
        }
        if (rounds_ == 4)
            for (size_t r = 0; r < reads.size(); ++r)
                w_.line(reads_in[r].value + " = " + reads[r].value + ";");
    }

private:
    static bool folds_under(const BankMap& map, const Move& m) {
        return !m.base.empty() && map.folds(map.largest_remainders(m.base_values), m.offset);
    }

    // The exchange's map: none in a plain kernel; kPadMap in halves or where a move's words are
    // not known (none in kernels of mixed radices: Rader's gathers and r2c's mirrored reads, where
    // pad() costs index arithmetic on every access for no modeled gain; but a kernel with subgroup
    // waits then takes kPadMap throughout, SharedPadding::kernel_map); else of kExchangeMaps (in
    // kernels of mixed radices also none and the skews of their blocks) whose words fit the array,
    // the one whose wavefronts plus 0.65 per warp-wide access that computes the map in full
    // (generate_pass_kernel's weight) are fewest, the first on a tie. Adds the exchange's cost
    // padded and plain to the kernel's tally.
    BankMap choose_map(const std::vector<Move>& writes, const std::vector<Move>& reads) const {
        if (rounds_ == 4) return kPadMap;
        std::vector<const Move*> moves;
        for (const std::vector<Move>* list : {&writes, &reads})
            for (const Move& m : *list) moves.push_back(&m);
        const bool known =
            std::all_of(moves.begin(), moves.end(), [](const Move* m) { return !m->words.empty(); });
        // Moves of one base (the same expression over the same invocations), numbered; each
        // base's largest remainders and wavefronts under the map being costed. Where the map
        // folds, a move's words are its base's mapped plus a constant, which moves every bank
        // alike: moves of one base conflict alike, so each base is tallied once.
        std::vector<uint32_t> base_of(moves.size());
        std::vector<const Move*> bases;
        for (size_t i = 0; i < moves.size(); ++i) {
            const Move* m = moves[i];
            if (m->base.empty()) continue;
            auto same = std::find_if(bases.begin(), bases.end(), [&](const Move* b) {
                return b->base == m->base && b->words.size() == m->words.size();
            });
            base_of[i] = static_cast<uint32_t>(same - bases.begin());
            if (same == bases.end()) bases.push_back(m);
        }
        struct BaseCost {
            std::optional<std::array<uint32_t, 6>> remainders;
            std::optional<uint64_t> wavefronts;
        };
        std::vector<BaseCost> base_costs;
        // The map's cost, or at least `bound` once it reaches that (for maps that cannot win).
        auto cost = [&](const BankMap& map, uint64_t& wavefronts, uint64_t& unfolded,
                        double bound = std::numeric_limits<double>::infinity()) {
            wavefronts = unfolded = 0;
            base_costs.assign(bases.size(), BaseCost{});
            for (size_t i = 0; i < moves.size(); ++i) {
                const Move* m = moves[i];
                BaseCost* b = m->base.empty() ? nullptr : &base_costs[base_of[i]];
                if (b && !b->remainders) b->remainders = map.largest_remainders(m->base_values);
                if (b && map.folds(*b->remainders, m->offset)) {
                    if (!b->wavefronts) b->wavefronts = access_wavefronts(m->words, element_bytes_, map);
                    wavefronts += *b->wavefronts;
                } else {
                    wavefronts += access_wavefronts(m->words, element_bytes_, map);
                    if (!m->words.empty()) unfolded += (m->words.size() + 31) / 32;
                }
                if (double(wavefronts) + 0.65 * double(unfolded) >= bound) break;
            }
            return double(wavefronts) + 0.65 * double(unfolded);
        };
        // No map, as in a plain kernel, and pad() fit by construction, whatever the words
        // (guarded moves' words may lie beyond the array).
        auto fits = [&](const BankMap& map) {
            if (map.identity() || map == kPadMap) return true;
            for (const Move* m : moves)
                for (uint32_t a : m->words)
                    if (map.apply(a) >= array_words_) return false;
            return true;
        };
        uint64_t wavefronts = 0, unfolded = 0;
        // Mixed radices start from no map, which a tie keeps (no index arithmetic) and exchanges of
        // unknown words take; powers of two from pad().
        const bool mixed = !skew_blocks_.empty();
        std::vector<BankMap> candidates{mixed ? BankMap{} : kPadMap};
        for (const BankMap& map : kExchangeMaps)
            if (map != candidates.front()) candidates.push_back(map);
        if (mixed)
            for (const uint32_t block : skew_blocks_)
                for (uint32_t skew = 1; skew <= kMaxSkew; ++skew)
                    candidates.push_back(BankMap{{}, block, skew});
        if (padding_.kernel_map) candidates = {*padding_.kernel_map};
        BankMap best = candidates.front();
        double best_cost = cost(best, wavefronts, unfolded);
        uint64_t best_wavefronts = wavefronts, best_unfolded = unfolded;
        // No map takes fewer than one wavefront per access and group of lanes.
        const uint32_t lanes = element_bytes_ == 8 ? 16 : 32;
        uint64_t passes = 0;
        for (const Move* m : moves) passes += (m->words.size() + lanes - 1) / lanes;
        // A kernel with subgroup waits is generated again with one map (SharedPadding::kernel_map):
        // the first time its exchanges only cost every candidate in full, for choosing it (the
        // candidates are the same in each exchange whose words are known).
        const bool costing_for_kernel_map = padding_.padded && known && subgroups_ && !padding_.kernel_map;
        if (costing_for_kernel_map) {
            if (padding_.totals.empty())
                for (const BankMap& map : candidates) padding_.totals.emplace_back(map, 0.0);
            for (auto& [map, total] : padding_.totals)
                total = fits(map) ? total + cost(map, wavefronts, unfolded)
                                  : std::numeric_limits<double>::infinity();
        } else if (subgroups_ && !padding_.kernel_map) {
            padding_.totals_valid = false;
        }
        auto consider = [&](const BankMap& map) {
            if (best_cost <= double(passes)) return;
            const double c = cost(map, wavefronts, unfolded, best_cost);
            if (c < best_cost && fits(map)) {
                best = map;
                best_cost = c;
                best_wavefronts = wavefronts;
                best_unfolded = unfolded;
            }
        };
        if (padding_.padded && known && !costing_for_kernel_map)
            for (size_t c = 1; c < candidates.size(); ++c) consider(candidates[c]);
        if (!best.identity()) padding_.mapped = true;
        if (padding_.padded) {
            if (padding_.one_map && *padding_.one_map != best) padding_.several_maps = true;
            padding_.one_map = best;
        }
        padding_.wavefronts_padded += best_wavefronts;
        padding_.unfolded += best_unfolded;
        cost(BankMap{}, wavefronts, unfolded);
        padding_.wavefronts_plain += wavefronts;
        return padding_.padded ? best : BankMap{};
    }

    void wait(Scope scope) {
        if (scope == Scope::column && subgroups_) {
            w_.open("if (subgroup_sync)");
            w_.line("subgroupMemoryBarrierShared();");
            w_.line("subgroupBarrier();");
            w_.close();
            w_.open("else");
            w_.line("barrier();");
            w_.close();
        } else {
            w_.line("barrier();");
        }
    }

    GlslWriter& w_;
    SharedPadding& padding_;
    uint64_t array_words_;
    uint32_t element_bytes_;
    uint32_t rounds_;
    uint32_t half_points_;
    uint32_t columns_;
    uint32_t fresh_ = 0;  // registers named so far
    uint32_t bases_ = 0;  // padded bases named so far
    bool subgroups_;
    std::optional<Scope> pending_;
    std::string type_;
    std::vector<uint32_t> skew_blocks_;  // BankMap::block values the exchanges may take
};

// The move `m` at shared address base + offset, the base taking the values `base_values`; the
// exchange folds the offset where its map allows (SharedExchange::Move::base).
SharedExchange::Move fold_shared_address(SharedExchange::Move m, const std::string& base, uint32_t offset,
                                         const std::vector<uint32_t>& base_values) {
    m.address = base + " + " + std::to_string(offset) + "u";
    m.base = base;
    m.offset = offset;
    m.base_values = base_values;
    return m;
}

}  // namespace

std::vector<uint8_t> pack_params(Precision precision, const PassParams& p) {
    std::vector<uint8_t> out;
    auto put = [&](const void* v, size_t bytes, size_t at) {
        if (out.size() < at + bytes) out.resize(at + bytes);
        std::memcpy(out.data() + at, v, bytes);
    };
    put(&p.src_offset, 4, 0);
    put(&p.dst_offset, 4, 4);
    put(&p.columns, 4, 8);
    if (precision == Precision::f32) {
        const float f[3] = {float(p.load_sign), float(p.store_re), float(p.store_im)};
        put(f, sizeof f, 12);
    } else {
        const double d[3] = {p.load_sign, p.store_re, p.store_im};
        put(d, sizeof d, 16);  // std430 aligns doubles to 8
    }
    return out;
}

namespace {

// What every pass kernel declares: its workgroup size, the source, destination and twiddle
// buffers (kPassBindings), and the push constants (pack_params). The source and destination hold
// complex values, or reals where `real_src` or `real_dst`.
void emit_interface(GlslWriter& w, uint32_t workgroup_size, Precision precision, bool real_src = false,
                    bool real_dst = false) {
    const Types ty = types(precision);
    const std::string C(ty.complex), Rl(ty.real);
    w.line("layout(local_size_x = " + std::to_string(workgroup_size) + ") in;");
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { " + (real_src ? Rl : C) +
           " src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { " + (real_dst ? Rl : C) +
           " dst[]; };");
    w.line("layout(std430, set = 0, binding = 2) readonly buffer Twiddles { " + C + " tw[]; };");
    w.line("layout(push_constant) uniform Params { uint src_offset; uint dst_offset; uint columns; " + Rl +
           " load_sign; " + Rl + " store_re; " + Rl + " store_im; } params;");
}

// `index` times `stride` elements, as GLSL (parenthesized, so that it adds to an offset as one term).
std::string strided(const std::string& index, uint32_t stride) {
    if (stride == 1) return index.find(' ') == std::string::npos ? index : "(" + index + ")";
    return "(" + index + ") * " + u(stride);
}

// locate(c, t, s, d): column c's position t in its transform, and the element offsets of that
// transform's point 0 in the source and destination (PassKernel::place).
void emit_locate(GlslWriter& w, const PassKernel& k) {
    const uint32_t T = k.columns_per_transform();
    w.open("void locate(uint c, out uint t, out uint s, out uint d)");
    if (k.batch_dims.empty()) {
        w.line("t = " + std::string(T == 1 ? "0u" : "c % " + u(T)) + ";");
        w.line("s = (c / " + u(T) + ") * " + u(k.row_points()) + ";");
        w.line("d = s;");
    } else {
        w.line("uint rest = c;");
        w.line("s = 0u;");
        w.line("d = 0u;");
        size_t first = 0;
        auto dim = [&](const PassKernel::BatchDim& b, bool last) {
            w.line("uint b = " + (last ? std::string("rest") : "rest % " + u(b.count)) + ";");
            w.line("s += b * " + u(b.src_stride) + ";");
            w.line("d += b * " + u(b.dst_stride) + ";");
            if (!last) w.line("rest /= " + u(b.count) + ";");
        };
        if (k.vectorized) {
            w.open("");
            dim(k.batch_dims[0], false);
            w.close();
            first = 1;
        }
        w.line("t = " + std::string(T == 1 ? "0u" : "rest % " + u(T)) + ";");
        if (T > 1) w.line("rest /= " + u(T) + ";");
        for (size_t i = first; i < k.batch_dims.size(); ++i) {
            w.open("");
            dim(k.batch_dims[i], i + 1 == k.batch_dims.size());
            w.close();
        }
    }
    w.close();
}

// The direct sum X_k = sum_j x_j W_N^{jk} (KernelKind::direct). Workgroup g computes block
// g mod output_blocks of transform g / output_blocks: invocation tid the outputs
// k = block * WG * K + tid + r * WG, r < K. Every invocation reads every input of its transform
// (the same address across the workgroup, served by the cache). Each output keeps its exponent
// e = j k mod N exactly in integers, and sums in three levels (8 terms, 32 of those, then the
// rest), so that rounding grows far slower than with N. A barrier before the stores lets a
// transform of one block run in place.
std::string generate_direct_kernel(const PassKernel& k) {
    const Types ty = types(k.precision);
    const std::string C(ty.complex);
    const uint32_t N = k.length, K = k.points_per_thread, WG = k.workgroup_size;
    GlslWriter w;
    w.line("#version 450");
    w.line("// twiddle direct sum: length " + std::to_string(N) + ", " + std::to_string(K) +
           " outputs per invocation, " + std::to_string(k.output_blocks) + " workgroups per transform");
    emit_interface(w, WG, k.precision);
    w.line(C + " cmul(" + C + " a, " + C + " b) { return " + C +
           "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }");
    emit_locate(w, k);
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("uint row = group / " + u(k.output_blocks) + ", block = group % " + u(k.output_blocks) + ";");
    w.line("if (row >= params.columns) return;  // the same for the whole workgroup");
    w.line("uint tid = gl_LocalInvocationID.x;");
    w.line("uint t, src_start, dst_start;");
    w.line("locate(row, t, src_start, dst_start);");
    w.line("uint src_row = params.src_offset + src_start;");
    auto each = [&](const std::string& pattern) {
        for (uint32_t r = 0; r < K; ++r) {
            std::string line = pattern;
            for (size_t at; (at = line.find('#')) != std::string::npos;)
                line.replace(at, 1, std::to_string(r));
            w.line(line);
        }
    };
    for (uint32_t r = 0; r < K; ++r) {
        const std::string s = std::to_string(r);
        w.line("uint k" + s + " = block * " + u(WG * K) + " + tid + " + u(r * WG) + ";");
        // Invocations past the last output step by 0 and store nothing.
        w.line("uint step" + s + " = k" + s + " < " + u(N) + " ? k" + s + " : 0u;");
    }
    each("uint e# = 0u;");
    each(C + " acc# = " + C + "(0);");
    each(C + " sum# = " + C + "(0);");
    // Terms j = first + t, t < count, written out: lavapipe ends a shader's loops after 65535
    // iterations in all (llvmpipe's loop limiter), so the loop runs over blocks of 8.
    auto terms = [&](const std::string& first, uint32_t count) {
        each(C + " part# = " + C + "(0);");
        for (uint32_t t = 0; t < count; ++t) {
            w.line("x = src[src_row + " + strided(first + " + " + u(t), k.src_stride) + "];");
            w.line("x.y *= params.load_sign;");
            each("part# += cmul(x, tw[" + (k.table_offset ? u(k.table_offset) + " + " : "") + "e#]);");
            each("e# += step#;");
            each("if (e# >= " + u(N) + ") e# -= " + u(N) + ";");
        }
        each("sum# += part#;");
    };
    w.line(C + " x;");
    if (N / 8 > 0) {
        w.open("for (uint b = 0u; b < " + u(N / 8) + "; ++b)");
        terms("b * 8u", 8);
        w.open("if ((b & 31u) == 31u)");
        each("acc# += sum#;");
        each("sum# = " + C + "(0);");
        w.close();
        w.close();
    }
    if (N % 8 > 0) terms(u(N / 8 * 8), N % 8);
    each("acc# += sum#;");
    w.line("barrier();  // every input is read before any output is written");
    w.line("uint dst_row = params.dst_offset + dst_start;");
    each("if (k# < " + u(N) + ") dst[dst_row + " + strided("k#", k.dst_stride) + "] = " + C +
         "(acc#.x * params.store_re, acc#.y * params.store_im);");
    w.close();
    return w.str();
}

// A step of a real transform (KernelKind::real, RealStep): invocation g does item
// g mod real_items() of row g / real_items(). Split and join read both points of their pair
// before writing either, so they run in place.
std::string generate_real_kernel(const PassKernel& k) {
    const Types ty = types(k.precision);
    const std::string C(ty.complex), Rl(ty.real);
    const uint32_t n = k.length, half = n / 2, items = k.real_items(), WG = k.workgroup_size;
    GlslWriter w;
    w.line("#version 450");
    w.line("// twiddle real step: " + std::string(to_string(k.real_step)) + ", " + std::to_string(n) +
           " points per row");
    emit_interface(w, WG, k.precision, k.reads_real(), k.writes_real());
    w.line(C + " cmul(" + C + " a, " + C + " b) { return " + C +
           "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }");
    emit_locate(w, k);
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("uint g = group * " + u(WG) + " + gl_LocalInvocationID.x;");
    w.line("uint row = g / " + u(items) + ", k = g % " + u(items) + ";");
    w.line("if (row >= params.columns) return;");
    w.line("uint t, s, d;");
    w.line("locate(row, t, s, d);");
    w.line("s += params.src_offset;");
    w.line("d += params.dst_offset;");
    auto load = [&](const std::string& i) {
        return C + "(src[s + " + strided(i, k.src_stride) + "].x, src[s + " + strided(i, k.src_stride) +
               "].y * params.load_sign)";
    };
    auto store = [&](const std::string& i, const std::string& v) {
        w.line("dst[d + " + strided(i, k.dst_stride) + "] = " + C + "((" + v + ").x * params.store_re, (" +
               v + ").y * params.store_im);");
    };
    // The complex side's rows hold X_k for k < m only (PassKernel::spectrum_points).
    const uint32_t m = k.spectrum_points;
    if (m == 0 || m > half + 1) throw std::logic_error("real step: spectrum points must be 1 to n / 2 + 1");
    // X_i of the complex side, 0 beyond its m points; `limit` bounds i (inclusive).
    auto spectrum_load = [&](const std::string& i, uint32_t limit) {
        return limit < m ? load(i) : "(" + i + " < " + u(m) + " ? " + load(i) + " : " + C + "(0))";
    };
    switch (k.real_step) {
    case RealStep::split:
    case RealStep::join: {
        const bool join = k.real_step == RealStep::join;
        // The pair k, M - k (Z_M meaning Z_0 for split; join reads X_M itself).
        w.line("uint km = " + u(half) + " - k;");
        w.line(C + " a = " + (join ? spectrum_load("k", n / 4) : load("k")) + ";");
        if (join) {
            w.line(C + " b = " + spectrum_load("km", half) + ";");
            w.line("b.y = -b.y;");
            w.open("if (k == 0u)");
            w.line("a.y = 0.0;");
            w.line("b.y = 0.0;");
            w.close();
        } else {
            w.line("uint kb = k == 0u ? 0u : km;");
            w.line(C + " b = " + load("kb") + ";");
            w.line("b.y = -b.y;");
        }
        const std::string f = join ? "" : " * 0.5";
        w.line(C + " e = (a + b)" + f + ";");
        w.line(C + " o = (a - b)" + f + ";");
        // t = W_n^k o / i.
        w.line(C + " tt = cmul(tw[" + u(k.table_offset) + " + k], " + C + "(o.y, -o.x));");
        // Split writes X_k for k < m only.
        if (!join && n / 4 >= m) w.line("if (k < " + u(m) + ")");
        store("k", "e + tt");
        // X_{M-k} = conj(e - t): for k = 0 that is X_M (split only), and k = M - k writes once.
        w.line(C + " mirrored = " + C + "(e.x - tt.x, tt.y - e.y);");
        w.open(join ? "if (k != 0u && km != k)"
                    : "if (km != k" + std::string(half >= m ? " && km < " + u(m) : "") + ")");
        store("km", "mirrored");
        w.close();
        break;
    }
    case RealStep::widen: store("k", C + "(src[s + " + strided("k", k.src_stride) + "], 0.0)"); break;
    case RealStep::crop: store("k", load("k")); break;
    case RealStep::mirror:
        w.line(C + " v;");
        w.open("if (k <= " + u(half) + ")");
        w.line("v = " + spectrum_load("k", half) + ";");
        w.line("if (k == 0u || 2u * k == " + u(n) + ") v.y = 0.0;");
        w.close();
        w.open("else");
        w.line("v = " + spectrum_load(u(n) + " - k", half) + ";");
        w.line("v.y = -v.y;");
        w.close();
        store("k", "v");
        break;
    case RealStep::narrow:
        w.line("dst[d + " + strided("k", k.dst_stride) + "] = src[s + " + strided("k", k.src_stride) +
               "].x * params.store_re;");
        break;
    }
    w.close();
    return w.str();
}

}  // namespace

namespace {

// A Stockham, Rader or Bluestein pass kernel, its shared-memory indices padded or not (`padding`,
// whose tally it adds to).
std::string generate_exchange_kernel(const PassKernel& k, SharedPadding& padding) {
    const Types ty = types(k.precision);
    const std::string C(ty.complex), Rl(ty.real);
    const uint32_t N = k.length, R = k.radix, T = N / R, S = k.span;
    const uint32_t P = k.points_per_thread, TPC = k.threads_per_column, B = k.columns_per_workgroup;
    const uint32_t WG = k.workgroup_size;
    if (WG != B * TPC) throw std::logic_error("pass kernel: workgroup size is not columns * threads");
    if (S > 1 && !k.uniform()) throw std::logic_error("pass kernel: pass twiddles need a uniform kernel");
    if ((k.chirp_load && k.staged_load) || (k.chirp_store && k.staged_store))
        throw std::logic_error("pass kernel: Bluestein's chirp reads and writes transforms point by point");
    const uint32_t chirp_n = k.chirp_length;
    // Rader's prime (PassKernel::rader_prime), its primitive root and that root's inverse mod p.
    const uint32_t rader_p = k.rader_prime, rader_g = k.rader_generator;
    const uint32_t rader_g_inv = rader_p ? inverse_mod_prime(rader_g, rader_p) : 0;
    // A split fused into the last pass of several (PassKernel::split_store): mirrored tiles.
    const bool split_last = k.split_store && S > 1;
    if (split_last && (T != S || k.points_contiguous || !k.uniform() || B % 2 != 0 || S % B != 0 ||
                       k.vectorized || k.spectrum_across_columns || k.staged_load || k.staged_store ||
                       k.split_lanes || rader_p || k.chirp_length))
        throw std::logic_error("pass kernel: a split fused into a last pass takes mirrored tiles of it");
    // A join fused into the first pass of several (PassKernel::join_load): columns of points
    // strided by T, each point read with its mirror.
    const bool join_first = k.join_load && T > 1;
    if (join_first && (S != 1 || k.points_contiguous || k.spectrum_across_columns || k.staged_load ||
                       rader_p || k.chirp_length))
        throw std::logic_error(
            "pass kernel: a join fused into a first pass reads its columns point by point");
    if ((k.split_store || (k.join_load && !join_first)) && !split_last &&
        (S > 1 || T > 1 || !k.points_contiguous || rader_p || k.chirp_length ||
         (k.split_store && k.staged_store) || (k.join_load && k.staged_load)))
        throw std::logic_error("pass kernel: a fused split or join takes whole columns of one pass");
    if (rader_p && (S > 1 || T > 1 || k.chirp_length))
        throw std::logic_error("pass kernel: Rader's transforms take whole columns of span 1");
    if (k.convolution &&
        (S > 1 || T > 1 || rader_p || k.chirp_length || k.chirp_load || k.chirp_store || k.spectrum_store ||
         k.split_store || k.join_load || k.staged_load || k.staged_store))
        throw std::logic_error(
            "pass kernel: a convolution takes whole columns of span 1, stored point by point");
    // Points per column of a staged tile (Rader's transforms are p points in memory), and the
    // elements each invocation moves in a staged load or store: the tile's B * tile_row over WG.
    const uint32_t tile_row = rader_p ? rader_p : R;
    const uint32_t staged_count = (B * tile_row + WG - 1) / WG;
    // A real transform's complex side: X_k for k < m only (PassKernel::spectrum_points), taken
    // across the tile's columns by a fused join or split (spectrum_across_columns).
    const uint32_t m = k.spectrum_points;
    const bool join_across = k.join_load && k.spectrum_across_columns;
    if (k.join_exchange && (!k.join_load || join_first || join_across || !k.points_contiguous ||
                            k.shared_bytes == 0 || k.stages.size() < 2))
        throw std::logic_error(
            "pass kernel: join's pairs through shared memory need a one-pass join that exchanges");
    if ((k.split_store || k.join_load) && (m == 0 || m > N + 1))
        throw std::logic_error("pass kernel: a fused split or join needs 1 to length + 1 spectrum points");

    GlslWriter w;
    TempNames temps;
    w.line("#version 450");
    // A fused split or join through shuffles (PassKernel::split_lanes, join_lanes): its blocks of
    // lanes, and half. The stage that deals its butterflies by lane (split's last, join's first)
    // holds the points i + r * TPC: one butterfly per invocation for split, any uniform layout for
    // join (whose first stage's slots are i + g * TPC + m * R / radix).
    const uint32_t lanes = k.split_lanes ? k.split_lanes : k.join_lanes, half_lanes = lanes / 2;
    if (lanes && !((k.split_lanes && !k.join_lanes && k.split_store && k.stages.back().radix * TPC == R) ||
                   (k.join_lanes && !k.split_lanes && k.join_load && !join_first && !k.join_exchange)))
        throw std::logic_error(
            "pass kernel: pairs through shuffles need a split of whole butterflies per lane "
            "or a one-pass join");
    if (lanes && !(!k.spectrum_across_columns && TPC >= PassKernel::kSplitRun && std::has_single_bit(TPC) &&
                   lanes >= 2 && std::has_single_bit(lanes) && TPC % lanes == 0 && k.uniform() &&
                   k.stages.size() > 1 && S == 1))
        throw std::logic_error(
            "pass kernel: pairs through shuffles need uniform columns of whole blocks of lanes");
    // Exchanges between stages through subgroup shuffles (PassKernel::lane_swaps).
    const bool shuffles = !k.lane_swaps.empty();
    if (shuffles && !(k.kind == KernelKind::stockham && std::has_single_bit(R) && R == N && S == 1 &&
                      k.points_contiguous && k.uniform() && std::has_single_bit(TPC) && TPC >= 2 &&
                      k.stages.size() > 1 && k.shared_bytes > 0 && !lanes && !k.split_store && !k.join_load &&
                      !k.convolution && !k.chirp_load && !k.chirp_store && !k.spectrum_store && !rader_p))
        throw std::logic_error(
            "pass kernel: exchanges through shuffles need a plain one-pass power-of-two kernel");
    // The columns' invocations lie in one subgroup, or, for shuffles across a column that spans
    // several (PassKernel::lane_remaps), runs of `subgroup_lanes` of them do: bit 0 of the lane check.
    const bool column_subgroups = k.subgroup_exchanges || shuffles;
    uint32_t subgroup_lanes = TPC;
    if (shuffles && !k.subgroup_exchanges) {
        uint32_t top = 0;
        for (const LaneSwap& sw : k.lane_swaps) top = std::max<uint32_t>(top, sw.lane_bit);
        subgroup_lanes = 2u << top;
    }
    const bool lane_check = column_subgroups || lanes;
    if (lane_check) w.line("#extension GL_KHR_shader_subgroup_basic : require");
    if (lanes || shuffles) w.line("#extension GL_KHR_shader_subgroup_shuffle : require");
    w.line("// twiddle pass: length " + std::to_string(N) + ", radix " + std::to_string(R) + ", span " +
           std::to_string(S) + ", " + std::to_string(P) + " points per invocation, " + std::to_string(B) +
           " columns per workgroup" + (k.prefetch ? ", tiles prefetched" : ""));
    emit_interface(w, WG, k.precision);
    const bool shared = k.shared_bytes > 0;
    // The planner's sizes (exchange_array_words), with room for the exchanges' maps where the
    // kernel pads.
    const uint64_t array_words = shared ? exchange_array_words(uint64_t(B) * tile_row, k.exchange_rounds) : 0;
    if (shared) {
        w.line("shared " + Rl + " sh0[" + std::to_string(array_words) + "];");
        if (k.exchange_rounds == 1) w.line("shared " + Rl + " sh1[" + std::to_string(array_words) + "];");
        w.line(padding.padded ? "uint pad(uint a) { return a + (a >> 5u); }"
                              : "uint pad(uint a) { return a; }");
    }
    if (lane_check) w.line("shared uint lanes_unexpected;");
    if (shuffles || lanes) {
        // subgroupShuffleXor where the lane check passed (`direct`), else the same exchange
        // through shared memory, one component at a time (sh0 holds a word per invocation of the
        // workgroup: every tile has at least two points per invocation).
        w.open(C + " lane_xor(" + C + " v, uint mask, bool direct)");
        w.line("if (direct) return subgroupShuffleXor(v, mask);");
        w.line("uint at = gl_LocalInvocationID.x;");
        w.line(C + " r;");
        for (const char* c : {"x", "y"}) {
            w.line("barrier();");
            w.line(std::string("sh0[pad(at)] = v.") + c + ";");
            w.line("barrier();");
            w.line(std::string("r.") + c + " = sh0[pad(at ^ mask)];");
        }
        w.line("barrier();");
        w.line("return r;");
        w.close();
    }
    w.line(C + " cmul(" + C + " a, " + C + " b) { return " + C +
           "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }");
    // The operation between a convolution's transforms, defined by the plan's callbacks
    // (codegen::fuse_callbacks).
    if (k.convolution) w.line(C + " twiddle_middle(" + C + " value, uint index);");
    emit_locate(w, k);
    // The columns of a tile: tile * B + lc, or with a split fused into a last pass, a mirrored
    // tile of transform b = tile / (S / B): tile tb = tile % (S / B) takes t = tb * B / 2 + lc for
    // lc < B / 2 and the mirrors S - t for the others, lc and B - 1 - lc, S / 2 in place of S.
    const uint32_t half_tile = B / 2;
    if (split_last) {
        w.open("uint tile_column(uint tile, uint lc)");
        w.line("uint tb = tile % " + u(S / B) + ";");
        w.line("uint t = lc < " + u(half_tile) + " ? tb * " + u(half_tile) + " + lc : " + u(S) + " - tb * " +
               u(half_tile) + " - (" + u(B - 1) + " - lc);");
        w.line("return tile / " + u(S / B) + " * " + u(S) + " + (t == " + u(S) + " ? " + u(S / 2) + " : t);");
        w.close();
    }
    // The tile a workgroup's turn `t` takes (TileOrder::backward: counted from the last).
    auto placed = [&](const std::string& t) {
        return k.tile_order == TileOrder::backward ? "(tiles - 1u - " + t + ")" : t;
    };
    auto column_of = [&](const std::string& tile) {
        return split_last ? "tile_column(" + tile + ", lc)" : tile + " * " + u(B) + " + lc";
    };
    if (rader_p) {
        // Residues below p < 2^16, so products fit 32 bits.
        w.open("uint rader_pow(uint b, uint e)");
        w.line("uint r = 1u;");
        w.open("for (; e > 0u; e >>= 1u)");
        w.line("if ((e & 1u) != 0u) r = r * b % " + u(rader_p) + ";");
        w.line("b = b * b % " + u(rader_p) + ";");
        w.close();
        w.line("return r;");
        w.close();
    }

    w.open("void main()");
    if (lane_check) {
        // Each column's invocations (consecutive local indices) lie in one subgroup only if
        // subgroups are runs of consecutive local indices whose size the column's invocation
        // count divides (bit 0); a split's blocks of lanes, if their size divides the subgroups'
        // (bit 1). The result is the same for the whole workgroup, so barriers and shuffles under
        // it stay in uniform control flow.
        w.line("if (gl_LocalInvocationID.x == 0u) lanes_unexpected = 0u;");
        w.line("barrier();");
        const std::string consecutive =
            "gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID == gl_LocalInvocationID.x";
        if (column_subgroups)
            w.line("if (!(" + consecutive + " && gl_SubgroupSize % " + u(subgroup_lanes) +
                   " == 0u)) atomicOr(lanes_unexpected, 1u);");
        if (lanes)
            w.line("if (!(" + consecutive + " && gl_SubgroupSize % " + u(lanes) +
                   " == 0u)) atomicOr(lanes_unexpected, 2u);");
        w.line("barrier();");
        if (column_subgroups) w.line("bool subgroup_sync = (lanes_unexpected & 1u) == 0u;");
        if (lanes) w.line("bool lanes_paired = (lanes_unexpected & 2u) == 0u;");
    }
    // A tile is the workgroup's columns_per_workgroup columns: tile * B + lc for lc < B (mirrored
    // columns with a split fused into a last pass: tile_column).
    w.line("uint tile = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("uint tiles = (params.columns + " + u(B - 1) + ") / " + u(B) + ";");
    w.line("uint tid = gl_LocalInvocationID.x;");
    if (k.points_contiguous) {
        w.line("uint lc = tid / " + u(TPC) + ";  // column within the tile");
        w.line("uint i = tid % " + u(TPC) + ";   // invocation within the column");
        if (lanes) {
            // The last stage's butterfly (PassKernel::split_lanes; join_lanes: the first stage's):
            // block * half_lanes + lane + 1
            // in the block's lower half, its mirror TPC - ip in the upper half (lane ^ (lanes - 1));
            // TPC / 2, so dealt twice, is its own mirror, and the upper half's is taken as 0, also
            // its own. dealt_lanes below computes the same on the host. Dealt from + 1, each block's
            // mirrored run starts on a multiple of half_lanes and the last exchange's reads meet
            // fewer bank conflicts (r2c 4096, one round of them: 112 wavefronts, against 144 dealt
            // from + 0 and 64 without conflicts); r2c 4096 and 8192 ran 1-1.5% faster on the H200
            // (bench/RESULTS.md, twenty-fifth run).
            w.line("uint lane = i % " + u(lanes) + ", block = i / " + u(lanes) + ";");
            w.line("uint ip = lane < " + u(half_lanes) + " ? block * " + u(half_lanes) + " + lane + 1u : " +
                   u(TPC) + " - block * " + u(half_lanes) + " - " + u(lanes) + " + lane;");
            w.line("if (lane >= " + u(half_lanes) + " && ip == " + u(TPC / 2) + ") ip = 0u;");
        }
        if (k.split_lanes) {
            // split's factor W_{2R}^k for the points k = ip + r TPC is W_{2R}^ip (one table read
            // per invocation, kept across tiles) times a constant per register r.
            w.line(C + " wip = tw[" + u(k.real_offset) + " + ip];");
            // The stores' scale times split's 1/2 (emit_split_pair, unhalved).
            w.line(C + " half_scale = " + C + "(params.store_re, params.store_im) * 0.5;");
        }
    } else {
        w.line("uint lc = tid % " + u(B) + ";  // column within the tile");
        w.line("uint i = tid / " + u(B) + ";   // invocation within the column");
    }
    if (rader_p) {
        // Point i + o of the column sits at g^(i + o) mod p of the source transform, and
        // output i + o of the second transform at g^-(i + o) mod p of the destination's.
        w.line("uint rader_in = rader_pow(" + u(rader_g) + ", i);");
        w.line("uint rader_out = rader_pow(" + u(rader_g_inv) + ", i);");
    }
    auto rader_index = [&](const char* per_invocation, uint32_t root, uint32_t offset) {
        return "(" + std::string(per_invocation) + " * " + u(pow_mod(root, offset, rader_p)) + ") % " +
               u(rader_p);
    };

    // Shared index of point `idx` of the tile's column lc.
    auto shared_index = [&](const std::string& idx) {
        return k.points_contiguous ? "lc * " + u(R) + " + " + idx : "(" + idx + ") * " + u(B) + " + lc";
    };
    // Move `m` at point idx + c of column lc (shared_index), idx taking the values `idx_values`,
    // its offset folded where it can be (fold_shared_address).
    auto at_point = [&](SharedExchange::Move m, const std::string& idx,
                        const std::vector<uint32_t>& idx_values, uint32_t c) {
        std::vector<uint32_t> bases;
        for (uint32_t lc = 0; lc < B; ++lc)
            for (uint32_t x : idx_values) bases.push_back(k.points_contiguous ? lc * R + x : x * B + lc);
        if (idx_values.size() == TPC)
            for (uint32_t tid = 0; tid < WG; ++tid) {
                const uint32_t lc = k.points_contiguous ? tid / TPC : tid % B;
                const uint32_t x = idx_values[k.points_contiguous ? tid % TPC : tid / B] + c;
                m.words.push_back(k.points_contiguous ? lc * R + x : x * B + lc);
            }
        return fold_shared_address(std::move(m), shared_index(idx), k.points_contiguous ? c : c * B, bases);
    };
    // The values of an invocation index within its column (i, and ip and io, its permutations).
    std::vector<uint32_t> column_lanes(TPC);
    std::iota(column_lanes.begin(), column_lanes.end(), 0u);
    // The index by which stage s deals its butterflies: i, or ip for the last stage of a split
    // through shuffles (PassKernel::split_lanes) and the first of a join (join_lanes).
    auto stage_index = [&](size_t s) -> std::string {
        return (k.split_lanes && s + 1 == k.stages.size()) || (k.join_lanes && s == 0) ? "ip" : "i";
    };
    // The values stage_index(s) takes over a column's invocations, for the padding's model of
    // bank conflicts: ip as the prologue's GLSL deals it (keep the two alike). Scored as i, the
    // last exchange's reads of a split over 128 or more invocations looked free of the 2-way
    // conflicts they have (r2c 4096 on the H200: 800 wavefronts padded, not 640).
    std::vector<uint32_t> dealt_lanes = column_lanes;
    if (lanes)
        for (uint32_t x = 0; x < TPC; ++x) {
            const uint32_t lane = x % lanes, block = x / lanes;
            const uint32_t ip =
                lane < half_lanes ? block * half_lanes + lane + 1 : TPC - block * half_lanes - lanes + lane;
            dealt_lanes[x] = lane >= half_lanes && ip == TPC / 2 ? 0 : ip;
        }
    auto stage_lanes = [&](size_t s) -> const std::vector<uint32_t>& {
        return stage_index(s) == "ip" ? dealt_lanes : column_lanes;
    };
    auto numbered = [](const char* prefix, uint32_t r) { return prefix + std::to_string(r); };
    // Whether point `x` of a column lies in its upper half, for exchanges in halves
    // (exchange_rounds 4): "true", "false" or a GLSL condition. `at_least` and `below` bound x.
    auto upper_half = [&](const std::string& x, uint32_t at_least, uint32_t below) -> std::string {
        if (at_least >= R / 2) return "true";
        if (below <= R / 2) return "false";
        return "(" + x + ") >= " + u(R / 2);
    };

    // Register `reg` of a stage of radix r (see PassKernel::threads_per_column): it holds point
    // i + offset of the column, if `guard` (empty: always) holds.
    struct Slot {
        uint32_t offset;
        std::string guard;
    };
    auto slot = [&](uint32_t r, uint32_t reg) {
        const uint32_t groups = k.groups(r), q_count = R / r, g = reg % groups, m = reg / groups;
        const bool partial = (g + 1) * TPC > q_count;
        return Slot{g * TPC + m * q_count, partial ? "i < " + u(q_count - g * TPC) : ""};
    };
    // The registers of the first stage's inputs and of the last stage's outputs.
    const uint32_t first_radix = k.stages.empty() ? 1 : k.stages.front().radix;
    const uint32_t last_radix = k.stages.empty() ? 1 : k.stages.back().radix;
    const uint32_t load_count = k.groups(first_radix) * first_radix;
    const uint32_t store_count = k.groups(last_radix) * last_radix;

    // What an invocation reads from memory for one tile, into registers named prefix0..: the
    // first stage's inputs (`slot`), or, for a staged load, element tid + r * WG of the tile, whose
    // columns are then contiguous runs of R points. A tile's `tile_points` counts the points of
    // its live columns and `tile_base` is where its first column's run starts.
    const bool staged = k.staged_load || k.staged_store;
    // A load of whole tiles into registers g: staged, or join's spectrum across columns.
    const bool tile_fetch = k.staged_load || join_across;
    // (The planner stages only tiles that are one run of memory: see fit_kernel.)
    auto emit_tile_extent = [&](const std::string& t, const std::string& suffix) {
        w.line("uint tile_points" + suffix + " = min(" + u(B) + ", params.columns - " + t + " * " + u(B) +
               ") * " + u(tile_row) + ";");
        w.line("uint tile_t" + suffix + ", tile_src" + suffix + ", tile_dst" + suffix + ";");
        w.line("locate(" + t + " * " + u(B) + ", tile_t" + suffix + ", tile_src" + suffix + ", tile_dst" +
               suffix + ");");
        w.line("uint tile_base" + suffix + " = " + (suffix == "_f" ? "tile_src" : "tile_dst") + suffix +
               " + tile_t" + suffix + " * " + u(R) + ";");
    };
    auto emit_fetch = [&](const std::string& t, const char* prefix) {
        w.open("");
        if (join_across) {
            // Item e = tid + r * WG of the tile is point e / B of column e % B: neighbouring
            // invocations read neighbouring transforms. Only the real parts of X_0 and X_M count
            // (PassKernel::join_load), so X_M's travels as X_0's imaginary part.
            for (uint32_t r = 0; r < staged_count; ++r) {
                const std::string g = numbered(prefix, r);
                w.open("");
                w.line("uint e = tid + " + u(r * WG) + ", c = " + t + " * " + u(B) + " + e % " + u(B) +
                       ", x = e / " + u(B) + ";");
                w.line(g + " = " + C + "(0);");
                std::string live = "c < params.columns";
                if ((r + 1) * WG > B * R) live += " && e < " + u(B * R);
                if (m < R) live += " && x < " + u(m);
                w.open("if (" + live + ")");
                w.line("uint ft, fs, fd;");
                w.line("locate(c, ft, fs, fd);");
                w.line("uint base = params.src_offset + fs;");
                w.line(g + " = src[base + " + strided("x", k.src_stride) + "];");
                if (r == 0)
                    w.line("if (x == 0u) " + g + ".y = " +
                           (m > R ? "src[base + " + u(R * k.src_stride) + "].x" : std::string("0.0")) + ";");
                w.close();
                w.close();
            }
        } else if (k.staged_load) {
            emit_tile_extent(t, "_f");
            for (uint32_t r = 0; r < staged_count; ++r) {
                const std::string e = "tid + " + u(r * WG);
                w.line(numbered(prefix, r) + " = " + e +
                       " < tile_points_f ? src[params.src_offset + tile_base_f + " + e + "] : " + C + "(0);");
            }
        } else {
            w.line("uint c = " + column_of(t) + ";");
            w.open("if (c < params.columns)");
            w.line("uint ft, fs, fd;");
            w.line("locate(c, ft, fs, fd);");
            w.line("uint base = params.src_offset + fs + " + strided("ft", k.src_stride) + ";");
            const uint32_t step = T * k.src_stride;
            if (rader_p) w.line(std::string(prefix) + "x = src[base];  // x_0");
            for (uint32_t r = 0; r < load_count; ++r) {
                const Slot sl = slot(first_radix, r);
                if (k.join_exchange || k.join_lanes) {
                    // The column's own points, below m; X_M's real part as X_0's imaginary part
                    // (PassKernel::join_exchange, join_lanes: the first stage's index). Join
                    // itself follows the exchange or the shuffles.
                    const std::string g = numbered(prefix, r);
                    const std::string x = stage_index(0) + " + " + u(sl.offset);
                    const std::string load = "src[base + " + strided(x, k.src_stride) + "]";
                    w.open(sl.guard.empty() ? "" : "if (" + sl.guard + ")");
                    w.line(
                        g + " = " +
                        (sl.offset + TPC <= m ? load : x + " < " + u(m) + " ? " + load + " : " + C + "(0)") +
                        ";");
                    if (sl.offset == 0)
                        w.line("if (" + stage_index(0) + " == 0u) " + g + ".y = " +
                               (m > R ? "src[base + " + strided(u(R), k.src_stride) + "].x"
                                      : std::string("0.0")) +
                               ";");
                    w.close();
                    continue;
                }
                if (k.join_load) {
                    // join's output x from points x and M - x (X_M for x = 0), after load_sign
                    // (PassKernel::join_load); points k >= m are 0. In a first pass of several,
                    // the column's point i + offset is point x = ft + (i + offset) T of the
                    // transform, which starts at `from`.
                    w.open(sl.guard.empty() ? "" : "if (" + sl.guard + ")");
                    const std::string x =
                        join_first ? "ft + (i + " + u(sl.offset) + ") * " + u(T) : "i + " + u(sl.offset);
                    const std::string from = join_first ? "params.src_offset + fs" : "base";
                    w.line("uint x = " + x + ", xm = x == 0u ? " + u(N) + " : " + u(N) + " - x;");
                    auto point = [&](const std::string& at, uint32_t limit) {
                        const std::string load = "src[" + from + " + " + strided(at, k.src_stride) + "]";
                        return limit < m ? load : at + " < " + u(m) + " ? " + load + " : " + C + "(0)";
                    };
                    w.line(C + " a = " + point("x", N - 1) + ";");
                    w.line(C + " b = " + point("xm", N) + ";");
                    w.line("a.y *= params.load_sign;");
                    w.line("b.y *= -params.load_sign;");
                    w.open("if (x == 0u)");
                    w.line("a.y = 0.0;");
                    w.line("b.y = 0.0;");
                    w.close();
                    w.line(C + " o = a - b;");
                    w.line(numbered(prefix, r) + " = a + b + cmul(tw[" + u(k.real_offset) + " + x], " + C +
                           "(o.y, -o.x));");
                    w.close();
                    continue;
                }
                if (!sl.guard.empty()) w.line("if (" + sl.guard + ")");
                const std::string load =
                    rader_p ? "src[base + " +
                                  strided(rader_index("rader_in", rader_g, sl.offset), k.src_stride) + "]"
                            : "src[base + " + u(sl.offset * step) + " + i * " + u(step) + "]";
                // Bluestein's zero padding: points of the source transform only. (A register a
                // looping workgroup skipped would keep the last tile's value.)
                w.line(numbered(prefix, r) + " = " +
                       (k.chirp_load ? "ft + (i + " + u(sl.offset) + ") * " + u(T) + " < " + u(chirp_n) +
                                           " ? " + load + " : " + C + "(0)"
                                     : load) +
                       ";");
            }
            w.close();
        }
        w.close();
    };

    // PassKernel::twiddles_in_registers: stage s's factor m of butterfly group g, read once.
    if (k.twiddles_in_registers && (!k.prefetch || shuffles))
        throw std::logic_error("pass kernel: twiddles in registers need prefetch and no lane exchanges");
    auto held_twiddle = [](size_t s, uint32_t g, uint32_t m) {
        return "tws" + std::to_string(s) + "_" + std::to_string(g) + "_" + std::to_string(m);
    };
    // Registers: v (the points being transformed), g (a staged tile's elements), n (the next
    // tile's, when prefetching).
    const char* fetched = tile_fetch ? "g" : "v";
    const uint32_t fetched_count = tile_fetch ? staged_count : load_count;
    std::vector<std::string> v(P);
    for (uint32_t r = 0; r < P; ++r) {
        v[r] = numbered("v", r);
        w.line(C + " " + v[r] + " = " + C + "(0);");
    }
    if (staged || tile_fetch)
        for (uint32_t r = 0; r < staged_count; ++r) w.line(C + " " + numbered("g", r) + " = " + C + "(0);");
    // Rader's x_0, read with the tile (staged loads) or apart (nx when prefetching).
    const bool rader_x0_fetched = rader_p && !k.staged_load;
    if (rader_p) w.line(C + " vx = " + C + "(0);");
    if (k.prefetch) {
        // Persistent workgroups: each loads its first tile, then loops, starting the loads of its
        // next tile before transforming the current one so that memory stays busy through the
        // shared-memory exchanges and barriers.
        for (uint32_t r = 0; r < fetched_count; ++r) w.line(C + " " + numbered("n", r) + " = " + C + "(0);");
        if (rader_x0_fetched) w.line(C + " nx = " + C + "(0);");
        w.line("uint workgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;");
        if (k.tile_order == TileOrder::interleaved) {
            w.line("uint stride = workgroups, end = tiles;");
        } else {
            // A group of kTileGroup workgroups (fewer in the last) takes one run of `per` tiles
            // per workgroup, its workgroups neighbouring tiles at each turn.
            w.line("uint per = (tiles + workgroups - 1u) / workgroups;");
            w.line("uint first = tile / " + u(kTileGroup) + " * " + u(kTileGroup) + ";");
            w.line("uint stride = min(" + u(kTileGroup) + ", workgroups - first);");
            w.line("uint end = min(tiles, (first + stride) * per);");
            w.line("tile = first * per + tile - first;");
        }
        w.open("if (tile < end)");
        emit_fetch(placed("tile"), "n");
        w.close();
        if (k.twiddles_in_registers)
            for (size_t s = 0; s < k.stages.size(); ++s) {
                const Stage& st = k.stages[s];
                if (st.span == 1) continue;
                for (uint32_t g = 0; g < k.groups(st.radix); ++g) {
                    const std::string j =
                        "((" + stage_index(s) + " + " + u(g * TPC) + ")" +
                        (std::has_single_bit(st.span) ? " & " + u(st.span - 1) : " % " + u(st.span)) + ")";
                    for (uint32_t m = 1; m < st.radix; ++m)
                        w.line(C + " " + held_twiddle(s, g, m) + " = tw[" +
                               u(st.twiddle_offset + (m - 1) * st.span) + " + " + j + "];");
                }
            }
        w.open("for (; tile < end; tile += stride)");
        for (uint32_t r = 0; r < fetched_count; ++r)
            w.line(numbered(fetched, r) + " = " + numbered("n", r) + ";");
        if (rader_x0_fetched) w.line("vx = nx;");
        w.open("if (tile + stride < end)");
        emit_fetch(placed("(tile + stride)"), "n");
        w.close();
    } else {
        w.line("if (tile >= tiles) return;");
        emit_fetch(placed("tile"), fetched);
    }

    // The tile's geometry for the transform and the stores.
    w.line("uint col = " + column_of(placed("tile")) + ";");
    w.line("bool live = col < params.columns;");
    w.line("uint t, col_src, col_dst;");
    w.line("locate(col, t, col_src, col_dst);");
    w.line(S > 1 ? "uint jj = t % " + u(S) + ";" : "uint jj = 0u;");
    w.line("uint dst_base = params.dst_offset + col_dst + " +
           strided("(t - jj) * " + u(R) + " + jj", k.dst_stride) + ";");
    // A convolution's product factors, loaded ahead of the transform (PassKernel::convolution_product):
    // one per output register, at the index its store would take.
    if (k.convolution && k.convolution_product) {
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            std::string at = "dst_base - params.dst_offset + " + u(sl.offset * S * k.dst_stride) + " + i * " +
                             u(S * k.dst_stride);
            if (k.convolution_period) at = "(" + at + ") % " + u(k.convolution_period);
            w.line(C + " hv" + std::to_string(r) + " = live" + (sl.guard.empty() ? "" : " && " + sl.guard) +
                   " ? operand_at(" + at + ") : " + C + "(0);");
            if (k.convolution_conjugate)
                w.line("hv" + std::to_string(r) + ".y = -hv" + std::to_string(r) + ".y;");
        }
    }
    if (staged) emit_tile_extent(placed("tile"), "");

    // A fused split takes each column's pairs in the column's own invocations, or spreads the
    // tile's over the workgroup (PassKernel::kSplitRun).
    const bool split_by_column =
        k.split_store && !split_last && !k.spectrum_across_columns && TPC >= PassKernel::kSplitRun;
    // In a loop, the previous tile's last shared reads must finish before this tile's first
    // writes.
    const Scope stage_scope = k.points_contiguous ? Scope::column : Scope::workgroup;
    std::optional<Scope> last_scope;  // of the loop body's last exchange
    if (tile_fetch) last_scope = Scope::workgroup;
    if (k.stages.size() > 1) last_scope = stage_scope;
    if (k.staged_store || (k.split_store && !split_by_column)) last_scope = Scope::workgroup;
    if (split_by_column) last_scope = stage_scope;
    SharedExchange exchange(w, k, k.prefetch ? last_scope : std::nullopt, padding, array_words);
    // A staged tile in shared memory holds its columns as contiguous runs of R points.
    // (After shuffle exchanges, the stores' invocation index is io: see run_shuffle_stages.)
    auto tile_index = [&](uint32_t offset, const std::string& lane = "i") {
        return "lc * " + u(R) + " + " + lane + " + " + u(offset);
    };
    // Move `m` at a staged tile's point `lane` + offset of column lc, folded where it can be.
    auto at_tile = [&](SharedExchange::Move m, uint32_t offset, const std::string& lane = "i") {
        std::vector<uint32_t> bases;
        for (uint32_t lc = 0; lc < B; ++lc)
            for (uint32_t x : column_lanes) bases.push_back(lc * R + x);
        if (lane == "i")
            for (uint32_t tid = 0; tid < WG; ++tid)
                m.words.push_back((k.points_contiguous ? tid / TPC : tid % B) * R +
                                  (k.points_contiguous ? tid % TPC : tid / B) + offset);
        return fold_shared_address(std::move(m), "lc * " + u(R) + " + " + lane, offset, bases);
    };
    // Move `m` at a staged tile's element tid + r * WG.
    std::vector<uint32_t> workgroup_lanes(WG);
    std::iota(workgroup_lanes.begin(), workgroup_lanes.end(), 0u);
    auto at_element = [&](SharedExchange::Move m, uint32_t r) {
        for (uint32_t tid = 0; tid < WG; ++tid) m.words.push_back(tid + r * WG);
        return fold_shared_address(std::move(m), "tid", r * WG, workgroup_lanes);
    };
    // A staged tile's elements beyond its live columns stay out of shared memory.
    auto staged_guard = [&](uint32_t r) {
        return staged_count * WG > B * tile_row ? "tid + " + u(r * WG) + " < " + u(B * tile_row)
                                                : std::string();
    };
    // Join's output `out` for slot `sl` from its point a and the mirror b, after load_sign
    // (PassKernel::join_load); point 0 holds X_M's real part as its imaginary part.
    // `idx`: the index of the invocation's point 0 (the first stage's: i, or ip for join_lanes).
    auto emit_join = [&](const std::string& a, const std::string& b, const Slot& sl, const std::string& out,
                         const std::string& idx = "i") {
        w.open(sl.guard.empty() ? "" : "if (" + sl.guard + ")");
        if (sl.offset == 0) {
            w.open("if (" + idx + " == 0u)");
            w.line(b + " = " + C + "(" + a + ".y, 0.0);");
            w.line(a + ".y = 0.0;");
            w.close();
            w.open("else");
        }
        w.line(a + ".y *= params.load_sign;");
        w.line(b + ".y *= -params.load_sign;");
        if (sl.offset == 0) w.close();
        w.line(C + " o = " + a + " - " + b + ";");
        w.line(out + " = " + a + " + " + b + " + cmul(tw[" + u(k.real_offset) + " + " + idx + " + " +
               u(sl.offset) + "], " + C + "(o.y, -o.x));");
        w.close();
    };
    if (k.staged_load) {
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < staged_count; ++r)
            writes.push_back(at_element({numbered("g", r), "", "false", staged_guard(r)}, r));
        for (uint32_t r = 0; r < load_count; ++r) {
            const Slot sl = slot(first_radix, r);
            if (rader_p)
                reads.push_back({v[r],
                                 "lc * " + u(rader_p) + " + " + rader_index("rader_in", rader_g, sl.offset),
                                 "false", sl.guard});
            else
                reads.push_back(at_tile({v[r], "", "false", sl.guard}, sl.offset));
        }
        if (rader_p) reads.push_back({"vx", "lc * " + u(rader_p), "false", ""});
        exchange(Scope::workgroup, writes, reads);
    } else if (k.join_exchange) {
        // Each column's points into shared memory, then each invocation's mirrors M - x, x = i +
        // offset, from there (PassKernel::join_exchange); join's output x from the pair, after
        // load_sign. Point 0 pairs with X_M, which it holds as its imaginary part.
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < load_count; ++r) {
            const Slot sl = slot(first_radix, r);
            const std::string x = "i + " + u(sl.offset);
            writes.push_back(at_point({v[r], "", upper_half(x, sl.offset, sl.offset + TPC), sl.guard}, "i",
                                      column_lanes, sl.offset));
            w.line(C + " " + numbered("jb", r) + " = " + C + "(0);");
            // Point R - x = (live - 1 - i) + R - offset - (live - 1) for the slot's live
            // invocations i < live (fewer than TPC in a partial group: Slot::guard); for offset 0
            // not at i = 0, whose pair is X_M.
            const uint32_t live = std::min(TPC, R / first_radix - r % k.groups(first_radix) * TPC);
            std::vector<uint32_t> mirror_lanes(TPC, 0);
            for (uint32_t i = 0; i < live; ++i) mirror_lanes[i] = live - 1 - i;
            std::string guard = sl.guard;
            if (sl.offset == 0) guard = guard.empty() ? "i != 0u" : "(" + guard + ") && i != 0u";
            const uint32_t first = R - sl.offset - (live - 1);
            SharedExchange::Move mirror =
                at_point({numbered("jb", r), "",
                          upper_half(u(R - sl.offset) + " - i", first, R - sl.offset + 1), guard},
                         "(" + u(live - 1) + " - i)", mirror_lanes, first);
            // For the padding's model: invocations that read nothing there (beyond a partial
            // group, or 0 at offset 0) count at their column's first word.
            for (uint32_t tid = 0; tid < mirror.words.size(); ++tid)
                if (const uint32_t i = tid % TPC; i >= live || (sl.offset == 0 && i == 0))
                    mirror.words[tid] = tid / TPC * R;
            reads.push_back(std::move(mirror));
        }
        exchange(stage_scope, writes, reads);
        for (uint32_t r = 0; r < load_count; ++r)
            emit_join(v[r], numbered("jb", r), slot(first_radix, r), v[r]);
    } else if (k.join_lanes) {
        // Each point's mirror from the partner lane (PassKernel::join_lanes): point x = ip + o of
        // the slot of offset o pairs with M - x = (TPC - ip) + (R - TPC - o), the partner's slot of
        // offset R - TPC - o. ip 0 and TPC / 2 are their own mirrors: ip 0's point o pairs with
        // R - o (o = 0 with X_M, which it holds as its imaginary part: emit_join), TPC / 2's with
        // its own slot R - TPC - o. Outputs go to fresh names, so that every raw value is there
        // for the pairs after. The shuffles and joins are written twice, in a branch on the lane
        // check (uniform over the workgroup): plain shuffles, and lane_xor's fallback through
        // shared memory. One call of lane_xor for both, whose barriers hold back the loads'
        // scheduling, ran c2r 16384 at two thirds of the memory join's speed (H100).
        std::map<uint32_t, uint32_t> slot_at;
        for (uint32_t r = 0; r < load_count; ++r) slot_at[slot(first_radix, r).offset] = r;
        std::vector<std::string> joined(load_count);
        for (uint32_t r = 0; r < load_count; ++r) {
            joined[r] = numbered("jz", r);
            w.line(C + " " + joined[r] + ";");
        }
        auto emit_pairs = [&](bool paired) {
            for (uint32_t r = 0; r < load_count; ++r) {
                const Slot sl = slot(first_radix, r);
                const uint32_t partner = slot_at.at(R - TPC - sl.offset),
                               own = slot_at.at((R - sl.offset) % R);
                w.open("");
                w.line(C + " jb = " +
                       (paired ? "subgroupShuffleXor(" + v[partner] + ", " + u(lanes - 1) + ")"
                               : "lane_xor(" + v[partner] + ", " + u(lanes - 1) + ", false)") +
                       ";");
                w.line("jb = ip == 0u ? " + v[own] + " : ip == " + u(TPC / 2) + " ? " + v[partner] +
                       " : jb;");
                w.line(C + " ja = " + v[r] + ";");
                emit_join("ja", "jb", sl, joined[r], "ip");
                w.close();
            }
        };
        w.open("if (lanes_paired)");
        emit_pairs(true);
        w.close();
        w.open("else");
        emit_pairs(false);
        w.close();
        for (uint32_t r = 0; r < load_count; ++r) w.line(v[r] + " = " + joined[r] + ";");
    } else if (join_across) {
        // The tile's spectra into shared memory as contiguous rows, then join's outputs from the
        // pairs x, M - x of the column (PassKernel::join_load), after load_sign.
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < staged_count; ++r) {
            const std::string e = "(tid + " + u(r * WG) + ")";
            writes.push_back({numbered("g", r), e + " % " + u(B) + " * " + u(R) + " + " + e + " / " + u(B),
                              upper_half(e + " / " + u(B), r * WG / B, ((r + 1) * WG + B - 1) / B),
                              (r + 1) * WG > B * R ? e + " < " + u(B * R) : ""});
        }
        for (uint32_t r = 0; r < load_count; ++r) {
            const Slot sl = slot(first_radix, r);
            w.line(C + " " + numbered("ja", r) + ", " + numbered("jb", r) + ";");
            const std::string x = "(i + " + u(sl.offset) + ")";
            reads.push_back({numbered("ja", r), tile_index(sl.offset),
                             upper_half(x, sl.offset, sl.offset + TPC), sl.guard});
            // Point R - x lies in the upper half for 0 < x <= R / 2; point 0 in the lower.
            reads.push_back({numbered("jb", r),
                             "lc * " + u(R) + " + (" + x + " == 0u ? 0u : " + u(R) + " - " + x + ")",
                             "(" + x + " != 0u && " + x + " <= " + u(R / 2) + ")", sl.guard});
        }
        exchange(Scope::workgroup, writes, reads);
        for (uint32_t r = 0; r < load_count; ++r)
            emit_join(numbered("ja", r), numbered("jb", r), slot(first_radix, r), v[r]);
    }
    // load_sign is -1 only in an inverse transform's first pass, and the stores scale only in the
    // last pass of an inverse or normalized transform. Plain one-pass kernels of contiguous
    // complex transforms of a power of two with up to 16 points per invocation take both in
    // uniform branches, so that forward transforms spend nothing on them (H200: 4096 3793 -> 3827
    // GB/s, 16 +0.5%, 2048 -0.6%, 8 to 1024 within 0.3%). The others multiply: with branches,
    // kernels of 32 points lost up to 1% (8192), multi-pass transforms 2-4% (65536, 2^21) and 100
    // 1%, their registers being tighter. r2c's split through lanes (PassKernel::split_lanes) takes
    // the load sign's branch too and scales its stores by half_scale (with split's 1/2): 2048 to
    // 16384 +0.3-0.9% (bench/RESULTS.md, twenty-sixth run). Other real, Bluestein and convolution
    // kernels were not measured with them.
    const bool sign_branches = P <= 16 && N == R && std::has_single_bit(N) && k.points_contiguous &&
                               k.src_stride == 1 && k.dst_stride == 1 && (!k.split_store || k.split_lanes) &&
                               !k.join_load && !k.chirp_load && !k.chirp_store && !k.spectrum_store &&
                               !k.convolution && !rader_p;
    if (!sign_branches) {
        if (!k.join_load)
            for (uint32_t r = 0; r < load_count; ++r) w.line(v[r] + ".y *= params.load_sign;");
        if (rader_p) w.line("vx.y *= params.load_sign;");
    } else if (!k.join_load || rader_p) {  // join_load applies load_sign itself
        w.open("if (params.load_sign < 0.0)");
        if (!k.join_load)
            for (uint32_t r = 0; r < load_count; ++r) w.line(v[r] + ".y = -" + v[r] + ".y;");
        if (rader_p) w.line("vx.y = -vx.y;");
        w.close();
    }
    if (k.chirp_load)
        // x_x c_x (see PassKernel::chirp_load); padding points hold 0, whatever chirp they meet.
        for (uint32_t r = 0; r < load_count; ++r)
            w.line(v[r] + " = cmul(" + v[r] + ", tw[" + u(k.chirp_offset) + " + min(t + (i + " +
                   u(slot(first_radix, r).offset) + ") * " + u(T) + ", " + u(chirp_n - 1) + ")]);");

    // Pass twiddles W_{S R}^{jj * (i + r * TPC)} = W_{S R}^{jj * i} * W_{S P}^{jj * r} (see
    // PassKernel::lane_columns and step_split).
    if (S > 1) {
        const uint32_t split = k.step_split, highs = (S + split - 1) / split;
        auto step = [&](uint32_t r) {
            const std::string low =
                "tw[" + u(k.step_low_offset + (r - 1) * split) + " + jj % " + u(split) + "]";
            if (highs == 1) return low;
            return "cmul(" + low + ", tw[" + u(k.step_high_offset + (r - 1) * highs) + " + jj / " + u(split) +
                   "])";
        };
        if (TPC > 1) {
            const uint32_t mask = (1u << k.fine_bits) - 1;
            w.line("uint j_lo = jj % " + u(k.lane_columns) + ";");
            w.line("uint e = (jj - j_lo) * i;");
            w.line(C + " w_i = cmul(cmul(tw[" + u(k.coarse_offset) + " + (e >> " + u(k.fine_bits) +
                   ")], tw[" + u(k.fine_offset) + " + (e & " + u(mask) + ")]), tw[" + u(k.lane_offset) +
                   " + i * " + u(k.lane_columns) + " + j_lo]);");
            w.line(v[0] + " = cmul(" + v[0] + ", w_i);");
            for (uint32_t r = 1; r < P; ++r)
                w.line(v[r] + " = cmul(" + v[r] + ", cmul(w_i, " + step(r) + "));");
        } else {
            for (uint32_t r = 1; r < P; ++r) w.line(v[r] + " = cmul(" + v[r] + ", " + step(r) + ");");
        }
    }

    auto conj = [&](const std::string& x) { return C + "(" + x + ".x, -" + x + ".y)"; };

    // Stockham stages. Invocation i does butterflies q = i + g * TPC (g < groups) on registers
    // v[m * groups + g]; the last stage leaves point i + slot(last_radix, reg).offset in the
    // registers returned (reg). `tag` keeps the index names of a second run apart. A split through
    // shuffles deals the last stage's butterflies by ip instead of i (stage_index above).
    // Stages whose exchanges go through subgroup shuffles (PassKernel::lane_swaps): registers
    // are renamed, not copied, so `names[x]` holds register x (its index's bits are register
    // bits of the layout). Returns the registers in the order of the last stage's slots; the
    // stores then take invocation `io`'s points, whose bits the lanes hold permuted.
    const std::vector<std::vector<uint8_t>> layouts =
        shuffles ? lane_layouts(k) : std::vector<std::vector<uint8_t>>{};
    const uint32_t t_bits = static_cast<uint32_t>(std::countr_zero(TPC));
    // The factors W_{span r}^{j m}, 1 <= m < r, of a stage of radix r at column index `j`: read
    // from the table, one per m. For radix 32 and above, each invocation reads only those of
    // m < b and of the multiples of b (b ~ sqrt(r)), named `prefix`m, and forms the others as one
    // product of two, m = a + b c -> W^{ja} W^{jbc}: 10 reads instead of 31 for radix 32. On the
    // H200 that made c2c 16384 (two radix-32 stages, 62 reads) 5% faster and r2c 32768 too, for
    // 2-3% more error; for radix 16 (6 reads instead of 15) it was no faster (bench/RESULTS.md,
    // twenty-second run), so smaller radices keep the exact reads.
    auto emit_stage_factors = [&](const Stage& st, const std::string& j, const std::string& prefix) {
        const uint32_t r = st.radix;
        auto read = [&](uint32_t m) {
            return "tw[" + u(st.twiddle_offset + (m - 1) * st.span) + " + " + j + "]";
        };
        std::vector<std::string> f(r);
        if (r < kFactoredTwiddleRadix) {
            for (uint32_t m = 1; m < r; ++m) f[m] = read(m);
            return f;
        }
        uint32_t b = 1;
        while (b * b < r) ++b;
        for (uint32_t m = 1; m < r; ++m)
            if (m < b || m % b == 0) {
                f[m] = prefix + std::to_string(m);
                w.line(C + " " + f[m] + " = " + read(m) + ";");
            }
        for (uint32_t m = 1; m < r; ++m)
            if (f[m].empty()) f[m] = "cmul(" + f[m % b] + ", " + f[m - m % b] + ")";
        return f;
    };
    auto run_shuffle_stages = [&]() {
        std::vector<std::string> names = v;
        uint32_t span_bits = 0;
        // Point x of the column under `layout`: its lane bits from i (a GLSL expression, and its
        // value for each lane) and its register bits from reg (a constant).
        auto lane_part = [&](const std::vector<uint8_t>& layout, uint32_t lane) {
            uint32_t x = 0;
            for (uint32_t b = 0; b < layout.size(); ++b)
                if (layout[b] < t_bits && (lane >> layout[b] & 1u)) x |= 1u << b;
            return x;
        };
        auto lane_glsl = [&](const std::vector<uint8_t>& layout) {
            std::string x;
            for (uint32_t b = 0; b < layout.size(); ++b)
                if (layout[b] < t_bits) {
                    const std::string bit = "((i >> " + u(layout[b]) + ") & 1u)";
                    x += (x.empty() ? "" : " | ") + (b ? "(" + bit + " << " + u(b) + ")" : bit);
                }
            return x.empty() ? std::string("0u") : x;
        };
        auto reg_part = [&](const std::vector<uint8_t>& layout, uint32_t reg) {
            uint32_t x = 0;
            for (uint32_t b = 0; b < layout.size(); ++b)
                if (layout[b] >= t_bits && (reg >> (layout[b] - t_bits) & 1u)) x |= 1u << b;
            return x;
        };
        // Each register at its point of the column under `layout` (a uint named `base` holds the
        // lane part), with the point's top bit, from a lane or the register, for exchanges in halves.
        auto register_moves = [&](const std::vector<uint8_t>& layout, const std::string& base) {
            w.line("uint " + base + " = " + lane_glsl(layout) + ";");
            std::vector<uint32_t> values;
            for (uint32_t lane : column_lanes) values.push_back(lane_part(layout, lane));
            const uint8_t top = layout.back();
            std::vector<SharedExchange::Move> moves;
            for (uint32_t reg = 0; reg < P; ++reg) {
                const std::string upper = top < t_bits ? "((i >> " + u(top) + ") & 1u) != 0u"
                                          : (reg >> (top - t_bits) & 1u) ? "true"
                                                                         : "false";
                moves.push_back(at_point({names[reg], "", upper, ""}, base, values, reg_part(layout, reg)));
            }
            return moves;
        };
        // Every register to the column's point in shared memory under `from`, and back under `to`.
        auto remap = [&](const std::vector<uint8_t>& from, const std::vector<uint8_t>& to, size_t s) {
            const std::vector<SharedExchange::Move> writes = register_moves(from, "rw" + std::to_string(s));
            exchange(stage_scope, writes, register_moves(to, "rr" + std::to_string(s)));
        };
        for (size_t s = 0; s < k.stages.size(); ++s) {
            for (const LaneRemap& rm : k.lane_remaps) {
                if (rm.stage != s) continue;
                if (s == 0) throw std::logic_error("pass kernel: a remap before the first stage");
                const uint32_t kr = static_cast<uint32_t>(std::countr_zero(k.stages[s - 1].radix));
                remap(lane_layout_after_stage(layouts[s - 1], span_bits - kr, kr), rm.places, s);
            }
            for (size_t x = 0; x < k.lane_swaps.size(); ++x) {
                const LaneSwap& sw = k.lane_swaps[x];
                if (sw.stage != s) continue;
                const std::string hi = "hi" + std::to_string(x);
                w.line("bool " + hi + " = (i & " + u(1u << sw.lane_bit) + ") != 0u;");
                for (uint32_t a = 0; a < P; ++a) {
                    if (a & (1u << sw.reg_bit)) continue;
                    const std::string& va = names[a];
                    const std::string& vb = names[a | (1u << sw.reg_bit)];
                    const std::string got = temps.next();
                    w.line(C + " " + got + " = lane_xor(" + hi + " ? " + va + " : " + vb + ", " +
                           u(1u << sw.lane_bit) + ", subgroup_sync);");
                    w.line("if (" + hi + ") " + va + " = " + got + "; else " + vb + " = " + got + ";");
                }
            }
            const std::vector<uint8_t>& at = layouts[s];
            const uint32_t n_bits = static_cast<uint32_t>(at.size());
            const Stage& st = k.stages[s];
            const uint32_t kr = static_cast<uint32_t>(std::countr_zero(st.radix)), ns = st.span;
            // The register bits of the butterfly's points (the top kr point bits), and the others,
            // which number the invocation's butterflies.
            uint32_t point_mask = 0;
            for (uint32_t j = 0; j < kr; ++j) point_mask |= 1u << (at[n_bits - kr + j] - t_bits);
            for (uint32_t reg = 0; reg < P; ++reg) {
                if (reg & point_mask) continue;  // one butterfly per setting of the other bits
                std::vector<uint32_t> regs(st.radix);
                for (uint32_t m = 0; m < st.radix; ++m) {
                    regs[m] = reg;
                    for (uint32_t j = 0; j < kr; ++j)
                        if (m & (1u << j)) regs[m] |= 1u << (at[n_bits - kr + j] - t_bits);
                }
                if (ns > 1) {
                    // j = q mod span: the point bits below log2(span), from lanes or this register.
                    std::string j;
                    uint32_t constant = 0;
                    for (uint32_t b = 0; b < span_bits; ++b) {
                        if (at[b] >= t_bits) {
                            if (reg & (1u << (at[b] - t_bits))) constant |= 1u << b;
                        } else {
                            const std::string bit = "((i >> " + u(at[b]) + ") & 1u)";
                            j += (j.empty() ? "" : " | ") + (b ? "(" + bit + " << " + u(b) + ")" : bit);
                        }
                    }
                    if (j.empty()) j = "0u";
                    const std::string jn = "j" + std::to_string(s) + "_" + std::to_string(reg);
                    w.line("uint " + jn + " = " + (constant ? "(" + j + ") | " + u(constant) : j) + ";");
                    for (uint32_t m = 1; m < st.radix; ++m)
                        w.line(names[regs[m]] + " = cmul(" + names[regs[m]] + ", tw[" +
                               u(st.twiddle_offset + (m - 1) * ns) + " + " + jn + "]);");
                }
                std::vector<std::string> in;
                for (uint32_t m = 0; m < st.radix; ++m) in.push_back(names[regs[m]]);
                const auto res = emit_dft(w, in, k.precision, temps);
                for (uint32_t m = 0; m < st.radix; ++m) names[regs[m]] = res[m];
            }
            span_bits += kr;
        }
        // The last stage's slot c holds point io + c's offset: the point bits t.. of c's index bits,
        // and io the point bits below t, which the lanes hold.
        const std::vector<uint8_t>& last = layouts.back();
        w.line("uint io = " + lane_glsl(last) + ";");
        std::vector<std::string> out(P);
        for (uint32_t c = 0; c < P; ++c) {
            uint32_t reg = 0;
            for (uint32_t y = 0; t_bits + y < last.size(); ++y)
                if (c & (1u << y)) reg |= 1u << (last[t_bits + y] - t_bits);
            out[c] = names[reg];
        }
        return out;
    };
    auto run_stages = [&](const std::string& tag) {
        if (shuffles) return run_shuffle_stages();
        std::vector<std::string> out = v;
        for (size_t s = 0; s < k.stages.size(); ++s) {
            const Stage& st = k.stages[s];
            const uint32_t r = st.radix, ns = st.span, groups = k.groups(r);
            const bool last = s + 1 == k.stages.size();
            // The last step of a 1D transform leaves its outputs where the stores want them; that of
            // a pass over several dims (Pass::dim_count) moves them there through shared memory.
            const bool complete = last && ns * r == R;
            std::vector<SharedExchange::Move> writes;
            for (uint32_t g = 0; g < groups; ++g) {
                const std::string q = "(" + stage_index(s) + " + " + u(g * TPC) + ")";
                const std::string guard = slot(r, g).guard;
                const std::string j = "j" + tag + std::to_string(s) + "_" + std::to_string(g);
                if (ns > 1)
                    w.line("uint " + j + " = " + q +
                           (std::has_single_bit(ns) ? " & " + u(ns - 1) : " % " + u(ns)) + ";");
                std::vector<std::string> regs;
                for (uint32_t m = 0; m < r; ++m) regs.push_back(v[m * groups + g]);
                if (ns > 1) {
                    std::vector<std::string> factors(r);
                    if (k.twiddles_in_registers)
                        for (uint32_t m = 1; m < r; ++m) factors[m] = held_twiddle(s, g, m);
                    else
                        factors = emit_stage_factors(
                            st, j, "f" + tag + std::to_string(s) + "_" + std::to_string(g) + "_");
                    for (uint32_t m = 1; m < r; ++m)
                        w.line(regs[m] + " = cmul(" + regs[m] + ", " + factors[m] + ");");
                }
                const auto res = emit_dft(w, regs, k.precision, temps);
                if (complete) {
                    // ns * r == R: output m of butterfly q lands at q + m * ns (slot(r, g + m * groups)).
                    for (uint32_t m = 0; m < r; ++m) out[g + m * groups] = res[m];
                } else {
                    const std::string o = "o" + tag + std::to_string(s) + "_" + std::to_string(g);
                    w.line("uint " + o + " = " +
                           (ns > 1 ? "(" + q + " - " + j + ") * " + u(r) + " + " + j : q + " * " + u(r)) +
                           ";");
                    // The outputs lie in the upper half of the column when q >= R / (2 r): for one
                    // group per invocation when i >= TPC / 2, else for the upper half of the groups.
                    const std::string upper = groups == 1       ? stage_index(s) + " >= " + u(TPC / 2)
                                              : g >= groups / 2 ? "true"
                                                                : "false";
                    // The values o takes, over every invocation (a superset of those that write).
                    std::vector<uint32_t> o_values;
                    for (uint32_t x : stage_lanes(s)) {
                        const uint32_t qv = x + g * TPC, jv = qv % ns;
                        o_values.push_back((qv - jv) * r + jv);
                    }
                    for (uint32_t m = 0; m < r; ++m)
                        writes.push_back(at_point({res[m], "", upper, guard}, o, o_values, m * ns));
                }
            }
            if (!complete) {
                // The next stage's inputs (after the last: the store's, in the last stage's layout).
                // In halves (uniform kernels only), point i + r2 * TPC lies in the upper half when
                // r2 >= P / 2.
                const uint32_t next = last ? r : k.stages[s + 1].radix;
                std::vector<SharedExchange::Move> reads;
                for (uint32_t r2 = 0; r2 < k.groups(next) * next; ++r2) {
                    const Slot sl = slot(next, r2);
                    reads.push_back(at_point({v[r2], "", r2 >= P / 2 ? "true" : "false", sl.guard},
                                             stage_index(s + 1), stage_lanes(s + 1), sl.offset));
                }
                exchange(stage_scope, writes, reads);
                if (last) out = v;
            }
        }
        return out;
    };
    std::vector<std::string> out = run_stages("");
    // A second transform of the first one's outputs, each first replaced by middle(output, its
    // slot) (Rader's transforms, a convolution): the values move into the first stage's registers,
    // through shared memory where the last stage's layout differs from the first's.
    auto transform_again = [&](const std::string& tag,
                               const std::function<std::string(const std::string&, const Slot&)>& middle) {
        std::vector<Slot> from, to;
        for (uint32_t r = 0; r < store_count; ++r) from.push_back(slot(last_radix, r));
        for (uint32_t r = 0; r < load_count; ++r) to.push_back(slot(first_radix, r));
        for (uint32_t r = 0; r < store_count; ++r) {
            if (!from[r].guard.empty()) w.line("if (" + from[r].guard + ")");
            w.line(out[r] + " = " + middle(out[r], from[r]) + ";");
        }
        const bool same = std::equal(
            from.begin(), from.end(), to.begin(), to.end(),
            [](const Slot& a, const Slot& b) { return a.offset == b.offset && a.guard == b.guard; });
        if (same) {
            for (uint32_t r = 0; r < load_count; ++r) w.line(v[r] + " = " + out[r] + ";");
        } else {
            // The last stage's layout differs from the first's: through shared memory.
            std::vector<SharedExchange::Move> writes, reads;
            for (uint32_t r = 0; r < store_count; ++r)
                writes.push_back(
                    at_point({out[r], "", "false", from[r].guard}, "i", column_lanes, from[r].offset));
            for (uint32_t r = 0; r < load_count; ++r)
                reads.push_back(at_point({v[r], "", "false", to[r].guard}, "i", column_lanes, to[r].offset));
            exchange(stage_scope, writes, reads);
        }
        out = run_stages(tag);
    };
    std::string rader_sum;  // X_0 - x_0, in the invocation with i == 0
    if (rader_p) {
        // Between Rader's transforms (PassKernel::rader_prime): output q times the spectrum,
        // conjugated, becomes input q of the second transform.
        rader_sum = temps.next();
        w.line(C + " " + rader_sum + " = " + out[0] + ";");
        transform_again("r", [&](const std::string& x, const Slot& sl) {
            return conj("cmul(" + x + ", tw[" + u(k.rader_offset) + " + i + " + u(sl.offset) + "])");
        });
    }
    if (k.convolution) {
        // PassKernel::convolution: X_k through twiddle_middle at the index its store would take,
        // conjugated, is point k of the second transform.
        const uint32_t step = S * k.dst_stride;
        // Columns past the end (live false) call nothing: the index would be past the operand's.
        uint32_t reg = 0;  // transform_again visits the output registers in order
        transform_again("c", [&](const std::string& x, const Slot& sl) {
            if (k.convolution_product)
                return "cmul(" + x + ", hv" + std::to_string(reg++) + ") * " + C + "(1, -1)";
            return "(live ? twiddle_middle(" + x + ", dst_base - params.dst_offset + " + u(sl.offset * step) +
                   " + i * " + u(step) + ") : " + x + ") * " + C + "(1, -1)";
        });
    }

    // conj(x * spectrum[at]) (PassKernel::spectrum_store).
    auto spectrum = [&](const std::string& at, const std::string& x) {
        return conj("cmul(" + x + ", tw[" + u(k.spectrum_offset) + " + " + at + "])");
    };
    auto scaled = [&](const std::string& x) {
        return C + "(" + x + ".x * params.store_re, " + x + ".y * params.store_im)";
    };
    // Registers scaled in place, before they are stored as they are, in a uniform branch taken only
    // where the pass scales (sign_branches).
    auto scale_in_place = [&](const std::vector<std::string>& regs) {
        w.open("if (params.store_re != 1.0 || params.store_im != 1.0)");
        for (const std::string& r : regs) w.line(r + " = " + scaled(r) + ";");
        w.close();
    };
    // split's arithmetic for the pair a = Z_k, b = conj(Z_{R-k}) at k = sk:
    // X_k = e + t, X_{R-k} = conj(e - t), e = (a + b) / 2, t = W^k (a - b) / 2i, with W^k the
    // table's (k <= R / 2), or `twiddle`.
    // With `unhalved`, e and t are left twice as large, for stores that scale by half_scale.
    auto emit_split_pair = [&](const std::string& za, const std::string& zb, const std::string& twiddle = "",
                               bool unhalved = false) {
        w.line(C + " a = " + za + ", b = " + conj(zb) + ";");
        w.line(C + (unhalved ? " se = a + b, so = a - b;" : " se = (a + b) * 0.5, so = (a - b) * 0.5;"));
        w.line(C + " tt = cmul(" + (twiddle.empty() ? "tw[" + u(k.real_offset) + " + sk]" : twiddle) + ", " +
               C + "(so.y, -so.x));");
    };
    const std::string last_i = shuffles ? "io" : k.stages.empty() ? "i" : stage_index(k.stages.size() - 1);
    if (k.split_lanes) {
        // PassKernel::split_lanes: the pairs of register r < last_radix / 2, point k = ip + r * TPC,
        // and of the mirror's register last_radix - 1 - r, point R - k. Shuffles (lane_xor, whose
        // fallback has barriers) run in every lane, before any branch that differs between lanes;
        // ip 0 and TPC / 2 are their own mirrors (ip 0's points k = r * TPC pair with
        // (last_radix - r) * TPC, and R / 2 with itself). The lane check's fallback is lane_xor's,
        // not the split_store path below: a second path's registers cost r2c 16384 13% on the
        // H200 (bench/RESULTS.md, twenty-fourth run).
        const uint32_t half_regs = store_count / 2;
        for (uint32_t r = 0; r < half_regs; ++r) {
            w.open("");
            const std::string mirror = out[store_count - 1 - r];
            w.line(C + " zm = lane_xor(" + mirror + ", " + u(lanes - 1) + ", lanes_paired);");
            w.line("zm = ip == 0u ? " + out[(store_count - r) % store_count] + " : ip == " + u(TPC / 2) +
                   " ? " + mirror + " : zm;");
            w.open("if (live)");
            w.line("uint sk = ip + " + u(r * TPC) + ", sm = " + u(R) + " - sk;");
            const std::complex<long double> step = unit_root(r * TPC, 2 * uint64_t(R));
            emit_split_pair(out[r], "zm",
                            r == 0 ? "wip"
                                   : "cmul(wip, " + C + "(" + literal(step.real(), k.precision) + ", " +
                                         literal(step.imag(), k.precision) + "))",
                            true);
            // Band-limited spectra store points k < m only (sk < (r + 1) * TPC, sm <= R).
            const std::string low = (r + 1) * TPC <= m ? "" : "if (sk < " + u(m) + ") ";
            const std::string high = R < m ? "" : "if (sm < " + u(m) + ") ";
            w.line(low + "dst[dst_base + " + strided("sk", k.dst_stride) + "] = (se + tt) * half_scale;");
            w.line(high + "dst[dst_base + " + strided("sm", k.dst_stride) + "] = " + C +
                   "(se.x - tt.x, tt.y - se.y) * half_scale;");
            w.close();
            w.close();
        }
        w.open("if (live && ip == 0u)");
        w.line("uint sk = " + u(R / 2) + ";");
        emit_split_pair(out[half_regs], out[half_regs], "", true);
        if (R / 2 < m)
            w.line("dst[dst_base + " + strided("sk", k.dst_stride) + "] = (se + tt) * half_scale;");
        w.close();
    } else if (split_last) {
        // PassKernel::split_store in the last pass of several: column t's point r is Z_k,
        // k = t + S r, whose partner Z_{N-k} is point R - 1 - r of the mirror column S - t, in lane
        // B - 1 - lc of the tile; column 0 pairs its points r, R - r and column S / 2 its r,
        // R - 1 - r. The tile's outputs through shared memory, then each invocation stores X_k
        // for its own points from its register and the partner's (W_{2N}^k for k > N / 2 as
        // -conj(W_{2N}^{N-k})); column 0's point 0 also gives X_N.
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            writes.push_back({out[r], shared_index("i + " + u(sl.offset)), "false", sl.guard});
        }
        w.line("uint pair_lc = t == 0u || t == " + u(S / 2) + " ? lc : " + u(B - 1) + " - lc;");
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            const std::string x = "(i + " + u(sl.offset) + ")";
            w.line(C + " " + numbered("zp", r) + ";");
            reads.push_back({numbered("zp", r),
                             "(t == 0u ? (" + u(R) + " - " + x + ") % " + u(R) + " : " + u(R - 1) + " - " +
                                 x + ") * " + u(B) + " + pair_lc",
                             "false", sl.guard});
        }
        exchange(Scope::workgroup, writes, reads);
        w.open("if (live)");
        w.line("uint at = params.dst_offset + col_dst;");
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            w.open(sl.guard.empty() ? "" : "if (" + sl.guard + ")");
            w.line("uint sk = t + (i + " + u(sl.offset) + ") * " + u(S) + ";");
            w.line(C + " wk = sk <= " + u(N / 2) + " ? tw[" + u(k.real_offset) + " + sk] : -" +
                   conj("tw[" + u(k.real_offset) + " + " + u(N) + " - sk]") + ";");
            emit_split_pair(out[r], numbered("zp", r), "wk");
            w.line(std::string(m > N ? "" : "if (sk < " + u(m) + ") ") + "dst[at + " +
                   strided("sk", k.dst_stride) + "] = " + scaled("(se + tt)") + ";");
            if (r == 0 && N < m)
                w.line("if (sk == 0u) dst[at + " + u(uint64_t(N) * k.dst_stride) +
                       "] = " + scaled(C + "(se.x - tt.x, tt.y - se.y)") + ";");
            w.close();
        }
        w.close();
    } else if (k.split_store) {
        // PassKernel::split_store: the columns' outputs into shared memory, then the pairs k, R - k
        // (k <= R / 2): each column's in its own invocations, item i + r * TPC, where they store
        // runs of at least kSplitRun points up and down; else the tile's spread over the
        // workgroup, item tid + r * WG of column item / pairs, so that neighbouring invocations
        // still store neighbouring points.
        // Pairs k < m only, where m <= R / 2 (PassKernel::spectrum_points); across columns (
        // spectrum_across_columns), item e is pair e / B of column e % B.
        const uint32_t pairs = m <= R / 2 ? m : R / 2 + 1;
        const bool by_column = split_by_column, across = k.spectrum_across_columns;
        const uint32_t sharing = by_column ? TPC : WG, items = by_column ? pairs : B * pairs;
        const uint32_t count = (items + sharing - 1) / sharing;
        auto item = [&](uint32_t r) {
            return "(" + std::string(by_column ? "i" : "tid") + " + " + u(r * sharing) + ")";
        };
        auto guard = [&](uint32_t r) {
            return (r + 1) * sharing > items ? item(r) + " < " + u(items) : std::string();
        };
        // The item's column in the tile, and its pair.
        auto tile_column = [&](uint32_t r) {
            return across ? item(r) + " % " + u(B) : item(r) + " / " + u(pairs);
        };
        auto column = [&](uint32_t r) {
            return by_column ? "lc * " + u(R) : "(" + tile_column(r) + ") * " + u(R);
        };
        auto pair = [&](uint32_t r) {
            return by_column ? item(r) : across ? item(r) + " / " + u(B) : item(r) + " % " + u(pairs);
        };
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            writes.push_back({out[r], "lc * " + u(R) + " + " + last_i + " + " + u(sl.offset),
                              upper_half(last_i + " + " + u(sl.offset), sl.offset, sl.offset + TPC),
                              sl.guard});
        }
        for (uint32_t r = 0; r < count; ++r) {
            w.line(C + " " + numbered("sa", r) + ", " + numbered("sb", r) + ";");
            // Pair k <= R / 2 and R - k, in the upper half unless k is 0.
            reads.push_back({numbered("sa", r), column(r) + " + " + pair(r),
                             upper_half(pair(r), 0, R / 2 + 1), guard(r)});
            reads.push_back({numbered("sb", r),
                             column(r) + " + (" + pair(r) + " == 0u ? 0u : " + u(R) + " - " + pair(r) + ")",
                             "(" + pair(r) + ") != 0u", guard(r)});
        }
        exchange(by_column ? stage_scope : Scope::workgroup, writes, reads);
        for (uint32_t r = 0; r < count; ++r) {
            w.open(guard(r).empty() ? "" : "if (" + guard(r) + ")");
            if (by_column) {
                w.open("if (live)");
                w.line("uint sk = " + pair(r) + ", at = dst_base;");
            } else {
                w.line("uint sc = tile * " + u(B) + " + " + tile_column(r) + ", sk = " + pair(r) + ";");
                w.open("if (sc < params.columns)");
                w.line("uint st, ss, sd;");
                w.line("locate(sc, st, ss, sd);");
                w.line("uint at = params.dst_offset + sd;");
            }
            w.line("uint sm = " + u(R) + " - sk;");
            emit_split_pair(numbered("sa", r), numbered("sb", r));
            w.line("dst[at + " + strided("sk", k.dst_stride) + "] = " + scaled("(se + tt)") + ";");
            w.line("if (sm != sk" + std::string(m <= R ? " && sm < " + u(m) : "") + ") dst[at + " +
                   strided("sm", k.dst_stride) + "] = " + scaled(C + "(se.x - tt.x, tt.y - se.y)") + ";");
            w.close();
            w.close();
        }
    } else if (k.staged_store) {
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            if (rader_p) {
                // X_{g^-m} = conj(output m) + x_0 (PassKernel::rader_prime).
                if (!sl.guard.empty()) w.line("if (" + sl.guard + ")");
                w.line(out[r] + " = " + conj(out[r]) + " + vx;");
                writes.push_back(
                    {out[r], "lc * " + u(rader_p) + " + " + rader_index("rader_out", rader_g_inv, sl.offset),
                     "false", sl.guard});
            } else {
                writes.push_back(at_tile({out[r], "", "false", sl.guard}, sl.offset, last_i));
            }
        }
        if (rader_p) {
            w.line(rader_sum + " += vx;  // X_0");
            writes.push_back({rader_sum, "lc * " + u(rader_p), "false", "i == 0u"});
        }
        for (uint32_t r = 0; r < staged_count; ++r)
            reads.push_back(at_element({numbered("g", r), "", "false", staged_guard(r)}, r));
        exchange(Scope::workgroup, writes, reads);
        // The stores scale as they go (scaling the g registers in place first cost 32 5% on the H200).
        for (uint32_t r = 0; r < staged_count; ++r) {
            const std::string e = "tid + " + u(r * WG);
            // The tile is one run of packed transforms: the point's index is its place mod N.
            const std::string value = k.spectrum_store
                                          ? spectrum("(tile_base + " + e + ") % " + u(N), numbered("g", r))
                                          : numbered("g", r);
            w.line("if (" + e + " < tile_points) dst[params.dst_offset + tile_base + " + e +
                   "] = " + scaled(value) + ";");
        }
    } else if (rader_p) {
        // Strided transforms, point by point: output m of the second transform, conjugated, plus x_0 is
        // X_{g^-m}; X_0 is x_0 plus output 0 of the first.
        w.open("if (live)");
        w.line("if (i == 0u) dst[dst_base] = " + scaled("(vx + " + rader_sum + ")") + ";");
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            if (!sl.guard.empty()) w.line("if (" + sl.guard + ")");
            w.line("dst[dst_base + " +
                   strided(rader_index("rader_out", rader_g_inv, sl.offset), k.dst_stride) +
                   "] = " + scaled("(" + conj(out[r]) + " + vx)") + ";");
        }
        w.close();
    } else {
        if (sign_branches) scale_in_place(std::vector<std::string>(out.begin(), out.begin() + store_count));
        w.open("if (live)");
        for (uint32_t r = 0; r < store_count; ++r) {
            const Slot sl = slot(last_radix, r);
            // The point's index in its transform.
            const std::string at =
                "(t - jj) * " + u(R) + " + jj + (" + last_i + " + " + u(sl.offset) + ") * " + u(S);
            std::string guard = sl.guard, value = out[r];
            if (k.spectrum_store) value = spectrum(at, value);
            if (k.chirp_store) {
                guard = (guard.empty() ? "" : guard + " && ") + at + " < " + u(chirp_n);
                value = "cmul(tw[" + u(k.chirp_offset) + " + " + at + "], " + conj(value) + ")";
            }
            if (!guard.empty()) w.line("if (" + guard + ")");
            const uint32_t step = S * k.dst_stride;
            w.line("dst[dst_base + " + u(sl.offset * step) + " + " + last_i + " * " + u(step) +
                   "] = " + (sign_branches ? value : scaled(value)) + ";");
        }
        w.close();
    }
    if (k.prefetch) w.close();  // the tile loop
    w.close();
    return w.str();
}

}  // namespace

std::string generate_pass_kernel(const PassKernel& k) {
    if (k.kind == KernelKind::direct) return generate_direct_kernel(k);
    if (k.kind == KernelKind::real) return generate_real_kernel(k);
    SharedPadding padding;
    std::string glsl = generate_exchange_kernel(k, padding);
    if (k.subgroup_exchanges && k.exchange_rounds < 4) {
        // One map for every exchange (SharedPadding::kernel_map): the first of the fewest
        // wavefronts summed over them, or pad() where some exchange's words are not known.
        SharedPadding one;
        one.kernel_map = kPadMap;
        if (padding.totals_valid && !padding.totals.empty()) {
            const auto best =
                std::min_element(padding.totals.begin(), padding.totals.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
            if (best->second < std::numeric_limits<double>::infinity()) one.kernel_map = best->first;
        }
        // (Unless the first generation took that map throughout already.)
        if (padding.several_maps || (padding.one_map && *padding.one_map != *one.kernel_map)) {
            glsl = generate_exchange_kernel(k, one);
            padding = one;
        }
    }
    // Padding spreads strided accesses over the banks but, where pad() cannot fold into a base
    // and a constant, costs index arithmetic per access. The kernel goes without it where its
    // exchanges' wavefronts unpadded are fewer than padded plus 0.65 per warp-wide access that
    // computes pad() in full. The weight was fitted on the H200 (every kernel unpadded against
    // padded, interleaved runs; bench/RESULTS.md, eighteenth run): 400 (Rader's 401) +7% unpadded
    // at 0.62 wavefronts saved per such access, 72 and 100 -1% at 0.67 and 0.88; unpadded 3125
    // +17%, 4095 +15%, 6561 +28%, 1000 +2.5%, while 40 -20%, 56 -17%, and 1024, 2048 and 8192
    // -8 to -20%, which the rule keeps padded. Kernels exchanging in halves keep their padding
    // (their indices pad a remapped address). A kernel of mixed radices whose exchanges all chose
    // no map is plain too.
    const double unpadded = double(padding.wavefronts_plain);
    const double padded = double(padding.wavefronts_padded) + 0.65 * double(padding.unfolded);
    if (k.exchange_rounds < 4 && (unpadded < padded || !padding.mapped)) {
        SharedPadding plain;
        plain.padded = false;
        glsl = generate_exchange_kernel(k, plain);
    }
    return glsl;
}

std::string generate_copy_kernel(uint32_t workgroup_size, uint32_t shared_bytes) {
    GlslWriter w;
    w.line("#version 450");
    w.line("// twiddle copy: the bandwidth yardstick");
    w.line("layout(local_size_x = " + std::to_string(workgroup_size) + ") in;");
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };");
    w.line("layout(push_constant) uniform Params { uint words; } params;");
    const uint32_t words = shared_bytes / 4;
    if (words > 0) w.line("shared uint reserved[" + std::to_string(words) + "];");
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("uint i = group * " + u(workgroup_size) + " + gl_LocalInvocationID.x;");
    if (words > 0) {
        // Touch the whole array so that no compiler can shrink it, and keep the copy's result
        // independent of what it reads back (i never reaches 0xffffffff words).
        w.line("for (uint a = gl_LocalInvocationID.x; a < " + u(words) + "; a += " + u(workgroup_size) +
               ") reserved[a] = i;");
        w.line("barrier();");
        w.line("if (reserved[(gl_LocalInvocationID.x * 97u) % " + u(words) + "] == 0xffffffffu) return;");
    }
    w.line("if (i < params.words) dst[i] = src[i];");
    w.close();
    return w.str();
}

}  // namespace twiddle::codegen
