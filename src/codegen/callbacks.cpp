#include "codegen/callbacks.hpp"

#include <cctype>
#include <stdexcept>

#include "codegen/glsl_writer.hpp"
#include "twiddle/error.hpp"

namespace twiddle::codegen {

namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The position of the bracket that closes the one at `open` ([ or (), counting nesting.
size_t closing(const std::string& s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == '[' || s[i] == '(') ++depth;
        if (s[i] == ']' || s[i] == ')') {
            if (--depth == 0) return i;
        }
    }
    throw std::logic_error("internal: unbalanced brackets in a generated kernel");
}

// The next `name[` at `from` or after that is a whole token (not the end of a longer name).
size_t find_token(const std::string& s, const std::string& name, size_t from) {
    for (size_t at = s.find(name + "[", from); at != std::string::npos; at = s.find(name + "[", at + 1))
        if (at == 0 || !identifier_char(s[at - 1])) return at;
    return std::string::npos;
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
    const size_t at = s.find(from);
    if (at == std::string::npos) throw std::logic_error("internal: '" + from + "' not in a generated kernel");
    s.replace(at, from.size(), to);
}

}  // namespace

std::string fuse_callbacks(const std::string& glsl, Precision precision, const FftCallbacks& callbacks,
                           bool load, bool store) {
    const std::string store_body = callbacks.store_body(precision);
    load = load && !callbacks.load.empty();
    store = store && !store_body.empty();
    const std::string T(types(precision).complex);
    // A convolution kernel declares the product between its transforms: the store callback.
    const bool middle = glsl.find(T + " twiddle_middle(" + T + " value, uint index);") != std::string::npos;
    if (!load && !store && !middle && !callbacks.operand) return glsl;
    const std::string U = callbacks.operand_type == DataType::float32     ? "float"
                          : callbacks.operand_type == DataType::float64   ? "double"
                          : callbacks.operand_type == DataType::complex64 ? "vec2"
                                                                          : "dvec2";
    std::string s = glsl;
    const std::string src_decl = "readonly buffer Src { " + T + " src[]; };";
    const std::string dst_decl = "writeonly buffer Dst { " + T + " dst[]; };";
    if ((load && s.find(src_decl) == std::string::npos) || (store && s.find(dst_decl) == std::string::npos))
        throw Error(
            "FftCallbacks: a callback applies to complex values only; this pass reads or writes reals");

    // Each src[i] through src_load(i); each `dst[i] = v;` through dst_store(i, v).
    if (load) {
        replace_once(s, src_decl, "readonly buffer Src { " + T + " src_data[]; };");
        for (size_t at = find_token(s, "src", 0); at != std::string::npos; at = find_token(s, "src", at)) {
            const size_t open = at + 3, close = closing(s, open);
            s.replace(close, 1, ")");
            s.replace(at, 4, "src_load(");
        }
    }
    if (store) {
        replace_once(s, dst_decl, "writeonly buffer Dst { " + T + " dst_data[]; };");
        for (size_t at = find_token(s, "dst", 0); at != std::string::npos; at = find_token(s, "dst", at)) {
            const size_t open = at + 3, close = closing(s, open);
            size_t eq = close + 1;
            while (s[eq] == ' ') ++eq;
            if (s[eq] != '=' || s[eq + 1] == '=')
                throw std::logic_error("internal: a generated kernel uses dst other than in an assignment");
            size_t end = eq + 1;
            for (int depth = 0; end < s.size() && !(depth == 0 && s[end] == ';'); ++end) {
                if (s[end] == '(' || s[end] == '[') ++depth;
                if (s[end] == ')' || s[end] == ']') --depth;
            }
            const std::string index = s.substr(open + 1, close - open - 1);
            const std::string value = s.substr(eq + 1, end - eq - 1);
            s.replace(at, end - at, "dst_store(" + index + "," + value + ")");
        }
    }

    // The functions, after the push constants they read; cmul declared for the bodies, defined
    // here unless the kernel defines it.
    std::string f;
    if (callbacks.operand)
        f += "layout(std430, set = 0, binding = " + std::to_string(kOperandBinding) +
             ") readonly buffer Operand { " + U + " operand[]; };\n" + U +
             " operand_at(uint i) { return operand[i]; }\n";
    const std::string cmul_sig = T + " cmul(" + T + " a, " + T + " b)";
    if (s.find(cmul_sig) != std::string::npos)
        f += cmul_sig + ";\n";
    else
        f += cmul_sig + " { return " + T + "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }\n";
    if (load) {
        f += T + " twiddle_load(" + T + " value, uint index) {\n" + callbacks.load + "\n}\n";
        f += T + " src_load(uint i) { return twiddle_load(src_data[i], i - params.src_offset); }\n";
    }
    if (middle) f += T + " twiddle_middle(" + T + " value, uint index) {\n" + store_body + "\n}\n";
    if (store) {
        f += T + " twiddle_store(" + T + " value, uint index) {\n" + store_body + "\n}\n";
        f += "void dst_store(uint i, " + T +
             " v) { dst_data[i] = twiddle_store(v, i - params.dst_offset); }\n";
    }
    const size_t params = s.find("layout(push_constant)");
    if (params == std::string::npos) throw std::logic_error("internal: a pass kernel without push constants");
    s.insert(s.find('\n', params) + 1, f);
    return s;
}

}  // namespace twiddle::codegen
