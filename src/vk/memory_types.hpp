// Choosing a Vulkan memory type. Header-only, so that libtwiddle_dist, which sees only the core
// library's public symbols, chooses as the core library does.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>

namespace twiddle::vk {

// The first memory type among `allowed` (a memoryTypeBits mask) with every property of
// `required` and of `preferred`, else the first with those of `required`; nullopt if none.
inline std::optional<uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& mem, uint32_t allowed,
                                                VkMemoryPropertyFlags required,
                                                VkMemoryPropertyFlags preferred) {
    std::optional<uint32_t> fallback;
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
        if (!(allowed & (1u << i))) continue;
        const auto flags = mem.memoryTypes[i].propertyFlags;
        if ((flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (!fallback) fallback = i;
    }
    return fallback;
}

}  // namespace twiddle::vk
