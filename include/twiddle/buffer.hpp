// twiddle: device buffers, and views of buffers a transform reads and writes.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <span>

#include "twiddle/context.hpp"
#include "twiddle/export.hpp"

namespace twiddle {

// A range of a VkBuffer. twiddle cannot ask Vulkan for a buffer's usage flags, so a view of a
// caller's buffer states them; Plan::record checks that they allow storage-buffer access.
struct BufferView {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint64_t offset = 0;  // bytes
    uint64_t size = 0;    // bytes
    VkBufferUsageFlags usage = 0;

    bool empty() const { return buffer == VK_NULL_HANDLE; }
};

// A device-local storage buffer owned by twiddle, with staged uploads and downloads. Move-only.
class TWIDDLE_API Buffer {
public:
    Buffer(const Context& context, uint64_t bytes);
    Buffer(Buffer&&) noexcept;
    Buffer& operator=(Buffer&&) noexcept;
    ~Buffer();

    uint64_t size() const;
    VkBuffer handle() const;
    // The device of the Context it was made on: a plan, graph or stage takes a Buffer only of its own
    // device, and throws twiddle::Error for another's.
    VkDevice device() const;
    // The whole buffer, or `size` bytes from `offset` (to the end when size is 0).
    BufferView view(uint64_t offset = 0, uint64_t size = 0) const;

    // Copies host memory into the buffer at `offset` and waits until it is there.
    void upload(const void* data, uint64_t bytes, uint64_t offset = 0);
    // Copies `bytes` from the buffer at `offset` into host memory.
    void download(void* data, uint64_t bytes, uint64_t offset = 0) const;
    // Sets every 32-bit word of [offset, offset + bytes) to `word` (bytes 0: to the end).
    void fill(uint32_t word, uint64_t offset = 0, uint64_t bytes = 0);

    template <typename T>
    void upload(std::span<const T> data, uint64_t offset = 0) {
        upload(data.data(), data.size_bytes(), offset);
    }
    template <typename T>
    void download(std::span<T> data, uint64_t offset = 0) const {
        download(data.data(), data.size_bytes(), offset);
    }

private:
    struct Impl;
    Impl& impl() const;  // throws twiddle::Error once moved from
    std::unique_ptr<Impl> impl_;
};

}  // namespace twiddle
