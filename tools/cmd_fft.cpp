// twiddle fft: numpy.fft.fft / ifft of a .npy file along its last axis, or numpy.fft.fftn / ifftn
// over the axes that --axes lists.
#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "npy.hpp"
#include "shape_args.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

struct FftArgs {
    std::string in;
    std::string out;
    bool has_axes = false;  // false: the last axis alone, as numpy.fft.fft
    std::string axes;
    bool inverse = false;
    std::string norm = "backward";
    std::string strategy = "auto";
};

// Checks the `axes` of `shape` to transform (all of them for an empty list) as numpy does: each
// in [-rank, rank), none named twice, and none of length 0 (there is no transform of no points).
// Axes that are not transformed may have length 0.
void check_axes(const std::string& file, const std::vector<uint64_t>& shape, const std::string& axes_text,
                const std::vector<int>& axes) {
    const int rank = static_cast<int>(shape.size());
    const std::string where = file + " (shape " + shape_name(shape) + "): --axes " + axes_text + ": ";
    std::vector<bool> transformed(shape.size(), axes.empty());
    std::vector<int> named(shape.size(), 0);
    for (int a : axes) {
        if (a < -rank || a >= rank)
            throw Error(where + "axis " + std::to_string(a) + " is out of range for " + std::to_string(rank) +
                        (rank == 1 ? " axis" : " axes") + " (-" + std::to_string(rank) + " to " +
                        std::to_string(rank - 1) + ")");
        const int k = a < 0 ? a + rank : a;
        if (transformed[k])
            throw Error(where + "axis " + std::to_string(a) +
                        (a == named[k] ? " is repeated" : " repeats axis " + std::to_string(named[k])));
        transformed[k] = true;
        named[k] = a;
    }
    for (int k = 0; k < rank; ++k)
        if (transformed[k] && shape[k] == 0)
            throw Error(where + "axis " + std::to_string(k) +
                        " has length 0; a transform needs at least 1 point");
}

void run_fft(const FftArgs& args) {
    const Normalization norm = parse_normalization(args.norm);
    Options options;
    options.strategy = parse_strategy(args.strategy);
    const npy::NpyArray array = npy::read_npy(args.in);
    // complex64 is transformed in f32 and complex128 in f64, each giving its own type back.
    if (array.dtype != npy::kComplex64 && array.dtype != npy::kComplex128)
        throw Error(args.in + " has dtype " + array.dtype.name() +
                    "; this version of twiddle fft transforms complex64 and complex128 only (use "
                    ".astype(np.complex64) or .astype(np.complex128))");
    const Precision precision = array.dtype == npy::kComplex128 ? Precision::f64 : Precision::f32;
    if (array.shape.empty())
        throw Error(args.in + " holds a 0-d array; twiddle fft transforms along axes, so it needs one");

    // The problem: fftn over the listed axes (the others are batch), or fft along the last axis.
    std::optional<FftDesc> desc;
    if (args.has_axes) {
        const std::vector<int> axes = parse_axes(args.axes);
        check_axes(args.in, array.shape, args.axes, axes);
        // An empty axis that is not transformed leaves nothing to do: numpy returns an empty
        // array, and so does this, without starting the device.
        if (array.elements() > 0) desc = FftDesc::nd(array.shape, axes);
    } else {
        const uint64_t length = array.shape.back();
        // numpy raises for n = 0 too: there is no transform of no points.
        if (length == 0)
            throw Error(args.in + " has a last axis of length 0; a transform needs at least 1 point");
        // With an empty leading axis there is nothing to transform, whatever the length, as above.
        if (array.elements() > 0) desc = FftDesc(length, array.elements() / length);
    }

    auto transform = [&](void* result) {
        if (!desc) return;
        const Context context;
        const Plan plan(context, desc->with_normalization(norm).with_precision(precision), options);
        Buffer buffer(context, array.data.size());
        buffer.upload(array.data.data(), array.data.size());
        plan.execute(buffer, buffer, args.inverse ? Direction::inverse : Direction::forward);
        buffer.download(result, array.data.size());
        check_validation(context);
    };
    if (precision == Precision::f64) {
        std::vector<std::complex<double>> result(array.elements());
        transform(result.data());
        npy::write_npy_atomic(args.out, array.shape, result);
    } else {
        std::vector<std::complex<float>> result(array.elements());
        transform(result.data());
        npy::write_npy_atomic(args.out, array.shape, result);
    }
}

}  // namespace

void add_fft_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("fft",
                                   "Transform a complex64 or complex128 .npy array along its last axis, as "
                                   "numpy.fft.fft (or ifft), or over --axes, as numpy.fft.fftn (or ifftn)");
    auto args = std::make_shared<FftArgs>();
    cmd->add_option("IN", args->in, "Input .npy file (complex64, or complex128 computed in f64)")->required();
    cmd->add_option("OUT", args->out, "Output .npy file, written atomically (may be IN)")->required();
    auto* axes =
        cmd->add_option("--axes", args->axes,
                        "Axes to transform together, as numpy.fft.fftn's: 0,2 or -2,-1 (negative "
                        "ones count from the end), or all (default: the last axis, as numpy.fft.fft)");
    axes->type_name("LIST|all")->check(parsed_by(parse_axes));
    cmd->add_flag("--inverse", args->inverse, "Inverse transform, as numpy.fft.ifft (ifftn with --axes)");
    cmd->add_option("--norm", args->norm, "Which direction is scaled, as numpy's norm (default: backward)")
        ->type_name("backward|ortho|forward")
        ->check(parsed_by(parse_normalization));
    cmd->add_option("--strategy", args->strategy,
                    "auto: fast transforms; dft: the direct O(N^2) sum, up to 65536 points (default: auto)")
        ->type_name("auto|dft")
        ->check(parsed_by(parse_strategy));
    cmd->callback([args, axes] {
        args->has_axes = axes->count() > 0;
        run_fft(*args);
    });
}

}  // namespace twiddle::cli
