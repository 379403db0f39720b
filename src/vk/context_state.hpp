// What a twiddle::Context holds. Plans and buffers keep it alive through a shared_ptr.
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
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

// The lock that serializes submissions to `queue` in the process, whichever contexts make them.
std::mutex& queue_lock(VkQueue queue);

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

    std::unique_ptr<vk::KernelCache> kernels;

    std::mutex messages_mutex;
    std::vector<std::string> messages;

    // Tuned planner choices (twiddle/tuning.hpp), read from the disk cache when first needed.
    std::mutex tuning_mutex;
    bool tuning_loaded = false;
    std::vector<TunedChoice> tuning;
    // Choices added since the file could last be written: each later save adds them again.
    std::vector<TunedChoice> tuning_unsaved;
    // Whether a choice (keyed by its line) still plans as it was timed: checked once per context.
    std::map<std::string, bool> tuning_current;

    // Buffer::upload's and download's host-visible buffers (vk/staging.hpp), made on first use.
    std::mutex staging_mutex;
    std::unique_ptr<vk::Staging> staging;
    vk::Staging& stager();

    State() = default;
    State(const State&) = delete;
    State& operator=(const State&) = delete;
    ~State();

    // A command buffer with its own pool and a fence, kept for the next submission once its own
    // is done: making a pool and a fence for every submission cost about 0.5 ms on NVIDIA's
    // driver (H200, 580.159), ten times the submission itself (bench/RESULTS.md, twenty-ninth run).
    struct Recorder {
        vk::UniqueCommandPool pool;
        VkCommandBuffer cmd = VK_NULL_HANDLE;  // the pool's
        vk::UniqueFence fence;                 // unsignaled while idle
    };
    std::mutex recorders_mutex;
    std::vector<std::unique_ptr<Recorder>> idle_recorders;

    // A submitted command buffer: wait() returns once the device has run it, and hands its
    // recorder back. Destroying one waits too, so that nothing the device still runs is freed or
    // reused, even when a later step throws.
    class Submission {
    public:
        Submission() = default;
        Submission(Submission&& o) noexcept;
        Submission& operator=(Submission&& o) noexcept;
        ~Submission();
        void wait();

    private:
        friend struct State;
        void settle() noexcept;
        State* state_ = nullptr;
        std::unique_ptr<Recorder> recorder_;  // null once waited for
    };
    // Records (no lock held, so `record` may submit too) and submits.
    Submission submit_async(const std::function<void(VkCommandBuffer)>& record);
    // submit_async, then wait.
    void submit(const std::function<void(VkCommandBuffer)>& record);
    // vkQueueSubmit of at most 2^32 - 1 recorded command buffers; takes queue_lock(queue). Every
    // submission to the queue, twiddle's own and Context::submit_commands', goes through here.
    void queue_submit(std::span<const VkCommandBuffer> commands, VkFence fence);
};

}  // namespace twiddle
