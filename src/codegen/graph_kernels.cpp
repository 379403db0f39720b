#include "codegen/graph_kernels.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "codegen/glsl_writer.hpp"

namespace twiddle::codegen {

namespace {

std::string u(uint64_t v) { return std::to_string(v) + "u"; }

std::string glsl_type(DataType t) {
    const Types ty = types(precision_of(t));
    return std::string(is_complex(t) ? ty.complex : ty.real);
}

void emit_header(GlslWriter& w, std::string_view what) {
    w.line("#version 450");
    w.line(std::string("// twiddle graph: ") + std::string(what));
    w.line("layout(local_size_x = " + std::to_string(kGraphWorkgroup) + ") in;");
}

// The invocation's element, and the return of those past `count`.
void emit_index(GlslWriter& w, const std::string& count) {
    w.line("uint i = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * " + u(kGraphWorkgroup) +
           " + gl_LocalInvocationID.x;");
    w.line("if (i >= " + count + ") return;");
}

// log10 of a double as IEEE's log10 gives it: -inf at 0, NaN below 0 and for NaN, +inf at +inf.
// GLSL has no double-precision logarithm: x = m 2^e with m in [1/sqrt 2, sqrt 2), and
// ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, whose series to s^21 leaves a relative
// error below 1e-18. Subnormal x is scaled by 2^54 first (frexp is undefined for it).
void emit_log10_f64(GlslWriter& w) {
    w.open("double log10_f64(double x)");
    w.line("const double inf = packDouble2x32(uvec2(0u, 0x7ff00000u));");
    w.line("if (!(x > 0.0lf)) return x == 0.0lf ? -inf : packDouble2x32(uvec2(0u, 0x7ff80000u));");
    w.line("if (x == inf) return x;");
    w.line("int bias = 0;");
    w.open("if (x < " +
           literal(static_cast<long double>(std::numeric_limits<double>::min()), Precision::f64) + ")");
    w.line("x *= " + literal(std::ldexp(1.0L, 54), Precision::f64) + ";");
    w.line("bias = -54;");
    w.close();
    w.line("int e;");
    w.line("double m = frexp(x, e);");
    w.line("e += bias;");
    w.open("if (m < " + literal(std::sqrt(0.5L), Precision::f64) + ")");
    w.line("m *= 2.0lf;");
    w.line("e -= 1;");
    w.close();
    w.line("double s = (m - 1.0lf) / (m + 1.0lf);");
    w.line("double s2 = s * s;");
    std::string poly = literal(1.0L / 21, Precision::f64);
    for (int k = 19; k >= 1; k -= 2) poly = "(" + poly + ") * s2 + " + literal(1.0L / k, Precision::f64);
    w.line("double p = " + poly + ";");
    w.line("return (double(e) * " + literal(std::log(2.0L), Precision::f64) + " + 2.0lf * s * p) * " +
           literal(1.0L / std::log(10.0L), Precision::f64) + ";");
    w.close();
}

// log10 of a float with the same values at 0, below 0 and NaN (GLSL leaves log2 undefined there).
void emit_log10_f32(GlslWriter& w) {
    w.open("float log10_f32(float x)");
    w.line("if (!(x > 0.0)) return x == 0.0 ? uintBitsToFloat(0xff800000u) : uintBitsToFloat(0x7fc00000u);");
    w.line("return log2(x) * " + literal(std::log10(2.0L), Precision::f32) + ";");
    w.close();
}

}  // namespace

uint32_t elementwise_bindings(const ElementwiseKernel& k) { return k.op == ElementwiseOp::multiply ? 3 : 2; }

std::vector<uint8_t> pack_elementwise_params(Precision precision, const ElementwiseParams& p) {
    const uint32_t words[6] = {p.src_offset, p.dst_offset, p.operand_offset, p.count, p.phase, p.period};
    std::vector<uint8_t> out(precision == Precision::f32 ? 28 : 32);
    std::memcpy(out.data(), words, sizeof words);
    if (precision == Precision::f32) {
        const float f = static_cast<float>(p.factor);
        std::memcpy(out.data() + 24, &f, 4);
    } else {
        std::memcpy(out.data() + 24, &p.factor, 8);  // std430 aligns the double to 8: offset 24
    }
    return out;
}

std::string generate_elementwise_kernel(const ElementwiseKernel& k) {
    const Precision precision = precision_of(k.type);
    const Types ty = types(precision);
    const std::string R(ty.real);
    std::string src_type = glsl_type(k.type), dst_type = src_type;
    if (k.op == ElementwiseOp::magnitude_squared) dst_type = R;
    if (k.op == ElementwiseOp::copy) src_type = dst_type = "uint";

    GlslWriter w;
    static const char* names[] = {"multiply", "scale", "magnitude_squared", "log_scale", "copy"};
    emit_header(w, std::string(names[static_cast<int>(k.op)]) + " " + std::string(to_string(k.type)));
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { " + src_type + " src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { " + dst_type + " dst[]; };");
    if (k.op == ElementwiseOp::multiply)
        w.line("layout(std430, set = 0, binding = 2) readonly buffer Operand { " + glsl_type(k.operand_type) +
               " operand[]; };");
    w.line(
        "layout(push_constant) uniform Params { uint src_offset; uint dst_offset; uint operand_offset; "
        "uint count; uint phase; uint period; " +
        R + " factor; } params;");
    if (k.op == ElementwiseOp::log_scale) (precision == Precision::f64 ? emit_log10_f64 : emit_log10_f32)(w);
    w.open("void main()");
    emit_index(w, "params.count");
    const std::string x = "src[params.src_offset + i]";
    std::string value;
    switch (k.op) {
    case ElementwiseOp::multiply: {
        const std::string j = k.periodic ? "(params.phase + i) % params.period" : "i";
        w.line(src_type + " a = " + x + ";");
        w.line(glsl_type(k.operand_type) + " b = operand[params.operand_offset + " + j + "];");
        if (!is_complex(k.type) || !is_complex(k.operand_type)) {
            value = "a * b";
        } else {
            if (k.conjugate) w.line("b.y = -b.y;");
            value = src_type + "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x)";
        }
        break;
    }
    case ElementwiseOp::scale: value = x + " * params.factor"; break;
    case ElementwiseOp::magnitude_squared:
        w.line(src_type + " a = " + x + ";");
        value = "a.x * a.x + a.y * a.y";
        break;
    case ElementwiseOp::log_scale:
        // Not max(): GLSL leaves its result undefined for NaN.
        w.line(src_type + " v = " + x + ";");
        value = std::string(precision == Precision::f64 ? "log10_f64" : "log10_f32") +
                "(v < params.factor ? params.factor : v)";
        break;
    case ElementwiseOp::copy: value = x; break;
    }
    w.line("dst[params.dst_offset + i] = " + value + ";");
    w.close();
    return w.str();
}

std::vector<uint8_t> pack_layout_params(uint32_t src_offset, uint32_t dst_offset, uint32_t count) {
    const uint32_t words[3] = {src_offset, dst_offset, count};
    std::vector<uint8_t> out(sizeof words);
    std::memcpy(out.data(), words, sizeof words);
    return out;
}

std::string generate_layout_kernel(const LayoutKernel& k) {
    GlslWriter w;
    std::string shapes;
    for (size_t d = 0; d < k.out_shape.size(); ++d)
        shapes += (d ? "x" : "") + std::to_string(k.in_shape[d]) + "->" + std::to_string(k.out_shape[d]) +
                  (k.shift[d] ? " shift " + std::to_string(k.shift[d]) : "");
    emit_header(w, "layout " + shapes);
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { uint src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };");
    w.line("layout(push_constant) uniform Params { uint src_offset; uint dst_offset; uint count; } params;");
    w.open("void main()");
    emit_index(w, "params.count");
    w.line("uint rest = i;");
    w.line("uint s = 0u;");
    w.line("bool inside = true;");
    uint64_t in_stride = 1;
    for (size_t d = k.out_shape.size(); d-- > 0;) {
        const uint64_t n = k.out_shape[d];
        const std::string o = "o" + std::to_string(d);
        w.line("uint " + o + " = rest % " + u(n) + ";");
        w.line("rest /= " + u(n) + ";");
        // (o - shift) mod n as (o + n - shift mod n) mod n, in unsigned arithmetic.
        const int64_t sn = static_cast<int64_t>(n);
        const uint64_t add = static_cast<uint64_t>(((-k.shift[d]) % sn + sn) % sn);
        if (add) w.line(o + " = (" + o + " + " + u(add) + ") % " + u(n) + ";");
        if (k.in_shape[d] < n) w.line("inside = inside && " + o + " < " + u(k.in_shape[d]) + ";");
        w.line("s += " + o + " * " + u(in_stride) + ";");
        in_stride *= k.in_shape[d];
    }
    const std::string W = u(k.element_words);
    w.line("uint from = params.src_offset + s * " + W + ";");
    w.line("uint to = params.dst_offset + i * " + W + ";");
    // Reads only inside the input: a ternary may evaluate both sides.
    w.open("if (inside)");
    for (uint32_t c = 0; c < k.element_words; ++c)
        w.line("dst[to + " + u(c) + "] = src[from + " + u(c) + "];");
    w.close();
    w.open("else");
    for (uint32_t c = 0; c < k.element_words; ++c) w.line("dst[to + " + u(c) + "] = 0u;");
    w.close();
    w.close();
    return w.str();
}

}  // namespace twiddle::codegen
