#include "vk/staging.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <utility>

#include "vk/check.hpp"

namespace twiddle::vk {

namespace {

// One submitted command buffer: its pool and fence. Waits for the fence before it lets go of
// either, so that nothing the device still runs is destroyed, even when a later step throws.
class InFlight {
public:
    InFlight() = default;
    InFlight(Context::State& s, const std::function<void(VkCommandBuffer)>& record) : device_(s.device) {
        VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pool_info.queueFamilyIndex = s.queue_family;
        VkCommandPool pool = VK_NULL_HANDLE;
        check(vkCreateCommandPool(s.device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
        pool_ = UniqueCommandPool(s.device, pool);
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        check(vkAllocateCommandBuffers(s.device, &alloc, &cmd), "vkAllocateCommandBuffers");
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
        record(cmd);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkFence fence = VK_NULL_HANDLE;
        check(vkCreateFence(s.device, &fence_info, nullptr, &fence), "vkCreateFence");
        fence_ = UniqueFence(s.device, fence);
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        std::lock_guard lock(s.queue_mutex);
        check(vkQueueSubmit(s.queue, 1, &submit, fence), "vkQueueSubmit");
        submitted_ = true;
    }
    InFlight(InFlight&& o) noexcept
        : device_(o.device_),
          pool_(std::move(o.pool_)),
          fence_(std::move(o.fence_)),
          submitted_(std::exchange(o.submitted_, false)) {}
    InFlight& operator=(InFlight&& o) noexcept {
        if (this != &o) {
            settle();
            device_ = o.device_;
            pool_ = std::move(o.pool_);
            fence_ = std::move(o.fence_);
            submitted_ = std::exchange(o.submitted_, false);
        }
        return *this;
    }
    ~InFlight() { settle(); }

    // Waits until the device has run it (at once where nothing was submitted).
    void wait() {
        if (!submitted_) return;
        const VkFence fence = fence_.get();
        submitted_ = false;
        check(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    }

private:
    void settle() noexcept {
        if (!submitted_) return;
        const VkFence fence = fence_.get();
        vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX);
        submitted_ = false;
    }

    VkDevice device_ = VK_NULL_HANDLE;
    UniqueCommandPool pool_;
    UniqueFence fence_;
    bool submitted_ = false;
};

// Makes `buffer` two slots of at least `slot` bytes each (up to kSlotBytes) of memory `kind`.
void ensure_slots(Context::State& s, AllocatedBuffer& buffer, uint64_t& slot_bytes, uint64_t bytes,
                  VkBufferUsageFlags usage, MemoryKind kind) {
    const uint64_t want = std::min(Staging::kSlotBytes, (bytes + 255) / 256 * 256);
    if (slot_bytes >= want) return;
    buffer = {};  // free the smaller one first
    buffer = allocate_buffer(s, 2 * want, usage, kind);
    slot_bytes = want;
}

}  // namespace

void Staging::upload(Context::State& s, const void* data, uint64_t bytes, VkBuffer dst, uint64_t offset) {
    std::lock_guard lock(mutex_);
    ensure_slots(s, up_, up_slot_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::upload);
    InFlight copies[2];
    const auto* from = static_cast<const uint8_t*>(data);
    for (uint64_t at = 0, piece = 0; at < bytes; at += up_slot_, ++piece) {
        const uint64_t n = std::min(up_slot_, bytes - at), slot = (piece % 2) * up_slot_;
        copies[piece % 2].wait();  // the device has read this slot's previous piece
        std::memcpy(static_cast<uint8_t*>(up_.mapped) + slot, from + at, n);
        copies[piece % 2] = InFlight(s, [&](VkCommandBuffer cmd) {
            record_full_barrier(cmd);
            record_copy(cmd, up_.buffer.get(), slot, dst, offset + at, n);
        });
    }
    for (InFlight& c : copies) c.wait();
}

void Staging::download(Context::State& s, VkBuffer src, uint64_t offset, void* data, uint64_t bytes) {
    std::lock_guard lock(mutex_);
    ensure_slots(s, down_, down_slot_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::readback);
    InFlight copies[2];
    const uint64_t pieces = (bytes + down_slot_ - 1) / down_slot_;
    auto fetch = [&](uint64_t piece) {
        const uint64_t at = piece * down_slot_, n = std::min(down_slot_, bytes - at);
        copies[piece % 2] = InFlight(s, [&](VkCommandBuffer cmd) {
            record_full_barrier(cmd);
            record_copy(cmd, src, offset + at, down_.buffer.get(), (piece % 2) * down_slot_, n);
        });
    };
    for (uint64_t piece = 0; piece < std::min<uint64_t>(pieces, 2); ++piece) fetch(piece);
    auto* to = static_cast<uint8_t*>(data);
    for (uint64_t piece = 0; piece < pieces; ++piece) {
        const uint64_t at = piece * down_slot_, n = std::min(down_slot_, bytes - at);
        copies[piece % 2].wait();
        std::memcpy(to + at, static_cast<const uint8_t*>(down_.mapped) + (piece % 2) * down_slot_, n);
        if (piece + 2 < pieces) fetch(piece + 2);
    }
}

}  // namespace twiddle::vk
