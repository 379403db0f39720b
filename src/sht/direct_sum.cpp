#include "sht/direct_sum.hpp"

#include "codegen/glsl_writer.hpp"

namespace twiddle::sht {

namespace {

using codegen::GlslWriter;

std::string u(uint64_t v) { return std::to_string(v) + "u"; }

// Terms summed in registers before they join the running sum: rounding then grows with
// terms / 32 + 32 rather than with the number of terms.
constexpr uint64_t kTermBlock = 32;

void emit_interface(GlslWriter& w, const Grid& grid, bool synthesis) {
    const auto ty = codegen::types(grid.precision);
    const std::string C(ty.complex), R(ty.real);
    w.line("#version 450");
    w.line(std::string("// twiddle sht direct ") + (synthesis ? "synthesis" : "analysis") + ": nlat " +
           std::to_string(grid.nlat) + ", nphi " + std::to_string(grid.nphi) + ", mmax " +
           std::to_string(grid.mmax) + ", fields " + std::to_string(grid.fields));
    w.line("layout(local_size_x = " + std::to_string(kDirectWorkgroup) + ") in;");
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { " + (synthesis ? C : R) +
           " src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { " + (synthesis ? R : C) +
           " dst[]; };");
    w.line("layout(std430, set = 0, binding = 2) readonly buffer Table { " + C + " tw[]; };");
    w.line("layout(push_constant) uniform Params { uint src_offset; uint dst_offset; } params;");
}

// The sum over `count` terms, in blocks of kTermBlock written out (lavapipe ends a shader's loops
// after 65535 iterations in all, so the loop runs over blocks): `term` is the GLSL of one term,
// which adds to `part` and advances the exponent.
void emit_sum(GlslWriter& w, const std::string& R, uint64_t count, const std::string& term) {
    const uint64_t full = count / kTermBlock, rest = count % kTermBlock;
    if (full > 0) {
        w.open("for (uint block = 0u; block < " + u(full) + "; ++block)");
        w.line(R + " part = " + R + "(0);");
        for (uint64_t t = 0; t < kTermBlock; ++t) w.line(term);
        w.line("sum += part;");
        w.close();
    }
    if (rest > 0) {
        w.open("");
        w.line(R + " part = " + R + "(0);");
        for (uint64_t t = 0; t < rest; ++t) w.line(term);
        w.line("sum += part;");
        w.close();
    }
}

}  // namespace

uint64_t direct_blocks(const Grid& grid, bool synthesis) {
    const uint64_t outputs = synthesis ? grid.nphi : grid.mmax + 1;
    return (outputs + kDirectWorkgroup - 1) / kDirectWorkgroup;
}

// x_j = Re F_0 + 2 sum_{m=1}^{mmax} Re(F_m e^{+2 pi i m j / nphi}), with e^{+i theta} the conjugate
// of the table's W^e, e = m j mod nphi kept exactly in integers.
std::string generate_direct_synthesis(const Grid& grid) {
    const auto ty = codegen::types(grid.precision);
    const std::string C(ty.complex), R(ty.real);
    GlslWriter w;
    emit_interface(w, grid, true);
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    const uint64_t blocks = direct_blocks(grid, true);
    w.line("uint row = group / " + u(blocks) + ", j = group % " + u(blocks) + " * " + u(kDirectWorkgroup) +
           " + gl_LocalInvocationID.x;");
    w.line("if (row >= " + u(grid.fields * grid.nlat) + " || j >= " + u(grid.nphi) + ") return;");
    w.line("uint at = params.src_offset + row / " + u(grid.nlat) + " * " + u((grid.mmax + 1) * grid.nlat) +
           " + row % " + u(grid.nlat) + ";  // F_0 of the row");
    w.line(R + " sum = " + R + "(0);");
    w.line("uint e = 0u;");
    w.line("uint f = at;");
    emit_sum(w, R, grid.mmax,
             "{ e += j; e = e >= " + u(grid.nphi) + " ? e - " + u(grid.nphi) + " : e; f += " + u(grid.nlat) +
                 "; " + C + " F = src[f], W = tw[e]; part += F.x * W.x + F.y * W.y; }");
    w.line("dst[params.dst_offset + row * " + u(grid.nphi) + " + j] = src[at].x + " + R + "(2) * sum;");
    w.close();
    return w.str();
}

// F_m = sum_j x_j W^{m j mod nphi}.
std::string generate_direct_analysis(const Grid& grid) {
    const auto ty = codegen::types(grid.precision);
    const std::string C(ty.complex), R(ty.real);
    GlslWriter w;
    emit_interface(w, grid, false);
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    const uint64_t blocks = direct_blocks(grid, false);
    w.line("uint row = group / " + u(blocks) + ", m = group % " + u(blocks) + " * " + u(kDirectWorkgroup) +
           " + gl_LocalInvocationID.x;");
    w.line("if (row >= " + u(grid.fields * grid.nlat) + " || m > " + u(grid.mmax) + ") return;");
    w.line("uint x = params.src_offset + row * " + u(grid.nphi) + ";");
    w.line(C + " sum = " + C + "(0);");
    w.line("uint e = 0u;");
    emit_sum(w, C, grid.nphi,
             "{ part += src[x] * tw[e]; x += 1u; e += m; e = e >= " + u(grid.nphi) + " ? e - " +
                 u(grid.nphi) + " : e; }");
    w.line("dst[params.dst_offset + row / " + u(grid.nlat) + " * " + u((grid.mmax + 1) * grid.nlat) +
           " + m * " + u(grid.nlat) + " + row % " + u(grid.nlat) + "] = sum;");
    w.close();
    return w.str();
}

}  // namespace twiddle::sht
