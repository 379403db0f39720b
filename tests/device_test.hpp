// Tests that run kernels on the default Vulkan device (lavapipe in CI) with validation on.
#pragma once

#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "twiddle/twiddle.hpp"

namespace twiddle::testing {

// One context per test process, with the validation layer on.
inline Context& device() {
    static Context context(ContextOptions{.validation = true});
    return context;
}

// Fails the test if the validation layer reported anything during it.
class DeviceTest : public ::testing::Test {
protected:
    void SetUp() override { device().take_validation_messages(); }
    void TearDown() override {
        for (const auto& m : device().take_validation_messages()) ADD_FAILURE() << "validation: " << m;
    }
};

inline std::vector<std::complex<float>> random_complex(size_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<std::complex<float>> v(n);
    for (auto& x : v) x = {d(gen), d(gen)};
    return v;
}

inline std::vector<std::complex<double>> widen(const std::vector<std::complex<float>>& v) {
    return {v.begin(), v.end()};
}

// A NaN bit pattern no transform produces: outputs are filled with it before each run, so an
// element still holding it afterwards was never written.
constexpr uint32_t kPoison = 0x7fbadbadu;

// Counts the 32-bit words of `bytes` equal to the poison pattern.
inline size_t poisoned_words(const void* bytes, size_t size) {
    const auto* w = static_cast<const uint32_t*>(bytes);
    size_t count = 0;
    for (size_t i = 0; i < size / 4; ++i) count += w[i] == kPoison;
    return count;
}

}  // namespace twiddle::testing
