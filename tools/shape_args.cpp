#include "shape_args.hpp"

#include <charconv>

#include "twiddle/error.hpp"

namespace twiddle::cli {

std::vector<uint64_t> parse_shape(const std::string& text) {
    std::vector<uint64_t> shape;
    size_t start = 0;
    while (true) {
        const size_t end = std::min(text.find('x', start), text.size());
        uint64_t n = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + end, n);
        if (ec != std::errc() || ptr != text.data() + end || end == start || n == 0)
            throw Error("shape '" + text + "': extents must be positive integers separated by 'x' (256x256)");
        shape.push_back(n);
        if (end == text.size()) return shape;
        start = end + 1;
    }
}

std::string shape_name(const std::vector<uint64_t>& shape) {
    std::string s;
    for (uint64_t n : shape) s += (s.empty() ? "" : "x") + std::to_string(n);
    return s;
}

std::vector<int> parse_axes(const std::string& text) {
    if (text == "all") return {};
    if (text.empty()) throw Error("the list of axes is empty; give some (0,2 or -2,-1) or all");
    std::vector<int> axes;
    size_t start = 0;
    while (true) {
        const size_t end = std::min(text.find(',', start), text.size());
        int axis = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + end, axis);
        if (ec != std::errc() || ptr != text.data() + end || end == start)
            throw Error("'" + text +
                        "' is not a list of axes: integers separated by commas (0,2 or -2,-1), or all");
        axes.push_back(axis);
        if (end == text.size()) return axes;
        start = end + 1;
    }
}

}  // namespace twiddle::cli
