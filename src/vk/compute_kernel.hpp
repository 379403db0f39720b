// A compute pipeline whose storage buffers are bound with push descriptors, so recording needs
// no descriptor pools and a plan can be recorded with any buffers any number of times.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vk/compiler.hpp"
#include "vk/context_state.hpp"
#include "vk/handles.hpp"

namespace twiddle::vk {

class ComputeKernel {
public:
    // Compiles (or loads from the kernel cache) and builds the pipeline. `bindings` storage
    // buffers at bindings 0..bindings-1; `push_bytes` of push constants; `origin`: whether the
    // GLSL holds a caller's code (see KernelSource).
    ComputeKernel(Context::State& state, const std::string& glsl, const std::string& name, uint32_t bindings,
                  uint32_t push_bytes, KernelSource origin = KernelSource::generated);

    // Binds the pipeline, pushes the buffers and constants, and dispatches `workgroups` groups,
    // laid out over x and y when x alone would exceed the device's limit (kernels compute
    // their linear group index as x + y * num_groups.x and ignore groups past the end).
    void dispatch(VkCommandBuffer cmd, std::span<const VkDescriptorBufferInfo> buffers,
                  std::span<const uint8_t> push, uint64_t workgroups) const;

    // The driver's statistics of the compiled kernel (name, value), when the context captures
    // them; empty otherwise.
    std::vector<std::pair<std::string, std::string>> statistics() const;

private:
    Context::State* state_;
    uint32_t bindings_;
    uint32_t push_bytes_;
    UniqueSetLayout set_layout_;
    UniquePipelineLayout layout_;
    UniquePipeline pipeline_;
};

// Orders compute-shader writes before later compute-shader reads and writes.
void record_compute_barrier(VkCommandBuffer cmd);

}  // namespace twiddle::vk
