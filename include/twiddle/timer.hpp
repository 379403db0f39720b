// twiddle: GPU timestamps around recorded work.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "twiddle/context.hpp"
#include "twiddle/export.hpp"

namespace twiddle {

// Up to `intervals` timed intervals in one command buffer:
//   timer.reset(cmd); timer.begin(cmd, 0); ...work...; timer.end(cmd, 0); submit; timer.read_ms();
class TWIDDLE_API GpuTimer {
public:
    GpuTimer(const Context& context, uint32_t intervals);
    GpuTimer(GpuTimer&&) noexcept;
    GpuTimer& operator=(GpuTimer&&) noexcept;
    ~GpuTimer();

    void reset(VkCommandBuffer cmd) const;
    void begin(VkCommandBuffer cmd, uint32_t interval) const;
    void end(VkCommandBuffer cmd, uint32_t interval) const;
    // Milliseconds of each interval, after the command buffer completed; NaN for an interval
    // whose begin() or end() was not recorded since the last reset(). The timer keeps what the
    // last reset() to now recorded, so read before recording it into another command buffer, and
    // record one timer from one thread at a time.
    std::vector<double> read_ms() const;

private:
    struct Impl;
    Impl& impl() const;  // throws twiddle::Error once moved from
    std::unique_ptr<Impl> impl_;
};

}  // namespace twiddle
