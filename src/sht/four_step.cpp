#include "sht/four_step.hpp"

#include <vector>

#include "codegen/butterfly.hpp"
#include "codegen/glsl_writer.hpp"

namespace twiddle::sht {

namespace {

using codegen::GlslWriter;

std::string u(uint64_t v) { return std::to_string(v) + "u"; }

constexpr uint32_t P = kFourStepPoints, L = kFourStepLatitudes;
// Shared rows of P values padded by one, so that both the invocations' rows and the runs across
// them are free of bank conflicts.
constexpr uint32_t kRow = P + 1;

// Interface, shared memory (a complex array, or a real one for one component at a time), and the
// workgroup's place: `field`, its latitude `lat` (live when below nlat), its column `col`
// (columns c and C - c in the two halves of the workgroup; the pair 0 takes 0 and C / 2, each
// its own mirror), and `col_of(pair, side)` for either half's.
void emit_prologue(GlslWriter& w, const Grid& g, bool synthesis, bool by_component) {
    const auto ty = codegen::types(g.precision);
    const std::string C(ty.complex), R(ty.real);
    const uint64_t columns = four_step_columns(g), pairs = columns / 2;
    const uint64_t blocks = (g.nlat + L - 1) / L;
    w.line("#version 450");
    w.line(std::string("// twiddle sht four-step ") + (synthesis ? "synthesis" : "analysis") + ": nlat " +
           std::to_string(g.nlat) + ", nphi " + std::to_string(g.nphi) + ", mmax " + std::to_string(g.mmax) +
           ", fields " + std::to_string(g.fields) + ", " + std::to_string(columns) + " columns of " +
           std::to_string(P) + " points");
    w.line("layout(local_size_x = " + std::to_string(kFourStepWorkgroup) + ") in;");
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { " + C + " src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { " + C + " dst[]; };");
    w.line("layout(std430, set = 0, binding = 2) readonly buffer Table { " + C + " tw[]; };");
    w.line("layout(push_constant) uniform Params { uint src_offset; uint dst_offset; } params;");
    w.line("shared " + (by_component ? R : C) + " sh[" + std::to_string(kFourStepWorkgroup * kRow) + "];");
    w.line(C + " cmul(" + C + " a, " + C + " b) { return " + C +
           "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }");
    w.line("uint col_of(uint pair, uint side) {");
    w.line("    return pair == 0u ? side * " + u(columns / 2) + " : (side == 0u ? pair : " + u(columns) +
           " - pair);");
    w.line("}");
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("if (group >= " + u(g.fields * blocks * pairs) + ") return;");
    w.line("uint pair = group % " + u(pairs) + ", block = group / " + u(pairs) + " % " + u(blocks) +
           ", field = group / " + u(pairs * blocks) + ";");
    w.line("uint tid = gl_LocalInvocationID.x, side = tid / " + u(L) + ";");
    w.line("uint lat = block * " + u(L) + " + tid % " + u(L) + ";");
    w.line("bool live = lat < " + u(g.nlat) + ";");
    w.line("uint col = col_of(pair, side);");
}

// The tile that the workgroup moves through shared memory as runs: its element e = r * workgroup
// + tid (r < P) is point n_r = e % P of the (latitude, column) row rho_r = e / P, at at_r in the
// scratch rows of M points (valid where lat_r < nlat).
void emit_tile_elements(GlslWriter& w, const Grid& g) {
    const uint64_t M = g.nphi / 2;
    for (uint32_t r = 0; r < P; ++r) {
        const std::string x = std::to_string(r), e = "(" + u(r * kFourStepWorkgroup) + " + tid)";
        w.line("uint rho" + x + " = " + e + " / " + u(P) + ", n" + x + " = " + e + " % " + u(P) + ";");
        w.line("uint lat" + x + " = block * " + u(L) + " + rho" + x + " % " + u(L) + ";");
        w.line("uint at" + x + " = (field * " + u(g.nlat) + " + lat" + x + ") * " + u(M) +
               " + col_of(pair, rho" + x + " / " + u(L) + ") * " + u(P) + " + n" + x + ";");
    }
}

// One exchange through shared memory: every `writes` (index, value), then every `reads` (target
// declared before, index); one component at a time where shared memory holds reals. `after` an
// earlier exchange, a barrier first.
struct Exchange {
    GlslWriter& w;
    bool by_component;
    void operator()(const std::vector<std::pair<std::string, std::string>>& writes,
                    const std::vector<std::pair<std::string, std::string>>& reads, bool after) const {
        const std::vector<std::string> parts =
            by_component ? std::vector<std::string>{".x", ".y"} : std::vector<std::string>{""};
        for (size_t c = 0; c < parts.size(); ++c) {
            if (after || c > 0) w.line("barrier();");
            for (const auto& [index, value] : writes)
                w.line("sh[" + index + "] = (" + value + ")" + parts[c] + ";");
            w.line("barrier();");
            for (const auto& [target, index] : reads) w.line(target + parts[c] + " = sh[" + index + "];");
        }
    }
};

std::string row_index(const std::string& row, uint32_t n) { return row + " * " + u(kRow) + " + " + u(n); }

}  // namespace

bool four_step_applies(const Grid& grid) { return grid.nphi % (4 * P) == 0; }

uint64_t four_step_columns(const Grid& grid) { return grid.nphi / 2 / P; }

uint64_t four_step_workgroups(const Grid& grid) {
    return grid.fields * ((grid.nlat + L - 1) / L) * (four_step_columns(grid) / 2);
}

uint32_t four_step_shared_bytes(const Grid& grid, bool by_component) {
    const uint32_t bytes = by_component ? real_bytes(grid.precision) : complex_bytes(grid.precision);
    return kFourStepWorkgroup * kRow * bytes;
}

std::string generate_four_step_synthesis(const Grid& g, bool by_component) {
    const auto ty = codegen::types(g.precision);
    const std::string C(ty.complex);
    const uint64_t M = g.nphi / 2, columns = four_step_columns(g);
    GlslWriter w;
    emit_prologue(w, g, true, by_component);
    // join (see RealStep::join): Y_k = (X_k + conj X_{M-k}) + i e^{2 pi i k / nphi} (X_k - conj
    // X_{M-k}), from the band-limited spectrum (X_k = 0 for k > mmax, X_M = 0 as M > mmax; X_0
    // real), for the column's points k = col + columns k2.
    w.line("uint fm = params.src_offset + field * " + u((g.mmax + 1) * g.nlat) + " + lat;");
    std::vector<std::string> y(P);
    for (uint32_t k2 = 0; k2 < P; ++k2) {
        y[k2] = "y" + std::to_string(k2);
        w.line(C + " " + y[k2] + ";");
        w.open("");
        w.line("uint k = col + " + u(k2 * columns) + ", kp = " + u(M) + " - k;");
        w.line(C + " a = live && k <= " + u(g.mmax) + " ? src[fm + k * " + u(g.nlat) + "] : " + C + "(0);");
        if (k2 == 0) w.line("if (k == 0u) a.y = 0.0;");
        w.line(C + " b = live && kp <= " + u(g.mmax) + " ? src[fm + kp * " + u(g.nlat) + "] : " + C + "(0);");
        w.line("b.y = -b.y;");
        w.line(C + " wk = tw[k];");
        w.line(C + " d = cmul(" + C + "(wk.x, -wk.y), a - b);");
        // The inverse transform below runs as a forward one on conjugates: hold conj(Y_k).
        w.line(y[k2] + " = a + b + " + C + "(-d.y, d.x);");
        w.line(y[k2] + ".y = -" + y[k2] + ".y;");
        w.close();
    }
    codegen::TempNames temps;
    const std::vector<std::string> t = codegen::emit_dft(w, y, g.precision, temps);
    // conj of the forward transform of conj(Y): the column's inverse transform, point n2, through
    // this invocation's shared row, then out as runs of P points of one (latitude, column) row.
    emit_tile_elements(w, g);
    std::vector<std::pair<std::string, std::string>> writes, reads;
    for (uint32_t n2 = 0; n2 < P; ++n2)
        writes.push_back({row_index("tid", n2), C + "(" + t[n2] + ".x, -" + t[n2] + ".y)"});
    for (uint32_t r = 0; r < P; ++r) {
        const std::string x = std::to_string(r);
        w.line(C + " o" + x + ";");
        reads.push_back({"o" + x, "rho" + x + " * " + u(kRow) + " + n" + x});
    }
    Exchange{w, by_component}(writes, reads, false);
    for (uint32_t r = 0; r < P; ++r) {
        const std::string x = std::to_string(r);
        w.line("if (lat" + x + " < " + u(g.nlat) + ") dst[params.dst_offset + at" + x + "] = o" + x + ";");
    }
    w.close();
    return w.str();
}

std::string generate_four_step_analysis(const Grid& g, bool by_component) {
    const auto ty = codegen::types(g.precision);
    const std::string C(ty.complex);
    const uint64_t columns = four_step_columns(g);
    GlslWriter w;
    emit_prologue(w, g, false, by_component);
    const Exchange exchange{w, by_component};
    // The tile's rows of P points in as runs, then this invocation's row.
    emit_tile_elements(w, g);
    std::vector<std::pair<std::string, std::string>> writes, reads;
    std::vector<std::string> x(P);
    for (uint32_t r = 0; r < P; ++r) {
        const std::string i = std::to_string(r);
        w.line(C + " g" + i + " = lat" + i + " < " + u(g.nlat) + " ? src[params.src_offset + at" + i +
               "] : " + C + "(0);");
        writes.push_back({"rho" + i + " * " + u(kRow) + " + n" + i, "g" + i});
        x[r] = "x" + i;
        w.line(C + " " + x[r] + ";");
        reads.push_back({x[r], row_index("tid", r)});
    }
    exchange(writes, reads, false);
    codegen::TempNames temps;
    const std::vector<std::string> z = codegen::emit_dft(w, x, g.precision, temps);
    // Z_k for k = col + columns k2; its mirror Z_{M-k} is point P - 1 - k2 of column C - col (the
    // other half of the workgroup), or for column 0 point (P - k2) mod P of itself.
    w.line("uint mirror = pair == 0u ? tid : tid ^ " + u(L) + ";");
    writes.clear();
    reads.clear();
    for (uint32_t k2 = 0; k2 < P; ++k2) {
        const std::string b = "zm" + std::to_string(k2);
        w.line(C + " " + b + ";");
        writes.push_back({row_index("tid", k2), z[k2]});
        reads.push_back(
            {b, "mirror * " + u(kRow) + " + (col == 0u ? " + u((P - k2) % P) + " : " + u(P - 1 - k2) + ")"});
    }
    exchange(writes, reads, true);
    w.line("uint fm = params.dst_offset + field * " + u((g.mmax + 1) * g.nlat) + " + lat;");
    // split (see RealStep::split): X_k = e + t, e = (a + b) / 2, t = W_nphi^k (a - b) / 2i,
    // a = Z_k, b = conj Z_{M-k}; only k <= mmax are stored.
    for (uint32_t k2 = 0; k2 < P; ++k2) {
        w.open("");
        w.line("uint k = col + " + u(k2 * columns) + ";");
        w.open("if (live && k <= " + u(g.mmax) + ")");
        w.line(C + " a = " + z[k2] + ", b = " + C + "(zm" + std::to_string(k2) + ".x, -zm" +
               std::to_string(k2) + ".y);");
        w.line(C + " e = (a + b) * 0.5, o = (a - b) * 0.5;");
        w.line("dst[fm + k * " + u(g.nlat) + "] = e + cmul(tw[k], " + C + "(o.y, -o.x));");
        w.close();
        w.close();
    }
    w.close();
    return w.str();
}

}  // namespace twiddle::sht
