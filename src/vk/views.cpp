#include "vk/views.hpp"

#include <algorithm>

#include "twiddle/error.hpp"

namespace twiddle::vk {

bool overlap(const BufferView& a, uint64_t a_bytes, const BufferView& b, uint64_t b_bytes) {
    return a.buffer == b.buffer && a.offset < b.offset + b_bytes && b.offset < a.offset + a_bytes;
}

Binding bind(const Context::State& s, const BufferView& v, uint64_t bytes, uint32_t element) {
    const uint64_t align = std::max<uint64_t>(1, s.caps.min_storage_buffer_offset_alignment);
    const uint64_t start = v.offset / align * align;
    return Binding{{v.buffer, start, v.offset - start + bytes},
                   static_cast<uint32_t>((v.offset - start) / element)};
}

void check_view(const Context::State& s, const std::string& what, const BufferView& v, uint64_t bytes,
                uint32_t element) {
    if (v.buffer == VK_NULL_HANDLE) throw Error(what + " has no buffer");
    if (v.size < bytes)
        throw Error(what + " holds " + std::to_string(v.size) + " bytes; the transform needs " +
                    std::to_string(bytes));
    if (v.offset % element != 0)
        throw Error(what + " offset " + std::to_string(v.offset) + " is not a multiple of " +
                    std::to_string(element) + " bytes, a complex element (where real arrays start too)");
    if (!(v.usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT))
        throw Error(what + " buffer lacks VK_BUFFER_USAGE_STORAGE_BUFFER_BIT");
    const uint64_t align = std::max<uint64_t>(1, s.caps.min_storage_buffer_offset_alignment);
    const uint64_t range = v.offset % align + bytes;
    if (range > s.caps.max_storage_buffer_range)
        throw UnsupportedError(what + " needs a binding of " + std::to_string(range) +
                               " bytes, over the device's maxStorageBufferRange of " +
                               std::to_string(s.caps.max_storage_buffer_range));
}

BufferView whole_view(const Context::State& s, const std::string& what, const Buffer& b) {
    if (b.device() != s.device) throw Error(what + " buffer was made on another Context's device");
    return b.view();
}

}  // namespace twiddle::vk
