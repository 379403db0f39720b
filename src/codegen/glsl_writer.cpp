#include "codegen/glsl_writer.hpp"

#include <cmath>
#include <cstdio>

namespace twiddle::codegen {

void GlslWriter::line(std::string_view text) {
    out_.append(static_cast<size_t>(indent_) * 4, ' ');
    out_.append(text);
    out_.push_back('\n');
}

void GlslWriter::open(std::string_view text) {
    line(std::string(text) + " {");
    ++indent_;
}

void GlslWriter::close() {
    --indent_;
    line("}");
}

Types types(Precision p) {
    if (p == Precision::f32) return {"float", "vec2"};
    return {"double", "dvec2"};
}

std::string literal(long double value, Precision p) {
    char buf[64];
    if (p == Precision::f32) {
        // 9 significant digits round-trip a float; print the float nearest to the value.
        std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(static_cast<float>(value)));
    } else {
        std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(value));
    }
    std::string s = buf;
    if (s.find_first_of(".eE") == std::string::npos) s += ".0";
    if (p == Precision::f64) s += "lf";
    return s;
}

}  // namespace twiddle::codegen
