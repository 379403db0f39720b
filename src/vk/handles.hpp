// Move-only RAII owners for Vulkan handles. A handle made by a device is destroyed with that
// device's destroy function; a null handle destroys nothing.
#pragma once

#include <vulkan/vulkan.h>

#include <utility>

namespace twiddle::vk {

template <typename T, void (*Destroy)(VkDevice, T, const VkAllocationCallbacks*)>
class DeviceHandle {
public:
    DeviceHandle() = default;
    DeviceHandle(VkDevice device, T handle) : device_(device), handle_(handle) {}
    DeviceHandle(DeviceHandle&& o) noexcept
        : device_(o.device_), handle_(std::exchange(o.handle_, VK_NULL_HANDLE)) {}
    DeviceHandle& operator=(DeviceHandle&& o) noexcept {
        if (this != &o) {
            reset();
            device_ = o.device_;
            handle_ = std::exchange(o.handle_, VK_NULL_HANDLE);
        }
        return *this;
    }
    DeviceHandle(const DeviceHandle&) = delete;
    DeviceHandle& operator=(const DeviceHandle&) = delete;
    ~DeviceHandle() { reset(); }

    void reset() {
        if (handle_ != VK_NULL_HANDLE) Destroy(device_, handle_, nullptr);
        handle_ = VK_NULL_HANDLE;
    }
    T get() const { return handle_; }
    explicit operator bool() const { return handle_ != VK_NULL_HANDLE; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    T handle_ = VK_NULL_HANDLE;
};

using UniqueBuffer = DeviceHandle<VkBuffer, vkDestroyBuffer>;
using UniqueMemory = DeviceHandle<VkDeviceMemory, vkFreeMemory>;
using UniqueShaderModule = DeviceHandle<VkShaderModule, vkDestroyShaderModule>;
using UniquePipeline = DeviceHandle<VkPipeline, vkDestroyPipeline>;
using UniquePipelineLayout = DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout>;
using UniqueSetLayout = DeviceHandle<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using UniquePipelineCache = DeviceHandle<VkPipelineCache, vkDestroyPipelineCache>;
using UniqueCommandPool = DeviceHandle<VkCommandPool, vkDestroyCommandPool>;
using UniqueFence = DeviceHandle<VkFence, vkDestroyFence>;
using UniqueQueryPool = DeviceHandle<VkQueryPool, vkDestroyQueryPool>;

}  // namespace twiddle::vk
