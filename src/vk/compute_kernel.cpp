#include "vk/compute_kernel.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "twiddle/error.hpp"
#include "vk/check.hpp"

namespace twiddle::vk {

ComputeKernel::ComputeKernel(Context::State& state, const std::string& glsl, const std::string& name,
                             uint32_t bindings, uint32_t push_bytes, KernelSource origin)
    : state_(&state), bindings_(bindings), push_bytes_(push_bytes) {
    const VkDevice device = state.device;
    std::vector<VkDescriptorSetLayoutBinding> b(bindings);
    for (uint32_t i = 0; i < bindings; ++i)
        b[i] = VkDescriptorSetLayoutBinding{i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                            VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    set_info.bindingCount = bindings;
    set_info.pBindings = b.data();
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    check(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout),
          "vkCreateDescriptorSetLayout");
    set_layout_ = UniqueSetLayout(device, set_layout);

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = push_bytes ? &range : nullptr;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    check(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
    layout_ = UniquePipelineLayout(device, layout);

    state.kernels->build(glsl, name, origin, [&](std::span<const uint32_t> spirv) {
        const auto start = std::chrono::steady_clock::now();
        VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        module_info.codeSize = spirv.size_bytes();
        module_info.pCode = spirv.data();
        VkShaderModule module = VK_NULL_HANDLE;
        check(vkCreateShaderModule(device, &module_info, nullptr, &module), "vkCreateShaderModule");
        UniqueShaderModule owned_module(device, module);

        VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        info.stage = VkPipelineShaderStageCreateInfo{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.layout = layout;
        if (state.get_statistics) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        VkPipeline pipeline = VK_NULL_HANDLE;
        check(vkCreateComputePipelines(device, state.kernels->pipeline_cache(), 1, &info, nullptr, &pipeline),
              "vkCreateComputePipelines");
        pipeline_ = UniquePipeline(device, pipeline);
        state.kernels->add_pipeline_time(std::chrono::steady_clock::now() - start);
    });
}

void ComputeKernel::dispatch(VkCommandBuffer cmd, std::span<const VkDescriptorBufferInfo> buffers,
                             std::span<const uint8_t> push, uint64_t workgroups) const {
    if (buffers.size() != bindings_ || push.size() != push_bytes_)
        throw Error("internal: kernel dispatched with the wrong number of buffers or push bytes");
    if (workgroups == 0) return;
    std::vector<VkWriteDescriptorSet> writes(bindings_);
    for (uint32_t i = 0; i < bindings_; ++i) {
        writes[i] = VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &buffers[i];
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
    state_->push_descriptor_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, bindings_,
                                writes.data());
    if (push_bytes_)
        vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes_, push.data());
    const uint64_t max_x = state_->caps.max_workgroup_count[0];
    const uint64_t x = std::min(workgroups, max_x);
    const uint64_t y = (workgroups + x - 1) / x;
    if (y > state_->caps.max_workgroup_count[1])
        throw UnsupportedError(std::to_string(workgroups) + " workgroups exceed the dispatch limit");
    vkCmdDispatch(cmd, static_cast<uint32_t>(x), static_cast<uint32_t>(y), 1);
}

std::vector<std::pair<std::string, std::string>> ComputeKernel::statistics() const {
    std::vector<std::pair<std::string, std::string>> out;
    if (!state_->get_statistics) return out;
    VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    info.pipeline = pipeline_.get();
    info.executableIndex = 0;
    uint32_t count = 0;
    if (state_->get_statistics(state_->device, &info, &count, nullptr) != VK_SUCCESS) return out;
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (state_->get_statistics(state_->device, &info, &count, stats.data()) != VK_SUCCESS) return out;
    for (const auto& s : stats) {
        std::string value;
        switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
            value = s.value.b32 ? "true" : "false";
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = std::to_string(s.value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = std::to_string(s.value.u64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: value = std::to_string(s.value.f64); break;
        default: break;
        }
        out.emplace_back(s.name, value);
    }
    return out;
}

void record_compute_barrier(VkCommandBuffer cmd) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                         1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace twiddle::vk
