// twiddle sht-synth and sht-analys: the Fourier stage of a spherical-harmonic transform
// (twiddle::sht::FourierStage) on .npy files. Synthesis takes each latitude's orders
// F_0 .. F_mmax (complex, m-major: (mmax + 1, nlat)) to the latitude's nphi real values
// ((nlat, nphi)); analysis takes them back. An optional leading axis holds a batch of fields.
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "shape_args.hpp"
#include "twiddle/sht.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

struct ShtArgs {
    std::string in;
    std::string out;
    uint64_t nphi = 0;  // sht-synth: points per latitude in the output
    uint64_t mmax = 0;  // sht-analys: the highest order kept
    std::string strategy = "fft";
    uint32_t radix = 0;
    bool complex_path = false;
};

sht::StageOptions stage_options(const ShtArgs& args) {
    sht::StageOptions options;
    options.strategy = sht::parse_strategy(args.strategy);
    // Options of the fft strategy that the direct sum would ignore.
    if (options.strategy == sht::Strategy::dft && (args.radix != 0 || args.complex_path))
        usage_error("--radix and --complex-path apply to --strategy fft only");
    options.fft.max_radix = args.radix;  // checked by its option's transform
    options.fft.real_path = args.complex_path ? RealPath::full_length : RealPath::half_length;
    return options;
}

// --complex-path changes how rows of even nphi are transformed: odd ones always take that path.
void check_complex_path(const ShtArgs& args, uint64_t nphi) {
    if (args.complex_path && nphi % 2 != 0)
        usage_error("--complex-path applies to even nphi; nphi " + std::to_string(nphi) +
                    " is odd, which always takes the complex path");
}

std::string describe_shape(const std::vector<uint64_t>& shape) {
    if (shape.empty()) return "a 0-d array";
    return "shape " + shape_name(shape) + " (" + std::to_string(shape.size()) +
           (shape.size() == 1 ? " axis)" : " axes)");
}

// The batch of fields and the two extents of each field of an array.
struct Extents {
    uint64_t fields = 1;
    uint64_t rows = 0;
    uint64_t columns = 0;
};

// The extents of a (rows, columns) or (fields, rows, columns) array `array` of file `file`,
// refusing other ranks and empty axes. `layout` names the axes for messages ("(mmax + 1, nlat)"),
// and row_name and column_name the last two.
Extents extents(const std::string& command, const std::string& file, const npy::NpyArray& array,
                const std::string& layout, const char* row_name, const char* column_name) {
    const auto& shape = array.shape;
    if (shape.size() != 2 && shape.size() != 3)
        throw Error(file + " holds " + describe_shape(shape) + "; twiddle " + command + " takes " + layout +
                    ", or (fields, " + layout.substr(1) + " with a leading axis of fields");
    Extents e;
    if (shape.size() == 3) e.fields = shape[0];
    e.rows = shape[shape.size() - 2];
    e.columns = shape[shape.size() - 1];
    const std::string where = file + " (shape " + shape_name(shape) + "): ";
    if (e.fields == 0) throw Error(where + "the axis of fields has length 0; there must be at least 1 field");
    if (e.rows == 0) throw Error(where + "the " + row_name + " axis has length 0; there must be at least 1");
    if (e.columns == 0)
        throw Error(where + "the " + column_name + " axis has length 0; there must be at least 1");
    return e;
}

// `run(stage, source, destination)` with the stage of `grid` on a fresh device context, from the
// bytes of `source` into `destination_elements` elements of type Out. The device's limits are
// checked (by the stage and the buffers) before the result is allocated on the host.
template <typename Out, typename Run>
std::vector<Out> on_device(const sht::Grid& grid, const sht::StageOptions& options,
                           const npy::NpyArray& source, uint64_t destination_elements, Run run) {
    const Context context;
    const sht::FourierStage stage(context, grid, options);
    Buffer in(context, source.data.size()), out(context, destination_elements * sizeof(Out));
    in.upload(source.data.data(), source.data.size());
    run(stage, in, out);
    std::vector<Out> result(destination_elements);
    out.download(result.data(), destination_elements * sizeof(Out));
    check_validation(context);
    return result;
}

void run_synthesis(const ShtArgs& args) {
    const sht::StageOptions options = stage_options(args);
    check_complex_path(args, args.nphi);
    check_writable(args.out);
    const npy::NpyArray array = npy::read_npy(args.in);
    if (array.dtype != npy::kComplex64 && array.dtype != npy::kComplex128)
        throw Error(args.in + " has dtype " + array.dtype.name() +
                    "; twiddle sht-synth takes complex64 or complex128 orders (use .astype(np.complex64))");
    const Extents e =
        extents("sht-synth", args.in, array, "(mmax + 1, nlat)", "orders (mmax + 1)", "latitudes");
    const uint64_t mmax = e.rows - 1;
    if (args.nphi == 0) throw Error("--nphi must be at least 1");  // integer_in refuses it too
    // 2 mmax < nphi, without overflow: mmax <= (nphi - 1) / 2.
    if (mmax > (args.nphi - 1) / 2)
        throw Error(args.in + " (shape " + shape_name(array.shape) + ") holds orders up to mmax " +
                    std::to_string(mmax) + ", which need nphi > 2 mmax: --nphi " +
                    std::to_string(2 * mmax + 1) + " or more, got " + std::to_string(args.nphi));
    sht::Grid grid{.nlat = e.columns,
                   .nphi = args.nphi,
                   .mmax = mmax,
                   .fields = e.fields,
                   .precision = array.dtype == npy::kComplex128 ? Precision::f64 : Precision::f32};
    grid.validate();
    std::vector<uint64_t> shape{grid.nlat, grid.nphi};
    if (array.shape.size() == 3) shape.insert(shape.begin(), grid.fields);

    auto synthesize = [](const sht::FourierStage& stage, const Buffer& fm, const Buffer& spat) {
        stage.synthesize(fm, spat);
    };
    if (grid.precision == Precision::f64)
        npy::write_npy_atomic(args.out, shape,
                              on_device<double>(grid, options, array, grid.spatial_elements(), synthesize));
    else
        npy::write_npy_atomic(args.out, shape,
                              on_device<float>(grid, options, array, grid.spatial_elements(), synthesize));
}

void run_analysis(const ShtArgs& args) {
    const sht::StageOptions options = stage_options(args);
    check_writable(args.out);
    const npy::NpyArray array = npy::read_npy(args.in);
    if (array.dtype != npy::kFloat32 && array.dtype != npy::kFloat64)
        throw Error(args.in + " has dtype " + array.dtype.name() +
                    "; twiddle sht-analys takes float32 or float64 values (use .astype(np.float32))");
    const Extents e =
        extents("sht-analys", args.in, array, "(nlat, nphi)", "latitudes (nlat)", "longitudes (nphi)");
    check_complex_path(args, e.columns);
    // 2 mmax < nphi, without overflow.
    if (args.mmax > (e.columns - 1) / 2)
        throw Error("--mmax " + std::to_string(args.mmax) + " needs nphi > 2 mmax, but " + args.in +
                    " (shape " + shape_name(array.shape) + ") has nphi " + std::to_string(e.columns) +
                    "; mmax can be at most " + std::to_string((e.columns - 1) / 2));
    sht::Grid grid{.nlat = e.rows,
                   .nphi = e.columns,
                   .mmax = args.mmax,
                   .fields = e.fields,
                   .precision = array.dtype == npy::kFloat64 ? Precision::f64 : Precision::f32};
    grid.validate();
    std::vector<uint64_t> shape{grid.mmax + 1, grid.nlat};
    if (array.shape.size() == 3) shape.insert(shape.begin(), grid.fields);

    auto analyze = [](const sht::FourierStage& stage, const Buffer& spat, const Buffer& fm) {
        stage.analyze(spat, fm);
    };
    using c64 = std::complex<float>;
    using c128 = std::complex<double>;
    if (grid.precision == Precision::f64)
        npy::write_npy_atomic(args.out, shape,
                              on_device<c128>(grid, options, array, grid.spectral_elements(), analyze));
    else
        npy::write_npy_atomic(args.out, shape,
                              on_device<c64>(grid, options, array, grid.spectral_elements(), analyze));
}

// The options both commands share: how the stage transforms each latitude.
void add_stage_options(CLI::App* cmd, ShtArgs& args) {
    cmd->add_option("--strategy", args.strategy,
                    "fft: twiddle's fast transforms, any nphi; dft: the direct band-limited sum, "
                    "O(nphi * mmax) per latitude, an independent check of fft (default: fft)")
        ->type_name("fft|dft")
        ->check(parsed_by(sht::parse_strategy));
    cmd->add_option("--radix", args.radix,
                    "With --strategy fft: the largest butterfly, 2, 4, 8, 16 or 32; 0: the planner's choice "
                    "(default: 0). Other prime factors of nphi take their own radices")
        ->type_name("0|2|4|8|16|32")
        ->transform(zero_or_power_of_two(2, 32, "the planner's choice"));
    cmd->add_flag("--complex-path", args.complex_path,
                  "With --strategy fft and even nphi: transform each latitude as nphi complex points instead "
                  "of packing it into nphi / 2 (for comparison; the result is the same up to rounding)");
}

}  // namespace

void add_sht_commands(CLI::App& app) {
    {
        auto* cmd = app.add_subcommand(
            "sht-synth",
            "Spherical-harmonic Fourier synthesis: each latitude's orders F_0 .. F_mmax to its nphi real "
            "values, x_j = sum_k X_k exp(+2 pi i jk / nphi) (unnormalized) of the Hermitian spectrum "
            "X_0 = Re F_0, X_m = F_m, X_{nphi-m} = conj(F_m) for 1 <= m <= mmax, 0 elsewhere. "
            "In numpy: np.fft.irfft(H, n=nphi) * nphi, H the half spectrum with F.T along the last axis, "
            "zero-padded to nphi // 2 + 1, and Im H[..., 0] = 0");
        auto args = std::make_shared<ShtArgs>();
        cmd->add_option(
               "FM", args->in,
               "Input .npy file: complex64, or complex128 computed in f64, with shape (mmax + 1, nlat), "
               "m-major as fm[m, ilat], or (fields, mmax + 1, nlat) for a batch of fields; mmax is "
               "FM.shape[-2] - 1")
            ->required();
        cmd->add_option(
               "SPAT", args->out,
               "Output .npy file, written atomically (may be FM): float32 for complex64 input, float64 "
               "for complex128, with shape (nlat, nphi), or (fields, nlat, nphi)")
            ->required();
        cmd->add_option("--nphi", args->nphi, "Points per latitude (longitudes) of the output: 2 mmax < nphi")
            ->required()
            ->type_name("N")
            ->transform(integer_in(1, kMaxCount));
        add_stage_options(cmd, *args);
        cmd->callback([args] { run_synthesis(*args); });
    }
    {
        auto* cmd = app.add_subcommand(
            "sht-analys",
            "Spherical-harmonic Fourier analysis: each latitude's nphi real values x_j to its orders "
            "F_m = sum_j x_j exp(-2 pi i jm / nphi), 0 <= m <= mmax (unnormalized, so sht-analys of "
            "sht-synth gives nphi F for real F_0). In numpy: np.fft.rfft(x, axis=-1)[..., :mmax + 1], "
            "with the last two axes swapped");
        auto args = std::make_shared<ShtArgs>();
        cmd->add_option("SPAT", args->in,
                        "Input .npy file: float32, or float64 computed in f64, with shape (nlat, nphi), as "
                        "spat[ilat, iphi], or (fields, nlat, nphi) for a batch of fields")
            ->required();
        cmd->add_option("FM", args->out,
                        "Output .npy file, written atomically (may be SPAT): complex64 for float32 input, "
                        "complex128 for float64, with shape (mmax + 1, nlat), m-major, or "
                        "(fields, mmax + 1, nlat)")
            ->required();
        cmd->add_option("--mmax", args->mmax, "The highest order kept: 2 mmax < nphi")
            ->required()
            ->type_name("M")
            ->transform(integer_in(0, kMaxCount));
        add_stage_options(cmd, *args);
        cmd->callback([args] { run_analysis(*args); });
    }
}

}  // namespace twiddle::cli
