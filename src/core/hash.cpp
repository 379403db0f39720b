#include "core/hash.hpp"

namespace twiddle {

Hash128& Hash128::add(const void* data, size_t bytes) {
    constexpr uint128 prime = (static_cast<uint128>(1) << 88) | 0x13b;
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) {
        state_ ^= p[i];
        state_ *= prime;
    }
    return *this;
}

std::string Hash128::hex() const {
    static const char* digits = "0123456789abcdef";
    std::string out(32, '0');
    uint128 v = state_;
    for (int i = 31; i >= 0; --i, v >>= 4)
        out[static_cast<size_t>(i)] = digits[static_cast<unsigned>(v & 0xf)];
    return out;
}

}  // namespace twiddle
