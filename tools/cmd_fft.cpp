// twiddle fft: numpy.fft.fft / ifft of a .npy file along its last axis.
#include <complex>
#include <string>
#include <vector>

#include "commands.hpp"
#include "npy.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

struct FftArgs {
    std::string in;
    std::string out;
    bool inverse = false;
    std::string norm = "backward";
    std::string strategy = "auto";
};

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
        throw Error(args.in +
                    " holds a 0-d array; twiddle fft transforms along the last axis, so it needs one");
    const uint64_t length = array.shape.back();
    // numpy raises for n = 0 too: there is no transform of no points.
    if (length == 0)
        throw Error(args.in + " has a last axis of length 0; a transform needs at least 1 point");
    const uint64_t batch = array.elements() / length;

    // With an empty leading axis there is nothing to transform, whatever the length: numpy
    // returns an empty array, and so does this, without starting the device.
    auto transform = [&](void* result) {
        if (batch == 0) return;
        const Context context;
        const Plan plan(context, FftDesc(length, batch).with_normalization(norm).with_precision(precision),
                        options);
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
    auto* cmd = app.add_subcommand(
        "fft",
        "Transform a complex64 or complex128 .npy array along its last axis, as numpy.fft.fft (or ifft)");
    auto args = std::make_shared<FftArgs>();
    cmd->add_option("IN", args->in, "Input .npy file (complex64, or complex128 computed in f64)")->required();
    cmd->add_option("OUT", args->out, "Output .npy file, written atomically (may be IN)")->required();
    cmd->add_flag("--inverse", args->inverse, "Inverse transform, as numpy.fft.ifft");
    cmd->add_option("--norm", args->norm, "Which direction is scaled, as numpy's norm (default: backward)")
        ->type_name("backward|ortho|forward")
        ->check(parsed_by(parse_normalization));
    cmd->add_option("--strategy", args->strategy,
                    "auto: fast transforms; dft: the direct O(N^2) sum, up to 65536 points (default: auto)")
        ->type_name("auto|dft")
        ->check(parsed_by(parse_strategy));
    cmd->callback([args] { run_fft(*args); });
}

}  // namespace twiddle::cli
