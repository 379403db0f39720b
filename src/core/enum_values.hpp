// Whether an enum argument holds one of its type's values: a caller's cast integer may not, and
// the library's two-way choices (f32 or else f64) would silently take it for the second.
// checked() refuses such an argument with one message everywhere.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "twiddle/error.hpp"
#include "twiddle/types.hpp"

namespace twiddle::detail {

// Each checked enum's name, as messages give it, and its values. Enums declared outside
// types.hpp are specialized beside their checks (sht::Strategy in the SHT stage, the
// distributed plan's in dist.cpp).
template <class E>
struct EnumValues;

template <>
struct EnumValues<Precision> {
    static constexpr std::string_view name = "Precision";
    static constexpr std::array values{Precision::f32, Precision::f64};
};
template <>
struct EnumValues<Direction> {
    static constexpr std::string_view name = "Direction";
    static constexpr std::array values{Direction::forward, Direction::inverse};
};
template <>
struct EnumValues<Normalization> {
    static constexpr std::string_view name = "Normalization";
    static constexpr std::array values{Normalization::backward, Normalization::ortho, Normalization::forward};
};
template <>
struct EnumValues<Placement> {
    static constexpr std::string_view name = "Placement";
    static constexpr std::array values{Placement::out_of_place, Placement::in_place};
};
template <>
struct EnumValues<Strategy> {
    static constexpr std::string_view name = "Strategy";
    static constexpr std::array values{Strategy::automatic, Strategy::portable, Strategy::subgroups,
                                       Strategy::dft};
};
template <>
struct EnumValues<Transform> {
    static constexpr std::string_view name = "Transform";
    static constexpr std::array values{Transform::c2c, Transform::r2c, Transform::c2r};
};
template <>
struct EnumValues<RealLayout> {
    static constexpr std::string_view name = "RealLayout";
    static constexpr std::array values{RealLayout::packed, RealLayout::padded};
};
template <>
struct EnumValues<RealPath> {
    static constexpr std::string_view name = "RealPath";
    static constexpr std::array values{RealPath::half_length, RealPath::full_length};
};
template <>
struct EnumValues<DataType> {
    static constexpr std::string_view name = "DataType";
    static constexpr std::array values{DataType::float32, DataType::float64, DataType::complex64,
                                       DataType::complex128};
};

template <class E>
constexpr bool is_value(E v) {
    for (E value : EnumValues<E>::values)
        if (v == value) return true;
    return false;
}

// Returns v, or throws twiddle::Error "<what> is not a <enum> value (<integer>)".
template <class E>
E checked(E v, std::string_view what) {
    if (!is_value(v))
        throw Error(std::string(what) + " is not a " + std::string(EnumValues<E>::name) + " value (" +
                    std::to_string(static_cast<long long>(v)) + ")");
    return v;
}

}  // namespace twiddle::detail
