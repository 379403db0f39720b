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

}  // namespace twiddle
