// VkResult checking: every failing Vulkan call becomes a twiddle::VulkanError naming the call.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace twiddle::vk {

const char* result_name(VkResult r);

// Throws VulkanError("<what> failed: VK_ERROR_...") unless r is VK_SUCCESS.
void check(VkResult r, const char* what);

}  // namespace twiddle::vk
