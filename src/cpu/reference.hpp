// f64 and long-double reference transforms on the CPU, and the twiddle values every layer shares.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "twiddle/desc.hpp"
#include "twiddle/logical_plan.hpp"
#include "twiddle/types.hpp"

namespace twiddle::cpu {

using cld = std::complex<long double>;

// Every entry of a plan's twiddle table, in long double.
std::vector<cld> twiddle_values(const std::vector<TwiddleEntry>& entries);

// The whole table a plan's kernels read: twiddle_values, with its spectrum tables filled in
// (LogicalPlan::SpectrumTable), computed in long double.
std::vector<cld> table_values(const LogicalPlan& plan);

// Reference transform of `batch` packed rows of `length` points, unnormalized, in long double:
// powers of two by radix 4 in place up to 4096 points and in a four-step form beyond (on all
// cores from 2^16 points), decimation in time by the smallest odd prime factor otherwise while it
// is at most 64 (primes up to 64 by the definition), Bluestein's algorithm for what is left.
// O(N (log N + s)) per row, s the sum of the odd prime factors up to 64 taken.
void reference_dft(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
                   uint64_t length, uint64_t batch, Direction direction);

// The same for single rows of long-double data (used by the plan executor's tests).
std::vector<cld> reference_dft(std::span<const cld> row, Direction direction);

// The complex values a buffer of `desc` holds in the CPU executor: its elements, or for a real
// side its reals two to a value (real j is the real part of value j / 2 for even j, else the
// imaginary part).
uint64_t buffer_slots(const FftDesc& desc, bool input);

// Runs a logical plan on the CPU in long double, pass by pass and stage by stage, with the
// plan's decomposition, Stockham index arithmetic, layouts, buffer routes and twiddle tables. It
// tests the decomposition, not the kernels' mapping of points to invocations (staging, partial
// workgroups, dispatch layout), which only the device tests reach. `input` holds
// buffer_slots(desc, true) values (in place: the output buffer's contents); returns the
// normalized output buffer, buffer_slots(desc, false) values, with 0 where the layout has no
// element.
std::vector<cld> execute(const LogicalPlan& plan, std::span<const cld> input, Direction direction,
                         Placement placement = Placement::out_of_place);

// The buffer indices of a problem's elements in its input (or output) layout: all the dims, then
// the batch dims, as one C-order array (the last batch dim fastest).
std::vector<uint64_t> logical_indices(const FftDesc& desc, bool input);

// Reference of any problem, unnormalized, in long double: each dim's lines transformed in turn
// (radix-2, mixed radix or Bluestein per line). Reads `in` in the input layout and writes the
// output layout's elements of `out`, leaving its other elements alone. Buffers hold
// buffer_slots() values (a real side's reals two to a value). Real problems run their own
// direction (r2c forward, c2r inverse) as numpy's rfftn and irfftn: c2r transforms the other dims
// first, then each line along the halved dim from its spectrum_length() points (the rest 0).
void reference_nd(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
                  const FftDesc& desc, Direction direction);

// sqrt(sum |a - b|^2 / sum |b|^2); 0 when both are zero.
double relative_l2(std::span<const std::complex<float>> a, std::span<const std::complex<double>> b);
double relative_l2(std::span<const std::complex<double>> a, std::span<const std::complex<double>> b);

}  // namespace twiddle::cpu
