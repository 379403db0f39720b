#include "twiddle/types.hpp"

#include <cmath>
#include <string>

#include "core/enum_values.hpp"
#include "twiddle/caps.hpp"
#include "twiddle/error.hpp"

namespace twiddle {

std::string_view to_string(Precision p) {
    switch (p) {
    case Precision::f32: return "f32";
    case Precision::f64: return "f64";
    }
    return "?";
}

std::string_view to_string(Direction d) {
    switch (d) {
    case Direction::forward: return "forward";
    case Direction::inverse: return "inverse";
    }
    return "?";
}

std::string_view to_string(Normalization n) {
    switch (n) {
    case Normalization::backward: return "backward";
    case Normalization::ortho: return "ortho";
    case Normalization::forward: return "forward";
    }
    return "?";
}

std::string_view to_string(Placement p) {
    switch (p) {
    case Placement::in_place: return "in_place";
    case Placement::out_of_place: return "out_of_place";
    }
    return "?";
}

std::string_view to_string(BufferRole r) {
    switch (r) {
    case BufferRole::input: return "input";
    case BufferRole::output: return "output";
    case BufferRole::scratch: return "scratch";
    }
    return "?";
}

std::string_view to_string(Strategy s) {
    switch (s) {
    case Strategy::automatic: return "auto";
    case Strategy::portable: return "portable";
    case Strategy::subgroups: return "subgroups";
    case Strategy::dft: return "dft";
    }
    return "?";
}

std::string_view to_string(RealPath p) {
    switch (p) {
    case RealPath::half_length: return "half_length";
    case RealPath::full_length: return "full_length";
    }
    return "?";
}

std::string_view to_string(DataType t) {
    switch (t) {
    case DataType::float32: return "float32";
    case DataType::float64: return "float64";
    case DataType::complex64: return "complex64";
    case DataType::complex128: return "complex128";
    }
    return "?";
}

std::string_view to_string(Transform t) {
    switch (t) {
    case Transform::c2c: return "c2c";
    case Transform::r2c: return "r2c";
    case Transform::c2r: return "c2r";
    }
    return "?";
}

std::string_view to_string(DeviceType t) {
    switch (t) {
    case DeviceType::integrated_gpu: return "integrated_gpu";
    case DeviceType::discrete_gpu: return "discrete_gpu";
    case DeviceType::virtual_gpu: return "virtual_gpu";
    case DeviceType::cpu: return "cpu";
    case DeviceType::other: return "other";
    }
    return "?";
}

Normalization parse_normalization(std::string_view name) {
    for (auto n : {Normalization::backward, Normalization::ortho, Normalization::forward})
        if (name == to_string(n)) return n;
    throw Error("normalization must be backward, ortho or forward, got '" + std::string(name) + "'");
}

Strategy parse_strategy(std::string_view name) {
    for (auto s : {Strategy::automatic, Strategy::portable, Strategy::subgroups, Strategy::dft})
        if (name == to_string(s)) return s;
    throw Error("strategy must be auto, portable, subgroups or dft, got '" + std::string(name) + "'");
}

double scale_factor(Normalization n, Direction d, uint64_t length) {
    if (length == 0) throw Error("scale_factor: length must be at least 1");
    detail::checked(n, "scale_factor: normalization");
    detail::checked(d, "scale_factor: direction");
    const double len = static_cast<double>(length);
    if (n == Normalization::ortho) return 1.0 / std::sqrt(len);
    // backward scales the inverse by 1/n, forward the forward one.
    const Direction scaled = n == Normalization::backward ? Direction::inverse : Direction::forward;
    return d == scaled ? 1.0 / len : 1.0;
}

bool DeviceCaps::has_subgroup_operation(std::string_view op) const {
    for (const auto& o : subgroup_operations)
        if (o == op) return true;
    return false;
}

}  // namespace twiddle
