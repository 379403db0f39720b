// Buffers with their own memory: device-local storage buffers and host-visible staging.
#pragma once

#include <vulkan/vulkan.h>

#include <complex>
#include <span>

#include "twiddle/types.hpp"
#include "vk/context_state.hpp"
#include "vk/handles.hpp"

namespace twiddle::vk {

struct AllocatedBuffer {
    UniqueMemory memory;  // declared first so that the buffer is destroyed before its memory
    UniqueBuffer buffer;
    VkDeviceSize size = 0;
    VkBufferUsageFlags usage = 0;
    void* mapped = nullptr;  // host-visible buffers only
};

enum class MemoryKind {
    device_local,  // storage buffers the kernels read and write
    upload,        // host-visible, written by the host
    readback,      // host-visible, read by the host (cached where the device offers it)
};

AllocatedBuffer allocate_buffer(const Context::State& s, VkDeviceSize size, VkBufferUsageFlags usage,
                                MemoryKind kind);

// The bytes of a table of complex factors the kernels read: `values` rounded to `precision`, at
// least 16 bytes (a binding needs a buffer even where no kernel reads an entry).
std::vector<uint8_t> table_bytes(std::span<const std::complex<long double>> values, Precision precision);
// A device-local storage buffer holding `bytes`, uploaded through the context's staging
// (vk::Staging) before it returns.
AllocatedBuffer upload_table(Context::State& s, std::span<const uint8_t> bytes);
// upload_table(s, table_bytes(values, precision)).
AllocatedBuffer upload_table(Context::State& s, std::span<const std::complex<long double>> values,
                             Precision precision);

// A buffer-to-buffer copy, then a barrier that makes it visible to later transfers and compute
// shaders.
void record_copy(VkCommandBuffer cmd, VkBuffer src, VkDeviceSize src_offset, VkBuffer dst,
                 VkDeviceSize dst_offset, VkDeviceSize bytes);

// Orders every earlier compute-shader and transfer write before later compute-shader and
// transfer reads and writes.
void record_full_barrier(VkCommandBuffer cmd);

}  // namespace twiddle::vk
