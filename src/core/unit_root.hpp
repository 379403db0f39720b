// Roots of unity in long double: the single source of every twiddle factor and constant.
#pragma once

#include <complex>
#include <cstdint>

namespace twiddle {

// e^{-2 pi i exponent / period}. Reduced to the first octant by symmetry, so values at
// multiples of period/8 are exact (cos(pi/2) is 0, not 6e-17) and the others carry the
// relative accuracy of long double.
std::complex<long double> unit_root(uint64_t exponent, uint64_t period);

// base^exponent mod m (m < 2^32): the index permutations of Rader's algorithm.
uint32_t pow_mod(uint64_t base, uint64_t exponent, uint32_t m);

}  // namespace twiddle
