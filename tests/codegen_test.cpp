// The kernel generator, without a device: every kernel the planner makes is valid GLSL that
// shaderc compiles, and generation is deterministic.
#include <gtest/gtest.h>

#include <cstring>

#include "codegen/pass_kernel.hpp"
#include "test_caps.hpp"
#include "twiddle/logical_plan.hpp"
#include "vk/compiler.hpp"

namespace twiddle {
namespace {

TEST(Codegen, EveryPlannedKernelCompiles) {
    for (const DeviceCaps& caps : {testing::lavapipe_caps(), testing::h200_caps()})
        for (uint32_t forced : {0u, 64u})
            for (uint32_t bits : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 18, 19, 24, 25, 26, 27}) {
                if ((uint64_t(8) << bits) > caps.max_storage_buffer_range) continue;
                const LogicalPlan p = plan(FftDesc(uint64_t(1) << bits, 1), caps, Options{forced});
                for (const Pass& pass : p.passes) {
                    const std::string glsl = codegen::generate_pass_kernel(pass.kernel);
                    SCOPED_TRACE(caps.name + ": " + p.summary());
                    EXPECT_NO_THROW(vk::compile_compute(glsl, "test"));
                    EXPECT_EQ(glsl, codegen::generate_pass_kernel(pass.kernel));
                }
            }
}

TEST(Codegen, CopyKernelCompiles) {
    EXPECT_NO_THROW(vk::compile_compute(codegen::generate_copy_kernel(256), "copy"));
}

TEST(Codegen, PushConstantLayout) {
    codegen::PassParams p;
    p.src_offset = 7;
    p.store_im = -0.5;
    const auto f = codegen::pack_params(Precision::f32, p);
    ASSERT_EQ(f.size(), 24u);
    float im = 0;
    std::memcpy(&im, f.data() + 20, 4);
    EXPECT_EQ(im, -0.5f);
    uint32_t src = 0;
    std::memcpy(&src, f.data(), 4);
    EXPECT_EQ(src, 7u);
    EXPECT_EQ(codegen::pack_params(Precision::f64, p).size(), 40u);
}

}  // namespace
}  // namespace twiddle
