// What a twiddle::Context holds. Plans and buffers keep it alive through a shared_ptr.
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "twiddle/caps.hpp"
#include "twiddle/context.hpp"
#include "twiddle/tuning.hpp"
#include "vk/handles.hpp"
#include "vk/kernel_cache.hpp"

namespace twiddle {

namespace vk {
class Staging;
}

struct Context::State {
    VkInstance instance = VK_NULL_HANDLE;
    bool owns_instance = false;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    bool owns_device = false;
    uint32_t queue_family = 0;
    VkQueue queue = VK_NULL_HANDLE;

    DeviceCaps caps;
    VkPhysicalDeviceMemoryProperties memory{};
    PFN_vkCmdPushDescriptorSetKHR push_descriptor_set = nullptr;
    // Set when kernel statistics were asked for and the driver provides them.
    PFN_vkGetPipelineExecutableStatisticsKHR get_statistics = nullptr;

    std::mutex queue_mutex;  // guards the queue

    std::unique_ptr<vk::KernelCache> kernels;

    std::mutex messages_mutex;
    std::vector<std::string> messages;

    // Tuned planner choices (twiddle/tuning.hpp), read from the disk cache when first needed.
    std::mutex tuning_mutex;
    bool tuning_loaded = false;
    std::vector<TunedChoice> tuning;

    // Buffer::upload's and download's host-visible buffers (vk/staging.hpp), made on first use.
    std::mutex staging_mutex;
    std::unique_ptr<vk::Staging> staging;
    vk::Staging& stager();

    State() = default;
    State(const State&) = delete;
    State& operator=(const State&) = delete;
    ~State();

    // One-time command buffer from its own pool: record (no lock held, so `record` may submit
    // too), submit, wait.
    void submit(const std::function<void(VkCommandBuffer)>& record);
};

}  // namespace twiddle
