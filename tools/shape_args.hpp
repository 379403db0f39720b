// Array shapes on the command line: "256x256", "64x64x64", or a plain length "1024".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace twiddle::cli {

// Parses extents separated by 'x'; throws twiddle::Error for an empty, zero or malformed extent.
std::vector<uint64_t> parse_shape(const std::string& text);

// The inverse of parse_shape: "256x256".
std::string shape_name(const std::vector<uint64_t>& shape);

}  // namespace twiddle::cli
