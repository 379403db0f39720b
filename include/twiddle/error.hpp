// twiddle: errors. Every failure the library reports is a twiddle::Error.
#pragma once

#include <stdexcept>
#include <string>

#include "twiddle/export.hpp"

namespace twiddle {

// Base of every exception twiddle throws. The message names the offending field or call and
// the value that was refused.
class TWIDDLE_API Error : public std::runtime_error {
public:
    explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// The request is valid in principle but this device or this version cannot run it
// (a length that is not supported yet, a missing device feature, a buffer over the range limit).
class TWIDDLE_API UnsupportedError : public Error {
public:
    using Error::Error;
};

// A Vulkan call failed. `result()` is the VkResult as an integer.
class TWIDDLE_API VulkanError : public Error {
public:
    VulkanError(const std::string& what, int result) : Error(what), result_(result) {}
    int result() const noexcept { return result_; }

private:
    int result_;
};

}  // namespace twiddle
