// twiddle::GpuTimer: timestamp queries in pairs.
#include "twiddle/timer.hpp"

#include <limits>

#include "core/moved_from.hpp"
#include "twiddle/error.hpp"
#include "vk/check.hpp"
#include "vk/context_state.hpp"

namespace twiddle {

struct GpuTimer::Impl {
    std::shared_ptr<Context::State> state;
    vk::UniqueQueryPool pool;
    uint32_t intervals = 0;
    // Per interval, whether begin() and end() were recorded since the last reset() (bit 0, bit 1):
    // queries never written never become available, and waiting on them would not return.
    std::vector<uint8_t> recorded;
};

GpuTimer::GpuTimer(const Context& context, uint32_t intervals) : impl_(std::make_unique<Impl>()) {
    if (!context.caps().timestamps) throw UnsupportedError("the device's compute queue has no timestamps");
    if (intervals == 0) throw Error("GpuTimer needs at least one interval");
    impl_->state = context.state();
    impl_->intervals = intervals;
    impl_->recorded.assign(intervals, 0);
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2 * intervals;
    VkQueryPool pool = VK_NULL_HANDLE;
    vk::check(vkCreateQueryPool(context.device(), &info, nullptr, &pool), "vkCreateQueryPool");
    impl_->pool = vk::UniqueQueryPool(context.device(), pool);
}

GpuTimer::GpuTimer(GpuTimer&&) noexcept = default;
GpuTimer& GpuTimer::operator=(GpuTimer&&) noexcept = default;
GpuTimer::~GpuTimer() = default;
GpuTimer::Impl& GpuTimer::impl() const { return detail::held(impl_, "GpuTimer"); }

namespace {

// The command buffer and interval a recording call was given, or twiddle::Error naming `call`.
void check_recording(const char* call, VkCommandBuffer cmd, uint32_t interval, uint32_t intervals) {
    if (cmd == VK_NULL_HANDLE) throw Error(std::string("GpuTimer::") + call + ": command buffer is null");
    if (interval >= intervals)
        throw Error(std::string("GpuTimer::") + call + ": interval " + std::to_string(interval) +
                    " is out of range; the timer has " + std::to_string(intervals));
}

}  // namespace

void GpuTimer::reset(VkCommandBuffer cmd) const {
    check_recording("reset", cmd, 0, impl().intervals);
    vkCmdResetQueryPool(cmd, impl().pool.get(), 0, 2 * impl().intervals);
    impl().recorded.assign(impl().intervals, 0);
}

void GpuTimer::begin(VkCommandBuffer cmd, uint32_t interval) const {
    check_recording("begin", cmd, interval, impl().intervals);
    // Written once every earlier command has finished: the interval starts when prior work ends.
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, impl().pool.get(), 2 * interval);
    impl().recorded[interval] |= 1;
}

void GpuTimer::end(VkCommandBuffer cmd, uint32_t interval) const {
    check_recording("end", cmd, interval, impl().intervals);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, impl().pool.get(), 2 * interval + 1);
    impl().recorded[interval] |= 2;
}

std::vector<double> GpuTimer::read_ms() const {
    const Impl& t = impl();
    const double ns = t.state->caps.timestamp_period_ns;
    // Counters narrower than 64 bits wrap; the difference modulo their width is the interval.
    const uint32_t bits = t.state->caps.timestamp_valid_bits;
    const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    std::vector<double> out(t.intervals, std::numeric_limits<double>::quiet_NaN());
    for (uint32_t i = 0; i < t.intervals; ++i) {
        if (t.recorded[i] != 3) continue;
        uint64_t ticks[2] = {};
        vk::check(vkGetQueryPoolResults(t.state->device, t.pool.get(), 2 * i, 2, sizeof ticks, ticks,
                                        sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                  "vkGetQueryPoolResults");
        out[i] = static_cast<double>((ticks[1] - ticks[0]) & mask) * ns * 1e-6;
    }
    return out;
}

}  // namespace twiddle
