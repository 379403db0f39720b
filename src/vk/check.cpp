#include "vk/check.hpp"

#include "twiddle/error.hpp"

namespace twiddle::vk {

const char* result_name(VkResult r) {
    switch (r) {
        // clang-format off
#define TWIDDLE_CASE(x) case x: return #x;
    TWIDDLE_CASE(VK_SUCCESS)
    TWIDDLE_CASE(VK_NOT_READY)
    TWIDDLE_CASE(VK_TIMEOUT)
    TWIDDLE_CASE(VK_INCOMPLETE)
    TWIDDLE_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    TWIDDLE_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    TWIDDLE_CASE(VK_ERROR_INITIALIZATION_FAILED)
    TWIDDLE_CASE(VK_ERROR_DEVICE_LOST)
    TWIDDLE_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    TWIDDLE_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    TWIDDLE_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    TWIDDLE_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    TWIDDLE_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    TWIDDLE_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    TWIDDLE_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    TWIDDLE_CASE(VK_ERROR_FRAGMENTED_POOL)
    TWIDDLE_CASE(VK_ERROR_UNKNOWN)
    TWIDDLE_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    TWIDDLE_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    TWIDDLE_CASE(VK_ERROR_FRAGMENTATION)
    TWIDDLE_CASE(VK_PIPELINE_COMPILE_REQUIRED)
#undef TWIDDLE_CASE
        // clang-format on
    default: return "VK_RESULT_UNKNOWN";
    }
}

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS)
        throw VulkanError(std::string(what) + " failed: " + result_name(r) + " (" +
                              std::to_string(static_cast<int>(r)) + ")",
                          static_cast<int>(r));
}

}  // namespace twiddle::vk
