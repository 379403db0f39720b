// twiddle fft: numpy.fft.fft / ifft of a .npy file along its last axis, or numpy.fft.fftn / ifftn
// over the axes that --axes lists; with --real, rfft / irfft and rfftn / irfftn. The transform of
// an array in memory (fft_of) is also what each rank of --mpi runs on its slab (cmd_fft_mpi.cpp).
#include <algorithm>
#include <complex>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "commands.hpp"
#include "fft_command.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "shape_args.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

constexpr const char* kNeedsRealInverse =
    "--n sets the output length of an inverse real transform: it needs --real --inverse";

// FftArgs and what only the command line takes.
struct FftCommandArgs : FftArgs {
    std::string strategy = "auto";
    bool mpi = false;
};

}  // namespace

std::vector<int> check_fft(const FftArgs& args, const npy::NpyArray& array) {
    if (args.n && !(args.real && args.inverse)) throw Error(kNeedsRealInverse);
    if (args.real) {
        const bool f64 = array.dtype == (args.inverse ? npy::kComplex128 : npy::kFloat64);
        if (array.dtype != (args.inverse ? npy::kComplex64 : npy::kFloat32) && !f64)
            throw Error(args.in + " has dtype " + array.dtype.name() +
                        (args.inverse ? "; an inverse real transform takes a complex64 or complex128 half "
                                        "spectrum (use .astype(np.complex64))"
                         : array.dtype.kind == 'c'
                             ? "; a real transform takes float32 or float64 (without --real, "
                               "twiddle fft transforms complex arrays)"
                             : "; a real transform takes float32 or float64 (use .astype(np.float32))"));
    } else if (array.dtype != npy::kComplex64 && array.dtype != npy::kComplex128) {
        // complex64 is transformed in f32 and complex128 in f64, each giving its own type back.
        throw Error(args.in + " has dtype " + array.dtype.name() +
                    "; twiddle fft transforms complex64 and complex128 (use .astype(np.complex64) or "
                    ".astype(np.complex128)), and float32 and float64 with --real");
    }
    if (array.shape.empty())
        throw Error(args.in + " holds a 0-d array; twiddle fft transforms along axes, so it needs one");

    const int rank = static_cast<int>(array.shape.size());
    std::vector<int> axes;
    if (args.has_axes) {
        const std::vector<int> listed = parse_axes(args.axes);
        check_axes(args.in, array.shape, "--axes " + args.axes, listed);
        for (int a : listed) axes.push_back(a < 0 ? a + rank : a);
        if (listed.empty())
            for (int k = 0; k < rank; ++k) axes.push_back(k);
    } else {
        // numpy raises for n = 0 too: there is no transform of no points.
        if (array.shape.back() == 0)
            throw Error(args.in + " has a last axis of length 0; a transform needs at least 1 point");
        axes = {rank - 1};
    }
    const int halved = axes.back();
    if (args.real && args.inverse && !args.n && array.shape[halved] == 1)
        throw Error(args.in + ": axis " + std::to_string(halved) +
                    " has 1 point, which makes an inverse real transform of 0 points; give --n");
    return axes;
}

std::vector<uint64_t> signal_shape(const FftArgs& args, std::vector<uint64_t> shape, size_t halved) {
    if (args.real && args.inverse) shape[halved] = args.n ? args.n : 2 * (shape[halved] - 1);
    return shape;
}

npy::NpyArray fit_axis(const npy::NpyArray& array, size_t axis, uint64_t extent) {
    uint64_t outer = 1, run = array.dtype.size;  // run: the bytes of one index along `axis`
    for (size_t k = 0; k < array.shape.size(); ++k) {
        if (k < axis) outer *= array.shape[k];
        if (k > axis) run *= array.shape[k];
    }
    const uint64_t have = array.shape[axis], keep = std::min(have, extent);
    npy::NpyArray out{array.dtype, array.shape, std::vector<std::byte>(outer * extent * run)};
    out.shape[axis] = extent;
    for (uint64_t o = 0; o < outer; ++o)
        std::copy_n(array.data.begin() + o * have * run, keep * run, out.data.begin() + o * extent * run);
    return out;
}

npy::NpyArray fft_of(const FftArgs& args, const npy::NpyArray& array, const Options& options,
                     const std::function<const Context&()>& device) {
    const std::vector<int> axes = check_fft(args, array);
    const bool f64 = array.dtype == npy::kComplex128 || array.dtype == npy::kFloat64;
    // The problem, and the arrays it goes between. There is none where they are empty (an axis
    // that is not transformed has length 0): numpy returns an empty array, and so does this,
    // without starting the device.
    std::optional<FftDesc> desc;
    npy::NpyArray out{f64 ? npy::kComplex128 : npy::kComplex64, array.shape, {}};
    const size_t halved = static_cast<size_t>(axes.back());  // with --real, the halved axis
    const std::vector<uint64_t> reals = signal_shape(args, array.shape, halved);
    const uint64_t spectrum = reals[halved] / 2 + 1;  // the complex side's points along it
    if (args.real) {
        if (args.inverse)
            out = {f64 ? npy::kFloat64 : npy::kFloat32, reals, {}};
        else
            out.shape[halved] = spectrum;
        // (An axis of length 0 is one not transformed.) FftDesc refuses shapes whose sizes
        // overflow, as an --n too large can make them, before anything is allocated.
        if (std::find(reals.begin(), reals.end(), 0u) == reals.end())
            desc = args.inverse ? FftDesc::c2r_nd(reals, axes) : FftDesc::r2c_nd(reals, axes);
    } else if (array.elements() > 0) {
        // Without --axes, rows along the last axis, as numpy.fft.fft.
        desc = args.has_axes ? FftDesc::nd(array.shape, axes)
                             : FftDesc(array.shape.back(), array.elements() / array.shape.back());
    }
    if (!desc) return out;  // empty: no data

    // The plan before the host arrays, so that a problem the device cannot run is refused as such.
    const Context& context = device();
    const Plan plan(context,
                    desc->with_normalization(parse_normalization(args.norm))
                        .with_precision(f64 ? Precision::f64 : Precision::f32),
                    options);
    const npy::NpyArray fitted =
        args.real && args.inverse ? fit_axis(array, halved, spectrum) : npy::NpyArray{};
    const npy::NpyArray& in = args.real && args.inverse ? fitted : array;
    out.data.resize(out.elements() * out.dtype.size);
    Buffer input(context, in.data.size());
    input.upload(in.data.data(), in.data.size());
    // A complex transform runs in place; a real one between its two sides' buffers.
    std::optional<Buffer> real_output;
    if (args.real) real_output.emplace(context, out.data.size());
    Buffer& output = args.real ? *real_output : input;
    plan.execute(input, output, args.inverse ? Direction::inverse : Direction::forward);
    output.download(out.data.data(), out.data.size());
    check_validation(context);
    return out;
}

void write_npy(const std::string& path, const npy::NpyArray& array) {
    auto write = [&](auto element) {
        using T = decltype(element);
        npy::write_npy_atomic(
            path, array.shape,
            std::span<const T>(reinterpret_cast<const T*>(array.data.data()), array.data.size() / sizeof(T)));
    };
    if (array.dtype == npy::kComplex128)
        write(std::complex<double>{});
    else if (array.dtype == npy::kComplex64)
        write(std::complex<float>{});
    else if (array.dtype == npy::kFloat64)
        write(double{});
    else
        write(float{});
}

namespace {

void run_fft(const FftCommandArgs& args) {
    check_writable(args.out);
    Options options;
    options.strategy = parse_strategy(args.strategy);
    std::optional<Context> context;
    write_npy(args.out, fft_of(args, npy::read_npy(args.in), options,
                               [&]() -> const Context& { return context.emplace(); }));
}

}  // namespace

void add_fft_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("fft",
                                   "Transform a complex64 or complex128 .npy array along its last axis, as "
                                   "numpy.fft.fft (or ifft), or over --axes, as numpy.fft.fftn (or ifftn); "
                                   "with --real, as rfft, irfft, rfftn and irfftn");
    auto args = std::make_shared<FftCommandArgs>();
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
        ->transform(integer_in(1, kMaxCount));
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
    cmd->add_flag("--mpi", args->mpi,
                  "Run on the ranks of mpirun (mpirun -np P twiddle fft IN OUT --mpi), each with its own "
                  "device: the same transform, of slabs of the first axis not transformed, or over every "
                  "axis of a 2D or 3D array with twiddle::dist; rank 0 reads IN and writes OUT");
    cmd->callback([args, axes] {
        args->has_axes = axes->count() > 0;
        if (!args->mpi) {
            // A usage error before IN is read. (Under --mpi, rank 0 alone reports it: check_fft.)
            if (args->n && !(args->real && args->inverse)) usage_error(kNeedsRealInverse);
            return run_fft(*args);
        }
        if (args->strategy != "auto") usage_error("--strategy does not apply to --mpi");
#ifdef TWIDDLE_CLI_MPI
        if (const int status = run_fft_mpi(*args); status != 0) std::exit(status);
#else
        throw Error("--mpi: this twiddle was built without MPI (install libopenmpi-dev and rebuild)");
#endif
    });
}

}  // namespace twiddle::cli
