// The library's contracts on the device: validation errors before anything runs, views with
// offsets, recording into the caller's command buffer, normalization, wrapping a caller's
// device, and the on-disk kernel cache.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

#include <shaderc/shaderc.hpp>

#include "cpu/reference.hpp"
#include "device_test.hpp"
#include "vk/context_state.hpp"
#include "vk/disk_cache.hpp"
#include "vk/handles.hpp"
#include "vk/staging.hpp"

namespace twiddle {
namespace {

using testing::DeviceTest;

class Api : public DeviceTest {};

std::vector<std::complex<double>> reference(const std::vector<std::complex<float>>& x, uint64_t n,
                                            uint64_t batch, Direction dir, double scale) {
    std::vector<std::complex<double>> want(n * batch);
    cpu::reference_dft(testing::widen(x), want, n, batch, dir);
    for (auto& v : want) v *= scale;
    return want;
}

// Relative L2 error of `plan`'s forward transform of random data, done in place.
double forward_error(const Context& ctx, const Plan& plan, uint32_t seed) {
    const uint64_t n = plan.desc().length(), batch = plan.desc().batch(), bytes = plan.desc().bytes();
    const auto x = testing::random_complex(n * batch, seed);
    Buffer buf(ctx, bytes);
    buf.upload(x.data(), bytes);
    plan.execute(buf, buf, Direction::forward);
    std::vector<std::complex<float>> got(n * batch);
    buf.download(got.data(), bytes);
    return cpu::relative_l2(got, reference(x, n, batch, Direction::forward, 1.0));
}

TEST_F(Api, RecordRefusesBadBuffersBeforeRecording) {
    Context& ctx = testing::device();
    const Plan plan(ctx, FftDesc(1024, 4));  // 32 KiB per buffer
    const uint64_t bytes = plan.desc().bytes();
    Buffer a(ctx, 4 * bytes), b(ctx, bytes);
    const BufferView none;
    // Every check throws before anything is recorded: the command buffer, submitted at the end,
    // stays empty.
    ctx.submit([&](VkCommandBuffer cmd) {
        auto record = [&](const BufferView& in, const BufferView& out) {
            plan.record(cmd, in, out, none, Direction::forward);
        };
        EXPECT_THROW(record(a.view(0, bytes - 8), b.view()), Error);              // input too small
        EXPECT_THROW(record(a.view(0, bytes), b.view(0, bytes - 8)), Error);      // output too small
        EXPECT_THROW(record(a.view(0, bytes), a.view(bytes / 2, bytes)), Error);  // partial overlap
        EXPECT_THROW(record(a.view(4, bytes), b.view()), Error);                  // not element-aligned
        EXPECT_THROW(record(none, b.view()), Error);                              // no buffer
        BufferView no_storage = b.view();
        no_storage.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        EXPECT_THROW(record(a.view(0, bytes), no_storage), Error);
        EXPECT_THROW(plan.record(VK_NULL_HANDLE, a.view(0, bytes), b.view(), none, Direction::forward),
                     Error);
        EXPECT_THROW(plan.record(cmd, a.view(0, bytes), b.view(), none, static_cast<Direction>(5)), Error);

        // A multi-pass plan in place needs scratch: missing, too small, or overlapping is refused.
        const Plan multi(ctx, FftDesc(1024, 4), Options{.max_pass_length = 32});
        ASSERT_GT(multi.scratch_bytes(Placement::in_place), 0u);
        EXPECT_THROW(multi.record(cmd, b.view(), b.view(), none, Direction::forward), Error);
        EXPECT_THROW(multi.record(cmd, b.view(), b.view(), a.view(0, bytes - 8), Direction::forward), Error);
        EXPECT_THROW(multi.record(cmd, a.view(0, bytes), a.view(0, bytes), a.view(bytes / 2, bytes),
                                  Direction::forward),
                     Error);
        BufferView scratch_no_storage = a.view(2 * bytes, bytes);
        scratch_no_storage.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        EXPECT_THROW(multi.record(cmd, b.view(), b.view(), scratch_no_storage, Direction::forward), Error);
        EXPECT_THROW(multi.record(cmd, b.view(), b.view(), a.view(2 * bytes + 4, bytes), Direction::forward),
                     Error);
    });
    // A product callback reads its period's operand elements, or one per output element.
    const FftCallbacks product{.operand = true, .multiply = true};
    FftCallbacks periodic = product;
    periodic.multiply_period = 64;
    const Plan whole(ctx, FftDesc(64, 2), {}, product), per_row(ctx, FftDesc(64, 2), {}, periodic);
    Buffer operand(ctx, 128 * 8);
    ctx.submit([&](VkCommandBuffer cmd) {
        auto record = [&](const Plan& p, uint64_t operand_elements) {
            p.record(cmd, a.view(0, 1024), b.view(0, 1024), none, Direction::forward,
                     operand.view(0, operand_elements * 8));
        };
        EXPECT_THROW(record(whole, 127), Error);
        EXPECT_THROW(record(per_row, 63), Error);
        EXPECT_NO_THROW(record(per_row, 64));
    });
    // Bluestein's passes write all of the scratch before the last one reads the operand: an
    // operand inside it gave a wrong result before.
    const Plan bluestein(ctx, FftDesc(1009), {}, product);
    const uint64_t scratch_bytes = bluestein.scratch_bytes(Placement::out_of_place);
    ASSERT_GT(scratch_bytes, 0u);
    const uint64_t align = std::max<uint64_t>(ctx.caps().min_storage_buffer_offset_alignment, 8);
    const uint64_t operand_at = (scratch_bytes + align - 1) / align * align;
    Buffer in(ctx, 1009 * 8), out(ctx, 1009 * 8), scratch(ctx, operand_at + 1009 * 8);
    ctx.submit([&](VkCommandBuffer cmd) {
        try {
            bluestein.record(cmd, in.view(), out.view(), scratch.view(0, scratch_bytes), Direction::forward,
                             scratch.view(0, 1009 * 8));
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_STREQ(e.what(), "Plan::record: the operand overlaps the scratch");
        }
        EXPECT_NO_THROW(bluestein.record(cmd, in.view(), out.view(), scratch.view(0, scratch_bytes),
                                         Direction::forward, scratch.view(operand_at, 1009 * 8)));
    });
    // execute() checks the same before allocating or submitting anything.
    EXPECT_THROW(plan.execute(a.view(0, bytes), a.view(8, bytes), Direction::forward), Error);
    EXPECT_THROW(plan.execute(a.view(0, bytes - 8), b.view(), Direction::forward), Error);
}

TEST_F(Api, PlanAndBufferRefuseWhatTheyCannotDo) {
    Context& ctx = testing::device();
    // Bluestein's scratch for 65537 points (2 x 163840 per transform) over the storage-buffer
    // range, the data within it.
    const uint64_t over = ctx.caps().max_storage_buffer_range / (2 * 163840 * 8) + 1;
    EXPECT_THROW(Plan(ctx, FftDesc(65537, over)), UnsupportedError);
    EXPECT_THROW(Plan(ctx, FftDesc(1u << 17), Options{.strategy = Strategy::dft}), UnsupportedError);
    EXPECT_THROW(Plan(ctx, FftDesc(1u << 20, 1u << 10)), UnsupportedError);  // over the buffer range
    EXPECT_THROW(Buffer(ctx, 0), Error);
    Buffer b(ctx, 64);
    std::vector<uint8_t> host(128);
    EXPECT_THROW(b.upload(host.data(), 128), Error);
    EXPECT_THROW(b.download(host.data(), 64, 8), Error);
    EXPECT_THROW(b.view(72), Error);
    EXPECT_THROW(b.fill(0, 2, 8), Error);
    EXPECT_THROW(b.upload(nullptr, 16), Error);
    EXPECT_THROW(b.download(nullptr, 16), Error);
    b.upload(nullptr, 0);  // nothing to copy
    EXPECT_THROW(ctx.submit({}), Error);
    // Enum arguments that are none of their type's values (cast integers), and a length of 0.
    EXPECT_THROW(Plan(ctx, FftDesc(64)).scratch_bytes(static_cast<Placement>(7)), Error);
    EXPECT_THROW(
        Plan(
            ctx, FftDesc(64).with_precision(Precision::f64), {},
            FftCallbacks{.load = "return value;", .operand = true, .operand_type = static_cast<DataType>(9)}),
        Error);
    EXPECT_THROW(scale_factor(Normalization::backward, Direction::inverse, 0), Error);
    EXPECT_THROW(scale_factor(static_cast<Normalization>(3), Direction::inverse, 8), Error);
    EXPECT_EQ(to_string(static_cast<Precision>(9)), "?");
    EXPECT_EQ(to_string(static_cast<Placement>(9)), "?");
    EXPECT_EQ(to_string(static_cast<DeviceType>(9)), "?");
    EXPECT_EQ(to_string(DeviceType::other), "other");
    // Null command buffers: a crash in the loader or the driver before.
    const GpuTimer timer(ctx, 2);
    // An interval not recorded reads as NaN; waiting for its queries failed or hung before.
    ctx.submit([&](VkCommandBuffer cmd) {
        timer.reset(cmd);
        timer.begin(cmd, 0);
        timer.end(cmd, 0);
    });
    const std::vector<double> ms = timer.read_ms();
    ASSERT_EQ(ms.size(), 2u);
    EXPECT_GE(ms[0], 0.0);
    EXPECT_TRUE(std::isnan(ms[1]));
    EXPECT_THROW(timer.reset(VK_NULL_HANDLE), Error);
    EXPECT_THROW(timer.begin(VK_NULL_HANDLE, 0), Error);
    const VkCommandBuffer none = VK_NULL_HANDLE;
    EXPECT_THROW(ctx.submit_commands(std::span(&none, 1)), Error);
    ctx.submit([&](VkCommandBuffer cmd) {
        try {
            timer.end(cmd, 2);
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_STREQ(e.what(), "GpuTimer::end: interval 2 is out of range; the timer has 2");
        }
    });
    // Planner options outside their domains.
    EXPECT_THROW(Plan(ctx, FftDesc(64), Options{.max_radix = 64}), Error);
    EXPECT_THROW(Plan(ctx, FftDesc(64), Options{.max_radix = 6}), Error);
    EXPECT_THROW(Plan(ctx, FftDesc(64), Options{.workgroup_size = 100}), Error);
    EXPECT_THROW(Plan(ctx, FftDesc(64), Options{.columns_per_workgroup = 3}), Error);
    // A device that is not there.
    EXPECT_THROW(Context(ContextOptions{.device = "99"}), Error);
    EXPECT_THROW(Context(ContextOptions{.device = "99999999999999999999999"}), Error);
    EXPECT_THROW(Context(ContextOptions{.device = "no such device name"}), Error);
}

// A Buffer of another context's device would be bound to this device's kernels: the calls that
// take a Buffer refuse it.
TEST_F(Api, BuffersOfAnotherDeviceAreRefused) {
    Context& ctx = testing::device();
    const Context other;
    const Plan plan(ctx, FftDesc(16, 4));
    Buffer mine(ctx, plan.desc().bytes()), theirs(other, plan.desc().bytes());
    EXPECT_THROW(plan.execute(theirs, mine, Direction::forward), Error);
    EXPECT_THROW(plan.execute(mine, theirs, Direction::forward), Error);
    Graph g(ctx);
    EXPECT_THROW(g.external(theirs), Error);
    const sht::Grid grid{.nlat = 2, .nphi = 16, .mmax = 7};
    const sht::FourierStage stage(ctx, grid);
    Buffer fm(other, grid.spectral_bytes()), spat(ctx, grid.spatial_bytes());
    EXPECT_THROW(stage.synthesize(fm, spat), Error);
    EXPECT_THROW(stage.analyze(spat, fm), Error);
    plan.execute(mine, mine, Direction::forward);  // of its own device
    EXPECT_TRUE(other.take_validation_messages().empty());
}

// A handle that was moved from holds nothing: its methods, and objects made from it, throw
// twiddle::Error rather than dereference nothing, and the handle it moved to works.
TEST_F(Api, MovedFromHandlesThrow) {
    Context& ctx = testing::device();
    const FftDesc desc(64, 2);
    Plan plan(ctx, desc);
    Buffer buf(ctx, desc.bytes());
    GpuTimer timer(ctx, 1);
    Graph graph(ctx);
    const Resource r = graph.external(buf);
    graph.fft(desc, r, r, Direction::forward);
    CompiledGraph compiled = graph.compile();
    sht::FourierStage stage(ctx, sht::Grid{.nlat = 4, .nphi = 16, .mmax = 7});

    const Plan plan2(std::move(plan));
    const Buffer buf2(std::move(buf));
    const GpuTimer timer2(std::move(timer));
    const Graph graph2(std::move(graph));
    const CompiledGraph compiled2(std::move(compiled));
    const sht::FourierStage stage2(std::move(stage));

    EXPECT_THROW(plan.passes(), Error);
    EXPECT_THROW(plan.execute(buf2, buf2, Direction::forward), Error);
    EXPECT_THROW(buf.size(), Error);
    EXPECT_THROW(buf.view(), Error);
    EXPECT_THROW(plan2.execute(buf, buf2, Direction::forward), Error);
    EXPECT_THROW(timer.read_ms(), Error);
    EXPECT_THROW(graph.compile(), Error);
    EXPECT_THROW(graph.external(buf2), Error);
    EXPECT_THROW(compiled.execute(), Error);
    EXPECT_THROW(compiled.stats(), Error);
    EXPECT_THROW(stage.scratch_bytes(), Error);
    try {
        plan.desc();
        ADD_FAILURE() << "a moved-from Plan did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("twiddle::Plan was moved from"), std::string::npos) << e.what();
    }

    // The handles they moved to work, and assigning to a moved-from handle makes it whole again.
    compiled2.execute();
    plan2.execute(buf2, buf2, Direction::forward);
    plan = Plan(ctx, desc);
    EXPECT_EQ(plan.passes(), plan2.passes());

    Context own(ContextOptions{.validation = true});
    const Context moved_to(std::move(own));
    EXPECT_THROW(own.caps(), Error);
    EXPECT_THROW(Buffer(own, 64), Error);
    EXPECT_THROW(Plan(own, desc), Error);
    EXPECT_EQ(moved_to.caps().name, ctx.caps().name);
}

// Transfers longer than a staging slot go in pieces through two slots: every byte lands where it
// belongs, at offsets of any alignment, and the bytes around a transfer stay as they were.
TEST_F(Api, TransfersInPiecesKeepEveryByte) {
    Context& ctx = testing::device();
    const uint64_t slot = vk::Staging::kSlotBytes, total = 2 * slot + slot / 2 + 4100;
    std::vector<uint8_t> x(total);
    std::mt19937 gen(5);
    for (auto& v : x) v = static_cast<uint8_t>(gen());
    Buffer buf(ctx, total);
    buf.fill(0xa5a5a5a5u);
    // Three pieces (two and a half slots) at an odd offset, leaving 3 bytes before and 4096 after.
    const uint64_t at = 3, bytes = total - at - 4096;
    buf.upload(x.data(), bytes, at);
    std::vector<uint8_t> all(total);
    buf.download(all.data(), total);
    for (uint64_t i = 0; i < total; ++i) {
        const uint8_t want = i < at || i >= at + bytes ? 0xa5 : x[i - at];
        ASSERT_EQ(all[i], want) << "byte " << i;
    }
    // A download of its own, two pieces at an odd offset, into a host array with guards around it.
    const uint64_t from = slot - 7, part = slot + 12345;
    std::vector<uint8_t> got(part + 2, 0x3c);
    buf.download(got.data() + 1, part, from);
    EXPECT_EQ(got.front(), 0x3c);
    EXPECT_EQ(got.back(), 0x3c);
    EXPECT_EQ(std::memcmp(got.data() + 1, all.data() + from, part), 0);
}

// Submissions reuse the context's command buffers and fences (Context::State::Recorder): many in
// a row each run in order and are waited for, and a recording that throws leaves the context
// working.
TEST_F(Api, SubmissionsReuseTheirRecorders) {
    Context& ctx = testing::device();
    constexpr uint32_t kWords = 300;
    Buffer buf(ctx, kWords * 4);
    buf.fill(0);
    for (uint32_t i = 0; i < kWords; ++i) {
        // Each submission overwrites word i and everything after it with i: the result holds
        // every word's own index only if they ran in order and each was waited for.
        ctx.submit([&](VkCommandBuffer cmd) {
            vkCmdFillBuffer(cmd, buf.handle(), uint64_t(i) * 4, uint64_t(kWords - i) * 4, i);
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                                 &barrier, 0, nullptr, 0, nullptr);
        });
        if (i == kWords / 2) {
            EXPECT_THROW(ctx.submit([](VkCommandBuffer) { throw Error("recording failed"); }), Error);
        }
    }
    std::vector<uint32_t> got(kWords);
    buf.download(got.data(), kWords * 4);
    for (uint32_t i = 0; i < kWords; ++i) ASSERT_EQ(got[i], i) << "word " << i;
}

// Command buffers the caller recorded, submitted through twiddle's queue lock from two threads at
// once while a third runs plans on the same context: each thread's fills land, every result is
// right, and the validation layer reports nothing. A missing lock shows only where the layer's
// thread-safety checks see two submissions overlap; in this many they did every time (51-79
// threading errors a run with submit_commands' lock taken out).
TEST_F(Api, SubmitCommandsSharesTheQueueLock) {
    Context& ctx = testing::device();
    constexpr uint32_t kRounds = 200, kWords = 64;
    auto submitter = [&](uint32_t id, Buffer& buf) {
        try {
            VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
            pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
            pool_info.queueFamilyIndex = ctx.queue_family();
            VkCommandPool pool_handle = VK_NULL_HANDLE;
            ASSERT_EQ(vkCreateCommandPool(ctx.device(), &pool_info, nullptr, &pool_handle), VK_SUCCESS);
            const vk::UniqueCommandPool pool(ctx.device(), pool_handle);
            VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            alloc.commandPool = pool.get();
            alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            alloc.commandBufferCount = 1;
            VkCommandBuffer cmd = VK_NULL_HANDLE;
            ASSERT_EQ(vkAllocateCommandBuffers(ctx.device(), &alloc, &cmd), VK_SUCCESS);
            VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            VkFence fence_handle = VK_NULL_HANDLE;
            ASSERT_EQ(vkCreateFence(ctx.device(), &fence_info, nullptr, &fence_handle), VK_SUCCESS);
            const vk::UniqueFence fence(ctx.device(), fence_handle);
            for (uint32_t r = 0; r < kRounds; ++r) {
                VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
                begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
                ASSERT_EQ(vkBeginCommandBuffer(cmd, &begin), VK_SUCCESS);
                vkCmdFillBuffer(cmd, buf.handle(), 0, kWords * 4, id * kRounds + r);
                ASSERT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);
                ctx.submit_commands(std::span(&cmd, 1), fence.get());
                ASSERT_EQ(vkWaitForFences(ctx.device(), 1, &fence_handle, VK_TRUE, UINT64_MAX), VK_SUCCESS);
                ASSERT_EQ(vkResetFences(ctx.device(), 1, &fence_handle), VK_SUCCESS);
            }
        } catch (const std::exception& e) {
            ADD_FAILURE() << "submitter " << id << ": " << e.what();
        }
    };
    Buffer a(ctx, kWords * 4), b(ctx, kWords * 4);
    const Plan plan(ctx, FftDesc(64, 4));
    const auto x = testing::random_complex(64 * 4, 3);
    Buffer in(ctx, plan.desc().bytes()), out(ctx, plan.desc().bytes());
    in.upload(x.data(), plan.desc().bytes());
    double worst = 0;
    {
        // Joined at the end of the block, also when the plan's calls throw.
        const std::jthread ta(submitter, 1, std::ref(a)), tb(submitter, 2, std::ref(b));
        for (uint32_t r = 0; r < 20; ++r) {
            plan.execute(in, out, Direction::forward);
            std::vector<std::complex<float>> got(64 * 4);
            out.download(got.data(), plan.desc().bytes());
            worst = std::max(worst, cpu::relative_l2(got, reference(x, 64, 4, Direction::forward, 1.0)));
        }
    }
    EXPECT_LE(worst, 5e-7);
    std::vector<uint32_t> got(kWords);
    for (uint32_t id : {1u, 2u}) {
        (id == 1 ? a : b).download(got.data(), kWords * 4);
        for (uint32_t w = 0; w < kWords; ++w) ASSERT_EQ(got[w], id * kRounds + kRounds - 1) << id << " " << w;
    }
}

// Views at offsets that are not multiples of the storage-buffer alignment, recorded into the
// caller's command buffer, in a multi-pass plan with its own scratch view.
TEST_F(Api, ViewsAtOffsetsIntoCallersCommandBuffer) {
    Context& ctx = testing::device();
    const uint64_t n = 4096, batch = 3;
    const Plan plan(ctx, FftDesc(n, batch), Options{.max_pass_length = 64});
    ASSERT_EQ(plan.passes(), 2u);
    const uint64_t bytes = plan.desc().bytes();
    const auto x = testing::random_complex(n * batch, 7);
    // One buffer holds input at 8 bytes, scratch after it, output after that: all element-aligned
    // but not 16-byte aligned.
    const uint64_t in_at = 8, scratch_at = in_at + bytes + 24, out_at = scratch_at + bytes + 40;
    Buffer all(ctx, out_at + bytes + 64);
    all.fill(testing::kPoison);
    all.upload(x.data(), bytes, in_at);
    for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
        const BufferView in = all.view(in_at, bytes);
        const BufferView out = placement == Placement::in_place ? in : all.view(out_at, bytes);
        ctx.submit([&](VkCommandBuffer cmd) {
            plan.record(cmd, in, out, all.view(scratch_at, plan.scratch_bytes(placement) + 1),
                        Direction::forward);
        });
        std::vector<std::complex<float>> got(n * batch);
        all.download(got.data(), bytes, out.offset);
        EXPECT_LE(cpu::relative_l2(got, reference(x, n, batch, Direction::forward, 1.0)), 5e-7)
            << to_string(placement);
        all.upload(x.data(), bytes, in_at);
    }
    // Nothing outside the three ranges was touched: not the head, not the gaps (where the
    // scratch and output bindings, aligned down, begin), not the tail.
    std::vector<uint8_t> raw(all.size());
    all.download(raw.data(), raw.size());
    EXPECT_EQ(testing::poisoned_words(raw.data(), in_at), in_at / 4);
    EXPECT_EQ(testing::poisoned_words(raw.data() + in_at + bytes, 24), 6u);
    EXPECT_EQ(testing::poisoned_words(raw.data() + scratch_at + bytes, 40), 10u);
    EXPECT_EQ(testing::poisoned_words(raw.data() + out_at + bytes, 64), 16u);
}

TEST_F(Api, NormalizationModesAndScaling) {
    Context& ctx = testing::device();
    const uint64_t n = 256, batch = 5;
    const auto x = testing::random_complex(n * batch, 11);
    for (Normalization norm : {Normalization::backward, Normalization::ortho, Normalization::forward})
        for (Direction dir : {Direction::forward, Direction::inverse}) {
            const Plan plan(ctx, FftDesc(n, batch).with_normalization(norm));
            Buffer buf(ctx, plan.desc().bytes());
            buf.upload(x.data(), plan.desc().bytes());
            plan.execute(buf, buf, dir);
            std::vector<std::complex<float>> got(n * batch);
            buf.download(got.data(), plan.desc().bytes());
            EXPECT_LE(cpu::relative_l2(got, reference(x, n, batch, dir, scale_factor(norm, dir, n))), 5e-7)
                << to_string(norm) << " " << to_string(dir);
        }
    EXPECT_DOUBLE_EQ(scale_factor(Normalization::ortho, Direction::inverse, 64), 0.125);
    EXPECT_DOUBLE_EQ(scale_factor(Normalization::backward, Direction::inverse, 64), 1.0 / 64);
    EXPECT_DOUBLE_EQ(scale_factor(Normalization::forward, Direction::inverse, 64), 1.0);
}

TEST_F(Api, PlanReportsItsShape) {
    Context& ctx = testing::device();
    const Plan one(ctx, FftDesc(256, 8));
    EXPECT_EQ(one.passes(), 1u);
    EXPECT_EQ(one.scratch_bytes(Placement::out_of_place), 0u);
    EXPECT_EQ(one.scratch_bytes(Placement::in_place), 0u);
    EXPECT_EQ(one.workgroup_size(), one.logical().passes[0].kernel.workgroup_size);
    const Plan three(ctx, FftDesc(4096, 2), Options{.max_pass_length = 16});
    EXPECT_EQ(three.passes(), 3u);
    EXPECT_EQ(three.scratch_bytes(Placement::in_place), three.desc().bytes());
    EXPECT_EQ(three.scratch_bytes(Placement::out_of_place), three.desc().bytes());
    EXPECT_LE(three.workgroup_size(), ctx.caps().max_workgroup_invocations);
}

// The caller's validation messages, as an embedding program with its own debug messenger sees
// them: twiddle's work on a wrapped device must raise none. Plans compile their kernels on threads
// of their own, so the callback may run on several threads at once.
VKAPI_ATTR VkBool32 VKAPI_CALL collect_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                               VkDebugUtilsMessageTypeFlagsEXT,
                                               const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    static_cast<std::vector<std::string>*>(user)->emplace_back(data && data->pMessage ? data->pMessage : "?");
    return VK_FALSE;
}

// A device created by "someone else's program", with validation on, wrapped; twiddle must leave
// it alive.
TEST(Wrap, RunsOnACallersDevice) {
    std::vector<std::string> messages;
    VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mi.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    mi.pfnUserCallback = collect_message;
    mi.pUserData = &messages;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* debug_utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ii{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ii.pNext = &mi;
    ii.pApplicationInfo = &app;
    ii.enabledLayerCount = 1;
    ii.ppEnabledLayerNames = &layer;
    ii.enabledExtensionCount = 1;
    ii.ppEnabledExtensionNames = &debug_utils;
    VkInstance instance = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateInstance(&ii, nullptr, &instance), VK_SUCCESS);
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    ASSERT_TRUE(create_messenger && destroy_messenger);
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    ASSERT_EQ(create_messenger(instance, &mi, nullptr, &messenger), VK_SUCCESS);
    uint32_t count = 1;
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    vkEnumeratePhysicalDevices(instance, &count, &pd);
    ASSERT_NE(pd, VK_NULL_HANDLE);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, props.data());
    uint32_t family = 0;
    while (family < families && !(props[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    ASSERT_LT(family, families);
    const float priority = 1;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    const auto extensions = Context::required_device_extensions();
    VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    di.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    di.ppEnabledExtensionNames = extensions.data();
    VkDevice device = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDevice(pd, &di, nullptr, &device), VK_SUCCESS);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, family, 0, &queue);
    {
        EXPECT_THROW(Context::wrap(instance, pd, device, families, queue), Error);  // no such family
        const Context ctx = Context::wrap(instance, pd, device, family, queue);
        EXPECT_EQ(ctx.device(), device);
        EXPECT_LE(forward_error(ctx, Plan(ctx, FftDesc(512, 2)), 3), 5e-7);
        // Two parts of the program that wrap the same queue share its lock: submitting from both
        // at once gave the layer's threading errors before.
        const Context other = Context::wrap(instance, pd, device, family, queue);
        auto submit_often = [](const Context& c) {
            for (int i = 0; i < 200; ++i) c.submit([](VkCommandBuffer) {});
        };
        std::thread a(submit_often, std::cref(ctx)), b(submit_often, std::cref(other));
        a.join();
        b.join();
        // The device was created without shaderFloat64: said so, f64 plans are refused.
        const Context no_f64 = Context::wrap(instance, pd, device, family, queue, {.shader_float64 = false});
        EXPECT_FALSE(no_f64.caps().shader_float64);
        EXPECT_THROW(Plan(no_f64, FftDesc(64).with_precision(Precision::f64)), UnsupportedError);
        EXPECT_LE(forward_error(no_f64, Plan(no_f64, FftDesc(64, 2)), 4), 5e-7);
    }
    // Still the caller's: usable after the context is gone, then destroyed by the caller.
    EXPECT_EQ(vkDeviceWaitIdle(device), VK_SUCCESS);
    vkDestroyDevice(device, nullptr);
    destroy_messenger(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);
    for (const auto& m : messages) ADD_FAILURE() << "validation: " << m;
    EXPECT_THROW(Context::wrap(VK_NULL_HANDLE, pd, device, family, queue), Error);
}

class DiskCache : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("twiddle-cache-test-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // Builds a small multi-pass plan in a fresh context and checks it computes correctly;
    // returns (kernels compiled, kernels loaded from disk).
    std::pair<uint64_t, uint64_t> build(ContextOptions options) {
        const Context ctx(options);
        EXPECT_LE(forward_error(ctx, Plan(ctx, FftDesc(2048, 2), Options{.max_pass_length = 64}), 5), 5e-7);
        for (const auto& m : ctx.take_validation_messages()) ADD_FAILURE() << "validation: " << m;
        return {ctx.state()->kernels->compiled(), ctx.state()->kernels->loaded()};
    }

    std::vector<std::filesystem::path> files(const std::string& extension) const {
        std::vector<std::filesystem::path> out;
        if (std::filesystem::exists(dir_))
            for (const auto& e : std::filesystem::directory_iterator(dir_))
                if (e.path().extension() == extension) out.push_back(e.path());
        return out;
    }

    std::filesystem::path dir_;
};

TEST_F(DiskCache, CompilesOnceThenLoads) {
    const auto first = build({.cache_dir = dir_});
    EXPECT_EQ(first.first, 2u);
    EXPECT_EQ(first.second, 0u);
    EXPECT_EQ(files(".spv").size(), 2u);
    EXPECT_EQ(files(".bin").size(), 1u);    // the pipeline cache
    EXPECT_EQ(files(".table").size(), 1u);  // the twiddle table
    const auto second = build({.cache_dir = dir_});
    EXPECT_EQ(second.first, 0u);
    EXPECT_EQ(second.second, 2u);
}

TEST_F(DiskCache, CorruptOrTruncatedFilesAreRebuilt) {
    build({.cache_dir = dir_});
    const auto spv = files(".spv");
    ASSERT_EQ(spv.size(), 2u);
    {  // flip one payload byte of the first, truncate the second
        std::fstream f(spv[0], std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(100);
        f.put('\x5a');
    }
    std::filesystem::resize_file(spv[1], std::filesystem::file_size(spv[1]) / 2);
    for (const auto& bin : files(".bin")) std::ofstream(bin, std::ios::trunc) << "garbage";
    for (const auto& table : files(".table")) std::ofstream(table, std::ios::trunc) << "garbage";
    const auto again = build({.cache_dir = dir_});
    EXPECT_EQ(again.first, 2u);  // both recompiled, results still right (checked in build)
    EXPECT_EQ(again.second, 0u);
    const auto third = build({.cache_dir = dir_});  // and the rewritten files are good again
    EXPECT_EQ(third.first, 0u);
}

// An entry whose frame, checksum and SPIR-V magic word hold but whose SPIR-V is invalid (written
// here through the cache, as a crafted file would be) is a miss: the kernel is compiled afresh and
// the entry overwritten, not a VulkanError. With the validation layer (which crashed on such a
// module when it reached the driver), SPIRV-Tools' validator rejects the entry first; without it,
// the driver does.
TEST_F(DiskCache, InvalidSpirvIsRebuilt) {
    build({.cache_dir = dir_});
    const auto spv = files(".spv");
    ASSERT_EQ(spv.size(), 2u);
    // A well-formed SPIR-V 1.3 module with no entry point: OpCapability Shader, OpMemoryModel
    // Logical GLSL450.
    const std::vector<uint32_t> junk = {0x07230203u, 0x00010300u, 0, 1, 0, 0x00020011u, 1, 0x0003000eu, 0, 1};
    const vk::DiskCache disk(dir_);
    for (bool validation : {true, false}) {
        for (const auto& p : spv)
            ASSERT_TRUE(
                disk.write(p.filename().string(),
                           std::span(reinterpret_cast<const uint8_t*>(junk.data()), junk.size() * 4)));
        const auto again = build({.validation = validation, .cache_dir = dir_});
        EXPECT_EQ(again, std::make_pair(uint64_t{2}, uint64_t{0})) << validation;  // both recompiled
        const auto third = build({.cache_dir = dir_});  // and the rewritten entries load
        EXPECT_EQ(third, std::make_pair(uint64_t{0}, uint64_t{2})) << validation;
    }
}

// A plan's twiddle table (here with Bluestein's spectrum, which the host computes) is read from the
// disk cache: a stored table of other values, well-formed, makes the next plan wrong; a damaged
// file is recomputed.
TEST_F(DiskCache, TwiddleTablesComeFromDisk) {
    const FftDesc desc(1031, 2);  // prime, past the direct sum: Bluestein or Rader
    {
        const Context ctx({.cache_dir = dir_});
        EXPECT_LE(forward_error(ctx, Plan(ctx, desc), 7), 5e-7);
    }
    const auto tables = files(".table");
    ASSERT_EQ(tables.size(), 1u);
    const std::string name = tables[0].filename().string();
    {
        const Context ctx({.cache_dir = dir_});
        const auto stored = ctx.state()->kernels->disk().read(name);
        ASSERT_TRUE(stored);
        ctx.state()->kernels->disk().write(name, std::vector<uint8_t>(stored->size(), 0x3f));
        EXPECT_GT(forward_error(ctx, Plan(ctx, desc), 7), 1e-2);
    }
    {
        std::fstream f(tables[0], std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(100);
        f.put('\x5a');
    }
    const Context ctx({.cache_dir = dir_});
    EXPECT_LE(forward_error(ctx, Plan(ctx, desc), 7), 5e-7);
    for (const auto& m : ctx.take_validation_messages()) ADD_FAILURE() << "validation: " << m;
}

TEST_F(DiskCache, DisabledWritesNothing) {
    build({.disk_cache = false, .cache_dir = dir_});
    EXPECT_FALSE(std::filesystem::exists(dir_));
}

// TWIDDLE_CACHE_DIR=off turns the cache off in any case ("OFF" was taken for a directory of that
// name); the options still win over it, and a name that only starts with "off" is a directory.
TEST_F(DiskCache, OffInAnyCaseTurnsItOff) {
    const char* set = std::getenv("TWIDDLE_CACHE_DIR");
    const std::optional<std::string> before = set ? std::optional<std::string>(set) : std::nullopt;
    for (const char* off : {"off", "OFF", "Off"}) {
        ::setenv("TWIDDLE_CACHE_DIR", off, 1);
        EXPECT_TRUE(vk::DiskCache::off_in_environment()) << off;
        EXPECT_EQ(vk::DiskCache::resolve(std::nullopt, std::nullopt), std::nullopt) << off;
        EXPECT_EQ(vk::DiskCache::resolve(std::nullopt, dir_), std::nullopt) << off;
        EXPECT_EQ(vk::DiskCache::resolve(true, dir_), dir_) << off;
    }
    ::setenv("TWIDDLE_CACHE_DIR", "offline", 1);
    EXPECT_FALSE(vk::DiskCache::off_in_environment());
    EXPECT_EQ(vk::DiskCache::resolve(std::nullopt, std::nullopt), std::filesystem::path("offline"));
    if (before)
        ::setenv("TWIDDLE_CACHE_DIR", before->c_str(), 1);
    else
        ::unsetenv("TWIDDLE_CACHE_DIR");
}

TEST_F(DiskCache, DumpShadersWritesTheGeneratedSource) {
    const auto dump = dir_ / "dump";
    ::setenv("TWIDDLE_DUMP_SHADERS", dump.c_str(), 1);
    build({.disk_cache = false});
    ::unsetenv("TWIDDLE_DUMP_SHADERS");
    size_t shaders = 0;
    for (const auto& e : std::filesystem::directory_iterator(dump)) {
        ASSERT_EQ(e.path().extension(), ".comp");
        std::ifstream f(e.path());
        std::string first;
        std::getline(f, first);
        EXPECT_EQ(first, "#version 450");
        ++shaders;
    }
    EXPECT_EQ(shaders, 2u);
}

// Bad values of the environment's switches are refused, not read as off; an option set in
// ContextOptions needs no variable. A dump of kernels that cannot be written is an error.
TEST_F(DiskCache, BadEnvironmentValuesAreRefused) {
    for (const char* name : {"TWIDDLE_VALIDATION", "TWIDDLE_KERNEL_STATS"}) {
        ::setenv(name, "yes", 1);
        try {
            const Context ctx;
            ADD_FAILURE() << name << "=yes was taken";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(std::string(name) + " is 'yes'"), std::string::npos)
                << e.what();
        }
        EXPECT_NO_THROW(Context({.validation = false, .kernel_statistics = false}));
        ::unsetenv(name);
    }
    std::filesystem::create_directories(dir_);
    const auto file = dir_ / "a-file";
    std::ofstream(file) << "not a directory";
    ::setenv("TWIDDLE_DUMP_SHADERS", file.c_str(), 1);
    const Context ctx({.disk_cache = false});
    EXPECT_THROW(Plan(ctx, FftDesc(64)), Error);
    ::unsetenv("TWIDDLE_DUMP_SHADERS");
}

// Kernels holding a caller's callbacks are compiled at shaderc's whole performance level: the
// generated kernels' shorter list of passes leaves dead code in such GLSL (this load's unused
// imaginary product; this store's branches). Every kernel's SPIR-V on disk must be the performance
// level's words for its source.
TEST_F(DiskCache, CallersCodeTakesTheWholePerformanceLevel) {
    const auto dump = dir_ / "dump";
    ::setenv("TWIDDLE_DUMP_SHADERS", dump.c_str(), 1);
    {
        const Context ctx({.cache_dir = dir_});
        FftCallbacks callbacks;
        callbacks.load = "return vec2(value.x, 0.0);";
        callbacks.store = "if (index < 10u) return vec2(0.0); else return value;";
        const Plan plan(ctx, FftDesc(2048, 2), Options{.max_pass_length = 64}, callbacks);
        EXPECT_EQ(plan.passes(), 2u);
    }
    ::unsetenv("TWIDDLE_DUMP_SHADERS");
    const shaderc::Compiler compiler;
    shaderc::CompileOptions performance;
    performance.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    performance.SetOptimizationLevel(shaderc_optimization_level_performance);
    size_t compared = 0;
    for (const auto& e : std::filesystem::directory_iterator(dump)) {
        std::ifstream f(e.path());
        const std::string glsl((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        // The dump is named NAME-KEY12.comp, the SPIR-V KEY.spv.
        const std::string key12 = e.path().stem().string().substr(e.path().stem().string().size() - 12);
        std::vector<std::filesystem::path> spv;
        for (const auto& p : files(".spv"))
            if (p.filename().string().rfind(key12, 0) == 0) spv.push_back(p);
        ASSERT_EQ(spv.size(), 1u) << e.path();
        const auto words = vk::DiskCache(dir_).read(spv[0].filename().string());
        ASSERT_TRUE(words);
        const auto expected = compiler.CompileGlslToSpv(glsl, shaderc_compute_shader, "test", performance);
        ASSERT_EQ(expected.GetCompilationStatus(), shaderc_compilation_status_success);
        SCOPED_TRACE(e.path().string());
        ASSERT_EQ(words->size(), size_t(expected.cend() - expected.cbegin()) * 4);
        EXPECT_EQ(std::memcmp(words->data(), expected.cbegin(), words->size()), 0);
        ++compared;
    }
    EXPECT_EQ(compared, 2u);
}

// GLSL of the caller's that does not compile: the error says it is callback code (not a kernel
// twiddle generated), with glslang's message naming what it could not find.
TEST_F(DiskCache, CallersCodeThatDoesNotCompileIsNamed) {
    const Context ctx({.cache_dir = dir_});
    try {
        const Plan plan(ctx, FftDesc(64, 2), Options{},
                        FftCallbacks{.store = "return no_such_function(value);"});
        ADD_FAILURE() << "the plan was made";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("with callback code failed"), std::string::npos) << what;
        EXPECT_NE(what.find("no_such_function"), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace twiddle
