// twiddle demo: the diffraction pattern of a gap, as its 2D Fourier transform, watched pass by pass
// (a radix-2 plan of 512 x 512 takes 18 passes: nine down the columns, then nine along the rows),
// with the pictures written as PNG files, an animation of the passes, and a chart of how long a
// transform takes on the CPU by the definition, on the CPU by the radix-2 FFT and on the GPU.
#include <bit>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <span>
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

// The list of the files a run wrote, one name a line, kept in the directory with them.
constexpr const char* kDemoFiles = ".twiddle-demo-files";

// The names in the list at `path`; none where there is no list (a directory no run wrote into).
std::set<std::string> read_demo_files(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) return {};
    std::ifstream in(path);
    std::set<std::string> names;
    for (std::string line; std::getline(in, line);) names.insert(line);
    return names;
}

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
    // The names an earlier run wrote, from its list in the directory, before this run's replaces it.
    const std::set<std::string> earlier = read_demo_files(dir / kDemoFiles);
    std::set<std::string> written;
    const auto note = [&](const std::string& name) {
        written.insert(name);
        return files.note(dir / name);
    };
    image::write_png(note("aperture.png"), diffraction::draw_gap(gap, n));
    for (size_t p = 1; p <= passes; ++p) image::write_png(note(pass_name(p)), frames[p]);
    image::write_png(note("pattern.png"), frames.back());
    // 450 ms a pass, as the article's page plays them; the pattern held for 2 s before it loops.
    std::vector<uint16_t> delays(frames.size(), 450);
    delays.back() = 2000;
    image::write_apng(note("animation.png"), frames, delays);
    chart::write(timings.figure, note("timing.png").string());
    chart::write(timings.figure, note("timing.svg").string());
    if (a.save_npy) {
        const uint64_t shape[] = {n, n};
        npy::write_npy_atomic(note("aperture.npy"), shape, std::span<const float>(gap));
        npy::write_npy_atomic(note("pattern.npy"), shape, std::span<const cf>(results.back()));
    }
    std::string list;
    for (const auto& name : written) list += name + "\n";
    write_file_atomic(files.note(dir / kDemoFiles), std::as_bytes(std::span(list)));
    files.keep();
    // An earlier run's files that this one did not write would mix with its own: the passes
    // beyond this run's (of a larger --size) and, without --save-npy, the .npy files. Only names
    // the earlier run listed go, so a user's file of the same name that no run wrote stays; and
    // only names a run can write, so a list that was edited removes nothing else.
    const size_t most_passes = 2 * static_cast<size_t>(std::bit_width(diffraction::kMaxSize) - 1);
    std::set<std::string> ours{"aperture.png", "pattern.png",  "animation.png", "timing.png",
                               "timing.svg",   "aperture.npy", "pattern.npy"};
    for (size_t p = 1; p <= most_passes; ++p) ours.insert(pass_name(p));
    for (const auto& name : earlier) {
        if (written.count(name) || !ours.count(name)) continue;
        const std::filesystem::path path = dir / name;
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
                    "Directory for the pictures (made if missing). The files an earlier run wrote there that "
                    "this run does not (passes past its own; .npy files without --save-npy) are removed")
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
