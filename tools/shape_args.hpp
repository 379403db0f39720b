// Array shapes and axes on the command line: "256x256", "64x64x64", or a plain length "1024";
// "0,2", "-1" or "all".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace twiddle::cli {

// Parses extents separated by 'x'; throws twiddle::Error for an empty, zero or malformed extent.
std::vector<uint64_t> parse_shape(const std::string& text);

// The inverse of parse_shape: "256x256".
std::string shape_name(const std::vector<uint64_t>& shape);

// Parses numpy-style axes "0,2" or "-2,-1" (any int; the array's rank is checked by
// FftDesc::nd), or "all", which gives an empty list: every axis. Throws twiddle::Error otherwise.
std::vector<int> parse_axes(const std::string& text);

}  // namespace twiddle::cli
