// A 128-bit FNV-1a hash: cache keys and cache-file checksums.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace twiddle {

__extension__ typedef unsigned __int128 uint128;  // GCC and Clang

class Hash128 {
public:
    Hash128& add(const void* data, size_t bytes);
    Hash128& add(std::string_view s) { return add(s.data(), s.size()); }
    // 32 lowercase hex digits.
    std::string hex() const;

private:
    uint128 state_ = (static_cast<uint128>(0x6c62272e07bb0142ULL) << 64) | 0x62b821756295c58dULL;
};

}  // namespace twiddle
