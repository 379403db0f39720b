#include "codegen/pass_kernel.hpp"

#include <cstring>
#include <stdexcept>

#include "codegen/butterfly.hpp"
#include "codegen/glsl_writer.hpp"

namespace twiddle::codegen {

namespace {

std::string u(uint64_t v) { return std::to_string(v) + "u"; }

// Shared-memory traffic of one kernel. Each exchange writes values, waits for the whole
// workgroup, and reads them back; a barrier goes before the next write only if reads are pending.
class SharedExchange {
public:
    SharedExchange(GlslWriter& w, const PassKernel& k)
        : w_(w), rounds_(k.exchange_rounds), type_(types(k.precision).complex) {}

    struct Move {
        std::string value;    // register written (for writes) or assigned (for reads)
        std::string address;  // unpadded shared index expression
    };

    void operator()(const std::vector<Move>& writes, const std::vector<Move>& reads) {
        static const char* comp[] = {"x", "y"};
        for (uint32_t round = 0; round < rounds_; ++round) {
            if (pending_reads_) w_.line("barrier();");
            for (const Move& m : writes) {
                const std::string a = "pad(" + m.address + ")";
                if (rounds_ == 1) {
                    w_.line("sh0[" + a + "] = " + m.value + ".x;");
                    w_.line("sh1[" + a + "] = " + m.value + ".y;");
                } else {
                    w_.line("sh0[" + a + "] = " + m.value + "." + comp[round] + ";");
                }
            }
            w_.line("barrier();");
            for (const Move& m : reads) {
                const std::string a = "pad(" + m.address + ")";
                if (rounds_ == 1)
                    w_.line(m.value + " = " + type_ + "(sh0[" + a + "], sh1[" + a + "]);");
                else
                    w_.line(m.value + "." + comp[round] + " = sh0[" + a + "];");
            }
            pending_reads_ = true;
        }
    }

private:
    GlslWriter& w_;
    uint32_t rounds_;
    bool pending_reads_ = false;
    std::string type_;
};

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

std::string generate_pass_kernel(const PassKernel& k) {
    const Types ty = types(k.precision);
    const std::string C(ty.complex), Rl(ty.real);
    const uint32_t N = k.length, R = k.radix, T = N / R, S = k.span;
    const uint32_t P = k.points_per_thread, TPC = R / P, B = k.columns_per_workgroup;
    const uint32_t WG = k.workgroup_size;
    if (WG != B * TPC) throw std::logic_error("pass kernel: workgroup size is not columns * threads");

    GlslWriter w;
    TempNames temps;
    w.line("#version 450");
    w.line("// twiddle pass: length " + std::to_string(N) + ", radix " + std::to_string(R) + ", span " +
           std::to_string(S) + ", " + std::to_string(P) + " points per invocation, " + std::to_string(B) +
           " columns per workgroup");
    w.line("layout(local_size_x = " + std::to_string(WG) + ") in;");
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { " + C + " src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { " + C + " dst[]; };");
    w.line("layout(std430, set = 0, binding = 2) readonly buffer Twiddles { " + C + " tw[]; };");
    w.line("layout(push_constant) uniform Params { uint src_offset; uint dst_offset; uint columns; " + Rl +
           " load_sign; " + Rl + " store_re; " + Rl + " store_im; } params;");
    const bool shared = k.shared_bytes > 0;
    if (shared) {
        const uint32_t words =
            k.shared_bytes / (k.precision == Precision::f32 ? 4 : 8) / (k.exchange_rounds == 1 ? 2 : 1);
        w.line("shared " + Rl + " sh0[" + std::to_string(words) + "];");
        if (k.exchange_rounds == 1) w.line("shared " + Rl + " sh1[" + std::to_string(words) + "];");
        w.line("uint pad(uint a) { return a + (a >> 5u); }");
    }
    w.line(C + " cmul(" + C + " a, " + C + " b) { return " + C +
           "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }");

    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("uint tid = gl_LocalInvocationID.x;");
    if (k.points_contiguous) {
        w.line("uint lc = tid / " + u(TPC) + ";  // column within the workgroup");
        w.line("uint i = tid % " + u(TPC) + ";   // invocation within the column");
    } else {
        w.line("uint lc = tid % " + u(B) + ";  // column within the workgroup");
        w.line("uint i = tid / " + u(B) + ";   // invocation within the column");
    }
    w.line("uint col = group * " + u(B) + " + lc;");
    w.line("bool live = col < params.columns;");
    if (T == 1) {
        w.line("uint b = col;");
        w.line("uint t = 0u;");
    } else {
        w.line("uint b = col / " + u(T) + ";");
        w.line("uint t = col % " + u(T) + ";");
    }
    w.line(S > 1 ? "uint jj = t % " + u(S) + ";" : "uint jj = 0u;");
    w.line("uint src_base = params.src_offset + b * " + u(N) + " + t;");
    w.line("uint dst_base = params.dst_offset + b * " + u(N) + " + (t - jj) * " + u(R) + " + jj;");

    // Shared index of point `idx` of the workgroup's column lc.
    auto shared_index = [&](const std::string& idx) {
        return k.points_contiguous ? "lc * " + u(R) + " + " + idx : "(" + idx + ") * " + u(B) + " + lc";
    };

    std::vector<std::string> v(P);
    for (uint32_t r = 0; r < P; ++r) {
        v[r] = "v" + std::to_string(r);
        w.line(C + " " + v[r] + " = " + C + "(0);");
    }

    SharedExchange exchange(w, k);
    // A staged tile: the workgroup's columns first .. first + B - 1, which are contiguous runs of
    // R points when staging is chosen; `tile` counts the points of its live columns.
    const std::string tile_index = "lc * " + u(R) + " + i + ";
    if (k.staged_load || k.staged_store) {
        w.line("uint first = group * " + u(B) + ";");
        w.line("uint tile = first < params.columns ? min(" + u(B) + ", params.columns - first) * " + u(R) +
               " : 0u;");
        w.line("uint tile_base = (first / " + u(T) + ") * " + u(N) + " + (first % " + u(T) + ") * " + u(R) +
               ";");
    }

    // Load point i + r * TPC of the column into v[r].
    if (k.staged_load) {
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < P; ++r) {
            const std::string e = "tid + " + u(r * WG), g = "g" + std::to_string(r);
            w.line(C + " " + g + " = " + e + " < tile ? src[params.src_offset + tile_base + " + e +
                   "] : " + C + "(0);");
            writes.push_back({g, e});
            reads.push_back({v[r], tile_index + u(r * TPC)});
        }
        exchange(writes, reads);
    } else {
        w.open("if (live)");
        for (uint32_t r = 0; r < P; ++r)
            w.line(v[r] + " = src[src_base + (i + " + u(r * TPC) + ") * " + u(T) + "];");
        w.close();
    }
    for (uint32_t r = 0; r < P; ++r) w.line(v[r] + ".y *= params.load_sign;");

    // Pass twiddles W_{S R}^{jj * point} (see PassKernel::lane_columns).
    if (S > 1) {
        const uint32_t mask = (1u << k.fine_bits) - 1;
        w.line("uint j_lo = jj % " + u(k.lane_columns) + ";");
        w.line("uint j_hi = jj - j_lo;");
        for (uint32_t r = 0; r < P; ++r) {
            const std::string point = "(i + " + u(r * TPC) + ")", e = "e" + std::to_string(r);
            w.line("uint " + e + " = j_hi * " + point + ";");
            w.line(v[r] + " = cmul(" + v[r] + ", cmul(cmul(tw[" + u(k.coarse_offset) + " + (" + e + " >> " +
                   u(k.fine_bits) + ")], tw[" + u(k.fine_offset) + " + (" + e + " & " + u(mask) + ")]), tw[" +
                   u(k.lane_offset) + " + " + point + " * " + u(k.lane_columns) + " + j_lo]));");
        }
    }

    // Stockham stages. Invocation i does butterflies q = i + g * TPC (g < P / r) on registers
    // v[m * (P / r) + g]; the last stage leaves point i + reg * TPC in out[reg].
    std::vector<std::string> out = v;
    for (size_t s = 0; s < k.stages.size(); ++s) {
        const Stage& st = k.stages[s];
        const uint32_t r = st.radix, ns = st.span, groups = P / r;
        const bool last = s + 1 == k.stages.size();
        std::vector<SharedExchange::Move> writes;
        for (uint32_t g = 0; g < groups; ++g) {
            const std::string q = "(i + " + u(g * TPC) + ")";
            const std::string j = "j" + std::to_string(s) + "_" + std::to_string(g);
            if (ns > 1) w.line("uint " + j + " = " + q + " & " + u(ns - 1) + ";");
            std::vector<std::string> regs;
            for (uint32_t m = 0; m < r; ++m) regs.push_back(v[m * groups + g]);
            if (ns > 1)
                for (uint32_t m = 1; m < r; ++m)
                    w.line(regs[m] + " = cmul(" + regs[m] + ", tw[" + u(st.twiddle_offset + (m - 1) * ns) +
                           " + " + j + "]);");
            const auto res = emit_dft(w, regs, k.precision, temps);
            if (last) {
                // ns * r == R: output m of butterfly q lands at q + m * ns = i + (g + m * groups) * TPC.
                for (uint32_t m = 0; m < r; ++m) out[g + m * groups] = res[m];
            } else {
                const std::string o = "o" + std::to_string(s) + "_" + std::to_string(g);
                w.line("uint " + o + " = " +
                       (ns > 1 ? "(" + q + " - " + j + ") * " + u(r) + " + " + j : q + " * " + u(r)) + ";");
                for (uint32_t m = 0; m < r; ++m)
                    writes.push_back({res[m], shared_index(o + " + " + u(m * ns))});
            }
        }
        if (!last) {
            std::vector<SharedExchange::Move> reads;
            for (uint32_t r2 = 0; r2 < P; ++r2) reads.push_back({v[r2], shared_index("i + " + u(r2 * TPC))});
            exchange(writes, reads);
        }
    }

    auto scaled = [&](const std::string& x) {
        return C + "(" + x + ".x * params.store_re, " + x + ".y * params.store_im)";
    };
    if (k.staged_store) {
        std::vector<SharedExchange::Move> writes, reads;
        for (uint32_t r = 0; r < P; ++r) {
            const std::string g = "g" + std::to_string(r);
            if (!k.staged_load) w.line(C + " " + g + ";");
            writes.push_back({out[r], tile_index + u(r * TPC)});
            reads.push_back({g, "tid + " + u(r * WG)});
        }
        exchange(writes, reads);
        for (uint32_t r = 0; r < P; ++r) {
            const std::string e = "tid + " + u(r * WG);
            w.line("if (" + e + " < tile) dst[params.dst_offset + tile_base + " + e +
                   "] = " + scaled("g" + std::to_string(r)) + ";");
        }
    } else {
        w.open("if (live)");
        for (uint32_t r = 0; r < P; ++r)
            w.line("dst[dst_base + (i + " + u(r * TPC) + ") * " + u(S) + "] = " + scaled(out[r]) + ";");
        w.close();
    }
    w.close();
    return w.str();
}

std::string generate_copy_kernel(uint32_t workgroup_size) {
    GlslWriter w;
    w.line("#version 450");
    w.line("// twiddle copy: the bandwidth yardstick");
    w.line("layout(local_size_x = " + std::to_string(workgroup_size) + ") in;");
    w.line("layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };");
    w.line("layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };");
    w.line("layout(push_constant) uniform Params { uint words; } params;");
    w.open("void main()");
    w.line("uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;");
    w.line("uint i = group * " + u(workgroup_size) + " + gl_LocalInvocationID.x;");
    w.line("if (i < params.words) dst[i] = src[i];");
    w.close();
    return w.str();
}

}  // namespace twiddle::codegen
