// cufft_bench: throughput and accuracy of cuFFT batched single-precision C2C (or R2C) forward
// transforms, 1D and multi-dimensional, the NVIDIA baseline for `twiddle bench`. Standalone: needs
// only the CUDA runtime and cuFFT.
//
//   cufft_bench [--total LOG2] [--reps R] [--out FILE.csv] [--cases LIST] [--shapes LIST]
//               [--z2z | --r2c]
//
// --z2z times double-precision Z2Z transforms of the same values instead (16 bytes per value in
// GB/s). Its rel_l2 is then the round trip's error: forward, inverse, scaled by 1/N, against the
// input, as there is no more precise transform on the device to compare with.
//
// --r2c times single-precision R2C transforms instead (numpy rfftn semantics, the counterpart of
// `twiddle bench --real`): each case holds 2^total REAL values, batch = max(1, 2^total / N) real
// arrays of the shape, packed, in, and as many half spectra, packed, out: the last axis of N_last
// points has N_last/2+1 complex points, N/N_last*(N_last/2+1) per array. The plan is the same
// cufftMakePlanMany64 one with CUFFT_R2C, inembed = the shape, onembed = the shape with its last
// extent halved, idist = N, odist = N/N_last*(N_last/2+1). GB/s = batch * (N * 4 +
// N/N_last*(N_last/2+1) * 8) / seconds / 1e9 (reals read + half spectrum written). The input is one
// float per real value, drawn in memory order from the generator described below. Accuracy is
// checked as below with ref a cuFFT D2Z transform (out of place, same shape and batch) of those
// values upcast to double, over the half spectra of the whole batch.
//
// A case is a shape: a length N from --cases (1D), or a C-order array such as 256x256 or 64x64x64
// from --shapes, transformed over ALL its axes (numpy fftn semantics). N is the product of the
// shape. Every case holds 2^total complex values: batch = max(1, 2^total / N) arrays of N
// contiguous values one after another, transformed out of place (one cufftMakePlanMany64 plan of
// the shape's rank, inembed = onembed = the shape, stride 1, idist = odist = N; with batch 1 that
// is the plan cufftPlan1d/2d/3d makes). The case's input is the one `twiddle bench` uses
// (std::mt19937 seeded with N, the product of the shape, uniform floats in [-1, 1), real then
// imaginary, in memory order), so errors compare.
//
// Timing: 3 warm-up executions, then `reps` executions each bracketed by its own pair of CUDA events
// on one stream; the median is reported. GB/s = (bytes read + bytes written) / median time
// = 2 * N * batch * 8 / seconds / 1e9. A device-to-device cudaMemcpyAsync of 2^total * 8 bytes,
// timed the same way, is the "copy" yardstick.
//
// Accuracy: relative L2 error ||out - ref|| / ||ref|| over the WHOLE batch, where ref is a cuFFT
// double-precision Z2Z transform (in place, same shape and batch) of the same f32 input values
// upcast to double; the norms are accumulated on the host in long double.
//
// CSV (--out): library,n,batch,ms,gbps,rel_l2,shape -- shape is "1024" for a 1D case, "256x256"
// for a 2D one, "-" on the copy row.

#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------
// Error checking: every CUDA runtime and cuFFT call goes through one of these; a failure prints
// the call, the error and the source line, then exits with status 1.

const char* cufft_error_name(cufftResult r) {
    switch (r) {
        case CUFFT_SUCCESS:
            return "CUFFT_SUCCESS";
        case CUFFT_INVALID_PLAN:
            return "CUFFT_INVALID_PLAN";
        case CUFFT_ALLOC_FAILED:
            return "CUFFT_ALLOC_FAILED";
        case CUFFT_INVALID_TYPE:
            return "CUFFT_INVALID_TYPE";
        case CUFFT_INVALID_VALUE:
            return "CUFFT_INVALID_VALUE";
        case CUFFT_INTERNAL_ERROR:
            return "CUFFT_INTERNAL_ERROR";
        case CUFFT_EXEC_FAILED:
            return "CUFFT_EXEC_FAILED";
        case CUFFT_SETUP_FAILED:
            return "CUFFT_SETUP_FAILED";
        case CUFFT_INVALID_SIZE:
            return "CUFFT_INVALID_SIZE";
        case CUFFT_UNALIGNED_DATA:
            return "CUFFT_UNALIGNED_DATA";
        case CUFFT_INVALID_DEVICE:
            return "CUFFT_INVALID_DEVICE";
        case CUFFT_NO_WORKSPACE:
            return "CUFFT_NO_WORKSPACE";
        case CUFFT_NOT_IMPLEMENTED:
            return "CUFFT_NOT_IMPLEMENTED";
        case CUFFT_NOT_SUPPORTED:
            return "CUFFT_NOT_SUPPORTED";
        default:
            return "unknown cufftResult";  // values newer or older than this header
    }
}

[[noreturn]] void die_cuda(const char* call, cudaError_t e, const char* file, int line) {
    std::fflush(stdout);
    std::fprintf(stderr, "cufft_bench: %s failed: %s (%s, code %d) at %s:%d\n", call, cudaGetErrorString(e),
                 cudaGetErrorName(e), static_cast<int>(e), file, line);
    std::exit(1);
}

[[noreturn]] void die_cufft(const char* call, cufftResult r, const char* file, int line) {
    std::fflush(stdout);
    std::fprintf(stderr, "cufft_bench: %s failed: %s (code %d) at %s:%d\n", call, cufft_error_name(r),
                 static_cast<int>(r), file, line);
    std::exit(1);
}

#define CUDA_CHECK(call)                                                \
    do {                                                                \
        const cudaError_t e_ = (call);                                  \
        if (e_ != cudaSuccess) die_cuda(#call, e_, __FILE__, __LINE__); \
    } while (0)

#define CUFFT_CHECK(call)                                                  \
    do {                                                                   \
        const cufftResult r_ = (call);                                     \
        if (r_ != CUFFT_SUCCESS) die_cufft(#call, r_, __FILE__, __LINE__); \
    } while (0)

[[noreturn]] void die(const std::string& msg) {
    std::fflush(stdout);
    std::fprintf(stderr, "cufft_bench: %s\n", msg.c_str());
    std::exit(1);
}

// ---------------------------------------------------------------------------------------------
// Command line

// One case: the extents of a C-order array, outermost first, transformed over all its axes. A 1D
// case is a shape of rank 1.
struct Shape {
    std::vector<uint64_t> dims;

    uint64_t size() const {  // values in one array, N
        uint64_t n = 1;
        for (const uint64_t d : dims) n *= d;
        return n;
    }
    Shape half() const {  // an R2C output (numpy rfftn): the last extent n becomes n/2+1
        Shape h = *this;
        h.dims.back() = h.dims.back() / 2 + 1;
        return h;
    }
    std::string name() const {  // "1024", "256x256", "64x64x64"
        std::string s;
        for (const uint64_t d : dims) s += (s.empty() ? "" : "x") + std::to_string(d);
        return s;
    }
};

struct Args {
    unsigned total_log2 = 26;  // values per case = 2^total_log2 (complex; real with --r2c)
    unsigned reps = 20;        // timed executions per case
    bool z2z = false;          // double precision instead of single
    bool r2c = false;          // real input, half spectrum out, instead of complex to complex
    std::string out;           // CSV path, empty for none
    std::vector<Shape> cases;  // --cases (rank 1) first, then --shapes
};

constexpr unsigned kMaxTotalLog2 = 30;         // 2^30 complex values: 8 GiB per f32 buffer, 16 GiB reference
constexpr uint64_t kMaxN = uint64_t(1) << 31;  // largest case, 1D or the product of a shape
constexpr size_t kMaxRank = 3;                 // cuFFT's limit
constexpr int kWarmup = 3;

void usage(FILE* f) {
    std::fprintf(
        f,
        "usage: cufft_bench [--total LOG2] [--reps R] [--out FILE.csv] [--cases LIST] [--shapes LIST] "
        "[--z2z | --r2c]\n"
        "  --total LOG2   values per case = 2^LOG2 (complex; real with --r2c), batch = max(1, 2^LOG2 / N)\n"
        "                 (default 26)\n"
        "  --reps R       timed executions per case, median reported (default 20)\n"
        "  --out FILE     also write the results as CSV\n"
        "  --cases LIST   comma-separated 1D lengths N, e.g. 100,1000,1536,4095,10007\n"
        "  --shapes LIST  comma-separated C-order shapes transformed over all axes, e.g.\n"
        "                 256x256,1024x1024,64x64x64 (rank 1 to 3; N = product of the extents)\n"
        "                 (default without --cases and --shapes: N = 2^3 .. 2^24, plus 2^25 .. 2^27\n"
        "                 where N <= 2^LOG2; with either, just the cases given, --cases first)\n"
        "  --z2z          double-precision Z2Z instead of C2C; rel_l2 is the round trip's error\n"
        "  --r2c          single-precision R2C (numpy rfftn over all axes) instead of C2C: real arrays in,\n"
        "                 the last axis's N_last/2+1 points out; rel_l2 against a D2Z of the same values\n");
}

[[noreturn]] void bad_usage(const std::string& msg) {
    std::fprintf(stderr, "cufft_bench: %s\n", msg.c_str());
    usage(stderr);
    std::exit(2);
}

// Parses a whole string as a decimal unsigned integer in [lo, hi]; exits with usage on failure.
uint64_t parse_uint(const char* what, const std::string& s, uint64_t lo, uint64_t hi) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        bad_usage(std::string(what) + ": '" + s + "' is not a non-negative integer");
    errno = 0;
    const unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (errno == ERANGE || v < lo || v > hi)
        bad_usage(std::string(what) + ": " + s + " is outside [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "]");
    return v;
}

// Splits s at every `sep`; an empty piece ("1,,2", "256x") is kept, and then fails to parse.
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= s.size()) {
        const size_t end = std::min(s.find(sep, start), s.size());
        parts.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

// "256x256" -> {256, 256}: 1 to kMaxRank positive extents whose product is at most kMaxN.
Shape parse_shape(const char* what, const std::string& s) {
    Shape shape;
    for (const std::string& d : split(s, 'x')) shape.dims.push_back(parse_uint(what, d, 1, kMaxN));
    if (shape.dims.size() > kMaxRank)
        bad_usage(std::string(what) + ": " + s + " has rank " + std::to_string(shape.dims.size()) +
                  ", cuFFT transforms rank 1 to " + std::to_string(kMaxRank));
    uint64_t n = 1;
    for (const uint64_t d : shape.dims) {
        if (n > kMaxN / d)
            bad_usage(std::string(what) + ": " + s + " has more than " + std::to_string(kMaxN) + " values");
        n *= d;
    }
    return shape;
}

Args parse_args(int argc, char** argv) {
    Args a;
    std::string cases, shapes;  // an empty value is as if the option were not given
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            usage(stdout);
            std::exit(0);
        }
        if (arg == "--z2z") {
            a.z2z = true;
            continue;
        }
        if (arg == "--r2c") {
            a.r2c = true;
            continue;
        }
        // Accept both "--opt value" and "--opt=value".
        std::string key = arg, value;
        bool have_value = false;
        if (const size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            key = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            have_value = true;
        }
        if (key != "--total" && key != "--reps" && key != "--out" && key != "--cases" && key != "--shapes")
            bad_usage("unknown argument '" + arg + "'");
        if (!have_value) {
            if (i + 1 >= argc) bad_usage(key + " needs a value");
            value = argv[++i];
        }
        if (key == "--total")
            a.total_log2 = static_cast<unsigned>(parse_uint("--total", value, 0, kMaxTotalLog2));
        else if (key == "--reps")
            a.reps = static_cast<unsigned>(parse_uint("--reps", value, 1, 100000));
        else if (key == "--out")
            a.out = value;
        else if (key == "--cases")
            cases = value;
        else
            shapes = value;
    }
    if (a.z2z && a.r2c)
        bad_usage("--z2z (double-precision Z2Z) and --r2c (single-precision R2C) exclude each other");
    if (!cases.empty())
        for (const std::string& c : split(cases, ','))
            a.cases.push_back(Shape{{parse_uint("--cases", c, 1, kMaxN)}});
    if (!shapes.empty())
        for (const std::string& s : split(shapes, ',')) a.cases.push_back(parse_shape("--shapes", s));
    if (cases.empty() && shapes.empty()) {
        for (unsigned b = 3; b <= 27; ++b)
            if (b <= 24 || b <= a.total_log2) a.cases.push_back(Shape{{uint64_t(1) << b}});
    }
    return a;
}

// ---------------------------------------------------------------------------------------------
// Helpers

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string version_string(int v) {  // CUDA encodes versions as 1000 * major + 10 * minor
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// Times `reps` executions of `launch` on `stream` after kWarmup untimed ones, each execution between
// its own pair of events, and returns the median milliseconds. All executions are queued back to
// back and the stream is synchronised once at the end.
template <typename Launch>
double time_median_ms(cudaStream_t stream, unsigned reps, Launch&& launch) {
    for (int w = 0; w < kWarmup; ++w) launch();
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<cudaEvent_t> start(reps), stop(reps);
    for (unsigned r = 0; r < reps; ++r) {
        CUDA_CHECK(cudaEventCreate(&start[r]));
        CUDA_CHECK(cudaEventCreate(&stop[r]));
    }
    for (unsigned r = 0; r < reps; ++r) {
        CUDA_CHECK(cudaEventRecord(start[r], stream));
        launch();
        CUDA_CHECK(cudaEventRecord(stop[r], stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> ms(reps);
    for (unsigned r = 0; r < reps; ++r) {
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, start[r], stop[r]));
        ms[r] = t;
        CUDA_CHECK(cudaEventDestroy(start[r]));
        CUDA_CHECK(cudaEventDestroy(stop[r]));
    }
    return median(ms);
}

// Bandwidth of a device-to-device copy of `bytes`, counting bytes read + bytes written.
double copy_ms(cudaStream_t stream, uint64_t bytes, unsigned reps) {
    void *src = nullptr, *dst = nullptr;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    CUDA_CHECK(cudaMemsetAsync(src, 0x3f, bytes, stream));
    const double ms = time_median_ms(stream, reps, [&] {
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
    });
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    return ms;
}

// Creates a batched plan over all axes of `shape`, arrays packed one after another (inembed =
// onembed = the shape, stride 1, idist = odist = N). For R2C and D2Z the output arrays are half
// spectra, so onembed = shape.half() and odist = its size; the transform lengths stay the real
// shape's. The 64-bit variant of cufftPlanMany is used so that N * batch beyond 2^31 cannot
// overflow; with batch 1 it is the plan cufftPlan1d/2d/3d makes.
cufftHandle make_plan(cudaStream_t stream, const Shape& shape, uint64_t batch, cufftType type) {
    cufftHandle plan;
    CUFFT_CHECK(cufftCreate(&plan));
    CUFFT_CHECK(cufftSetStream(plan, stream));
    const Shape out = type == CUFFT_R2C || type == CUFFT_D2Z ? shape.half() : shape;
    std::vector<long long> len(shape.dims.begin(), shape.dims.end());
    std::vector<long long> onembed(out.dims.begin(), out.dims.end());
    const long long idist = static_cast<long long>(shape.size());
    const long long odist = static_cast<long long>(out.size());
    size_t work = 0;
    // Advanced layout spelled out: embed = the arrays' own shapes, i.e. arrays packed.
    CUFFT_CHECK(cufftMakePlanMany64(plan, static_cast<int>(len.size()), len.data(), len.data(), 1, idist,
                                    onembed.data(), 1, odist, type, static_cast<long long>(batch), &work));
    return plan;
}

// Host <-> device copy ordered on `stream` (which does not synchronise with the legacy default
// stream), complete on return.
void copy_sync(cudaStream_t stream, void* dst, const void* src, uint64_t bytes, cudaMemcpyKind kind) {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

// ||out / divisor - ref|| / ||ref|| over all values, summed in long double (0 when both are zero,
// infinite when only ref is). NaN or Inf anywhere in `out` makes it non-finite.
template <typename Out, typename Ref>
double relative_l2(const std::vector<Out>& out, const std::vector<Ref>& ref, long double divisor) {
    long double num = 0, den = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        const long double dx = static_cast<long double>(out[i].x) / divisor - ref[i].x;
        const long double dy = static_cast<long double>(out[i].y) / divisor - ref[i].y;
        num += dx * dx + dy * dy;
        den += static_cast<long double>(ref[i].x) * ref[i].x + static_cast<long double>(ref[i].y) * ref[i].y;
    }
    return den > 0 ? static_cast<double>(std::sqrt(num / den)) : (num == 0 ? 0.0 : INFINITY);
}

struct Row {
    std::string shape;          // "1024", "256x256"
    uint64_t n = 0, batch = 0;  // n = the product of the shape
    double ms = 0, gbps = 0, rel_l2 = 0;
};

// A case's row before it runs: the shape and its batch, 2^total values (complex, or real with
// --r2c) in all.
Row new_row(const Shape& shape, const Args& a) {
    Row row;
    row.shape = shape.name();
    row.n = shape.size();
    row.batch = std::max<uint64_t>(1, (uint64_t(1) << a.total_log2) / row.n);
    return row;
}

// One case, 1D or multi-dimensional: the same steps for both, only the plan's rank differs.
Row run_case(cudaStream_t stream, const Shape& shape, const Args& a) {
    Row row = new_row(shape, a);
    const uint64_t count = row.n * row.batch;  // complex values
    const uint64_t bytes = count * sizeof(cufftComplex);

    // Input on the host: the same values `twiddle bench` uses for this case (seeded with N).
    std::vector<cufftComplex> h_in(count);
    {
        std::mt19937 gen(static_cast<uint32_t>(row.n));
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (auto& v : h_in) {
            v.x = dist(gen);
            v.y = dist(gen);
        }
    }

    if (a.z2z) {
        // Double precision: time forward transforms, then measure a round trip.
        std::vector<cufftDoubleComplex> h(count);
        for (uint64_t i = 0; i < count; ++i) h[i] = {double(h_in[i].x), double(h_in[i].y)};
        std::vector<cufftComplex>().swap(h_in);
        const uint64_t dbytes = count * sizeof(cufftDoubleComplex);
        cufftDoubleComplex *d_a = nullptr, *d_b = nullptr;
        CUDA_CHECK(cudaMalloc(&d_a, dbytes));
        CUDA_CHECK(cudaMalloc(&d_b, dbytes));
        copy_sync(stream, d_a, h.data(), dbytes, cudaMemcpyHostToDevice);
        cufftHandle plan = make_plan(stream, shape, row.batch, CUFFT_Z2Z);
        row.ms =
            time_median_ms(stream, a.reps, [&] { CUFFT_CHECK(cufftExecZ2Z(plan, d_a, d_b, CUFFT_FORWARD)); });
        row.gbps = 2.0 * static_cast<double>(dbytes) / (row.ms * 1e-3) / 1e9;
        CUFFT_CHECK(cufftExecZ2Z(plan, d_b, d_b, CUFFT_INVERSE));
        std::vector<cufftDoubleComplex> back(count);
        copy_sync(stream, back.data(), d_b, dbytes, cudaMemcpyDeviceToHost);
        CUFFT_CHECK(cufftDestroy(plan));
        CUDA_CHECK(cudaFree(d_a));
        CUDA_CHECK(cudaFree(d_b));
        row.rel_l2 = relative_l2(back, h, static_cast<long double>(row.n));  // inverse is unscaled
        return row;
    }

    // Single-precision transform: time it, then keep one result.
    cufftComplex *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    copy_sync(stream, d_in, h_in.data(), bytes, cudaMemcpyHostToDevice);
    cufftHandle plan = make_plan(stream, shape, row.batch, CUFFT_C2C);
    row.ms =
        time_median_ms(stream, a.reps, [&] { CUFFT_CHECK(cufftExecC2C(plan, d_in, d_out, CUFFT_FORWARD)); });
    row.gbps = 2.0 * static_cast<double>(bytes) / (row.ms * 1e-3) / 1e9;
    std::vector<cufftComplex> h_out(count);
    copy_sync(stream, h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(plan));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));

    // Double-precision reference of the same (f32) input values, same shape, whole batch, in place.
    std::vector<cufftDoubleComplex> h_ref(count);
    for (uint64_t i = 0; i < count; ++i)
        h_ref[i] = {static_cast<double>(h_in[i].x), static_cast<double>(h_in[i].y)};
    std::vector<cufftComplex>().swap(h_in);  // release host memory early
    cufftDoubleComplex* d_ref = nullptr;
    const uint64_t ref_bytes = count * sizeof(cufftDoubleComplex);
    CUDA_CHECK(cudaMalloc(&d_ref, ref_bytes));
    copy_sync(stream, d_ref, h_ref.data(), ref_bytes, cudaMemcpyHostToDevice);
    cufftHandle ref_plan = make_plan(stream, shape, row.batch, CUFFT_Z2Z);
    CUFFT_CHECK(cufftExecZ2Z(ref_plan, d_ref, d_ref, CUFFT_FORWARD));
    copy_sync(stream, h_ref.data(), d_ref, ref_bytes, cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(ref_plan));
    CUDA_CHECK(cudaFree(d_ref));

    row.rel_l2 = relative_l2(h_out, h_ref, 1.0L);
    return row;
}

// One --r2c case: the steps of run_case's single-precision path, with real arrays in and half
// spectra out, and a D2Z reference.
Row run_r2c_case(cudaStream_t stream, const Shape& shape, const Args& a) {
    Row row = new_row(shape, a);
    const uint64_t count = row.n * row.batch;                    // real values in
    const uint64_t out_count = shape.half().size() * row.batch;  // complex values out
    const uint64_t in_bytes = count * sizeof(cufftReal), out_bytes = out_count * sizeof(cufftComplex);

    // Input on the host: one value per real, from the generator and distribution run_case draws
    // its real and imaginary parts from, in memory order.
    std::vector<cufftReal> h_in(count);
    {
        std::mt19937 gen(static_cast<uint32_t>(row.n));
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (auto& v : h_in) v = dist(gen);
    }

    // Out of place, where cuFFT overwrites the input of C2R transforms only: every execution reads
    // the same values.
    cufftReal* d_in = nullptr;
    cufftComplex* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, in_bytes));
    CUDA_CHECK(cudaMalloc(&d_out, out_bytes));
    copy_sync(stream, d_in, h_in.data(), in_bytes, cudaMemcpyHostToDevice);
    cufftHandle plan = make_plan(stream, shape, row.batch, CUFFT_R2C);
    row.ms = time_median_ms(stream, a.reps, [&] { CUFFT_CHECK(cufftExecR2C(plan, d_in, d_out)); });
    row.gbps = static_cast<double>(in_bytes + out_bytes) / (row.ms * 1e-3) / 1e9;
    std::vector<cufftComplex> h_out(out_count);
    copy_sync(stream, h_out.data(), d_out, out_bytes, cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(plan));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));

    // Double-precision reference of the same (f32) input values, same shape, whole batch. Out of
    // place, as in place would need the padded real layout, not the packed one timed.
    std::vector<cufftDoubleReal> h_real(h_in.begin(), h_in.end());
    std::vector<cufftReal>().swap(h_in);  // release host memory early
    cufftDoubleReal* d_real = nullptr;
    cufftDoubleComplex* d_ref = nullptr;
    const uint64_t real_bytes = count * sizeof(cufftDoubleReal);
    const uint64_t ref_bytes = out_count * sizeof(cufftDoubleComplex);
    CUDA_CHECK(cudaMalloc(&d_real, real_bytes));
    CUDA_CHECK(cudaMalloc(&d_ref, ref_bytes));
    copy_sync(stream, d_real, h_real.data(), real_bytes, cudaMemcpyHostToDevice);
    std::vector<cufftDoubleReal>().swap(h_real);
    cufftHandle ref_plan = make_plan(stream, shape, row.batch, CUFFT_D2Z);
    CUFFT_CHECK(cufftExecD2Z(ref_plan, d_real, d_ref));
    std::vector<cufftDoubleComplex> h_ref(out_count);
    copy_sync(stream, h_ref.data(), d_ref, ref_bytes, cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(ref_plan));
    CUDA_CHECK(cudaFree(d_real));
    CUDA_CHECK(cudaFree(d_ref));

    row.rel_l2 = relative_l2(h_out, h_ref, 1.0L);  // over the half spectra, as numpy's rfftn returns
    return row;
}

}  // namespace

int main(int argc, char** argv) {
    const Args a = parse_args(argc, argv);

    // Device and versions. cudaGetDeviceCount is the first call that needs a driver and a GPU,
    // so report its failure in plain words.
    int devices = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess || devices == 0) {
        std::fprintf(
            stderr,
            "cufft_bench: no usable CUDA device (%s); is the NVIDIA driver loaded and a GPU visible?\n",
            e != cudaSuccess ? (std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e)).c_str()
                             : "cudaGetDeviceCount reported 0 devices");
        return 1;
    }
    FILE* csv = nullptr;  // opened before any case runs, so a bad path fails fast
    if (!a.out.empty()) {
        csv = std::fopen(a.out.c_str(), "w");
        if (!csv) die("cannot open " + a.out + " for writing: " + std::strerror(errno));
    }

    int device = 0;  // select another one with CUDA_VISIBLE_DEVICES
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    int driver = 0, runtime = 0, cufft = 0;
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    CUFFT_CHECK(cufftGetVersion(&cufft));
    std::printf("device: %s (sm_%d%d, %d SMs, %.1f GiB), CUDA driver %s, runtime %s, cuFFT %d (headers %d)\n",
                prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0),
                version_string(driver).c_str(), version_string(runtime).c_str(), cufft, CUFFT_VERSION);

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    // Copy yardstick over the byte count of one case.
    const uint64_t total = uint64_t(1) << a.total_log2;
    const uint64_t copy_bytes = total * sizeof(cufftComplex);
    const double cms = copy_ms(stream, copy_bytes, a.reps);
    const double cgbps = 2.0 * static_cast<double>(copy_bytes) / (cms * 1e-3) / 1e9;
    std::printf("copy: %llu bytes D2D, %.4f ms, %.1f GB/s (read + written)\n",
                static_cast<unsigned long long>(copy_bytes), cms, cgbps);
    if (csv) {
        // Columns: the original six, then `shape` (appended, so consumers by position still work).
        std::fprintf(csv, "library,n,batch,ms,gbps,rel_l2,shape\n");
        std::fprintf(csv, "copy,0,0,%.6g,%.6g,0,-\n", cms, cgbps);
        std::fflush(csv);
    }

    // One row per case, printed (and written) as soon as it is done.
    std::printf("%16s %10s %10s %10s %10s %10s\n", "shape", "N", "batch", "ms", "GB/s", "rel_l2");
    std::fflush(stdout);
    bool bad_error = false;
    for (const Shape& shape : a.cases) {
        const Row r = a.r2c ? run_r2c_case(stream, shape, a) : run_case(stream, shape, a);
        std::printf("%16s %10llu %10llu %10.4f %10.1f %10.2e\n", r.shape.c_str(),
                    static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.batch), r.ms,
                    r.gbps, r.rel_l2);
        std::fflush(stdout);
        if (csv) {
            std::fprintf(csv, "cufft,%llu,%llu,%.6g,%.6g,%.6g,%s\n", static_cast<unsigned long long>(r.n),
                         static_cast<unsigned long long>(r.batch), r.ms, r.gbps, r.rel_l2, r.shape.c_str());
            std::fflush(csv);
        }
        if (!std::isfinite(r.rel_l2)) bad_error = true;
    }

    CUDA_CHECK(cudaStreamDestroy(stream));
    if (csv && std::fclose(csv) != 0) die("writing " + a.out + " failed");
    if (bad_error) die("a case produced a non-finite error (NaN or Inf in the output)");
    return 0;
}
