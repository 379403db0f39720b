// twiddle in one page: plan a batch of 1D complex transforms, run it forward, check a few bins
// against the definition computed on the CPU, then run the inverse inside a command buffer of our
// own and check that the round trip gives the input back.
//
// Build it against an installed twiddle with CMake (find_package(twiddle), link twiddle::twiddle)
// or with pkg-config: c++ -std=c++20 minimal.cpp $(pkg-config --cflags --libs twiddle)
#include <twiddle/twiddle.hpp>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

using Complex = std::complex<float>;

constexpr uint64_t kLength = 1024;  // points per transform
constexpr uint64_t kBatch = 16;     // transforms, stored one after another
constexpr double kBound = 1e-4;     // largest relative error accepted (f32 arithmetic)

// Bin k of transform `row`, by the definition and in double: sum_j x_j e^{-2 pi i jk/N}.
std::complex<double> direct_dft(const std::vector<Complex>& x, uint64_t row, uint64_t k) {
    std::complex<double> sum = 0;
    for (uint64_t j = 0; j < kLength; ++j) {
        const double angle = -2 * std::numbers::pi * static_cast<double>(j * k % kLength) / kLength;
        sum += std::complex<double>(x[row * kLength + j]) * std::polar(1.0, angle);
    }
    return sum;
}

// A global memory barrier: makes the writes of the `src` stages visible to the `dst` stages.
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags src_access,
             VkPipelineStageFlags dst, VkAccessFlags dst_access) {
    VkMemoryBarrier b{};
    b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &b, 0, nullptr, 0, nullptr);
}

int run() {
    // The default device: the first discrete GPU, else integrated, else the CPU (lavapipe).
    // TWIDDLE_DEVICE=<index or name> picks another; TWIDDLE_VALIDATION=1 turns on validation.
    const twiddle::Context ctx;
    std::printf("device: %s\n", ctx.caps().name.c_str());

    // Planning builds the kernels (or loads them from the disk cache).
    const twiddle::Plan plan(ctx, twiddle::FftDesc(kLength, kBatch));

    std::mt19937 gen(2024);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<Complex> x(kLength * kBatch);
    for (Complex& v : x) v = {uniform(gen), uniform(gen)};

    // Forward, out of place, with execute(): it submits and waits.
    twiddle::Buffer in(ctx, plan.desc().bytes()), out(ctx, plan.desc().bytes());
    in.upload(std::span<const Complex>(x));
    plan.execute(in, out, twiddle::Direction::forward);
    std::vector<Complex> spectrum(x.size());
    out.download(std::span<Complex>(spectrum));

    double error = 0, largest = 0;
    for (uint64_t row : {uint64_t(0), kBatch / 2, kBatch - 1}) {
        for (uint64_t k : {uint64_t(0), uint64_t(1), uint64_t(100), kLength / 2, kLength - 1}) {
            const std::complex<double> want = direct_dft(x, row, k);
            const std::complex<double> got = spectrum[row * kLength + k];
            error = std::max(error, std::abs(got - want));
            largest = std::max(largest, std::abs(want));
        }
    }
    const double forward_error = error / largest;
    std::printf("forward: max relative error %.3g over 15 bins\n", forward_error);

    // Inverse, recorded into a command buffer of our own (here one that ctx.submit() provides).
    // record() never submits and puts barriers only between its own passes: the caller orders
    // earlier writes of the input before it and later reads of the output after it. Only
    // transforms split into several passes may need a scratch buffer.
    const uint64_t scratch_bytes = plan.scratch_bytes(twiddle::Placement::out_of_place);
    std::optional<twiddle::Buffer> scratch;
    if (scratch_bytes > 0) scratch.emplace(ctx, scratch_bytes);
    ctx.submit([&](VkCommandBuffer cmd) {
        // Earlier writes (uploads, other kernels) before the transform reads and writes.
        barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        plan.record(cmd, out.view(), in.view(), scratch ? scratch->view() : twiddle::BufferView{},
                    twiddle::Direction::inverse);
        // The transform's writes before later reads: a copy, such as Buffer::download.
        barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    });
    // The default normalization (backward, as numpy) scales the inverse by 1/N: x comes back.
    std::vector<Complex> back(x.size());
    in.download(std::span<Complex>(back));
    error = largest = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        error = std::max(error, static_cast<double>(std::abs(back[i] - x[i])));
        largest = std::max(largest, static_cast<double>(std::abs(x[i])));
    }
    const double round_trip_error = error / largest;
    std::printf("round trip: max relative error %.3g\n", round_trip_error);

    bool ok = forward_error <= kBound && round_trip_error <= kBound;
    for (const std::string& message : ctx.take_validation_messages()) {
        std::fprintf(stderr, "validation: %s\n", message.c_str());
        ok = false;
    }
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

}  // namespace

int main() {
    try {
        return run();
    } catch (const twiddle::Error& e) {  // every failure twiddle reports is a twiddle::Error
        std::fprintf(stderr, "twiddle: %s\n", e.what());
        return 1;
    }
}
