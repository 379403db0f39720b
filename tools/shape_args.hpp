// Counts, array shapes and axes on the command line: "4096"; "256x256", "64x64x64", or a plain
// length "1024"; "0,2", "-1" or "all".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace twiddle::cli {

// `text` as a decimal integer of digits only, or nothing: empty, a sign, any other character, or
// 2^64 or more. (CLI11 and strtoull read "-5" as 2^64 - 5.)
std::optional<uint64_t> parse_decimal(std::string_view text);

// Parses extents separated by 'x'; throws twiddle::Error for an empty, zero or malformed extent,
// and for more than 2^60 elements in all (so that no byte count of the array overflows).
std::vector<uint64_t> parse_shape(const std::string& text);

// The inverse of parse_shape: "256x256".
std::string shape_name(const std::vector<uint64_t>& shape);

// Parses numpy-style axes "0,2" or "-2,-1" (any int; the array's rank is checked by
// FftDesc::nd), or "all", which gives an empty list: every axis. Throws twiddle::Error otherwise.
std::vector<int> parse_axes(const std::string& text);

// Checks the `axes` of `shape` to transform (all of them for an empty list) as numpy does: each
// in [-rank, rank), none named twice, and none of length 0 (there is no transform of no points).
// Axes that are not transformed may have length 0. Errors name `file` and `axes_named`, the axes
// as the command line gave them ("--axes 0,2").
void check_axes(const std::string& file, const std::vector<uint64_t>& shape, const std::string& axes_named,
                const std::vector<int>& axes);

}  // namespace twiddle::cli
