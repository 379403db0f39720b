// The spherical-harmonic Fourier stage in two passes (sht::Passes::two): the half-length transform
// of M = nphi / 2 points as M = columns x kFourStepPoints, so that the pass on the m-major side
// reads and writes runs of kFourStepLatitudes latitudes.
//
// With k = k1 + columns k2 (spectral index) and n = n2 + kFourStepPoints n1 (index of the complex
// pairs z_n = x_2n + i x_2n+1 of a row), the row's transform of M points is
//   Z_{k1 + columns k2} = sum_n2 e^{-2 pi i k2 n2 / P} [W_M^{k1 n2} sum_n1 z_{n2 + P n1} e^{-2 pi i k1 n1 /
//   columns}]
// (P = kFourStepPoints), and synthesis the same with the signs of every exponent turned.
//   synthesis: this file's kernel joins the pairs X_k, X_{M-k} of the m-major spectrum (the
//              columns k1 and columns - k1 lie in one workgroup) and transforms each column's
//              P points, writing rows of M points to scratch; then a plan's strided pass of
//              `columns` points multiplies by W_M^{-k1 n2} as it loads and writes z to spat.
//   analysis:  a plan's strided pass transforms z along n1 and multiplies by W_M^{k1 n2} as it
//              stores to scratch; then this file's kernel transforms each column's P points and
//              splits the pairs k, M - k into X_k, written m-major.
#pragma once

#include <cstdint>
#include <string>

#include "twiddle/sht.hpp"

namespace twiddle::sht {

// Points of each column transform on the m-major side, held in one invocation's registers.
inline constexpr uint32_t kFourStepPoints = 32;
// Latitudes a workgroup of the m-major pass takes: runs of 256 bytes in f32.
inline constexpr uint32_t kFourStepLatitudes = 32;
// Invocations of the m-major pass's workgroups: two columns of kFourStepLatitudes latitudes.
inline constexpr uint32_t kFourStepWorkgroup = 2 * kFourStepLatitudes;

// Whether the grid can take two passes: nphi a multiple of 4 kFourStepPoints (M an even number of
// columns).
bool four_step_applies(const Grid& grid);
// Columns of the four-step form: M / kFourStepPoints.
uint64_t four_step_columns(const Grid& grid);
// Workgroups of the m-major pass: fields x latitude blocks x column pairs.
uint64_t four_step_workgroups(const Grid& grid);

// Shared memory of the m-major pass: `by_component` exchanges one component at a time.
uint32_t four_step_shared_bytes(const Grid& grid, bool by_component);

// The m-major pass's kernels. Bindings: 0 the source (fm for synthesis; scratch rows of M complex
// values for analysis), 1 the destination (scratch rows; fm), 2 the table W_nphi^k for k < M.
// Push constants: uint src_offset, dst_offset, in complex elements.
std::string generate_four_step_synthesis(const Grid& grid, bool by_component);
std::string generate_four_step_analysis(const Grid& grid, bool by_component);

}  // namespace twiddle::sht
