// twiddle fft: numpy.fft.fft / ifft of a .npy file along its last axis, or numpy.fft.fftn / ifftn
// over the axes that --axes lists; with --real, rfft / irfft and rfftn / irfftn.
#include <algorithm>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "fft_mpi.hpp"
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
    bool real = false;
    uint64_t n = 0;  // --n: irfft's output length along the halved axis (0: 2 (m - 1))
    std::string norm = "backward";
    std::string strategy = "auto";
    bool mpi = false;
};

// The axes a transform of `shape` takes: --axes (checked as numpy does), or the last axis.
// Empty means every axis.
std::vector<int> transform_axes(const FftArgs& args, const std::vector<uint64_t>& shape) {
    if (!args.has_axes) {
        // numpy raises for n = 0 too: there is no transform of no points.
        if (shape.back() == 0)
            throw Error(args.in + " has a last axis of length 0; a transform needs at least 1 point");
        return {-1};
    }
    const std::vector<int> axes = parse_axes(args.axes);
    check_axes(args.in, shape, args.axes, axes);
    return axes;
}

// `data` (C order, `shape`) with axis `axis` cropped or zero-padded to `extent` points, as irfft
// does to its input.
template <typename T>
std::vector<T> fit_axis(const std::vector<T>& data, const std::vector<uint64_t>& shape, size_t axis,
                        uint64_t extent) {
    uint64_t outer = 1, inner = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
        if (k < axis) outer *= shape[k];
        if (k > axis) inner *= shape[k];
    }
    const uint64_t have = shape[axis], keep = std::min(have, extent);
    std::vector<T> out(outer * extent * inner, T(0));
    for (uint64_t o = 0; o < outer; ++o)
        std::copy_n(data.begin() + o * have * inner, keep * inner, out.begin() + o * extent * inner);
    return out;
}

// rfft/rfftn (forward) and irfft/irfftn (--inverse) of `array` into args.out.
template <typename Real>
void run_real(const FftArgs& args, const npy::NpyArray& array, const Options& options, Normalization norm) {
    using Cx = std::complex<Real>;
    const Precision precision = std::is_same_v<Real, double> ? Precision::f64 : Precision::f32;
    const std::vector<int> axes = transform_axes(args, array.shape);
    const int rank = static_cast<int>(array.shape.size());
    const size_t halved = static_cast<size_t>(axes.empty() ? rank - 1 : (axes.back() + rank) % rank);
    // The real array's shape, and the complex one's (n / 2 + 1 along the halved axis).
    std::vector<uint64_t> real_shape = array.shape;
    if (args.inverse) {
        const uint64_t m = array.shape[halved];
        real_shape[halved] = args.n ? args.n : 2 * (m - 1);
        if (real_shape[halved] == 0)
            throw Error(args.in + ": axis " + std::to_string(halved) + " has " + std::to_string(m) +
                        " point" + (m == 1 ? "" : "s") + ", which make an inverse real transform of " +
                        "0 points; give --n");
    }
    std::vector<uint64_t> complex_shape = real_shape;
    complex_shape[halved] = real_shape[halved] / 2 + 1;
    uint64_t real_count = 1, complex_count = 1;
    for (size_t k = 0; k < real_shape.size(); ++k)
        real_count *= real_shape[k], complex_count *= complex_shape[k];

    // The input as the desc's packed layout: irfft crops or pads the spectrum along the axis.
    std::vector<Real> reals;
    std::vector<Cx> spectrum;
    if (args.inverse) {
        std::vector<Cx> given(array.elements());
        std::memcpy(given.data(), array.data.data(), array.data.size());
        spectrum = fit_axis(given, array.shape, halved, complex_shape[halved]);
        reals.resize(real_count);
    } else {
        reals.resize(array.elements());
        std::memcpy(reals.data(), array.data.data(), array.data.size());
        spectrum.resize(complex_count);
    }
    if (real_count > 0) {
        const FftDesc desc =
            (args.inverse ? FftDesc::c2r_nd(real_shape, axes) : FftDesc::r2c_nd(real_shape, axes))
                .with_normalization(norm)
                .with_precision(precision);
        const Context context;
        const Plan plan(context, desc, options);
        const uint64_t real_bytes = reals.size() * sizeof(Real), complex_bytes = spectrum.size() * sizeof(Cx);
        Buffer real_buffer(context, real_bytes), complex_buffer(context, complex_bytes);
        if (args.inverse) {
            complex_buffer.upload(spectrum.data(), complex_bytes);
            plan.execute(complex_buffer, real_buffer, Direction::inverse);
            real_buffer.download(reals.data(), real_bytes);
        } else {
            real_buffer.upload(reals.data(), real_bytes);
            plan.execute(real_buffer, complex_buffer, Direction::forward);
            complex_buffer.download(spectrum.data(), complex_bytes);
        }
        check_validation(context);
    }
    if (args.inverse)
        npy::write_npy_atomic(args.out, real_shape, std::span<const Real>(reals));
    else
        npy::write_npy_atomic(args.out, complex_shape, std::span<const Cx>(spectrum));
}

void run_fft(const FftArgs& args) {
    const Normalization norm = parse_normalization(args.norm);
    Options options;
    options.strategy = parse_strategy(args.strategy);
    const npy::NpyArray array = npy::read_npy(args.in);
    if (args.n && !(args.real && args.inverse))
        throw Error("--n sets the output length of an inverse real transform: it needs --real --inverse");
    if (args.real) {
        if (array.shape.empty())
            throw Error(args.in + " holds a 0-d array; twiddle fft transforms along axes, so it needs one");
        const bool f64 = array.dtype == (args.inverse ? npy::kComplex128 : npy::kFloat64);
        if (array.dtype != (args.inverse ? npy::kComplex64 : npy::kFloat32) && !f64)
            throw Error(args.in + " has dtype " + array.dtype.name() +
                        (args.inverse
                             ? "; an inverse real transform takes a complex64 or complex128 half "
                               "spectrum (use .astype(np.complex64))"
                             : "; a real transform takes float32 or float64 (use .astype(np.float32))"));
        if (f64)
            run_real<double>(args, array, options, norm);
        else
            run_real<float>(args, array, options, norm);
        return;
    }
    // complex64 is transformed in f32 and complex128 in f64, each giving its own type back.
    if (array.dtype != npy::kComplex64 && array.dtype != npy::kComplex128)
        throw Error(args.in + " has dtype " + array.dtype.name() +
                    "; twiddle fft transforms complex64 and complex128 (use .astype(np.complex64) or "
                    ".astype(np.complex128)), and float32 and float64 with --real");
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
                                   "numpy.fft.fft (or ifft), or over --axes, as numpy.fft.fftn (or ifftn); "
                                   "with --real, as rfft, irfft, rfftn and irfftn");
    auto args = std::make_shared<FftArgs>();
    cmd->add_option(
           "IN", args->in,
           "Input .npy file (complex64, or complex128 computed in f64; with --real and no --inverse, "
           "float32 or float64)")
        ->required();
    cmd->add_option("OUT", args->out, "Output .npy file, written atomically (may be IN)")->required();
    auto* axes =
        cmd->add_option("--axes", args->axes,
                        "Axes to transform together, as numpy.fft.fftn's: 0,2 or -2,-1 (negative "
                        "ones count from the end), or all (default: the last axis, as numpy.fft.fft)");
    axes->type_name("LIST|all")->check(parsed_by(parse_axes));
    cmd->add_flag("--inverse", args->inverse, "Inverse transform, as numpy.fft.ifft (ifftn with --axes)");
    cmd->add_flag("--real", args->real,
                  "Real transform, as numpy.fft.rfft (rfftn with --axes): float32 or float64 in, the half "
                  "spectrum (n/2 + 1 points along the last of the axes) out; with --inverse, irfft (irfftn): "
                  "the half spectrum in, float32 or float64 out");
    cmd->add_option("--n", args->n,
                    "With --real --inverse: the output length along the last of the axes, as irfft's n "
                    "(default: 2 (m - 1) for m points in); the input is cropped or zero-padded to n/2 + 1")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--norm", args->norm, "Which direction is scaled, as numpy's norm (default: backward)")
        ->type_name("backward|ortho|forward")
        ->check(parsed_by(parse_normalization));
    cmd->add_option("--strategy", args->strategy,
                    "auto: fast transforms, with subgroup operations where measured faster; portable: "
                    "no subgroup operations; subgroups: butterfly exchanges through subgroup shuffles "
                    "where they apply (an error on devices without them); dft: the direct O(N^2) sum, "
                    "up to 65536 points (default: auto)")
        ->type_name("auto|portable|subgroups|dft")
        ->check(parsed_by(parse_strategy));
    cmd->add_flag(
        "--mpi", args->mpi,
        "Run on the ranks of mpirun (mpirun -np P twiddle fft IN OUT --axes all --mpi): over every axis "
        "of a 2D or 3D array, each rank with its own device; rank 0 reads IN and writes OUT");
    cmd->callback([args, axes] {
        args->has_axes = axes->count() > 0;
        if (!args->mpi) return run_fft(*args);
        if (args->strategy != "auto") throw Error("--strategy does not apply to --mpi");
        if (args->n && !(args->real && args->inverse))
            throw Error("--n sets the output length of an inverse real transform: it needs --real --inverse");
#ifdef TWIDDLE_CLI_MPI
        const FftMpiArgs mpi{args->in,      args->out,  args->has_axes, args->axes,
                             args->inverse, args->real, args->n,        args->norm};
        if (const int status = run_fft_mpi(mpi); status != 0) std::exit(status);
#else
        throw Error("--mpi: this twiddle was built without MPI (install libopenmpi-dev and rebuild)");
#endif
    });
}

}  // namespace twiddle::cli
