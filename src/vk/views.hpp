// Buffer views as kernels bind them, and the checks every recording makes of them first.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

#include "twiddle/buffer.hpp"
#include "vk/context_state.hpp"

namespace twiddle::vk {

// Whether the first `a_bytes` of view a and the first `b_bytes` of view b share a byte.
bool overlap(const BufferView& a, uint64_t a_bytes, const BufferView& b, uint64_t b_bytes);

// A view as a descriptor range plus the element offset of the view within it: descriptor
// offsets must be multiples of minStorageBufferOffsetAlignment, views need not be.
struct Binding {
    VkDescriptorBufferInfo info;
    uint32_t element_offset;
};

// The binding of the first `bytes` of `v`, whose offset is a multiple of `element` bytes.
Binding bind(const Context::State& s, const BufferView& v, uint64_t bytes, uint32_t element);

// Throws twiddle::Error, with `what` (such as "Plan::record: input") leading the message, unless
// `v` has a buffer, holds `bytes`, starts on an `element` boundary (a complex element, where real
// arrays start too) and allows storage-buffer access; UnsupportedError when the binding would
// exceed the device's maxStorageBufferRange.
void check_view(const Context::State& s, const std::string& what, const BufferView& v, uint64_t bytes,
                uint32_t element);

// The whole of `b`; throws twiddle::Error, with `what` (such as "Plan::execute: the input") leading
// the message, when `b` lives on another device than the context of `s`.
BufferView whole_view(const Context::State& s, const std::string& what, const Buffer& b);

}  // namespace twiddle::vk
