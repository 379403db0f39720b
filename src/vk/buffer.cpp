// twiddle::Buffer: a device-local storage buffer with staged transfers.

#include "twiddle/buffer.hpp"
#include "core/moved_from.hpp"
#include "twiddle/error.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"
#include "vk/staging.hpp"

namespace twiddle {

struct Buffer::Impl {
    std::shared_ptr<Context::State> state;
    vk::AllocatedBuffer buffer;
};

namespace {

void check_range(const char* what, uint64_t offset, uint64_t bytes, uint64_t size) {
    if (offset > size || bytes > size - offset)
        throw Error(std::string("Buffer::") + what + ": range of " + std::to_string(bytes) +
                    " bytes at offset " + std::to_string(offset) + " exceeds the buffer's " +
                    std::to_string(size) + " bytes");
}

void check_host(const char* what, const void* data, uint64_t bytes) {
    if (data == nullptr && bytes > 0)
        throw Error(std::string("Buffer::") + what + ": host memory is null for " + std::to_string(bytes) +
                    " bytes");
}

}  // namespace

Buffer::Buffer(const Context& context, uint64_t bytes) : impl_(std::make_unique<Impl>()) {
    if (bytes == 0) throw Error("Buffer size must be > 0 bytes");
    impl_->state = context.state();
    impl_->buffer =
        vk::allocate_buffer(*impl_->state, bytes,
                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            vk::MemoryKind::device_local);
}

Buffer::Buffer(Buffer&&) noexcept = default;
Buffer& Buffer::operator=(Buffer&&) noexcept = default;
Buffer::~Buffer() = default;
Buffer::Impl& Buffer::impl() const { return detail::held(impl_, "Buffer"); }

uint64_t Buffer::size() const { return impl().buffer.size; }
VkBuffer Buffer::handle() const { return impl().buffer.buffer.get(); }
VkDevice Buffer::device() const { return impl().state->device; }

BufferView Buffer::view(uint64_t offset, uint64_t size) const {
    const uint64_t total = impl().buffer.size;
    if (size == 0) size = offset <= total ? total - offset : 0;
    check_range("view", offset, size, total);
    return BufferView{handle(), offset, size, impl().buffer.usage};
}

void Buffer::upload(const void* data, uint64_t bytes, uint64_t offset) {
    check_range("upload", offset, bytes, size());
    check_host("upload", data, bytes);
    if (bytes == 0) return;
    impl().state->stager().upload(*impl().state, data, bytes, handle(), offset);
}

void Buffer::download(void* data, uint64_t bytes, uint64_t offset) const {
    check_range("download", offset, bytes, size());
    check_host("download", data, bytes);
    if (bytes == 0) return;
    impl().state->stager().download(*impl().state, handle(), offset, data, bytes);
}

void Buffer::fill(uint32_t word, uint64_t offset, uint64_t bytes) {
    if (bytes == 0) bytes = offset <= size() ? size() - offset : 0;
    check_range("fill", offset, bytes, size());
    if (offset % 4 != 0 || bytes % 4 != 0)
        throw Error("Buffer::fill: offset and size must be multiples of 4 bytes");
    if (bytes == 0) return;
    impl().state->submit([&](VkCommandBuffer cmd) {
        vk::record_full_barrier(cmd);
        vkCmdFillBuffer(cmd, handle(), offset, bytes, word);
        vk::record_full_barrier(cmd);
    });
}

}  // namespace twiddle
