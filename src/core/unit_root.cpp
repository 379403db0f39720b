#include "core/unit_root.hpp"

#include <cmath>

namespace twiddle {

std::complex<long double> unit_root(uint64_t exponent, uint64_t period) {
    constexpr long double kPi = 3.141592653589793238462643383279502884L;
    exponent %= period;
    // angle = 2 pi e / p = (octant + rem / p) * pi / 4
    const uint64_t octant = (exponent * 8) / period;
    const uint64_t rem = (exponent * 8) % period;
    // Odd octants measure from the octant's far end, keeping the reduced angle in [0, pi/4].
    const uint64_t num = octant % 2 ? period - rem : rem;
    const long double b = kPi / 4 * static_cast<long double>(num) / static_cast<long double>(period);
    const long double c = std::cos(b), s = std::sin(b);
    long double cs = 0, sn = 0;  // cos and sin of the full angle
    switch (octant) {
    case 0: cs = c, sn = s; break;
    case 1: cs = s, sn = c; break;
    case 2: cs = -s, sn = c; break;
    case 3: cs = -c, sn = s; break;
    case 4: cs = -c, sn = -s; break;
    case 5: cs = -s, sn = -c; break;
    case 6: cs = s, sn = -c; break;
    default: cs = c, sn = -s; break;
    }
    return {cs, -sn};
}

uint32_t pow_mod(uint64_t base, uint64_t exponent, uint32_t m) {
    uint64_t r = 1 % m;
    for (base %= m; exponent > 0; exponent >>= 1, base = base * base % m)
        if (exponent & 1) r = r * base % m;
    return static_cast<uint32_t>(r);
}

}  // namespace twiddle
