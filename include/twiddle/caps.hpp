// twiddle: what a device can do, as pure data. The planner reads only this, so plans can be made
// and tested without a device.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "twiddle/export.hpp"

namespace twiddle {

enum class DeviceType { other, integrated_gpu, discrete_gpu, virtual_gpu, cpu };

TWIDDLE_API std::string_view to_string(DeviceType t);

struct TWIDDLE_API DeviceCaps {
    std::string name;
    DeviceType type = DeviceType::other;
    uint32_t vendor_id = 0;
    uint32_t device_id = 0;
    uint32_t api_version = 0;     // VK_MAKE_API_VERSION encoding
    uint32_t driver_version = 0;  // vendor encoding
    std::string driver_name;
    std::string driver_info;
    std::array<uint8_t, 16> device_uuid{};
    std::array<uint8_t, 16> pipeline_cache_uuid{};

    uint32_t max_shared_memory_bytes = 0;  // maxComputeSharedMemorySize
    uint32_t max_workgroup_invocations = 0;
    std::array<uint32_t, 3> max_workgroup_size{};
    std::array<uint32_t, 3> max_workgroup_count{};
    uint64_t max_storage_buffer_range = 0;
    uint64_t min_storage_buffer_offset_alignment = 1;
    uint32_t max_push_constants_bytes = 0;
    uint64_t device_local_bytes = 0;  // size of the largest device-local heap

    uint32_t subgroup_size = 0;
    std::vector<std::string> subgroup_operations;  // "basic", "shuffle", ... in compute shaders

    bool shader_float64 = false;
    bool timestamps = false;  // the compute queue can write timestamps
    uint32_t timestamp_valid_bits = 0;
    double timestamp_period_ns = 0;  // nanoseconds per timestamp tick

    bool has_subgroup_operation(std::string_view op) const;
};

}  // namespace twiddle
