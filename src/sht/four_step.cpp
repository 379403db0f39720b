#include "sht/four_step.hpp"

#include <algorithm>
#include <vector>

#include "codegen/butterfly.hpp"
#include "codegen/glsl_writer.hpp"
#include "core/unit_root.hpp"
#include "twiddle/error.hpp"

namespace twiddle::sht {

namespace {

using codegen::GlslWriter;

std::string u(uint64_t v) { return std::to_string(v) + "u"; }

// Each column's P = four_step_points points are transformed by column_threads = P / kStagePoints
// invocations in two stages: DFTs of kStagePoints points over the stride-column_threads
// decimations, then DFTs of column_threads points. Shared rows of P values are padded by one
// (row): the column DFTs and the m-major side have consecutive invocations take consecutive rows
// at one point, the runs consecutive points of one row, both free of bank conflicts.
constexpr uint32_t kStagePoints = 8;
struct ColumnForm {
    uint32_t P, column_threads, row;
};
ColumnForm column_form() {
    const uint32_t P = four_step_points();
    return {P, P / kStagePoints, P + 1};
}
// The form, the same in both directions: columns of 16 points, the m-major pass in runs of 16
// latitudes (128 bytes in f32). Measured on the H200 at 4096 x 8192 (bench/RESULTS.md): synthesis's
// m-major pass took 0.069 / 0.073 / 0.081 ms with 8 / 16 / 32 points and its row pass 0.085 / 0.075
// / 0.074 (transforms of 512 / 256 / 128 points; twenty-fifth run); runs of 32 and 64 latitudes,
// longer but in fewer and larger workgroups per multiprocessor, ran slower. Analysis took 32 points
// in runs of 8 latitudes (64 bytes) until the twenty-seventh run, where with the twiddles below and
// the reversed order 16 points in runs of 16 took 0.1494 ms against 0.1512-0.1517.
constexpr uint32_t kPoints = 16, kRunBytes = 128;
// Two stages, the second of 2 to 8 points (an invocation takes kStagePoints / column_threads of them).
static_assert(kPoints % kStagePoints == 0 && kPoints >= 2 * kStagePoints &&
              kPoints <= kStagePoints * kStagePoints);
// Passes::automatic takes two passes from these nphi on: measured on the H200 against one pass
// at nphi 2048, 4096, 8192 and 16384 (one pass reads or writes the m-major side in runs of one
// to four latitudes once a row's transform fills a workgroup).
constexpr uint64_t kTwoPassSynthesisFrom = 8192, kTwoPassAnalysisFrom = 4096;

// Where point k of a column lies in its shared row after the two stages: k = k' + kStagePoints
// k'' is left at slot k'' + column_threads k' (each stage writes over the slots it read).
std::string output_slot(const ColumnForm& f, const std::string& k) {
    return "(" + k + ") / " + u(kStagePoints) + " + " + u(f.column_threads) + " * ((" + k + ") % " +
           u(kStagePoints) + ")";
}

// Interface, shared memory, and the workgroup's place: `field`, its latitude block `block`, its
// column pair `pair` (columns c and C - c in the two halves of the tile; the pair 0 takes 0 and
// C / 2, each its own mirror), `col_of(pair, side)` for either half's, and `tid`.
void emit_prologue(GlslWriter& w, const Grid& g, bool synthesis) {
    const ColumnForm f = column_form();
    const auto ty = codegen::types(g.precision);
    const std::string C(ty.complex);
    const uint32_t L = four_step_latitudes(g.precision);
    const uint64_t columns = four_step_columns(g), pairs = columns / 2;
    const uint64_t blocks = (g.nlat + L - 1) / L;
    w.line("#version 450");
    w.line(std::string("// twiddle sht four-step ") + (synthesis ? "synthesis" : "analysis") + ": nlat " +
           std::to_string(g.nlat) + ", nphi " + std::to_string(g.nphi) + ", mmax " + std::to_string(g.mmax) +
           ", fields " + std::to_string(g.fields) + ", " + std::to_string(columns) + " columns of " +
           std::to_string(f.P) + " points");
    w.line("layout(local_size_x = " + std::to_string(four_step_workgroup(g.precision)) + ") in;");
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { " + C + " src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { " + C + " dst[]; };");
    w.line("layout(std430, set = 0, binding = 2) readonly buffer Table { " + C + " tw[]; };");
    w.line("layout(push_constant) uniform Params { uint src_offset; uint dst_offset; } params;");
    w.line("shared " + C + " sh[" + std::to_string(2 * L * f.row) + "];");
    w.line(C + " cmul(" + C + " a, " + C + " b) { return " + C +
           "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }");
    w.line("uint col_of(uint pair, uint side) {");
    w.line("    return pair == 0u ? side * " + u(columns / 2) + " : (side == 0u ? pair : " + u(columns) +
           " - pair);");
    w.line("}");
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("if (group >= " + u(g.fields * blocks * pairs) + ") return;");
    // Workgroups are launched about in order of their index: the pass takes its tiles from the
    // last, so that analysis first reads the rows the row pass wrote last, and synthesis writes
    // last the rows the row pass reads first, while they are still in the cache (H200,
    // twenty-seventh run: 0.5% in either direction).
    w.line("group = " + u(g.fields * blocks * pairs - 1) + " - group;");
    w.line("uint pair = group % " + u(pairs) + ", block = group / " + u(pairs) + " % " + u(blocks) +
           ", field = group / " + u(pairs * blocks) + ";");
    w.line("uint tid = gl_LocalInvocationID.x;");
}

// The rounds in which the workgroup moves its tile of 2L x P elements: `body` is emitted once per
// round, in a block with its element `e` = round * workgroup + tid declared.
template <typename Body>
void for_each_round(GlslWriter& w, const Grid& g, Body body) {
    const ColumnForm f = column_form();
    const uint32_t workgroup = four_step_workgroup(g.precision);
    for (uint32_t r = 0; r < 2 * four_step_latitudes(g.precision) * f.P / workgroup; ++r) {
        w.open("");
        w.line("uint e = " + u(r * workgroup) + " + tid;");
        body();
        w.close();
    }
}

// The tile's 2L rows of P points (row rho: latitude block * L + rho % L, column col_of(pair, rho /
// L)) as runs in the scratch rows of M points: `body` is emitted once per round with `rho`, `n`
// (the point), `lat` and `at` (the scratch index, valid where lat < nlat) declared.
template <typename Body>
void for_each_run_element(GlslWriter& w, const Grid& g, Body body) {
    const ColumnForm f = column_form();
    const uint32_t L = four_step_latitudes(g.precision);
    for_each_round(w, g, [&] {
        w.line("uint rho = e / " + u(f.P) + ", n = e % " + u(f.P) + ", lat = block * " + u(L) + " + rho % " +
               u(L) + ";");
        w.line("uint at = (field * " + u(g.nlat) + " + lat) * " + u(g.nphi / 2) + " + col_of(pair, rho / " +
               u(L) + ") * " + u(f.P) + " + n;");
        body();
    });
}

// The tile as rows of the m-major side: `body` is emitted once per round with `side`, `k2` (the
// point of that side's column), `c` (the tile row), `col`, `k` = col + columns k2 and `lat`
// declared; consecutive invocations take consecutive latitudes.
template <typename Body>
void for_each_m_element(GlslWriter& w, const Grid& g, Body body) {
    const ColumnForm f = column_form();
    const uint32_t L = four_step_latitudes(g.precision);
    for_each_round(w, g, [&] {
        w.line("uint i = e / " + u(L) + ", side = i / " + u(f.P) + ", k2 = i % " + u(f.P) + ";");
        w.line("uint c = side * " + u(L) + " + e % " + u(L) + ", col = col_of(pair, side);");
        w.line("uint k = col + " + u(four_step_columns(g)) + " * k2, lat = block * " + u(L) + " + e % " +
               u(L) + ";");
        body();
    });
}

// The tile as mirror pairs, where the workgroup's columns are pair and C - pair (pair > 0): the
// mirror M - k of k = pair + C k2 is point P - 1 - k2 of the other column, so one invocation takes
// both, reading or writing the m-major side once for each. `body` is emitted once per round with
// `k2`, `row` (the first column's tile row; the other's is L + row), `k`, `kp` = M - k and `lat`
// declared; consecutive invocations take consecutive latitudes, so the L of a run (128 bytes) read
// or write one point of L rows, which the rows' padding puts in distinct banks.
template <typename Body>
void for_each_mirror_pair(GlslWriter& w, const Grid& g, Body body) {
    const ColumnForm f = column_form();
    const uint32_t L = four_step_latitudes(g.precision);
    const uint32_t workgroup = four_step_workgroup(g.precision);
    for (uint32_t r = 0; r < L * f.P / workgroup; ++r) {
        w.open("");
        w.line("uint e = " + u(r * workgroup) + " + tid, k2 = e / " + u(L) + ", row = e % " + u(L) + ";");
        w.line("uint k = pair + " + u(four_step_columns(g)) + " * k2, kp = " + u(g.nphi / 2) +
               " - k, lat = block * " + u(L) + " + row;");
        body();
        w.close();
    }
}

// The forward DFT of every tile row in place, by column_threads invocations each: row c = tid %
// 2L, q = tid / 2L. Stage one: the kStagePoints points q + column_threads j, times W_P^{q k'},
// back to the slots they came from; stage two: for k' of this invocation, the column_threads
// points of slots q' + column_threads k', out to the same slots as k'' (see output_slot).
void emit_column_dft(GlslWriter& w, const Grid& g) {
    const ColumnForm f = column_form();
    const auto ty = codegen::types(g.precision);
    const std::string C(ty.complex);
    const uint32_t L = four_step_latitudes(g.precision);
    codegen::TempNames temps;
    w.line("barrier();");
    w.open("");
    w.line("uint c = tid % " + u(2 * L) + ", q = tid / " + u(2 * L) + ", base = c * " + u(f.row) + ";");
    std::vector<std::string> x(kStagePoints);
    for (uint32_t j = 0; j < kStagePoints; ++j) {
        x[j] = "s" + std::to_string(j);
        w.line(C + " " + x[j] + " = sh[base + q + " + u(f.column_threads * j) + "];");
    }
    const std::vector<std::string> y = codegen::emit_dft(w, x, g.precision, temps);
    // W_P^{q k} as constants chosen by q (1 for q = 0), not loads from the table: 0.2-0.8% faster
    // on the H200 (twenty-seventh run).
    for (uint32_t k = 1; k < kStagePoints; ++k) {
        std::string re = codegen::literal(1.0L, g.precision), im = codegen::literal(0.0L, g.precision);
        for (uint32_t q = 1; q < f.column_threads; ++q) {
            const std::complex<long double> root = unit_root(q * k, f.P);
            re = "(q == " + u(q) + " ? " + codegen::literal(root.real(), g.precision) + " : " + re + ")";
            im = "(q == " + u(q) + " ? " + codegen::literal(root.imag(), g.precision) + " : " + im + ")";
        }
        w.line(y[k] + " = cmul(" + y[k] + ", " + C + "(" + re + ", " + im + "));");
    }
    for (uint32_t k = 0; k < kStagePoints; ++k)
        w.line("sh[base + q + " + u(f.column_threads * k) + "] = " + y[k] + ";");
    w.line("barrier();");
    const uint32_t kPerThread = kStagePoints / f.column_threads;
    for (uint32_t a = 0; a < kPerThread; ++a) {
        w.open("");
        w.line("uint slot = base + " + u(f.column_threads) + " * (q * " + u(kPerThread) + " + " + u(a) +
               ");");
        std::vector<std::string> v(f.column_threads);
        for (uint32_t qq = 0; qq < f.column_threads; ++qq) {
            v[qq] = "t" + std::to_string(qq);
            w.line(C + " " + v[qq] + " = sh[slot + " + u(qq) + "];");
        }
        const std::vector<std::string> z = codegen::emit_dft(w, v, g.precision, temps);
        for (uint32_t kk = 0; kk < f.column_threads; ++kk)
            w.line("sh[slot + " + u(kk) + "] = " + z[kk] + ";");
        w.close();
    }
    w.close();
    w.line("barrier();");
}

}  // namespace

uint32_t four_step_points() { return kPoints; }

bool four_step_applies(const Grid& grid) { return grid.nphi % (4 * four_step_points()) == 0; }

uint64_t four_step_columns(const Grid& grid) { return grid.nphi / 2 / four_step_points(); }

uint64_t four_step_workgroups(const Grid& grid) {
    const uint32_t L = four_step_latitudes(grid.precision);
    return grid.fields * ((grid.nlat + L - 1) / L) * (four_step_columns(grid) / 2);
}

FftDesc four_step_row_desc(const Grid& g, bool synthesis) {
    const ColumnForm f = column_form();
    const uint64_t M = g.nphi / 2, columns = four_step_columns(g);
    return FftDesc::guru({Dim{columns, f.P, f.P}}, {Dim{f.P, 1, 1}, Dim{g.fields * g.nlat, M, M}})
        .with_normalization(synthesis ? Normalization::forward : Normalization::backward)
        .with_precision(g.precision);
}

FftCallbacks four_step_callbacks(const Grid& g, bool synthesis) {
    const uint64_t M = g.nphi / 2;
    FftCallbacks c;
    c.operand = true;
    c.operand_type = g.precision == Precision::f64 ? DataType::complex128 : DataType::complex64;
    if (synthesis) {
        const std::string C(codegen::types(g.precision).complex);
        c.load = C + " w = operand_at(index % " + u(M) + "); return cmul(value, " + C + "(w.x, -w.y));";
    } else {
        c.multiply = true;
        c.multiply_period = M;
    }
    return c;
}

std::vector<std::complex<long double>> four_step_row_factors(const Grid& g) {
    const ColumnForm f = column_form();
    const uint64_t M = g.nphi / 2;
    std::vector<std::complex<long double>> factors(M);
    for (uint64_t k1 = 0; k1 < M / f.P; ++k1)
        for (uint64_t n2 = 0; n2 < f.P; ++n2) factors[k1 * f.P + n2] = unit_root(k1 * n2, M);
    return factors;
}

uint32_t four_step_latitudes(Precision precision) { return kRunBytes / complex_bytes(precision); }

uint32_t four_step_workgroup(Precision precision) {
    const ColumnForm f = column_form();
    return 2 * four_step_latitudes(precision) * f.column_threads;
}

uint32_t four_step_shared_bytes(const Grid& grid) {
    const ColumnForm f = column_form();
    return 2 * four_step_latitudes(grid.precision) * f.row * complex_bytes(grid.precision);
}

Options four_step_row_options(const Options& fft) {
    Options o = fft;
    if (o.columns_per_workgroup == 0) o.columns_per_workgroup = four_step_points();
    return o;
}

bool takes_two_passes(const DeviceCaps& caps, const Grid& g, const StageOptions& o, bool synthesis) {
    const ColumnForm f = column_form();
    if (o.passes == Passes::two && o.fft.real_path == RealPath::full_length)
        throw Error(
            "sht::StageOptions: two passes transform the packed half-length rows; "
            "fft.real_path full_length (the complex path) takes one");
    const bool applies = four_step_applies(g) && g.fields * g.nlat * g.nphi < (uint64_t(1) << 32) &&
                         four_step_shared_bytes(g) <= caps.max_shared_memory_bytes;
    if (o.passes == Passes::two && !applies)
        throw UnsupportedError("sht::FourierStage: two passes need nphi a multiple of " +
                               std::to_string(4 * f.P) + ", fields * nlat * nphi below 2^32 and " +
                               std::to_string(four_step_shared_bytes(g)) +
                               " bytes of shared memory, got nphi " + std::to_string(g.nphi));
    // A radix asked of the planner (the seed's radix-2 and radix-4 kernels) or the complex path
    // selects a variant of the rows' one plan, which automatic keeps.
    if (o.passes == Passes::automatic)
        return applies && o.fft.max_radix == 0 && o.fft.real_path == RealPath::half_length &&
               g.nphi >= (synthesis ? kTwoPassSynthesisFrom : kTwoPassAnalysisFrom);
    return o.passes == Passes::two;
}

std::string generate_four_step_synthesis(const Grid& g) {
    const ColumnForm f = column_form();
    const std::string C(codegen::types(g.precision).complex);
    const uint64_t M = g.nphi / 2;
    const uint32_t L = four_step_latitudes(g.precision);
    GlslWriter w;
    emit_prologue(w, g, true);
    // join (see RealStep::join): Y_k = (X_k + conj X_{M-k}) + i e^{2 pi i k / nphi} (X_k - conj
    // X_{M-k}), from the band-limited spectrum (X_k = 0 for k > mmax, X_M = 0 as M > mmax; X_0
    // real), into point k2 of the tile row. The inverse transform runs as a forward one on
    // conjugates: the rows hold conj(Y_k).
    w.line("uint fm = params.src_offset + field * " + u((g.mmax + 1) * g.nlat) + ";");
    // Mirror pairs (pair > 0): from a = X_k and b = conj X_{M-k}, with s = a + b and
    // d = W_nphi^{-k} (a - b), Y_k = s + i d and Y_{M-k} = conj(s) + i conj(d).
    w.open("if (pair != 0u)");
    for_each_mirror_pair(w, g, [&] {
        w.line("bool live = lat < " + u(g.nlat) + ";");
        w.line(C + " a = live && k <= " + u(g.mmax) + " ? src[fm + k * " + u(g.nlat) + " + lat] : " + C +
               "(0);");
        w.line(C + " b = live && kp <= " + u(g.mmax) + " ? src[fm + kp * " + u(g.nlat) + " + lat] : " + C +
               "(0);");
        w.line("b.y = -b.y;");
        w.line(C + " wk = tw[k];");
        w.line(C + " s = a + b, d = cmul(" + C + "(wk.x, -wk.y), a - b);");
        w.line("sh[row * " + u(f.row) + " + k2] = " + C + "(s.x - d.y, -s.y - d.x);");
        w.line("sh[(" + u(L) + " + row) * " + u(f.row) + " + " + u(f.P - 1) + " - k2] = " + C +
               "(s.x + d.y, s.y - d.x);");
    });
    w.close();
    // Pair 0 (columns 0 and C / 2, each its own mirror): element by element.
    w.open("else");
    for_each_m_element(w, g, [&] {
        w.line("uint kp = " + u(M) + " - k;");
        w.line("bool live = lat < " + u(g.nlat) + ";");
        w.line(C + " a = live && k <= " + u(g.mmax) + " ? src[fm + k * " + u(g.nlat) + " + lat] : " + C +
               "(0);");
        w.line("if (k == 0u) a.y = 0.0;");
        w.line(C + " b = live && kp <= " + u(g.mmax) + " ? src[fm + kp * " + u(g.nlat) + " + lat] : " + C +
               "(0);");
        w.line("b.y = -b.y;");
        w.line(C + " wk = tw[k];");
        w.line(C + " d = cmul(" + C + "(wk.x, -wk.y), a - b);");
        w.line(C + " y = a + b + " + C + "(-d.y, d.x);");
        w.line("sh[c * " + u(f.row) + " + k2] = " + C + "(y.x, -y.y);");
    });
    w.close();
    emit_column_dft(w, g);
    // conj of the forward transform of conj(Y): the column's inverse transform, out as runs.
    for_each_run_element(w, g, [&] {
        w.line(C + " o = sh[rho * " + u(f.row) + " + " + output_slot(f, "n") + "];");
        w.line("if (lat < " + u(g.nlat) + ") dst[params.dst_offset + at] = " + C + "(o.x, -o.y);");
    });
    w.close();
    return w.str();
}

std::string generate_four_step_analysis(const Grid& g) {
    const ColumnForm f = column_form();
    const std::string C(codegen::types(g.precision).complex);
    const uint32_t L = four_step_latitudes(g.precision);
    GlslWriter w;
    emit_prologue(w, g, false);
    for_each_run_element(w, g, [&] {
        w.line("sh[rho * " + u(f.row) + " + n] = lat < " + u(g.nlat) +
               " ? src[params.src_offset + at] : " + C + "(0);");
    });
    emit_column_dft(w, g);
    // split (see RealStep::split): X_k = e + t, e = (a + b) / 2, t = W_nphi^k (a - b) / 2i,
    // a = Z_k, b = conj Z_{M-k}; only k <= mmax are stored. Z_{M-k} is point P - 1 - k2 of
    // column C - col (the other half of the tile), or for column 0 point (P - k2) mod P of itself.
    w.line("uint fm = params.dst_offset + field * " + u((g.mmax + 1) * g.nlat) + ";");
    // Mirror pairs (pair > 0): X_k = e + t and X_{M-k} = conj(e - t).
    w.open("if (pair != 0u)");
    for_each_mirror_pair(w, g, [&] {
        w.open("if (lat < " + u(g.nlat) + ")");
        // Point k2 lies at slot s after the column DFT, and P - 1 - k2 at P - 1 - s.
        w.line("uint s = " + output_slot(f, "k2") + ";");
        w.line(C + " a = sh[row * " + u(f.row) + " + s];");
        w.line(C + " b = sh[(" + u(L) + " + row) * " + u(f.row) + " + " + u(f.P - 1) + " - s];");
        w.line("b.y = -b.y;");
        w.line(C + " e = (a + b) * 0.5, o = (a - b) * 0.5;");
        w.line(C + " t = cmul(tw[k], " + C + "(o.y, -o.x));");
        w.line("if (k <= " + u(g.mmax) + ") dst[fm + k * " + u(g.nlat) + " + lat] = e + t;");
        w.line("if (kp <= " + u(g.mmax) + ") dst[fm + kp * " + u(g.nlat) + " + lat] = " + C +
               "(e.x - t.x, t.y - e.y);");
        w.close();
    });
    w.close();
    // Pair 0: element by element, the mirror in the same column.
    w.open("else");
    for_each_m_element(w, g, [&] {
        w.open("if (lat < " + u(g.nlat) + " && k <= " + u(g.mmax) + ")");
        w.line("uint km = col == 0u ? (" + u(f.P) + " - k2) % " + u(f.P) + " : " + u(f.P - 1) + " - k2;");
        w.line(C + " a = sh[c * " + u(f.row) + " + " + output_slot(f, "k2") + "];");
        w.line(C + " b = sh[c * " + u(f.row) + " + " + output_slot(f, "km") + "];");
        w.line("b.y = -b.y;");
        w.line(C + " e = (a + b) * 0.5, o = (a - b) * 0.5;");
        w.line("dst[fm + k * " + u(g.nlat) + " + lat] = e + cmul(tw[k], " + C + "(o.y, -o.x));");
        w.close();
    });
    w.close();
    w.close();
    return w.str();
}

}  // namespace twiddle::sht
