// twiddle demo: the diffraction pattern of a gap, as its 2D Fourier transform, watched pass by pass
// (a radix-2 plan of 512 x 512 takes 18 passes: nine down the columns, then nine along the rows),
// with the pictures written as PNG files, an animation of the passes, and a chart of how long a
// transform takes on the CPU by the definition, on the CPU by the radix-2 FFT and on the GPU.
#include <bit>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "chart.hpp"
#include "commands.hpp"
#include "diffraction.hpp"
#include "file_io.hpp"
#include "image.hpp"
#include "npy.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {
namespace {

using cf = std::complex<float>;

struct DemoArgs {
    std::string out;
    std::string gap = "two";
    uint32_t size = 512;
    bool save_npy = false;
};

void run_demo(const DemoArgs& a) {
    const uint32_t n = a.size;
    const std::filesystem::path dir(a.out);
    // The directory is made and checked before the work, and everything is computed before
    // anything is written; a failure removes the new pictures and the directories made for them.
    FileSet files;
    files.make_directories(dir);
    check_writable(dir / "aperture.png");
    Context ctx;
    std::printf("device: %s\n", ctx.caps().name.c_str());
    const std::vector<float> gap = diffraction::aperture(a.gap, n);
    const auto results = diffraction::transform_by_passes(ctx, gap, n);
    check_validation(ctx);
    const size_t passes = results.size() - 1;
    std::printf(
        "gap: %s, %u x %u cells; the 2D transform in %zu passes of radix 2 (%zu down the columns, then "
        "%zu along the rows)\n",
        a.gap.c_str(), n, n, passes, passes / 2, passes / 2);
    std::vector<image::Rgb> frames;
    for (const auto& r : results) frames.push_back(diffraction::draw_spectrum(r, n));
    // How long a transform takes: lines on the CPU by both methods, whole pictures on the GPU.
    const diffraction::Timings timings = diffraction::measure_timings(ctx);
    check_validation(ctx);

    const auto pass_name = [](size_t p) {
        char name[32];
        std::snprintf(name, sizeof name, "pass-%02zu.png", p);
        return std::string(name);
    };
    image::write_png(files.note(dir / "aperture.png"), diffraction::draw_gap(gap, n));
    for (size_t p = 1; p <= passes; ++p) image::write_png(files.note(dir / pass_name(p)), frames[p]);
    image::write_png(files.note(dir / "pattern.png"), frames.back());
    // 450 ms a pass, as the article's page plays them; the pattern held for 2 s before it loops.
    std::vector<uint16_t> delays(frames.size(), 450);
    delays.back() = 2000;
    image::write_apng(files.note(dir / "animation.png"), frames, delays);
    chart::write(timings.figure, files.note(dir / "timing.png").string());
    chart::write(timings.figure, files.note(dir / "timing.svg").string());
    if (a.save_npy) {
        const uint64_t shape[] = {n, n};
        npy::write_npy_atomic(files.note(dir / "aperture.npy"), shape, std::span<const float>(gap));
        npy::write_npy_atomic(files.note(dir / "pattern.npy"), shape, std::span<const cf>(results.back()));
    }
    files.keep();
    // An earlier run's files that this one did not write would mix with its own: the passes
    // beyond this run's (of a larger --size) and, without --save-npy, the .npy files. Only those
    // names go, and only regular files; the directory's other files stay.
    const size_t most_passes = 2 * static_cast<size_t>(std::bit_width(diffraction::kMaxSize) - 1);
    std::vector<std::filesystem::path> stale;
    for (size_t p = passes + 1; p <= most_passes; ++p) stale.push_back(dir / pass_name(p));
    if (!a.save_npy) stale.insert(stale.end(), {dir / "aperture.npy", dir / "pattern.npy"});
    for (const auto& path : stale) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) continue;
        if (std::filesystem::remove(path, ec); ec)
            throw Error("cannot remove " + path.string() + " of an earlier run: " + ec.message());
    }

    std::printf("512 x 512 transform on the GPU: %.3f ms (the default plan, median of GPU timestamps)\n",
                timings.gpu_ms_512);
    std::printf(
        "pictures in %s: aperture.png, pass-01.png to pass-%02zu.png, pattern.png, animation.png (APNG), "
        "timing.png and timing.svg%s\n",
        dir.string().c_str(), passes, a.save_npy ? "; aperture.npy and pattern.npy" : "");
}

}  // namespace

void add_demo_command(CLI::App& app) {
    auto args = std::make_shared<DemoArgs>();
    CLI::App* cmd = app.add_subcommand("demo",
                                       "Diffraction: the 2D transform of a gap pass by pass, as PNG "
                                       "pictures, an animation and a timing chart");
    cmd->add_option("--out", args->out,
                    "Directory for the pictures (made if missing). An earlier run's pass-NN.png past this "
                    "run's passes, and its .npy files without --save-npy, are removed")
        ->required();
    cmd->add_option("--gap", args->gap, "The gap: one (slit), two (slits), grating or circle (default two)")
        ->check(CLI::IsMember(
            std::vector<std::string>(std::begin(diffraction::kGaps), std::end(diffraction::kGaps))));
    cmd->add_option("--size", args->size, "Cells on a side, a power of two from 16 to 2048 (default 512)")
        ->transform(diffraction::size_validator());
    cmd->add_flag("--save-npy", args->save_npy,
                  "Also write aperture.npy (float32) and pattern.npy (complex64, the unshifted spectrum)");
    cmd->callback([args] { run_demo(*args); });
}

}  // namespace twiddle::cli
