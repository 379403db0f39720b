// VkFFT (Debian's libvkfft-dev, a header-only library) on twiddle's Vulkan device: its kernels are
// GLSL compiled with glslang, recorded into twiddle's command buffers and timed with the same
// timestamps. The header is a copy patched at build time (tools/patch_vkfft.cmake).
#define VKFFT_BACKEND 0
#include <vkFFT.h>

#include "peers/peer.hpp"
#include "twiddle/error.hpp"
#include "vk/check.hpp"
#include "vk/memory.hpp"

namespace twiddle::cli {

namespace {

class VkfftPeer final : public Peer {
public:
    VkfftPeer(const Context& ctx, Buffers& buffers, bool lut)
        : ctx_(ctx),
          buffers_(buffers),
          lut_(lut),
          physical_(ctx.physical_device()),
          device_(ctx.device()),
          queue_(ctx.queue()) {
        // glslang counts its users: twiddle's compiler (shaderc) and VkFFT share it.
        if (!glslang_initialize_process()) throw Error("VkFFT: glslang_initialize_process failed");
        VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pool.queueFamilyIndex = ctx.queue_family();
        vk::check(vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool");
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        vk::check(vkCreateFence(device_, &fence, nullptr, &fence_), "vkCreateFence");
    }
    ~VkfftPeer() override {
        release();
        vkDestroyFence(device_, fence_, nullptr);
        vkDestroyCommandPool(device_, pool_, nullptr);
        glslang_finalize_process();
    }

    std::string name() const override { return "vkfft"; }
    std::string detail() const override {
        const int v = VkFFTGetVersion();
        return "VkFFT " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
               std::to_string(v % 100) + (lut_ ? " (useLUT)" : "") + " on " + ctx_.caps().name;
    }

    std::string prepare(const BenchCase& c, const CaseData&) override {
        const size_t rank = c.shape.size();
        if (rank > 3) return "unsupported: VkFFT transforms up to 3 dimensions";
        if (std::max(c.input_bytes(), c.output_bytes()) > buffers_.in.size())
            return "unsupported: case larger than the benchmark's buffers";
        inverse_ = c.direction == Direction::inverse;
        // VkFFT's forward transform reads inputBuffer (reals, for R2C) and writes buffer (the half
        // spectrum); its inverse reads buffer and, with inverseReturnToInputBuffer, writes
        // inputBuffer. So for the inverse, buffer is the harness's input and inputBuffer its output.
        input_buffer_ = inverse_ ? buffers_.out.handle() : buffers_.in.handle();
        buffer_ = inverse_ ? buffers_.in.handle() : buffers_.out.handle();
        input_buffer_bytes_ = inverse_ ? c.output_bytes() : c.input_bytes();
        buffer_bytes_ = inverse_ ? c.input_bytes() : c.output_bytes();
        VkFFTConfiguration config{};
        // VkFFT's size[0] is the fastest axis. A 1D or 2D batch is the next axis, which VkFFT does
        // not transform and may give several transforms per workgroup; a 3D batch is numberBatches.
        config.FFTdim = rank;
        for (size_t k = 0; k < 3; ++k) config.size[k] = k < rank ? c.shape[rank - 1 - k] : 1;
        if (rank < 3)
            config.size[rank] = c.batch;
        else
            config.numberBatches = c.batch;
        const uint64_t half = c.real ? c.shape.back() / 2 + 1 : c.shape.back();
        uint64_t input_stride = config.size[0], buffer_stride = half;
        for (size_t k = 0; k < 3; ++k) {
            config.inputBufferStride[k] = input_stride;
            config.bufferStride[k] = buffer_stride;
            if (k + 1 < 3) {
                input_stride *= config.size[k + 1];
                buffer_stride *= config.size[k + 1];
            }
        }
        config.performR2C = c.real ? 1 : 0;
        config.doublePrecision = c.precision == Precision::f64 ? 1 : 0;
        if (inverse_)
            config.makeInversePlanOnly = 1;
        else
            config.makeForwardPlanOnly = 1;
        config.useLUT = lut_ ? 1 : 0;
        // Out of place: between inputBuffer and buffer (above), in the inverse unnormalized.
        config.isInputFormatted = 1;
        config.inverseReturnToInputBuffer = inverse_ ? 1 : 0;
        config.inputBuffer = &input_buffer_;
        config.inputBufferSize = &input_buffer_bytes_;
        config.buffer = &buffer_;
        config.bufferSize = &buffer_bytes_;
        config.physicalDevice = &physical_;
        config.device = &device_;
        config.queue = &queue_;
        config.commandPool = &pool_;
        config.fence = &fence_;
        config.isCompilerInitialized = 1;
        app_ = VkFFTApplication{};
        const VkFFTResult result = initializeVkFFT(&app_, config);
        if (result != VKFFT_SUCCESS)
            return "unsupported: initializeVkFFT failed with VkFFTResult " + std::to_string(int(result));
        ready_ = true;
        return {};
    }

    void run() override {
        ctx_.submit([&](VkCommandBuffer cmd) {
            vk::record_full_barrier(cmd);
            record(cmd);
            vk::record_full_barrier(cmd);
        });
    }

    void read_output(void* dst, uint64_t offset, uint64_t bytes) override {
        buffers_.out.download(dst, bytes, offset);
    }

    double time_ms(uint32_t reps, double warm_up) override {
        return time_median(ctx_, reps, warm_up, [&](VkCommandBuffer cmd) { record(cmd); });
    }

    void release() override {
        if (ready_) deleteVkFFT(&app_);
        ready_ = false;
    }

private:
    void record(VkCommandBuffer cmd) {
        VkFFTLaunchParams launch{};
        launch.commandBuffer = &cmd;
        launch.inputBuffer = &input_buffer_;
        launch.buffer = &buffer_;
        const VkFFTResult result = VkFFTAppend(&app_, inverse_ ? 1 : -1, &launch);  // -1: forward
        if (result != VKFFT_SUCCESS)
            throw Error("VkFFTAppend failed with VkFFTResult " + std::to_string(int(result)));
    }

    const Context& ctx_;
    Buffers& buffers_;
    bool lut_;
    // VkFFT keeps pointers to these.
    VkPhysicalDevice physical_;
    VkDevice device_;
    VkQueue queue_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    // VkFFT's inputBuffer and buffer (see prepare()).
    VkBuffer input_buffer_ = VK_NULL_HANDLE, buffer_ = VK_NULL_HANDLE;
    uint64_t input_buffer_bytes_ = 0, buffer_bytes_ = 0;
    bool inverse_ = false;
    VkFFTApplication app_{};
    bool ready_ = false;
};

}  // namespace

std::unique_ptr<Peer> make_vkfft_peer(const Context& ctx, Buffers& buffers, bool lut) {
    return std::make_unique<VkfftPeer>(ctx, buffers, lut);
}

}  // namespace twiddle::cli
