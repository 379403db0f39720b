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

// The inverse of a mod the prime p (a^(p-2), by Fermat): g^-1 for Rader's output permutation.
inline uint32_t inverse_mod_prime(uint32_t a, uint32_t p) { return pow_mod(a, p - 2, p); }

}  // namespace twiddle
