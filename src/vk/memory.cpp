#include "vk/memory.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "twiddle/error.hpp"
#include "vk/check.hpp"
#include "vk/memory_types.hpp"
#include "vk/staging.hpp"

namespace twiddle::vk {

AllocatedBuffer allocate_buffer(const Context::State& s, VkDeviceSize size, VkBufferUsageFlags usage,
                                MemoryKind kind) {
    AllocatedBuffer out;
    out.size = size;
    out.usage = usage;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    check(vkCreateBuffer(s.device, &info, nullptr, &buffer), "vkCreateBuffer");
    out.buffer = UniqueBuffer(s.device, buffer);

    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(s.device, buffer, &req);
    VkMemoryPropertyFlags required = 0, preferred = 0;
    switch (kind) {
    case MemoryKind::device_local: required = preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
    case MemoryKind::upload:
        required = preferred = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case MemoryKind::readback:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = required | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    }
    const auto type = find_memory_type(s.memory, req.memoryTypeBits, required, preferred);
    if (!type)
        throw UnsupportedError("no suitable Vulkan memory type for a buffer of " + std::to_string(size) +
                               " bytes");
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = *type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    check(vkAllocateMemory(s.device, &alloc, nullptr, &memory),
          ("vkAllocateMemory of " + std::to_string(req.size) + " bytes").c_str());
    out.memory = UniqueMemory(s.device, memory);
    check(vkBindBufferMemory(s.device, buffer, memory, 0), "vkBindBufferMemory");
    if (kind != MemoryKind::device_local)
        check(vkMapMemory(s.device, memory, 0, VK_WHOLE_SIZE, 0, &out.mapped), "vkMapMemory");
    return out;
}

std::vector<uint8_t> table_bytes(std::span<const std::complex<long double>> values, Precision precision) {
    std::vector<uint8_t> bytes(std::max<size_t>(values.size() * complex_bytes(precision), 16), 0);
    for (size_t i = 0; i < values.size(); ++i) {
        if (precision == Precision::f32) {
            const float v[2] = {float(values[i].real()), float(values[i].imag())};
            std::memcpy(bytes.data() + i * sizeof v, v, sizeof v);
        } else {
            const double v[2] = {double(values[i].real()), double(values[i].imag())};
            std::memcpy(bytes.data() + i * sizeof v, v, sizeof v);
        }
    }
    return bytes;
}

AllocatedBuffer upload_table(Context::State& s, std::span<const uint8_t> bytes) {
    auto table = allocate_buffer(s, bytes.size(),
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 MemoryKind::device_local);
    s.stager().upload(s, bytes.data(), bytes.size(), table.buffer.get(), 0);
    return table;
}

AllocatedBuffer upload_table(Context::State& s, std::span<const std::complex<long double>> values,
                             Precision precision) {
    return upload_table(s, table_bytes(values, precision));
}

void record_copy(VkCommandBuffer cmd, VkBuffer src, VkDeviceSize src_offset, VkBuffer dst,
                 VkDeviceSize dst_offset, VkDeviceSize bytes) {
    VkBufferCopy region{src_offset, dst_offset, bytes};
    vkCmdCopyBuffer(cmd, src, dst, 1, &region);
    record_full_barrier(cmd);
}

void record_full_barrier(VkCommandBuffer cmd) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                            VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(
        cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0,
        1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace twiddle::vk
