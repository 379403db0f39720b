// Whether an enum argument holds one of its type's values: a caller's cast integer may not, and
// the library's two-way choices (f32 or else f64) would silently take it for the second.
#pragma once

#include "twiddle/types.hpp"

namespace twiddle::detail {

constexpr bool is_value(Precision p) { return p == Precision::f32 || p == Precision::f64; }
constexpr bool is_value(Placement p) { return p == Placement::in_place || p == Placement::out_of_place; }
constexpr bool is_value(Transform t) {
    return t == Transform::c2c || t == Transform::r2c || t == Transform::c2r;
}
constexpr bool is_value(DataType t) {
    return t == DataType::float32 || t == DataType::float64 || t == DataType::complex64 ||
           t == DataType::complex128;
}

}  // namespace twiddle::detail
