#include "core/unit_root.hpp"

#include <cmath>
#include <numeric>

namespace twiddle {

namespace {

// The angle 2 pi e / p = (octant + rem / p) * pi / 4 reduced to [0, pi/4]: `num` / p * pi / 4,
// where odd octants measure from the octant's far end.
struct Reduced {
    uint64_t octant;
    uint64_t num;
};

Reduced reduce(uint64_t exponent, uint64_t period) {
    exponent %= period;
    const uint64_t octant = (exponent * 8) / period;
    const uint64_t rem = (exponent * 8) % period;
    return {octant, octant % 2 ? period - rem : rem};
}

// cos and sin of the reduced angle.
std::pair<long double, long double> first_octant(uint64_t num, uint64_t period) {
    constexpr long double kPi = 3.141592653589793238462643383279502884L;
    const long double b = kPi / 4 * static_cast<long double>(num) / static_cast<long double>(period);
    return {std::cos(b), std::sin(b)};
}

std::complex<long double> assemble(uint64_t octant, long double c, long double s) {
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

}  // namespace

std::complex<long double> unit_root(uint64_t exponent, uint64_t period) {
    const Reduced r = reduce(exponent, period);
    const auto [c, s] = first_octant(r.num, period);
    return assemble(r.octant, c, s);
}

std::complex<long double> UnitRoots::operator()(uint64_t exponent, uint64_t period) {
    const Reduced r = reduce(exponent, period);
    // Reduced numerators are multiples of gcd(8, period), from 0 to period.
    if (period != period_) {
        period_ = period;
        step_ = std::gcd(uint64_t(8), period);
        memo_ = &memos_[period];
        if (memo_->empty()) memo_->resize(period / step_ + 1);
    }
    Entry& e = (*memo_)[r.num / step_];
    if (!e.known) {
        std::tie(e.c, e.s) = first_octant(r.num, period);
        e.known = true;
    }
    return assemble(r.octant, e.c, e.s);
}

}  // namespace twiddle
