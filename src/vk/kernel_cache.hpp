// Kernels from GLSL: SPIR-V compiled once per source and device and kept on disk, plus the
// driver's VkPipelineCache, also kept on disk. Keys hash the generator version, the device
// UUID, the driver version, the compiler and its passes (compiler_version), the source, and
// whether the source holds a caller's code (KernelSource).
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "twiddle/caps.hpp"
#include "vk/compiler.hpp"
#include "vk/disk_cache.hpp"
#include "vk/handles.hpp"

namespace twiddle::vk {

class KernelCache {
public:
    // dump_dir: where to write every generated shader (TWIDDLE_DUMP_SHADERS), or nullopt.
    // validate_entries: check each entry read from disk with SPIRV-Tools' validator (valid_spirv)
    // before the driver sees it. The validation layer crashes on invalid SPIR-V, so a context
    // with the layer asks for it; others do not, since it costs 0.4 to 4 ms a kernel on the
    // 2-core build machine, against the warm plan's 5 ms (the frame's checksum keeps out damage).
    KernelCache(VkDevice device, const DeviceCaps& caps, std::optional<std::filesystem::path> cache_dir,
                std::optional<std::filesystem::path> dump_dir, bool validate_entries);

    // Calls `make_pipeline` with SPIR-V for a compute shader: from disk when a valid entry exists,
    // else compiled (compile_compute) and stored. An entry whose frame and checksum hold can still
    // be SPIR-V the driver rejects (a crafted file): where the validator (validate_entries)
    // rejects it, or `make_pipeline` throws VulkanError for words from disk, the entry is a miss,
    // compiled afresh and overwritten, and `make_pipeline` runs again; what it throws for fresh
    // words (out of memory, a lost device) is thrown.
    void build(const std::string& glsl, const std::string& name, KernelSource origin,
               const std::function<void(std::span<const uint32_t>)>& make_pipeline);

    VkPipelineCache pipeline_cache() const { return pipeline_cache_.get(); }
    // Writes the pipeline cache to disk if it may have grown since it was read.
    void save();

    // The disk cache, and the part of file names that ties an entry to this device and driver.
    const DiskCache& disk() const { return disk_; }
    std::string device_key() const;

    // Kernels compiled and kernels found on disk since creation.
    uint64_t compiled() const { return compiled_.load(); }
    uint64_t loaded() const { return loaded_.load(); }
    // Milliseconds since creation, summed over kernels (which compile on threads of their own):
    // compiling SPIR-V (shaderc), and building pipelines (the driver; ComputeKernel adds it).
    double compile_ms() const { return compile_ns_.load() * 1e-6; }
    double pipeline_ms() const { return pipeline_ns_.load() * 1e-6; }
    void add_pipeline_time(std::chrono::nanoseconds t) { pipeline_ns_ += t.count(); }

private:
    std::string pipeline_cache_name() const;

    VkDevice device_;
    DeviceCaps caps_;
    DiskCache disk_;
    std::optional<std::filesystem::path> dump_dir_;
    bool validate_entries_;
    UniquePipelineCache pipeline_cache_;
    std::mutex mutex_;
    bool dirty_ = false;
    std::atomic<uint64_t> compiled_{0};
    std::atomic<uint64_t> loaded_{0};
    std::atomic<int64_t> compile_ns_{0};
    std::atomic<int64_t> pipeline_ns_{0};
};

}  // namespace twiddle::vk
