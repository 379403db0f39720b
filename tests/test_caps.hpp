// Device capabilities of real devices, for tests that plan without a device.
#pragma once

#include "twiddle/caps.hpp"

namespace twiddle::testing {

// Mesa lavapipe 22.3 (llvmpipe) as Debian 12 ships it.
inline DeviceCaps lavapipe_caps() {
    DeviceCaps c;
    c.name = "llvmpipe (test preset)";
    c.type = DeviceType::cpu;
    c.max_shared_memory_bytes = 32768;
    c.max_workgroup_invocations = 1024;
    c.max_workgroup_size = {1024, 1024, 1024};
    c.max_workgroup_count = {65535, 65535, 65535};
    c.max_storage_buffer_range = 134217728;
    c.min_storage_buffer_offset_alignment = 16;
    c.max_push_constants_bytes = 128;
    c.subgroup_size = 8;
    c.subgroup_operations = {"basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle_relative", "quad"};
    c.shader_float64 = true;
    return c;
}

// NVIDIA H200 through NVIDIA's Vulkan driver, as DESIGN.md records it.
inline DeviceCaps h200_caps() {
    DeviceCaps c;
    c.name = "NVIDIA H200 (test preset)";
    c.type = DeviceType::discrete_gpu;
    c.max_shared_memory_bytes = 49152;
    c.max_workgroup_invocations = 1024;
    c.max_workgroup_size = {1024, 1024, 64};
    c.max_workgroup_count = {2147483647, 65535, 65535};
    c.max_storage_buffer_range = 4294967295ull;
    c.min_storage_buffer_offset_alignment = 16;
    c.max_push_constants_bytes = 256;
    c.subgroup_size = 32;
    c.subgroup_operations = {"basic",     "vote", "arithmetic", "ballot", "shuffle", "shuffle_relative",
                             "clustered", "quad"};
    c.shader_float64 = true;
    return c;
}

}  // namespace twiddle::testing
