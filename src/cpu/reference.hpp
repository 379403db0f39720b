// f64 and long-double reference transforms on the CPU, and the twiddle values every layer shares.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "twiddle/logical_plan.hpp"
#include "twiddle/types.hpp"

namespace twiddle::cpu {

using cld = std::complex<long double>;

// Every entry of a plan's twiddle table, in long double.
std::vector<cld> twiddle_values(const std::vector<TwiddleEntry>& entries);

// Reference transform of `batch` packed rows of `length` points, unnormalized, in long double:
// radix-2 for powers of two, the direct sum otherwise. O(N log N) or O(N^2) per row.
void reference_dft(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
                   uint64_t length, uint64_t batch, Direction direction);

// The same for single rows of long-double data (used by the plan executor's tests).
std::vector<cld> reference_dft(std::span<const cld> row, Direction direction);

// Runs a logical plan on the CPU in long double, pass by pass and stage by stage, with the
// plan's decomposition, Stockham index arithmetic and twiddle tables. It tests the decomposition,
// not the kernels' mapping of points to invocations (staging, partial workgroups, dispatch
// layout), which only the device tests reach. Returns the normalized result.
std::vector<cld> execute(const LogicalPlan& plan, std::span<const cld> input, Direction direction);

// sqrt(sum |a - b|^2 / sum |b|^2); 0 when both are zero.
double relative_l2(std::span<const std::complex<float>> a, std::span<const std::complex<double>> b);
double relative_l2(std::span<const std::complex<double>> a, std::span<const std::complex<double>> b);

}  // namespace twiddle::cpu
