// Staged transfers between host memory and device-local buffers (Buffer::upload and download),
// through host-visible buffers a context keeps.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>

#include "vk/context_state.hpp"
#include "vk/memory.hpp"

namespace twiddle::vk {

// Two slots per direction, made on first use and kept, grown to the largest transfer up to
// kSlotBytes a slot. A transfer moves in pieces of a slot, alternating slots, so that the host's
// copy of one piece overlaps the device's copy of the other. Host-visible memory allocated for
// every transfer, as before, cost more than the copy: on the H200, bench --mpi's host-staged
// exchange of 512 MiB a rank (download, MPI_Alltoall, upload) took 1.3 s that way
// (bench/RESULTS.md, twenty-eighth run). Transfers on one context take turns.
class Staging {
public:
    static constexpr uint64_t kSlotBytes = uint64_t(32) << 20;

    // Copies `bytes` of `data` into `dst` at `offset`; returns once they are there.
    void upload(Context::State& s, const void* data, uint64_t bytes, VkBuffer dst, uint64_t offset);
    // Copies `bytes` of `src` at `offset` into `data`, after every earlier submission's writes.
    void download(Context::State& s, VkBuffer src, uint64_t offset, void* data, uint64_t bytes);

private:
    std::mutex mutex_;
    AllocatedBuffer up_, down_;  // two slots of slot_bytes_ each
    uint64_t up_slot_ = 0, down_slot_ = 0;
};

}  // namespace twiddle::vk
