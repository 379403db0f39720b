#include "peers/peer.hpp"
#include "twiddle/version.hpp"
#include "vk/memory.hpp"

namespace twiddle::cli {

TwiddlePeer::TwiddlePeer(const Context& ctx, Buffers& buffers, const Options& options)
    : ctx_(ctx), buffers_(buffers), options_(options) {}

std::string TwiddlePeer::detail() const {
    return std::string("twiddle ") + TWIDDLE_VERSION_STRING + " on " + ctx_.caps().name;
}

std::string TwiddlePeer::prepare(const BenchCase& c, const CaseData&) {
    plan_.emplace(ctx_, c.problem(c.batch), options_);
    direction_ = c.direction;
    const uint64_t in_bytes = plan_->desc().input_bytes(), out_bytes = plan_->desc().output_bytes();
    if (std::max(in_bytes, out_bytes) > buffers_.in.size())
        throw UnsupportedError("case larger than the benchmark's buffers");
    in_ = buffers_.in.view(0, in_bytes);
    out_ = buffers_.out.view(0, out_bytes);
    const uint64_t scratch_bytes = plan_->scratch_bytes(Placement::out_of_place);
    scratch_ = scratch_bytes ? buffers_.scratch_of(ctx_, scratch_bytes).view(0, scratch_bytes) : BufferView{};
    return {};
}

void TwiddlePeer::record(VkCommandBuffer cmd) const { plan_->record(cmd, in_, out_, scratch_, direction_); }

void TwiddlePeer::run() {
    ctx_.submit([&](VkCommandBuffer cmd) {
        vk::record_full_barrier(cmd);
        record(cmd);
        vk::record_full_barrier(cmd);
    });
}

void TwiddlePeer::read_output(void* dst, uint64_t offset, uint64_t bytes) {
    buffers_.out.download(dst, bytes, offset);
}

double TwiddlePeer::time_ms(uint32_t reps, double warm_up) { return round_medians(reps, warm_up).fastest(); }

vk::RoundMedians TwiddlePeer::round_medians(uint32_t reps, double warm_up) {
    return time_rounds(ctx_, reps, warm_up, [&](VkCommandBuffer cmd) { record(cmd); });
}

std::vector<double> TwiddlePeer::pass_times_ms(uint32_t reps, double warm_up) {
    std::vector<double> times;
    double before = 0;
    for (size_t p = 1; p <= plan_->passes(); ++p) {
        const double ms = time_median(ctx_, reps, warm_up, [&](VkCommandBuffer cmd) {
            (void)plan_->record_first_passes(cmd, in_, out_, scratch_, direction_, p);
        });
        times.push_back(ms - before);
        before = ms;
    }
    return times;
}

}  // namespace twiddle::cli
