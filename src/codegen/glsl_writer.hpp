// A small line writer for generated GLSL, and the literals and type names it needs.
#pragma once

#include <string>
#include <string_view>

#include "twiddle/types.hpp"

namespace twiddle::codegen {

class GlslWriter {
public:
    // Appends one line at the current indentation.
    void line(std::string_view text);
    // "text {" and indent; close() dedents and writes "}".
    void open(std::string_view text);
    void close();
    const std::string& str() const { return out_; }

private:
    std::string out_;
    int indent_ = 0;
};

// GLSL names for the working precision.
struct Types {
    std::string_view real;     // float | double
    std::string_view complex;  // vec2 | dvec2
};
Types types(Precision p);

// A literal that rounds to the nearest value of the precision: "0.707106769f" is written
// "0.70710677" for f32 and "0.70710678118654752lf" for f64.
std::string literal(long double value, Precision p);

}  // namespace twiddle::codegen
