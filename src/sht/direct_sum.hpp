// GLSL of the spherical-harmonic Fourier stage's `dft` strategy: the band-limited sums written
// out directly, O(nphi * mmax) per row.
#pragma once

#include <cstdint>
#include <string>

#include "twiddle/sht.hpp"

namespace twiddle::sht {

// Invocations per workgroup of both kernels.
inline constexpr uint32_t kDirectWorkgroup = 64;

// Bindings: 0 the source (fm for synthesis, spat for analysis), 1 the destination, 2 the table
// W_nphi^e = e^{-2 pi i e / nphi} for e < nphi. Push constants: uint src_offset, dst_offset, in
// elements of each binding's own type (reals for spat). Workgroup g does block g mod blocks of
// row g / blocks (rows = fields * nlat): outputs block * kDirectWorkgroup + local index, iphi
// (synthesis) or m (analysis).
std::string generate_direct_synthesis(const Grid& grid);
std::string generate_direct_analysis(const Grid& grid);
uint64_t direct_blocks(const Grid& grid, bool synthesis);

}  // namespace twiddle::sht
