// The kernel generator, without a device: every kernel the planner makes is valid GLSL that
// shaderc compiles, and generation is deterministic.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <set>
#include <sstream>

#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.hpp>

#include "codegen/callbacks.hpp"
#include "codegen/graph_kernels.hpp"
#include "codegen/pass_kernel.hpp"
#include "sht/direct_sum.hpp"
#include "sht/four_step.hpp"
#include "test_caps.hpp"
#include "twiddle/logical_plan.hpp"
#include "vk/compiler.hpp"

namespace twiddle {
namespace {

// The shared memory a kernel declares, in bytes, read off its GLSL.
uint32_t declared_shared_bytes(const std::string& glsl) {
    uint32_t bytes = 0;
    std::istringstream in(glsl);
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("shared ", 0) != 0) continue;
        const size_t open = l.find('['), close = l.find(']');
        const uint32_t count =
            open == std::string::npos ? 1 : std::stoul(l.substr(open + 1, close - open - 1));
        const uint32_t size = l.find("double") != std::string::npos ? 8 : 4;  // float, double, uint
        bytes += count * size;
    }
    return bytes;
}

// Whether SPIR-V passes SPIRV-Tools' validator for Vulkan 1.1; else its messages in `why`.
bool valid_spirv(const std::vector<uint32_t>& words, std::string& why) {
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
        why += std::string(m) + "\n";
    });
    return tools.Validate(words);
}

// Powers of two up to 2^16, and other lengths: mixed radices in one pass (uniform and not) and
// several, a prime butterfly, Rader's primes (uniform: 37, 97, 401, 4001; not: 43, 211),
// Bluestein's (10007), and the direct sum with and without its copy pass.
std::vector<uint64_t> lengths() {
    std::vector<uint64_t> out;
    for (uint32_t bits = 0; bits <= 16; ++bits) out.push_back(uint64_t(1) << bits);
    for (uint64_t n :
         {6, 12, 100, 1000, 1001, 4095, 10000, 30030, 65520, 17, 37, 43, 97, 211, 401, 4001, 10007})
        out.push_back(n);
    return out;
}

// Real transforms: the split and join fused into one pass (through shuffles, and through shared
// memory in tiles of one or several columns), the separate real steps, band-limited spectra, and
// spectra taken across columns (m-major rows, as twiddle::sht lays them out).
std::vector<FftDesc> real_descs() {
    std::vector<FftDesc> out;
    for (uint64_t n : {2u, 256u, 2048u, 8192u, 65536u, 1000u, 45u})
        for (Transform t : {Transform::r2c, Transform::c2r}) {
            const FftDesc d = t == Transform::r2c ? FftDesc::r2c(n, 8) : FftDesc::c2r(n, 8);
            out.push_back(d);
            out.push_back(FftDesc(d).with_spectrum_length(n / 4 + 1));
            const Dim row = t == Transform::r2c ? Dim{n, 1, 6} : Dim{n, 6, 1};
            const Dim rows = t == Transform::r2c ? Dim{6, n, 1} : Dim{6, 1, n};
            out.push_back(FftDesc::guru({row}, {rows}, t, n / 4 + 1));
        }
    return out;
}

TEST(Codegen, EveryPlannedKernelCompiles) {
    std::vector<uint64_t> all = lengths();
    for (uint64_t n : {1u << 18, 1u << 19, 1u << 24, 1u << 25, 1u << 26, 1u << 27, 1000000u})
        all.push_back(n);
    for (const DeviceCaps& caps : {testing::lavapipe_caps(), testing::h200_caps()})
        for (uint32_t forced : {0u, 64u})
            for (uint64_t n : all) {
                if (n * 8 > caps.max_storage_buffer_range) continue;
                const LogicalPlan p = plan(FftDesc(n, 1), caps, Options{forced});
                for (const Pass& pass : p.passes) {
                    const std::string glsl = codegen::generate_pass_kernel(pass.kernel);
                    SCOPED_TRACE(caps.name + ": " + p.summary());
                    std::vector<uint32_t> words;
                    ASSERT_NO_THROW(words = vk::compile_compute(glsl, "test"));
                    std::string why;
                    EXPECT_TRUE(valid_spirv(words, why)) << why;
                    EXPECT_EQ(glsl, codegen::generate_pass_kernel(pass.kernel));
                    EXPECT_EQ(declared_shared_bytes(glsl), pass.kernel.shared_bytes);
                }
            }
    // Real transforms' kernels for the H200 (the device tests compile lavapipe's).
    for (const FftDesc& desc : real_descs())
        for (const Pass& pass : plan(desc, testing::h200_caps()).passes) {
            const std::string glsl = codegen::generate_pass_kernel(pass.kernel);
            SCOPED_TRACE(plan(desc, testing::h200_caps()).summary());
            EXPECT_NO_THROW(vk::compile_compute(glsl, "test"));
            EXPECT_EQ(declared_shared_bytes(glsl), pass.kernel.shared_bytes);
        }
}

// Shared-memory order, read off the generated GLSL: between a write and a later read of the
// exchange buffers, and between a read and a later write, a wait must come, also across trips of
// a tile loop; and a subgroup-only wait must never separate accesses that cross columns (their
// addresses start from the workgroup's invocation index `tid`). Devices run subgroups in
// lockstep often enough that a missing wait passes every accuracy test on lavapipe.
struct Access {
    bool write;
    bool crosses_columns;
};
struct Event {
    enum Kind { access, workgroup_wait, subgroup_wait } kind;
    Access a{};
};

std::vector<Event> shared_events(const std::vector<std::string>& lines, size_t from, size_t to) {
    std::vector<Event> out;
    // Bases an exchange names once from tid ("uint pb3 = pad(tid);", or another map of it) and
    // accesses at an offset from.
    std::vector<std::string> crossing_bases;
    for (size_t i = 0; i < to; ++i)
        if (const std::string& l = lines[i];
            l.find("uint pb") != std::string::npos && l.find("(tid") != std::string::npos) {
            const size_t at = l.find("pb");
            crossing_bases.push_back(l.substr(at, l.find(' ', at) - at) + " + ");
        }
    auto crosses = [&](const std::string& l) {
        if (l.find("sh0[") != std::string::npos && l.find("(tid") != std::string::npos) return true;
        for (const std::string& b : crossing_bases)
            if (l.find("[" + b) != std::string::npos) return true;
        return false;
    };
    for (size_t i = from; i < to; ++i) {
        const std::string& l = lines[i];
        if (l.find("if (subgroup_sync) {") != std::string::npos) {
            out.push_back({Event::subgroup_wait});
            i += 5;  // the subgroup barriers, "} else {", barrier(), "}"
        } else if (l.find("barrier();") != std::string::npos) {
            out.push_back({Event::workgroup_wait});
        } else if (l.find("sh0[") != std::string::npos) {
            // The generator writes assignments as " = ": an exchange writes sh0 left of it (after a
            // condition that may hold ">=" or "=="), a read right of it.
            const bool write = l.find("sh0[") < l.find(" = ");
            out.push_back({Event::access, {write, crosses(l)}});
        }
    }
    return out;
}

// Returns an empty string if the events keep the order, else what breaks it.
std::string check_order(const std::vector<Event>& events) {
    std::optional<Access> last;        // the last access
    bool waited = false, sub = false;  // a wait since it; whether all waits since were subgroup-only
    bool crossing_since_wait = false;  // an access before the wait crossed columns
    for (const Event& e : events) {
        if (e.kind != Event::access) {
            if (!waited)
                sub = e.kind == Event::subgroup_wait;
            else if (e.kind == Event::workgroup_wait)
                sub = false;
            waited = true;
            continue;
        }
        if (last && last->write != e.a.write) {
            if (!waited)
                return e.a.write ? "a write after a read without a wait"
                                 : "a read after a write without a wait";
            if (sub && (crossing_since_wait || e.a.crosses_columns))
                return "a subgroup-only wait between accesses that cross columns";
        }
        if (waited) crossing_since_wait = false;
        crossing_since_wait = crossing_since_wait || e.a.crosses_columns;
        last = e.a;
        waited = false;
    }
    return "";
}

TEST(Codegen, SharedMemoryAccessesAreOrdered) {
    // Every length, and small dims transformed together (a shared-memory exchange after their
    // last stage).
    std::vector<FftDesc> descs;
    for (uint64_t n : lengths()) descs.push_back(FftDesc(n, std::max<uint64_t>(1, (uint64_t(1) << 20) / n)));
    for (const auto& shape :
         {std::vector<uint64_t>{4096, 8, 8, 8}, {3, 32, 64}, {64, 4, 16, 32}, {4096, 2, 4}})
        descs.push_back(FftDesc::nd(shape, {-3, -2, -1}));
    for (const FftDesc& desc : real_descs()) descs.push_back(desc);
    // Rader's along a strided dim: gathers and scatters in memory.
    descs.push_back(FftDesc::nd({41, 64}, {0}));
    int checked = 0;
    for (const DeviceCaps& caps : {testing::lavapipe_caps(), testing::h200_caps()})
        for (uint32_t forced : {0u, 4u, 64u})
            for (uint32_t radix : {0u, 16u})
                for (uint32_t tiles : {0u, 3u})
                    for (const FftDesc& desc : descs) {
                        const LogicalPlan p = plan(
                            desc, caps,
                            Options{
                                .max_pass_length = forced, .max_radix = radix, .tiles_per_workgroup = tiles});
                        for (const Pass& pass : p.passes) {
                            std::vector<std::string> lines;
                            std::istringstream in(codegen::generate_pass_kernel(pass.kernel));
                            for (std::string l; std::getline(in, l);) lines.push_back(l);
                            // A tile loop runs its body twice in a row.
                            size_t body = 0;
                            while (body < lines.size() &&
                                   lines[body].find("for (; tile < tiles") == std::string::npos)
                                ++body;
                            std::vector<Event> events = shared_events(lines, 0, lines.size());
                            if (body < lines.size()) {
                                const auto again = shared_events(lines, body + 1, lines.size());
                                events.insert(events.end(), again.begin(), again.end());
                            }
                            SCOPED_TRACE(caps.name + ": " + p.summary());
                            EXPECT_EQ(check_order(events), "");
                            ++checked;
                        }
                    }
    EXPECT_GT(checked, 200);
}

// The GLSL of the H200 preset's one-pass kernel for `desc` (a 1D length: batched to 2^26 values).
std::string one_pass_h200_kernel(const FftDesc& desc) {
    const LogicalPlan p = plan(desc, testing::h200_caps());
    EXPECT_EQ(p.passes.size(), 1u) << p.summary();
    return codegen::generate_pass_kernel(p.passes.front().kernel);
}
std::string one_pass_h200_kernel(uint64_t n) {
    return one_pass_h200_kernel(FftDesc(n, (uint64_t(1) << 26) / n));
}

// Shared indices are padded (a word skipped after every 32) only where that saves more bank
// conflicts than its index arithmetic costs: the planner's H200 kernels of powers of two and of
// Rader's 97 (96 points, at strides of 32 words) keep it; 4095's (strides of 30 points, few
// conflicts) goes without; 40 and 56 keep it. (1000, 3125 and Rader's 401 skew blocks instead:
// Codegen.MixedRadicesSkewTheirBlocks.)
TEST(Codegen, SharedIndicesArePaddedWhereThatCutsBankConflicts) {
    auto padded = [](uint64_t n) {
        const std::string glsl = one_pass_h200_kernel(n);
        const bool with = glsl.find("uint pad(uint a) { return a + (a >> 5u); }") != std::string::npos;
        const bool without = glsl.find("uint pad(uint a) { return a; }") != std::string::npos;
        EXPECT_NE(with, without) << n;
        return with;
    };
    for (uint64_t n : {512u, 1024u, 2048u, 4096u, 8192u, 97u, 40u, 56u}) EXPECT_TRUE(padded(n)) << n;
    EXPECT_FALSE(padded(4095)) << 4095;
}

// The map of a padded base "uint pbN = M;": M with the base written B ("pad(B)", "((B) + 2u * ((B)
// >> 5u))", or "B" where the exchange maps nothing).
std::string map_of_base(const std::string& line) {
    const size_t eq = line.find(" = ");
    std::string m = line.substr(eq + 3, line.rfind(';') - eq - 3);
    size_t open = 0;
    if (m.rfind("pad(", 0) == 0)
        open = 3;
    else if (m.rfind("((", 0) == 0)
        open = 1;
    else
        return "B";
    size_t depth = 0, close = open;
    for (; close < m.size(); ++close) {
        if (m[close] == '(') ++depth;
        if (m[close] == ')' && --depth == 0) break;
    }
    const std::string base = m.substr(open + 1, close - open - 1);
    for (size_t at = m.find(base); at != std::string::npos; at = m.find(base, at + 1))
        m.replace(at, base.size(), "B");
    return m;
}

// A kernel whose column exchanges wait by subgroup takes one map for all of its exchanges: under
// two maps a column's words in one exchange can be another column's in the next, which a
// subgroup wait does not order (lavapipe runs subgroups in lockstep and cannot show the race).
// Per exchange, 512's second exchange and r2c 1024's would take a + 2 (a >> 5) and their first
// pad().
TEST(Codegen, SubgroupSyncedKernelsTakeOneMap) {
    int checked = 0;
    for (const DeviceCaps& caps : {testing::h200_caps(), testing::lavapipe_caps()})
        for (const FftDesc& desc :
             {FftDesc(64, 64), FftDesc(128, 64), FftDesc(512, 64), FftDesc(1024, 64), FftDesc(40, 64),
              FftDesc(60, 64), FftDesc(120, 64), FftDesc::r2c(256, 64), FftDesc::r2c(1024, 64),
              FftDesc::r2c(1536, 64), FftDesc::nd({4, 512, 512}, {1, 2})})
            for (const Pass& pass : plan(desc, caps).passes) {
                const std::string glsl = codegen::generate_pass_kernel(pass.kernel);
                if (glsl.find("subgroup_sync") == std::string::npos) continue;
                std::set<std::string> maps;
                std::istringstream lines(glsl);
                for (std::string line; std::getline(lines, line);)
                    if (line.find("uint pb") != std::string::npos) maps.insert(map_of_base(line));
                EXPECT_LE(maps.size(), 1u) << caps.name << " " << desc.dims()[0].n << ": " << *maps.begin()
                                           << " and " << *maps.rbegin();
                ++checked;
            }
    EXPECT_GT(checked, 10);
}

// In kernels of mixed radices an exchange may also take no map, or skew the blocks of a stage's
// span: in the H200 kernel of 1000 = 10 x 10 x 10 the first exchange maps nothing and the
// second, whose writes are runs of 10 at stride 100 (3-way conflicts unmapped), goes through
// a + 6 (a / 100), its offsets folded; 3125 = 5^5 skews blocks of 125, 400 (Rader's 401) of 20.
TEST(Codegen, MixedRadicesSkewTheirBlocks) {
    const std::string k1000 = one_pass_h200_kernel(1000);
    EXPECT_NE(k1000.find("uint pb0 = lc * 1000u + o0_0;"), std::string::npos);
    EXPECT_NE(k1000.find("uint pb3 = ((lc * 1000u + i) + 6u * ((lc * 1000u + i) / 100u));"),
              std::string::npos);
    EXPECT_NE(k1000.find("sh0[pb3 + 954u]"), std::string::npos);  // point i + 900: 900 + 6 x 9
    EXPECT_NE(one_pass_h200_kernel(3125).find(" / 125u))"), std::string::npos);
    // Exchanges whose words are not known take no map in such kernels: Rader's gathers (401) and
    // r2c's mirrored reads (1000) index plainly, where pad() would cost arithmetic on every access
    // without a modeled gain (H200: with pad() there and the skews, 401 ran 2.0% and r2c 1000 4.4%
    // slower than the kernels before the skews, which mapped nothing; H100, the rule against
    // pad() there: 401 +1.5%, r2c 1000 +1.5%).
    const std::string k401 = one_pass_h200_kernel(401);
    EXPECT_NE(k401.find(" / 20u))"), std::string::npos);
    EXPECT_NE(k401.find("v0.x = sh0[lc * 401u + (rader_in * 1u) % 401u];"), std::string::npos);
    EXPECT_EQ(k401.find("pad(lc"), std::string::npos);
    const std::string r1000 = one_pass_h200_kernel(FftDesc::r2c(1000, (uint64_t(1) << 26) / 1000));
    EXPECT_NE(r1000.find("sb0 = vec2(sh0[lc * 500u + ((i + 0u) == 0u ? 0u : 500u - (i + 0u))]"),
              std::string::npos);
    EXPECT_EQ(r1000.find("pad(lc"), std::string::npos);
    // Powers of two have no such blocks: no mapped base divides.
    std::istringstream k4096(one_pass_h200_kernel(4096));
    for (std::string line; std::getline(k4096, line);)
        if (line.find("uint pb") != std::string::npos) {
            EXPECT_EQ(line.find(" / "), std::string::npos) << line;
        }
}

// Each exchange takes the map of fewest modeled bank conflicts: in the H200 kernels of c2c 2048
// and r2c 4096 (2048 = 8 x 16 x 16), the second exchange's writes (runs of 8 at stride 128) and
// r2c's dealt reads go through a + (a >> 6) + 6 (a >> 7), the first exchange through pad(); a kernel
// without padding maps nothing; multi-pass plans' first passes take a + (a >> 7).
TEST(Codegen, ExchangesTakeTheMapOfFewestBankConflicts) {
    const std::string stride_map = " >> 6u) + 6u * ((";
    for (const FftDesc& desc : {FftDesc(2048, 1u << 15), FftDesc::r2c(4096, 1u << 14)}) {
        const std::string glsl = one_pass_h200_kernel(desc);
        EXPECT_NE(glsl.find(stride_map), std::string::npos);
        EXPECT_NE(glsl.find("= pad(lc * 2048u + o0_0)"), std::string::npos);
    }
    EXPECT_EQ(one_pass_h200_kernel(FftDesc(1000, 1u << 16)).find(">> 6u)"), std::string::npos);
    // The first exchange of a multi-pass plan's first pass (32768: 256-point columns, 16 a
    // workgroup) through a + (a >> 7), which leaves it no conflicts (pad(): 640 wavefronts a round
    // against 256).
    const LogicalPlan p = plan(FftDesc(32768, 1u << 11), testing::h200_caps());
    ASSERT_EQ(p.passes.size(), 2u) << p.summary();
    EXPECT_NE(codegen::generate_pass_kernel(p.passes[0].kernel)
                  .find("uint pb2 = ((lc * 256u + i) + ((lc * 256u + i) >> 7u));"),
              std::string::npos);
}

TEST(Codegen, CopyKernelCompiles) {
    EXPECT_NO_THROW(vk::compile_compute(codegen::generate_copy_kernel(256), "copy"));
}

// compile_compute runs 15 of shaderc's 44 performance passes, without the validator: on every
// kind of kernel twiddle generates, the words must be those of shaderc's performance level, and
// valid. A new SPIRV-Tools may change what the other passes do; this test then says so.
TEST(Compiler, SameSpirvAsShadercsPerformanceLevel) {
    std::vector<std::pair<std::string, std::string>> kernels;  // name, GLSL
    auto add_plan = [&](const FftDesc& desc, const DeviceCaps& caps, const Options& options = {},
                        const FftCallbacks& callbacks = {}) {
        const LogicalPlan p = plan(desc, caps, options);
        for (size_t i = 0; i < p.passes.size(); ++i)
            kernels.emplace_back(
                caps.name + ": " + p.summary() + " pass " + std::to_string(i),
                codegen::fuse_callbacks(codegen::generate_pass_kernel(p.passes[i].kernel), desc.precision(),
                                        callbacks, i == 0, i + 1 == p.passes.size()));
    };
    // Powers of two in one, two and three passes; mixed radices, Rader, Bluestein, the direct sum;
    // f64; real transforms; 2D; the planner's other tile and radix choices.
    for (const DeviceCaps& caps : {testing::h200_caps(), testing::lavapipe_caps()}) {
        for (uint64_t n :
             {8u, 1024u, 4096u, 65536u, 1u << 20, 1u << 24, 100u, 1536u, 4095u, 37u, 10007u, 17u})
            add_plan(FftDesc(n, std::max<uint64_t>(1, (1u << 20) / n)), caps);
        for (uint64_t n : {1024u, 1u << 18}) add_plan(FftDesc(n, 4).with_precision(Precision::f64), caps);
        for (uint64_t n : {4096u, 1u << 20})
            for (const FftDesc& d : {FftDesc::r2c(n, 4), FftDesc::c2r(n, 4)}) add_plan(d, caps);
        add_plan(FftDesc::nd({4, 1024, 1024}, {1, 2}), caps);
        add_plan(FftDesc(1u << 16, 4), caps,
                 Options{.max_pass_length = 64, .max_radix = 16, .tiles_per_workgroup = 3});
        for (Strategy strategy : {Strategy::portable, Strategy::subgroups, Strategy::dft})
            add_plan(FftDesc(512, 4), caps, Options{.strategy = strategy});
        // Shuffles in columns that span several subgroups, with remaps through shared memory.
        add_plan(FftDesc(4096, 4), caps,
                 Options{.max_radix = caps.subgroup_size < 32 ? 8u : 0u, .strategy = Strategy::subgroups});
        add_plan(FftDesc(256, 4), caps, Options{.radix = 2});
    }
    // Callbacks: the SHT stage's rows of two passes, and a product by an operand.
    const sht::Grid grid{.nlat = 64, .nphi = 8192, .mmax = 4095};
    for (bool synthesis : {true, false})
        add_plan(sht::four_step_row_desc(grid, synthesis), testing::h200_caps(),
                 sht::four_step_row_options(Options{}), sht::four_step_callbacks(grid, synthesis));
    FftCallbacks product;
    product.operand = true;
    product.multiply = true;
    add_plan(FftDesc(4096, 4), testing::h200_caps(), {}, product);
    // The kernels other than transforms.
    kernels.emplace_back("copy", codegen::generate_copy_kernel(256));
    for (auto op : {codegen::ElementwiseOp::multiply, codegen::ElementwiseOp::scale,
                    codegen::ElementwiseOp::magnitude_squared, codegen::ElementwiseOp::log_scale,
                    codegen::ElementwiseOp::copy})
        kernels.emplace_back(
            "elementwise",
            codegen::generate_elementwise_kernel(
                {.op = op,
                 // log_scale takes reals
                 .type = op == codegen::ElementwiseOp::log_scale ? DataType::float32 : DataType::complex64,
                 .operand_type = DataType::complex64,
                 .periodic = true}));
    kernels.emplace_back(
        "layout", codegen::generate_layout_kernel(
                      {.element_words = 2, .in_shape = {64, 48}, .out_shape = {64, 64}, .shift = {32, 0}}));
    kernels.emplace_back("sht four-step synthesis", sht::generate_four_step_synthesis(grid));
    kernels.emplace_back("sht four-step analysis", sht::generate_four_step_analysis(grid));
    const sht::Grid small{.nlat = 8, .nphi = 12, .mmax = 5};
    kernels.emplace_back("sht direct synthesis", sht::generate_direct_synthesis(small));
    kernels.emplace_back("sht direct analysis", sht::generate_direct_analysis(small));

    const shaderc::Compiler shaderc;
    shaderc::CompileOptions performance;
    performance.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    performance.SetOptimizationLevel(shaderc_optimization_level_performance);
    for (const auto& [name, glsl] : kernels) {
        SCOPED_TRACE(name);
        const auto expected = shaderc.CompileGlslToSpv(glsl, shaderc_compute_shader, "test", performance);
        ASSERT_EQ(expected.GetCompilationStatus(), shaderc_compilation_status_success)
            << expected.GetErrorMessage();
        const std::vector<uint32_t> words = vk::compile_compute(glsl, "test");
        EXPECT_TRUE(words == std::vector<uint32_t>(expected.cbegin(), expected.cend()));
        std::string why;
        EXPECT_TRUE(valid_spirv(words, why)) << why;
    }
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
