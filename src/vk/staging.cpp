#include "vk/staging.hpp"

#include <algorithm>
#include <cstring>

namespace twiddle::vk {

namespace {

// Makes `buffer` two slots of memory `kind`, each of `bytes` rounded up (at most kSlotBytes) or
// more, as `slot_bytes` says.
void ensure_slots(Context::State& s, AllocatedBuffer& buffer, uint64_t& slot_bytes, uint64_t bytes,
                  VkBufferUsageFlags usage, MemoryKind kind) {
    const uint64_t want = std::min(Staging::kSlotBytes, (bytes + 255) / 256 * 256);
    if (slot_bytes >= want) return;
    buffer = {};  // free the smaller one first
    slot_bytes = 0;
    buffer = allocate_buffer(s, 2 * want, usage, kind);
    slot_bytes = want;
}

}  // namespace

void Staging::upload(Context::State& s, const void* data, uint64_t bytes, VkBuffer dst, uint64_t offset) {
    std::lock_guard lock(mutex_);
    ensure_slots(s, up_, up_slot_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::upload);
    Context::State::Submission copies[2];
    const auto* from = static_cast<const uint8_t*>(data);
    for (uint64_t at = 0, piece = 0; at < bytes; at += up_slot_, ++piece) {
        const uint64_t n = std::min(up_slot_, bytes - at), slot = (piece % 2) * up_slot_;
        copies[piece % 2].wait();  // the device has read this slot's previous piece
        std::memcpy(static_cast<uint8_t*>(up_.mapped) + slot, from + at, n);
        copies[piece % 2] = s.submit_async([&](VkCommandBuffer cmd) {
            record_full_barrier(cmd);
            record_copy(cmd, up_.buffer.get(), slot, dst, offset + at, n);
        });
    }
    for (auto& c : copies) c.wait();
}

void Staging::download(Context::State& s, VkBuffer src, uint64_t offset, void* data, uint64_t bytes) {
    std::lock_guard lock(mutex_);
    ensure_slots(s, down_, down_slot_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::readback);
    Context::State::Submission copies[2];
    const uint64_t pieces = (bytes + down_slot_ - 1) / down_slot_;
    auto fetch = [&](uint64_t piece) {
        const uint64_t at = piece * down_slot_, n = std::min(down_slot_, bytes - at);
        copies[piece % 2] = s.submit_async([&](VkCommandBuffer cmd) {
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
