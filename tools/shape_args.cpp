#include "shape_args.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "twiddle/error.hpp"

namespace twiddle::cli {

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

}  // namespace twiddle::cli
