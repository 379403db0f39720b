// The spherical-harmonic Fourier stage in two passes (sht::Passes::two): the half-length transform
// of M = nphi / 2 points as M = columns x P (P = four_step_points, by direction), so that the pass
// on the m-major side reads and writes runs of four_step_latitudes latitudes.
//
// With k = k1 + columns k2 (spectral index) and n = n2 + P n1 (index of the complex
// pairs z_n = x_2n + i x_2n+1 of a row), the row's transform of M points is
//   Z_{k1 + columns k2} = sum_n2 e^{-2 pi i k2 n2 / P} [W_M^{k1 n2} sum_n1 z_{n2 + P n1} e^{-2 pi i k1 n1 /
//   columns}]
// and synthesis the same with the signs of every exponent turned.
//   synthesis: this file's kernel joins the pairs X_k, X_{M-k} of the m-major spectrum (the
//              columns k1 and columns - k1 lie in one workgroup, and one invocation reads both
//              of a pair and writes both of its results) and transforms each column's
//              P points, writing rows of M points to scratch; then a plan's strided pass of
//              `columns` points multiplies by W_M^{-k1 n2} as it loads and writes z to spat.
//   analysis:  a plan's strided pass transforms z along n1 and multiplies by W_M^{k1 n2} as it
//              stores to scratch; then this file's kernel transforms each column's P points and
//              splits the pairs k, M - k into X_k and X_{M-k} (one invocation each pair), written
//              m-major.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "twiddle/caps.hpp"
#include "twiddle/desc.hpp"
#include "twiddle/plan.hpp"
#include "twiddle/sht.hpp"

namespace twiddle::sht {

// The form is the same in both directions.
// Points of each column transform on the m-major side: 16.
uint32_t four_step_points();
// Latitudes a workgroup of the m-major pass takes, the runs in which it reads or writes fm: 16
// (f32) or 8 (f64), 128 bytes.
uint32_t four_step_latitudes(Precision precision);
// Invocations of the m-major pass's workgroups: P / 8 for each of the two columns' rows.
uint32_t four_step_workgroup(Precision precision);

// Whether the grid can take two passes: nphi a multiple of 4 four_step_points (M an even number of
// columns).
bool four_step_applies(const Grid& grid);
// Columns of the four-step form: M / four_step_points.
uint64_t four_step_columns(const Grid& grid);
// Workgroups of the m-major pass: fields x latitude blocks x column pairs.
uint64_t four_step_workgroups(const Grid& grid);

// The pass along each row: transforms of `columns` points over n1 (z_{n2 + P n1}, the row's
// complex pairs) and k1 (scratch point k1 P + n2), P apart on both sides, repeated over n2 and
// over the rows. Synthesis runs it inverse from the scratch to spat (viewed as complex pairs),
// analysis forward from spat to the scratch.
FftDesc four_step_row_desc(const Grid& grid, bool synthesis);
// The row pass's callbacks: the factors W_M^{k1 n2} (the operand, four_step_row_factors) applied
// as a product when analysis stores and conjugated when synthesis loads.
FftCallbacks four_step_callbacks(const Grid& grid, bool synthesis);
// The row pass's planner options: the stage's, with a whole row's four_step_points transforms per
// workgroup unless columns_per_workgroup is set (on the H200 at 4096 x 8192 the stage ran 1-6%
// slower with 8 or 32 transforms per workgroup; bench/RESULTS.md, twenty-seventh run).
Options four_step_row_options(const Options& fft);
// The operand of the row pass in both directions: W_M^{k1 n2} (e^{-}) at k1 P + n2, k1 < columns,
// n2 < P.
std::vector<std::complex<long double>> four_step_row_factors(const Grid& grid);

// Shared memory of the m-major pass: its tile, two columns' rows of four_step_points points for
// each latitude.
uint32_t four_step_shared_bytes(const Grid& grid);
// Whether the fft strategy takes the four-step form in one direction of `grid` under `options`
// (Passes::automatic: from nphi 8192 for synthesis and 4096 for analysis, where it can, unless
// the options ask the planner for a radix or the complex path); throws UnsupportedError where
// Passes::two is asked and cannot apply, and Error for Passes::two with the complex path.
bool takes_two_passes(const DeviceCaps& caps, const Grid& grid, const StageOptions& options, bool synthesis);

// The m-major pass's kernels. Bindings: 0 the source (fm for synthesis; scratch rows of M complex
// values for analysis), 1 the destination (scratch rows; fm), 2 the table W_nphi^k for k < M.
// Push constants: uint src_offset, dst_offset, in complex elements.
std::string generate_four_step_synthesis(const Grid& grid);
std::string generate_four_step_analysis(const Grid& grid);

}  // namespace twiddle::sht
