// twiddle convolve: circular convolution of two .npy arrays along axes, as one graph on the device:
// B's forward transform, then a convolution node of A with B's spectrum (one pass where A's
// transform is one), in one submission. numpy:
// ifftn(fftn(a, axes=axes) * fftn(b, axes=axes), axes=axes), or with irfftn and rfftn for real
// arrays.
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "shape_args.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {

namespace {

struct ConvolveArgs {
    std::string a;
    std::string b;
    std::string out;
    std::string axes;  // empty: the last axis
};

// The array's elements as T (a real or complex type of the working precision); reals become
// complex values with imaginary part 0.
template <typename T>
std::vector<T> values(const npy::NpyArray& array) {
    std::vector<T> out(array.elements());
    auto convert = [&](auto tag) {
        using From = decltype(tag);
        std::vector<From> raw(array.elements());
        std::memcpy(raw.data(), array.data.data(), array.data.size());
        for (size_t i = 0; i < raw.size(); ++i) {
            if constexpr (std::is_arithmetic_v<T> || !std::is_arithmetic_v<From>) {
                out[i] = static_cast<T>(raw[i]);
            } else {
                out[i] = T(static_cast<typename T::value_type>(raw[i]), 0);
            }
        }
    };
    if (array.dtype == npy::kFloat32) convert(float{});
    if (array.dtype == npy::kFloat64) convert(double{});
    if constexpr (!std::is_arithmetic_v<T>) {
        if (array.dtype == npy::kComplex64) convert(std::complex<float>{});
        if (array.dtype == npy::kComplex128) convert(std::complex<double>{});
    }
    return out;
}

// Runs the graph of the convolution of `a` with `b` into the result.
// T is the arrays' element type (real for the real path), Real its precision.
template <typename T>
std::vector<T> convolve(const npy::NpyArray& a, const npy::NpyArray& b, const std::vector<int>& axes) {
    constexpr bool real = std::is_arithmetic_v<T>;
    using Real = decltype(std::real(T{}));
    const Precision precision = std::is_same_v<Real, double> ? Precision::f64 : Precision::f32;
    const std::vector<T> va = values<T>(a), vb = values<T>(b);
    std::vector<T> result(va.size());
    if (result.empty()) return result;
    const FftDesc forward =
        (real ? FftDesc::r2c_nd(a.shape, axes) : FftDesc::nd(a.shape, axes)).with_precision(precision);
    const Context context;
    const uint64_t bytes = va.size() * sizeof(T);
    Buffer ba(context, bytes), bb(context, bytes), out(context, bytes);
    ba.upload(va.data(), bytes);
    bb.upload(vb.data(), bytes);
    Graph graph(context);
    // B's spectrum first; then the convolution node, which multiplies by it between its transforms.
    const Resource fb = graph.transient(forward.output_bytes());
    graph.fft(forward, graph.external(bb), fb, Direction::forward);
    graph.convolution(forward, graph.external(ba), graph.external(out),
                      FusedOps::multiply_store(fb, precision));
    graph.compile().execute();
    out.download(result.data(), bytes);
    check_validation(context);
    return result;
}

void run_convolve(const ConvolveArgs& args) {
    check_writable(args.out);
    const npy::NpyArray a = npy::read_npy(args.a), b = npy::read_npy(args.b);
    for (const auto* p : {&args.a, &args.b}) {
        const npy::NpyArray& x = p == &args.a ? a : b;
        if (x.dtype != npy::kFloat32 && x.dtype != npy::kFloat64 && x.dtype != npy::kComplex64 &&
            x.dtype != npy::kComplex128)
            throw Error(*p + " has dtype " + x.dtype.name() +
                        "; convolve takes float32, float64, complex64 and complex128 arrays");
        if (x.shape.empty())
            throw Error(*p + " holds a 0-d array; convolve works along axes, so it needs one");
    }
    if (a.shape != b.shape)
        throw Error(args.a + " has shape " + shape_name(a.shape) + " and " + args.b + " has shape " +
                    shape_name(b.shape) + "; convolve needs equal shapes");
    const std::vector<int> axes = parse_axes(args.axes.empty() ? "-1" : args.axes);
    check_axes(args.a, a.shape, args.axes.empty() ? "the last axis (the default)" : "--axes " + args.axes,
               axes);
    // numpy's promotion: complex if either is, double if either is.
    const bool complex = a.dtype.kind == 'c' || b.dtype.kind == 'c';
    const bool f64 = a.dtype == npy::kFloat64 || a.dtype == npy::kComplex128 || b.dtype == npy::kFloat64 ||
                     b.dtype == npy::kComplex128;
    if (complex && f64)
        npy::write_npy_atomic(args.out, a.shape, convolve<std::complex<double>>(a, b, axes));
    else if (complex)
        npy::write_npy_atomic(args.out, a.shape, convolve<std::complex<float>>(a, b, axes));
    else if (f64)
        npy::write_npy_atomic(args.out, a.shape, convolve<double>(a, b, axes));
    else
        npy::write_npy_atomic(args.out, a.shape, convolve<float>(a, b, axes));
}

}  // namespace

void add_convolve_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "convolve",
        "Circular convolution of two .npy arrays of equal shape along axes (default: the last), as "
        "numpy.fft.ifftn(fftn(A, axes=axes) * fftn(B, axes=axes), axes=axes) (real arrays: irfftn and "
        "rfftn), in one submission");
    auto args = std::make_shared<ConvolveArgs>();
    cmd->add_option("A", args->a, "First .npy array (float32, float64, complex64 or complex128)")->required();
    cmd->add_option("B", args->b, "Second .npy array, of A's shape")->required();
    cmd->add_option("OUT", args->out,
                    "Output .npy file, written atomically: real if A and B are real, else complex; double "
                    "precision if either is")
        ->required();
    cmd->add_option(
           "--axes", args->axes,
           "Axes to convolve along: 0,2 or -2,-1 (negative ones count from the end), or all (default: "
           "the last axis)")
        ->type_name("LIST|all")
        ->check(parsed_by(parse_axes));
    cmd->callback([args] { run_convolve(*args); });
}

}  // namespace twiddle::cli
