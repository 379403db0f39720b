// The host side of twiddle::dist's exchanges: host-visible buffers that MPI reads and writes in
// place, and device copies into and out of them, submitted without waiting. Made from a
// Context's public handles only (libtwiddle_dist links the public libtwiddle).
//
// A reshape packs on the device: one vkCmdCopyBuffer per chunk copies every run of the rank's
// box that another rank's new box holds straight to its place in a host-visible send buffer;
// MPI_Alltoallv reads that and writes a host-visible receive buffer; one more copy scatters the
// received runs into the new box. The host copies nothing itself.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "twiddle/context.hpp"
#include "twiddle/dist.hpp"
#include "vk/handles.hpp"

namespace twiddle::dist::detail {

// A buffer in host-visible, host-coherent memory (host-cached where the device offers it, as MPI
// reads it), mapped while it lives. Move-only.
class HostBuffer {
public:
    HostBuffer() = default;
    HostBuffer(const Context& context, uint64_t bytes);

    uint8_t* data() const { return mapped_; }
    VkBuffer handle() const { return buffer_.get(); }
    uint64_t size() const { return size_; }

private:
    vk::UniqueMemory memory_;  // freeing it unmaps it
    vk::UniqueBuffer buffer_;  // destroyed first
    uint8_t* mapped_ = nullptr;
    uint64_t size_ = 0;
};

// Buffer-to-buffer copies on the context's queue, each slot a command buffer and a fence: submit()
// returns once the copies are queued; wait() returns once the slot's last copies are done and
// visible to the host and to later work on the queue. Submissions go through the context's queue
// lock (Context::submit_commands), so other threads may use the context meanwhile. Destruction
// waits for every slot. Where the queue has timestamps, each submission's copies are timed on the
// device.
class Copier {
public:
    Copier(const Context& context, uint32_t slots);
    Copier(const Copier&) = delete;
    Copier& operator=(const Copier&) = delete;
    ~Copier();

    // Waits for the slot's earlier copies, then queues `regions` from src to dst (none: nothing
    // is queued), after every earlier command of the queue.
    void submit(uint32_t slot, VkBuffer src, VkBuffer dst, std::span<const VkBufferCopy> regions);
    void wait(uint32_t slot);
    // Seconds the device spent on the copies waited for so (from the first timestamp of a
    // submission to its last), and whether it could tell (the queue has timestamps).
    double device_seconds() const { return device_seconds_; }
    bool timed() const { return static_cast<bool>(queries_); }

private:
    Context context_;  // a handle sharing the caller's device and queue, kept while the copier lives
    VkDevice device_ = VK_NULL_HANDLE;
    vk::UniqueCommandPool pool_;
    std::vector<VkCommandBuffer> commands_;  // the pool's, freed with it
    std::vector<vk::UniqueFence> fences_;
    std::vector<bool> pending_;
    vk::UniqueQueryPool queries_;  // two timestamps a slot
    double tick_seconds_ = 0;      // timestampPeriod
    uint64_t tick_mask_ = 0;       // timestampValidBits
    double device_seconds_ = 0;
};

// Appends the copies that move the elements of `region` from `src` (holding src_box packed in C
// order, from byte src_base) to `dst` (dst_box so, from dst_base): one per run of the region's
// last axis, runs that follow each other on both sides merged into one. region lies in both boxes.
void append_copies(std::vector<VkBufferCopy>& copies, const Box& region, const Box& src_box,
                   uint64_t src_base, const Box& dst_box, uint64_t dst_base, size_t element_bytes);

}  // namespace twiddle::dist::detail
