// Roots of unity in long double: the single source of every twiddle factor and constant.
#pragma once

#include <complex>
#include <cstdint>
#include <map>
#include <vector>

namespace twiddle {

// e^{-2 pi i exponent / period}. Reduced to the first octant by symmetry, so values at
// multiples of period/8 are exact (cos(pi/2) is 0, not 6e-17) and the others carry the
// relative accuracy of long double.
std::complex<long double> unit_root(uint64_t exponent, uint64_t period);

// unit_root() for many roots of few periods, bit for bit the same values: each first-octant
// angle is evaluated once, so a table covering a period costs an eighth of the sines and
// cosines. Memory grows with the periods asked for (about period / 8 entries each), so use it
// for tables, not for one-off roots of large periods.
class UnitRoots {
public:
    std::complex<long double> operator()(uint64_t exponent, uint64_t period);

private:
    struct Entry {
        long double c = 0, s = 0;
        bool known = false;
    };
    std::map<uint64_t, std::vector<Entry>> memos_;
    // The period of the last call and its memo: tables ask for runs of one period.
    uint64_t period_ = 0, step_ = 1;
    std::vector<Entry>* memo_ = nullptr;
};

}  // namespace twiddle
