// Register butterflies: in-register forward DFTs with their constant twiddles baked in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/glsl_writer.hpp"

namespace twiddle::codegen {

// Names fresh temporaries ("b0", "b1", ...) within one shader.
class TempNames {
public:
    std::string next() { return "b" + std::to_string(count_++); }

private:
    int count_ = 0;
};

// The largest butterfly emit_dft writes.
inline constexpr size_t kMaxButterfly = 32;

// Emits a forward DFT (e^{-}) of the complex values named by `x`, whose count is 1 to
// kMaxButterfly (counts with several primes split into coprime factors by Good and Thomas's
// mapping, prime powers radix 4 first, primes by their symmetric pairs), and returns the names
// that hold X[0], X[1], ... afterwards. Values are renamed rather than copied, so the result is
// a permutation of `x` and of new temporaries.
std::vector<std::string> emit_dft(GlslWriter& w, const std::vector<std::string>& x, Precision p,
                                  TempNames& temps);

// Emits v *= W_period^exponent (= e^{-2 pi i exponent / period}) for a constant root, with the
// multiplications by 1, -1, +-i and (+-1 +-i)/sqrt(2) written out.
void emit_mul_root(GlslWriter& w, const std::string& v, uint64_t exponent, uint64_t period, Precision p);

}  // namespace twiddle::codegen
