#include "shape_args.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "twiddle/error.hpp"

namespace twiddle::cli {

std::optional<uint64_t> parse_decimal(std::string_view text) {
    uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

namespace {

// The integers of `text` separated by `separator`, or nothing if any is empty or malformed.
template <typename Int>
std::optional<std::vector<Int>> split_integers(const std::string& text, char separator) {
    std::vector<Int> out;
    for (size_t start = 0;;) {
        const size_t end = std::min(text.find(separator, start), text.size());
        Int value = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + end, value);
        if (ec != std::errc() || ptr != text.data() + end || end == start) return std::nullopt;
        out.push_back(value);
        if (end == text.size()) return out;
        start = end + 1;
    }
}

}  // namespace

std::vector<uint64_t> parse_shape(const std::string& text) {
    const auto shape = split_integers<uint64_t>(text, 'x');
    if (!shape || std::find(shape->begin(), shape->end(), 0u) != shape->end())
        throw Error("shape '" + text + "': extents must be positive integers separated by 'x' (256x256)");
    uint64_t elements = 1;
    for (uint64_t e : *shape) {
        if (e > (uint64_t(1) << 60) / elements)
            throw Error("shape '" + text + "' has more than 2^60 elements");
        elements *= e;
    }
    return *shape;
}

std::string shape_name(const std::vector<uint64_t>& shape) {
    std::string s;
    for (uint64_t n : shape) s += (s.empty() ? "" : "x") + std::to_string(n);
    return s;
}

std::vector<int> parse_axes(const std::string& text) {
    if (text == "all") return {};
    if (text.empty()) throw Error("the list of axes is empty; give some (0,2 or -2,-1) or all");
    const auto axes = split_integers<int>(text, ',');
    if (!axes)
        throw Error("'" + text +
                    "' is not a list of axes: integers separated by commas (0,2 or -2,-1), or all");
    return *axes;
}

void check_axes(const std::string& file, const std::vector<uint64_t>& shape, const std::string& axes_named,
                const std::vector<int>& axes) {
    const int rank = static_cast<int>(shape.size());
    const std::string where = file + " (shape " + shape_name(shape) + "): " + axes_named + ": ";
    std::vector<bool> transformed(shape.size(), axes.empty());
    std::vector<int> named(shape.size(), 0);
    for (int a : axes) {
        if (a < -rank || a >= rank)
            throw Error(where + "axis " + std::to_string(a) + " is out of range for " + std::to_string(rank) +
                        (rank == 1 ? " axis" : " axes") + " (-" + std::to_string(rank) + " to " +
                        std::to_string(rank - 1) + ")");
        const int k = a < 0 ? a + rank : a;
        if (transformed[k])
            throw Error(where + "axis " + std::to_string(a) +
                        (a == named[k] ? " is repeated" : " repeats axis " + std::to_string(named[k])));
        transformed[k] = true;
        named[k] = a;
    }
    for (int k = 0; k < rank; ++k)
        if (transformed[k] && shape[k] == 0)
            throw Error(where + "axis " + std::to_string(k) +
                        " has length 0; a transform needs at least 1 point");
}

}  // namespace twiddle::cli
