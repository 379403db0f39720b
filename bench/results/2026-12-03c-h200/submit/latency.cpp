// Wall time per synchronous submission on the device: Context::submit of an empty command buffer,
// Plan::execute of tiny and 512^2 x 512 problems, and a raw submit whose fence is polled instead of
// waited for.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <twiddle/twiddle.hpp>
#include <vector>
using clk = std::chrono::steady_clock;
template <class F>
double median_us(F f, int reps = 200) {
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        auto a = clk::now();
        f();
        auto b = clk::now();
        t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
int main() {
    using namespace twiddle;
    Context ctx;
    std::printf("device %s\n", ctx.caps().name.c_str());
    std::printf("empty submit (vkWaitForFences): %.1f us\n",
                median_us([&] { ctx.submit([](VkCommandBuffer) {}); }));
    // raw: one pool, one cmd, fence polled
    VkDevice dev = ctx.device();
    VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pi.queueFamilyIndex = ctx.queue_family();
    VkCommandPool pool;
    vkCreateCommandPool(dev, &pi, nullptr, &pool);
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(dev, &ai, &cmd);
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    vkCreateFence(dev, &fi, nullptr, &fence);
    auto raw = [&](bool poll) {
        vkResetCommandBuffer(cmd, 0);
        VkCommandBufferBeginInfo b{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cmd, &b);
        vkEndCommandBuffer(cmd);
        VkSubmitInfo s{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        s.commandBufferCount = 1;
        s.pCommandBuffers = &cmd;
        vkQueueSubmit(ctx.queue(), 1, &s, fence);
        if (poll)
            while (vkGetFenceStatus(dev, fence) == VK_NOT_READY) {
            }
        else
            vkWaitForFences(dev, 1, &fence, VK_TRUE, ~0ull);
        vkResetFences(dev, 1, &fence);
    };
    std::printf("raw submit, wait: %.1f us\n", median_us([&] { raw(false); }));
    std::printf("raw submit, poll: %.1f us\n", median_us([&] { raw(true); }));
    for (auto shape : std::vector<std::vector<uint64_t>>{{8}, {512, 512, 512}}) {
        std::vector<int> axes;
        if (shape.size() == 3)
            axes = {1, 2};
        else
            axes = {0};
        Plan plan(ctx, FftDesc::nd(shape, axes));
        Buffer a(ctx, plan.desc().input_bytes()), b(ctx, plan.desc().output_bytes());
        a.fill(0);
        for (int i = 0; i < 20; ++i) plan.execute(a, b, Direction::forward);
        std::printf("Plan::execute %s: %.1f us\n", shape.size() == 3 ? "512^3 axes 1,2" : "8",
                    median_us([&] { plan.execute(a, b, Direction::forward); }, 100));
        if (shape.size() == 3) {
            Plan p0(ctx, FftDesc::nd(shape, {0}));
            for (int i = 0; i < 20; ++i) p0.execute(b, a, Direction::forward);
            std::printf("Plan::execute 512^3 axis 0: %.1f us\n",
                        median_us([&] { p0.execute(b, a, Direction::forward); }, 100));
        }
    }
    {
        const uint64_t bytes = uint64_t(1) << 30;
        std::vector<uint8_t> host(bytes, 1);
        Buffer big(ctx, bytes);
        big.upload(host.data(), bytes);
        big.download(host.data(), bytes);
        const double up = median_us([&] { big.upload(host.data(), bytes); }, 5);
        const double down = median_us([&] { big.download(host.data(), bytes); }, 5);
        std::printf("Buffer 1 GiB: upload %.1f ms (%.2f GB/s), download %.1f ms (%.2f GB/s)\n", up / 1e3,
                    bytes / up / 1e3, down / 1e3, bytes / down / 1e3);
    }
    vkDestroyFence(dev, fence, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);
}
