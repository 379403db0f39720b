#include "host_staging.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "twiddle/error.hpp"
#include "vk/memory_types.hpp"

namespace twiddle::dist::detail {

namespace {

void check(VkResult result, const char* what) {
    if (result == VK_SUCCESS) return;
    throw Error(std::string("dist: ") + what + " failed (VkResult " +
                std::to_string(static_cast<int>(result)) + ")");
}

}  // namespace

HostBuffer::HostBuffer(const Context& context, uint64_t bytes) : size_(bytes) {
    const VkDevice device = context.device();
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = std::max<uint64_t>(bytes, 16);
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    check(vkCreateBuffer(device, &info, nullptr, &buffer), "vkCreateBuffer (staging)");
    buffer_ = vk::UniqueBuffer(device, buffer);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, buffer, &req);
    const VkMemoryPropertyFlags required =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    VkPhysicalDeviceMemoryProperties memory_properties;
    vkGetPhysicalDeviceMemoryProperties(context.physical_device(), &memory_properties);
    const auto type = vk::find_memory_type(memory_properties, req.memoryTypeBits, required,
                                           required | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (!type)
        throw UnsupportedError("dist: the device has no host-visible, host-coherent memory for staging");
    alloc.memoryTypeIndex = *type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    check(vkAllocateMemory(device, &alloc, nullptr, &memory),
          ("vkAllocateMemory of " + std::to_string(req.size) + " bytes of host-visible memory").c_str());
    memory_ = vk::UniqueMemory(device, memory);
    check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory (staging)");
    void* p = nullptr;
    check(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory (staging)");
    mapped_ = static_cast<uint8_t*>(p);
}

Copier::Copier(const Context& context, uint32_t slots)
    : context_(context.state()), device_(context.device()), pending_(slots, false) {
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(context.physical_device(), &families, nullptr);
    std::vector<VkQueueFamilyProperties> family(families);
    vkGetPhysicalDeviceQueueFamilyProperties(context.physical_device(), &families, family.data());
    const uint32_t bits = family.at(context.queue_family()).timestampValidBits;
    if (bits > 0) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(context.physical_device(), &props);
        tick_seconds_ = props.limits.timestampPeriod * 1e-9;
        tick_mask_ = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
        VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        q.queryType = VK_QUERY_TYPE_TIMESTAMP;
        q.queryCount = 2 * slots;
        VkQueryPool queries = VK_NULL_HANDLE;
        check(vkCreateQueryPool(device_, &q, nullptr, &queries), "vkCreateQueryPool");
        queries_ = vk::UniqueQueryPool(device_, queries);
    }
    VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    info.queueFamilyIndex = context.queue_family();
    VkCommandPool pool = VK_NULL_HANDLE;
    check(vkCreateCommandPool(device_, &info, nullptr, &pool), "vkCreateCommandPool");
    pool_ = vk::UniqueCommandPool(device_, pool);
    commands_.resize(slots);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = slots;
    check(vkAllocateCommandBuffers(device_, &alloc, commands_.data()), "vkAllocateCommandBuffers");
    for (uint32_t i = 0; i < slots; ++i) {
        VkFenceCreateInfo f{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkFence fence = VK_NULL_HANDLE;
        check(vkCreateFence(device_, &f, nullptr, &fence), "vkCreateFence");
        fences_.emplace_back(device_, fence);
    }
}

Copier::~Copier() {
    // A submission still in flight must finish before its command buffer and fence go.
    for (size_t i = 0; i < fences_.size(); ++i)
        if (pending_[i]) {
            const VkFence fence = fences_[i].get();
            vkWaitForFences(device_, 1, &fence, VK_TRUE, std::numeric_limits<uint64_t>::max());
        }
}

void Copier::wait(uint32_t slot) {
    if (!pending_.at(slot)) return;
    const VkFence fence = fences_[slot].get();
    check(vkWaitForFences(device_, 1, &fence, VK_TRUE, std::numeric_limits<uint64_t>::max()),
          "vkWaitForFences (staging copy)");
    check(vkResetFences(device_, 1, &fence), "vkResetFences");
    pending_[slot] = false;
    if (queries_) {
        uint64_t ticks[2] = {};
        check(vkGetQueryPoolResults(device_, queries_.get(), 2 * slot, 2, sizeof ticks, ticks,
                                    sizeof ticks[0], VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              "vkGetQueryPoolResults (staging copy)");
        device_seconds_ += double((ticks[1] - ticks[0]) & tick_mask_) * tick_seconds_;
    }
}

void Copier::submit(uint32_t slot, VkBuffer src, VkBuffer dst, std::span<const VkBufferCopy> regions) {
    wait(slot);
    if (regions.empty()) return;
    VkCommandBuffer cmd = commands_.at(slot);
    check(vkResetCommandBuffer(cmd, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    // After the kernels' and earlier copies' writes (and the host's, which a submission makes
    // visible); before later kernels, copies and the host read what these write.
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
    // The copies' interval: from when the work before them is done to when they are.
    if (queries_) {
        vkCmdResetQueryPool(cmd, queries_.get(), 2 * slot, 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, queries_.get(), 2 * slot);
    }
    vkCmdCopyBuffer(cmd, src, dst, static_cast<uint32_t>(regions.size()), regions.data());
    if (queries_) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, queries_.get(), 2 * slot + 1);
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                          VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(
        cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0,
        1, &after, 0, nullptr, 0, nullptr);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    context_.submit_commands(std::span(&cmd, 1), fences_[slot].get());
    pending_[slot] = true;
}

void append_copies(std::vector<VkBufferCopy>& copies, const Box& region, const Box& src_box,
                   uint64_t src_base, const Box& dst_box, uint64_t dst_base, size_t element_bytes) {
    if (region.empty()) return;
    const size_t d = region.rank();
    const std::vector<uint64_t> s = src_box.shape(), t = dst_box.shape(), r = region.shape();
    const uint64_t row = r[d - 1] * element_bytes;
    // Every row of the region (all axes but the last), as a byte offset into both boxes.
    std::vector<int64_t> at(region.low);
    while (true) {
        uint64_t si = 0, di = 0;
        for (size_t k = 0; k < d; ++k) {
            si = si * s[k] + static_cast<uint64_t>(at[k] - src_box.low[k]);
            di = di * t[k] + static_cast<uint64_t>(at[k] - dst_box.low[k]);
        }
        const VkBufferCopy run{src_base + si * element_bytes, dst_base + di * element_bytes, row};
        VkBufferCopy* last = copies.empty() ? nullptr : &copies.back();
        if (last && last->srcOffset + last->size == run.srcOffset &&
            last->dstOffset + last->size == run.dstOffset)
            last->size += row;
        else
            copies.push_back(run);
        size_t k = d - 1;  // next row: count up axes d - 2 down to 0
        while (k > 0) {
            --k;
            if (++at[k] < region.high[k]) break;
            at[k] = region.low[k];
            if (k == 0) return;
        }
        if (d == 1) return;
    }
}

}  // namespace twiddle::dist::detail
