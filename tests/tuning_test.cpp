// Tuned planner choices (twiddle/tuning.hpp): tune() on the device, the choice kept on disk and
// found by the next context, plans with default options taking it, import, export and clear.
// Each test has a context of its own on a cache directory of its own: the shared test cache must
// not hand tuned options to the other tests' plans.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>
#include <tuple>

#include "cpu/reference.hpp"
#include "device_test.hpp"
#include "test_caps.hpp"
#include "vk/context_state.hpp"
#include "vk/tuning.hpp"

namespace twiddle {
namespace {

class Tuning : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("twiddle-tuning-test-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    Context context() const {
        return Context(ContextOptions{.validation = true, .disk_cache = true, .cache_dir = dir_});
    }
    static void no_messages(const Context& ctx) {
        for (const auto& m : ctx.take_validation_messages()) ADD_FAILURE() << "validation: " << m;
    }
    std::filesystem::path dir_;
};

// The passes of a plan, for comparing what two plans run.
std::vector<PassKernel> kernels(const LogicalPlan& p) {
    std::vector<PassKernel> out;
    for (const Pass& pass : p.passes) out.push_back(pass.kernel);
    return out;
}

// A line of export_tuning's format with the planner's defaults except max_radix, timed at a batch
// of 64, with the fingerprints of the plans this version makes for it on `caps` (those of the
// defaults where the planner refuses max_radix).
std::string line(const DeviceCaps& caps, const std::string& kind, uint64_t length, uint32_t max_radix) {
    const Transform t = kind == "c2c" ? Transform::c2c : kind == "r2c" ? Transform::r2c : Transform::c2r;
    const std::string default_key = vk::choice_fingerprint(caps, t, Precision::f32, length, 64, Options{});
    std::string key = default_key;
    try {
        key = vk::choice_fingerprint(caps, t, Precision::f32, length, 64, Options{.max_radix = max_radix});
    } catch (const Error&) {
    }
    return kind + " f32 " + std::to_string(length) +
           " max_pass_length=0 max_radix=" + std::to_string(max_radix) +
           " workgroup_size=0 columns_per_workgroup=0 max_shared_memory=0 tiles_per_workgroup=0 "
           "subgroup_barriers=1 subgroup_shuffles=1 join_through_shared_memory=0 strategy=auto "
           "real_path=half_length ms=0.5 default_ms=1 "
           "batch=64 variants=2 plan=" +
           key + " default_plan=" + default_key + "\n";
}

TEST_F(Tuning, TuneKeepsTheFastestAndPlansTakeIt) {
    const Context ctx = context();
    const TunedChoice c = tune(ctx, Transform::c2c, Precision::f32, 64, {.values = 1u << 12, .reps = 3});
    EXPECT_EQ(c.transform, Transform::c2c);
    EXPECT_EQ(c.length, 64u);
    EXPECT_EQ(c.batch, 64u);
    EXPECT_GT(c.variants, 5u);  // the defaults and the distinct plans of the knobs
    EXPECT_GT(c.ms, 0.0);
    EXPECT_LE(c.ms, c.default_ms);  // the defaults are among the variants
    ASSERT_EQ(tuned_choices(ctx).size(), 1u);
    EXPECT_EQ(tuned_choices(ctx)[0].options, c.options);

    // A plan with default options takes the choice, whatever the batch; it computes the transform.
    const FftDesc desc(64, 9);
    const Plan p(ctx, desc);
    EXPECT_EQ(kernels(p.logical()), kernels(plan(desc, ctx.caps(), c.options)));
    const auto x = testing::random_complex(64 * 9, 5);
    Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
    in.upload(x.data(), desc.bytes());
    p.execute(in, out, Direction::forward);
    std::vector<std::complex<float>> got(x.size());
    out.download(got.data(), desc.bytes());
    std::vector<std::complex<double>> want(x.size());
    cpu::reference_dft(testing::widen(x), want, 64, 9, Direction::forward);
    EXPECT_LE(cpu::relative_l2(got, want), 5e-7);
    no_messages(ctx);

    // The next context on the same cache finds it.
    const Context next = context();
    ASSERT_EQ(tuned_choices(next).size(), 1u);
    EXPECT_EQ(tuned_choices(next)[0].options, c.options);
    EXPECT_EQ(tuned_choices(next)[0].variants, c.variants);
    EXPECT_EQ(tuned_choices(next)[0].plan_key, c.plan_key);
    EXPECT_EQ(tuned_options(next, desc, Options{}), c.options);
    // The fingerprints are of the plans timed: the choice's and the defaults' at its batch.
    const FftDesc timed(64, c.batch);
    EXPECT_EQ(c.plan_key, vk::plan_fingerprint(plan(timed, ctx.caps(), c.options)));
    EXPECT_EQ(c.default_plan_key, vk::plan_fingerprint(plan(timed, ctx.caps())));
}

// The tuner's second round combines two knobs that each beat the defaults; two values of one knob
// do not combine.
TEST(TuningKnobs, CombineDistinctFieldsOnly) {
    const std::optional<Options> both =
        vk::combined_options(Options{.tiles_per_workgroup = 1}, Options{.max_radix = 8});
    ASSERT_TRUE(both.has_value());
    EXPECT_EQ(*both, (Options{.max_radix = 8, .tiles_per_workgroup = 1}));
    EXPECT_FALSE(vk::combined_options(Options{.tiles_per_workgroup = 1}, Options{.tiles_per_workgroup = 2}));
    Options portable;
    portable.strategy = Strategy::portable;
    Options shared;
    shared.join_through_shared_memory = true;
    const std::optional<Options> c = vk::combined_options(shared, portable);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->strategy, Strategy::portable);
    EXPECT_TRUE(c->join_through_shared_memory);
    EXPECT_FALSE(vk::combined_options(portable, portable));
    Options full;
    full.real_path = RealPath::full_length;
    EXPECT_EQ(vk::combined_options(Options{}, full), full);
}

// c2r is tuned by timing the inverse: the choice is c2r's own, and c2r plans that take it compute
// the inverse transform.
TEST_F(Tuning, TunesC2rApartFromR2c) {
    const Context ctx = context();
    const TunedChoice c = tune(ctx, Transform::c2r, Precision::f32, 64, {.values = 1u << 12, .reps = 3});
    EXPECT_EQ(c.transform, Transform::c2r);
    EXPECT_GT(c.variants, 5u);
    EXPECT_EQ(c.plan_key, vk::plan_fingerprint(plan(FftDesc::c2r(64, c.batch), ctx.caps(), c.options)));
    ASSERT_EQ(tuned_choices(ctx).size(), 1u);
    EXPECT_EQ(tuned_choices(ctx)[0].transform, Transform::c2r);
    const FftDesc desc = FftDesc::c2r(64, 9);
    EXPECT_EQ(tuned_options(ctx, desc, Options{}), c.options);
    EXPECT_EQ(tuned_options(ctx, FftDesc::r2c(64, 9), Options{}), Options{});  // r2c keeps the defaults
    const Plan p(ctx, desc);
    EXPECT_EQ(kernels(p.logical()), kernels(plan(desc, ctx.caps(), c.options)));
    // A real array's spectrum (X_0 and X_32 real) back to the array, through the tuned plan.
    auto x = testing::random_complex(33 * 9, 7);
    for (size_t row = 0; row < 9; ++row) x[row * 33].imag(0), x[row * 33 + 32].imag(0);
    Buffer in(ctx, desc.input_bytes()), out(ctx, desc.output_bytes());
    in.upload(x.data(), desc.input_bytes());
    p.execute(in, out, Direction::inverse);
    std::vector<float> got(64 * 9);
    out.download(got.data(), desc.output_bytes());
    std::vector<std::complex<double>> spectrum = testing::widen(x), want(32 * 9);
    cpu::reference_nd(spectrum, want, desc, Direction::inverse);
    double err = 0, norm = 0;
    for (size_t j = 0; j < got.size(); ++j) {
        const double w = (j % 2 ? want[j / 2].imag() : want[j / 2].real()) / 64;  // backward: 1 / N
        err += (got[j] - w) * (got[j] - w);
        norm += w * w;
    }
    EXPECT_LE(std::sqrt(err / norm), 5e-7);
    no_messages(ctx);
}

TEST_F(Tuning, ImportExportAndClear) {
    const Context ctx = context();
    EXPECT_TRUE(tuned_choices(ctx).empty());
    import_tuning(ctx, "# a comment\n" + line(ctx.caps(), "c2c", 64, 4) + line(ctx.caps(), "r2c", 128, 2) +
                           line(ctx.caps(), "c2r", 128, 4));
    ASSERT_EQ(tuned_choices(ctx).size(), 3u);
    // Default options take the choice; other options, other lengths and 2D problems do not.
    EXPECT_EQ(Plan(ctx, FftDesc(64, 3)).logical().passes[0].kernel.points_per_thread, 4u);
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3), Options{}).max_radix, 4u);
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3), Options{.max_radix = 8}).max_radix, 8u);
    EXPECT_EQ(tuned_options(ctx, FftDesc(32, 3), Options{}).max_radix, 0u);
    EXPECT_EQ(tuned_options(ctx, FftDesc::nd({64, 64}), Options{}).max_radix, 0u);
    // r2c and c2r of a length have choices of their own; precision is part of the key.
    EXPECT_EQ(tuned_options(ctx, FftDesc::r2c(128, 2), Options{}).max_radix, 2u);
    EXPECT_EQ(tuned_options(ctx, FftDesc::c2r(128, 2), Options{}).max_radix, 4u);
    EXPECT_EQ(tuned_options(ctx, FftDesc::c2r(64, 2), Options{}).max_radix, 0u);
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3).with_precision(Precision::f64), Options{}).max_radix, 0u);
    // A newer import replaces the choice of the same key.
    import_tuning(ctx, line(ctx.caps(), "c2c", 64, 8));
    ASSERT_EQ(tuned_choices(ctx).size(), 3u);
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3), Options{}).max_radix, 8u);

    // Lines of versions before join_through_shared_memory read as false there; a choice of it
    // reads back.
    std::string older = line(ctx.caps(), "c2c", 64, 8);
    older.erase(older.find("join_through_shared_memory=0 "), 29);
    import_tuning(ctx, older);
    EXPECT_EQ(tuned_choices(ctx).size(), 3u);
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3), Options{}).max_radix, 8u);
    std::string shared = line(ctx.caps(), "c2c", 32, 8);
    shared.replace(shared.find("join_through_shared_memory=0"), 28, "join_through_shared_memory=1");
    import_tuning(ctx, shared);
    EXPECT_TRUE(tuned_options(ctx, FftDesc(32, 3), Options{}).join_through_shared_memory);
    EXPECT_FALSE(tuned_options(ctx, FftDesc(64, 3), Options{}).join_through_shared_memory);

    // export_tuning writes what import_tuning reads, and the disk holds it for the next context.
    const std::string text = export_tuning(ctx);
    const Context other = context();
    EXPECT_EQ(export_tuning(other), text);
    clear_tuning(other);
    EXPECT_TRUE(tuned_choices(other).empty());
    import_tuning(other, text);
    EXPECT_EQ(export_tuning(other), text);

    clear_tuning(ctx);
    EXPECT_TRUE(tuned_choices(ctx).empty());
    EXPECT_TRUE(tuned_choices(context()).empty());
    no_messages(ctx);
}

// The fingerprint tells apart plans that run differently: other options, another batch.
TEST_F(Tuning, FingerprintsFollowThePlan) {
    const DeviceCaps caps = testing::lavapipe_caps();
    const std::string base = vk::plan_fingerprint(plan(FftDesc(64, 64), caps));
    EXPECT_EQ(base.size(), 32u);
    EXPECT_EQ(base, vk::plan_fingerprint(plan(FftDesc(64, 64), caps)));
    EXPECT_NE(base, vk::plan_fingerprint(plan(FftDesc(64, 64), caps, Options{.max_radix = 4})));
    EXPECT_NE(base, vk::plan_fingerprint(plan(FftDesc(64, 128), caps)));  // the grid
    EXPECT_NE(base, vk::plan_fingerprint(plan(FftDesc(128, 64), caps)));
    // A choice's key is its plan's: c2c, r2c and c2r each their own.
    EXPECT_EQ(base, vk::choice_fingerprint(caps, Transform::c2c, Precision::f32, 64, 64, Options{}));
    const std::string r2c = vk::choice_fingerprint(caps, Transform::r2c, Precision::f32, 64, 64, Options{});
    const std::string c2r = vk::choice_fingerprint(caps, Transform::c2r, Precision::f32, 64, 64, Options{});
    EXPECT_EQ(r2c, vk::plan_fingerprint(plan(FftDesc::r2c(64, 64), caps)));
    EXPECT_EQ(c2r, vk::plan_fingerprint(plan(FftDesc::c2r(64, 64), caps)));
    EXPECT_NE(r2c, c2r);
}

// A choice whose fingerprints this version does not make (timed with another version's planner,
// code generator or compiler) is refused by import and, read from disk, listed but neither
// applied nor exported.
TEST_F(Tuning, StaleChoicesAreNotApplied) {
    const Context ctx = context();
    auto stale = [](std::string l, const std::string& field) {
        l.replace(l.find(" " + field + "=") + field.size() + 2, 32, std::string(32, '0'));
        return l;
    };
    const std::string fresh = line(ctx.caps(), "c2c", 64, 4);
    for (const std::string field : {"plan", "default_plan"}) {
        EXPECT_THROW(import_tuning(ctx, stale(fresh, field)), Error) << field;
        EXPECT_TRUE(tuned_choices(ctx).empty()) << field;
    }
    // The same options timed at another batch: its plans are not the ones fingerprinted.
    std::string other_batch = fresh;
    other_batch.replace(other_batch.find(" batch=64 "), 10, " batch=128 ");
    EXPECT_THROW(import_tuning(ctx, other_batch), Error);
    EXPECT_TRUE(tuned_choices(ctx).empty());
    import_tuning(ctx, fresh);
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3), Options{}).max_radix, 4u);

    // The disk as an older version left it: c2c 64 with a stale plan, r2c 128 with stale
    // defaults, c2c 128 current.
    const std::string current = line(ctx.caps(), "c2c", 128, 4);
    const std::string text =
        stale(fresh, "plan") + stale(line(ctx.caps(), "r2c", 128, 4), "default_plan") + current;
    const Context::State& state = *ctx.state();
    state.kernels->disk().write("tuning-" + state.kernels->device_key() + ".txt",
                                std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    const Context next = context();
    const std::vector<TunedChoice> listed = tuned_choices(next);
    ASSERT_EQ(listed.size(), 3u);
    EXPECT_FALSE(tuned_choice_current(next, listed[0]));
    EXPECT_FALSE(tuned_choice_current(next, listed[1]));
    EXPECT_TRUE(tuned_choice_current(next, listed[2]));
    EXPECT_EQ(tuned_options(next, FftDesc(64, 3), Options{}).max_radix, 0u);
    EXPECT_EQ(kernels(Plan(next, FftDesc(64, 3)).logical()), kernels(plan(FftDesc(64, 3), next.caps())));
    EXPECT_EQ(tuned_options(next, FftDesc::r2c(128, 3), Options{}).max_radix, 0u);
    EXPECT_EQ(tuned_options(next, FftDesc::c2r(128, 3), Options{}).max_radix, 0u);
    EXPECT_EQ(tuned_options(next, FftDesc(128, 3), Options{}).max_radix, 4u);
    // Export leaves the stale ones out, so that its text imports; a fresh choice of the same key
    // replaces a stale one and is applied.
    EXPECT_EQ(export_tuning(next), current);
    import_tuning(next, export_tuning(next));
    import_tuning(next, fresh);
    EXPECT_EQ(tuned_options(next, FftDesc(64, 3), Options{}).max_radix, 4u);
    no_messages(ctx);
    no_messages(next);
}

// The tuning file's text and its writing, as another process or version would.
std::string tuning_file(const Context& ctx) {
    const Context::State& state = *ctx.state();
    const auto data = state.kernels->disk().read("tuning-" + state.kernels->device_key() + ".txt");
    return data ? std::string(data->begin(), data->end()) : std::string();
}
void write_tuning_file(const Context& ctx, const std::string& text) {
    const Context::State& state = *ctx.state();
    ASSERT_TRUE(
        state.kernels->disk().write("tuning-" + state.kernels->device_key() + ".txt",
                                    std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size())));
}

// A save adds to what is on disk then, under a lock file: a choice another process writes while
// this one is about to save is kept, and a clear another context made is not undone by the
// choices this one had read before.
TEST_F(Tuning, SavesAddToTheFileAsItIsThen) {
    const Context ctx = context(), other = context();
    import_tuning(ctx, line(ctx.caps(), "c2c", 16, 2) + line(ctx.caps(), "c2c", 32, 2));
    ASSERT_EQ(tuned_choices(other).size(), 2u);
    clear_tuning(other);
    import_tuning(ctx, line(ctx.caps(), "c2c", 64, 4));
    ASSERT_EQ(tuned_choices(ctx).size(), 1u);
    EXPECT_EQ(tuned_choices(context()).size(), 1u);

    // Another process holds the lock while it writes c2c 128: the import waits for it, then adds
    // c2c 256 to what it wrote.
    const Context::State& state = *ctx.state();
    std::optional<vk::DiskCache::Lock> held;
    held.emplace(state.kernels->disk().lock("tuning-" + state.kernels->device_key() + ".txt.lock"));
    std::thread importer([&] { import_tuning(other, line(ctx.caps(), "c2c", 256, 4)); });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the import reaches the lock
    write_tuning_file(ctx, line(ctx.caps(), "c2c", 64, 4) + line(ctx.caps(), "c2c", 128, 4));
    held.reset();
    importer.join();
    std::vector<uint64_t> lengths;
    for (const TunedChoice& c : tuned_choices(context())) lengths.push_back(c.length);
    EXPECT_EQ(lengths, (std::vector<uint64_t>{64, 128, 256}));
    no_messages(ctx);
}

// Lines this version cannot read (a later version's, with a field it does not know) hide no
// other choice and are kept as written, unless a choice of their key replaces them.
TEST_F(Tuning, LinesOfAnotherVersionAreKept) {
    const Context ctx = context();
    auto later = [](std::string l) { return l.insert(l.size() - 1, " future_knob=1"); };
    const std::string kept = later(line(ctx.caps(), "c2c", 32, 2));
    write_tuning_file(
        ctx, "# header\n" + line(ctx.caps(), "c2c", 16, 2) + kept + later(line(ctx.caps(), "c2c", 64, 2)));
    const Context next = context();
    ASSERT_EQ(tuned_choices(next).size(), 1u);
    EXPECT_EQ(tuned_options(next, FftDesc(16, 3), Options{}).max_radix, 2u);
    import_tuning(next, line(ctx.caps(), "c2c", 64, 4));
    const std::string text = tuning_file(next);
    EXPECT_NE(text.find(line(ctx.caps(), "c2c", 16, 2)), std::string::npos) << text;
    EXPECT_NE(text.find(kept), std::string::npos) << text;
    EXPECT_NE(text.find(line(ctx.caps(), "c2c", 64, 4)), std::string::npos) << text;
    EXPECT_EQ(text.find("c2c f32 64 max_pass_length=0 max_radix=2"), std::string::npos) << text;
    // A teaching radix, in no line before it, reads back.
    const std::string fp =
        vk::choice_fingerprint(ctx.caps(), Transform::c2c, Precision::f32, 128, 64, Options{.radix = 4});
    std::string taught = line(ctx.caps(), "c2c", 128, 0);
    taught.replace(taught.find(" plan="), 38, " plan=" + fp);
    taught.insert(taught.find(" ms="), " radix=4");
    import_tuning(next, taught);
    EXPECT_EQ(tuned_options(next, FftDesc(128, 3), Options{}).radix, 4u);
    EXPECT_EQ(tuned_options(context(), FftDesc(128, 3), Options{}).radix, 4u);
    no_messages(next);
}

// TuningImport::replace puts the text's choices in place of all, or changes nothing: a text that
// does not import leaves even the choices that are not current.
TEST_F(Tuning, ImportInPlaceOfAll) {
    const Context ctx = context();
    std::string stale = line(ctx.caps(), "c2c", 16, 2);
    stale.replace(stale.find(" plan=") + 6, 32, std::string(32, '0'));
    write_tuning_file(ctx, stale + line(ctx.caps(), "c2c", 32, 2));
    const Context next = context();
    ASSERT_EQ(tuned_choices(next).size(), 2u);
    EXPECT_THROW(
        import_tuning(next, line(ctx.caps(), "c2c", 64, 4) + "c2c f32 8 bogus", TuningImport::replace),
        Error);
    EXPECT_EQ(tuned_choices(next).size(), 2u);
    EXPECT_EQ(tuned_choices(context()).size(), 2u);
    import_tuning(next, line(ctx.caps(), "c2c", 64, 4), TuningImport::replace);
    ASSERT_EQ(tuned_choices(context()).size(), 1u);
    EXPECT_EQ(tuned_choices(context())[0].length, 64u);
    EXPECT_THROW(import_tuning(next, "", static_cast<TuningImport>(2)), Error);
    no_messages(next);
}

// Cache entries that are no regular files read as missing: a directory for the pipeline cache, a
// FIFO for the tuning file (which blocked the first read). A tuning file that cannot be written
// throws, and the context keeps the choice.
TEST_F(Tuning, EntriesThatAreNoFiles) {
    std::string pipelines, tuning;
    {
        const Context ctx = context();
        pipelines = "pipelines-" + ctx.state()->kernels->device_key() + ".bin";
        tuning = "tuning-" + ctx.state()->kernels->device_key() + ".txt";
    }
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / pipelines);
    ASSERT_EQ(::mkfifo((dir_ / tuning).c_str(), 0600), 0);
    {
        const Context ctx = context();
        EXPECT_TRUE(tuned_choices(ctx).empty());
        const FftDesc desc(64, 3);
        const auto x = testing::random_complex(64 * 3, 9);
        Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
        in.upload(x.data(), desc.bytes());
        Plan(ctx, desc).execute(in, out, Direction::forward);
        std::vector<std::complex<float>> got(x.size());
        out.download(got.data(), desc.bytes());
        std::vector<std::complex<double>> want(x.size());
        cpu::reference_dft(testing::widen(x), want, 64, 3, Direction::forward);
        EXPECT_LE(cpu::relative_l2(got, want), 5e-7);
        // The rename over the FIFO replaces it with the file.
        import_tuning(ctx, line(ctx.caps(), "c2c", 64, 4));
        EXPECT_EQ(tuned_choices(context()).size(), 1u);
    }
    std::filesystem::remove(dir_ / tuning);
    std::filesystem::create_directories(dir_ / tuning);
    const Context ctx = context();
    EXPECT_TRUE(tuned_choices(ctx).empty());
    try {
        import_tuning(ctx, line(ctx.caps(), "c2c", 64, 4));
        ADD_FAILURE() << "import_tuning did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("tuning: cannot write " + (dir_ / tuning).string()),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3), Options{}).max_radix, 4u);
    // The next save that fails keeps both: it adds the choices no save could write.
    EXPECT_THROW(import_tuning(ctx, line(ctx.caps(), "c2c", 32, 2)), Error);
    EXPECT_EQ(tuned_options(ctx, FftDesc(64, 3), Options{}).max_radix, 4u);
    EXPECT_EQ(tuned_options(ctx, FftDesc(32, 3), Options{}).max_radix, 2u);
    EXPECT_THROW(clear_tuning(ctx), Error);
    no_messages(ctx);
}

// `text` with its first `what` replaced by `with`.
std::string replaced(std::string text, const std::string& what, const std::string& with) {
    return text.replace(text.find(what), what.size(), with);
}

TEST_F(Tuning, RefusesBadInput) {
    const Context ctx = context();
    EXPECT_THROW(tune(ctx, Transform::c2c, Precision::f32, 0), Error);
    EXPECT_THROW(tune(ctx, Transform::c2c, Precision::f32, 64, {.reps = 0}), Error);
    // An enum value that is none of its type's, named as such.
    for (const auto& [transform, precision, named] :
         {std::tuple{static_cast<Transform>(7), Precision::f32, "transform is not a Transform value"},
          std::tuple{Transform::c2c, static_cast<Precision>(5), "precision is not a Precision value"}}) {
        try {
            tune(ctx, transform, precision, 64);
            ADD_FAILURE() << named << ": tune() did not throw";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
        }
    }
    import_tuning(ctx, line(ctx.caps(), "c2c", 64, 4));
    // A bad line anywhere changes nothing.
    for (const std::string& bad : std::vector<std::string>{
             "c2c f32 64 max_radix=x", "z2z f32 64", "c2c f16 64", "c2c f32 0", "c2c f32 64 bogus",
             line(ctx.caps(), "c2c", 32, 4).substr(0, 40),
             replaced(line(ctx.caps(), "c2c", 32, 4), " batch=64", " batch=64 batch=64"),
             replaced(line(ctx.caps(), "c2c", 32, 4), "subgroup_barriers=1", "subgroup_barriers=7"),
             line(ctx.caps(), "c2c", 32, 4) + "c2c f32 64 strategy=fast"}) {
        EXPECT_THROW(import_tuning(ctx, line(ctx.caps(), "c2c", 16, 2) + bad), Error) << bad;
        ASSERT_EQ(tuned_choices(ctx).size(), 1u) << bad;
    }
    // A choice the planner refuses on this device (the direct sum over 65536 points) is refused
    // with the rest of its text.
    std::string refused = line(ctx.caps(), "c2c", 131072, 0);
    refused.replace(refused.find("strategy=auto"), 13, "strategy=dft");
    EXPECT_THROW(import_tuning(ctx, line(ctx.caps(), "c2c", 16, 2) + refused), Error);
    EXPECT_EQ(tuned_choices(ctx).size(), 1u);
    // Windows line ends and blank lines read as the lines they end.
    std::string crlf = line(ctx.caps(), "c2c", 32, 2);
    crlf.insert(crlf.size() - 1, "\r");
    import_tuning(ctx, "\n  \n" + crlf);
    EXPECT_EQ(tuned_options(ctx, FftDesc(32, 3), Options{}).max_radix, 2u);
    EXPECT_TRUE(tuned_choices(Context(ContextOptions{.disk_cache = false})).empty());
    no_messages(ctx);
}

}  // namespace
}  // namespace twiddle
