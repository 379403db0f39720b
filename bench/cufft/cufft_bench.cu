// cufft_bench: throughput and accuracy of cuFFT batched single-precision C2C (or R2C) forward
// transforms, 1D and multi-dimensional, the NVIDIA baseline for `twiddle bench`; with --convolve,
// of a circular convolution done the cuFFT way (forward, a multiply kernel, inverse; below); with
// --sht, of the Fourier stage of a spherical-harmonic transform done the cuFFT way (below).
// Standalone: needs only the CUDA runtime and cuFFT.
//
//   cufft_bench [--total LOG2] [--reps R] [--warmup S] [--out FILE.csv] [--cases LIST]
//               [--shapes LIST] [--z2z | --r2c | --convolve]
//   cufft_bench --sht [--sht-cases LIST] [--fields F] [--reps R] [--warmup S] [--out FILE.csv]
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
// Timing: executions back to back for at least --warmup seconds and until their speed is steady
// (default 1; the rule of `twiddle bench --warmup`, src/vk/warm_up.hpp; at least 3 executions),
// then `reps` executions each bracketed by its own pair of CUDA events on one stream, twice
// (twiddle::vk::kTimedRounds rounds of warm-up and timing); the lower median is reported. The
// H200's clocks drop while it idles between cases and, earlier runs saw, under sustained load,
// and a slow spell can outlast a warm-up, so comparisons take equal warm-ups and rounds.
// GB/s = (bytes read + bytes written) / median time = 2 * N * batch * 8 / seconds / 1e9. A
// device-to-device cudaMemcpyAsync of 2^total * 8 bytes, timed the same way, is the "copy"
// yardstick.
//
// Accuracy: relative L2 error ||out - ref|| / ||ref|| over the WHOLE batch, where ref is a cuFFT
// double-precision Z2Z transform (in place, same shape and batch) of the same f32 input values
// upcast to double on the device; the sums of squares are accumulated on the device in double
// (per thread, then per warp, then one atomic add per warp), so that the checks cost a fraction of
// a second per case rather than the seconds a host pass over 2^26 values took.
//
// CSV (--out): library,n,batch,ms,gbps,rel_l2,shape,round_ms -- shape is "1024" for a 1D case,
// "256x256" for a 2D one, "-" on the copy row; round_ms each timing round's median ("0.81;0.82"),
// ms being the lowest, empty on the copy row.
//
// --convolve: the baseline for twiddle's fused FFT convolution (`twiddle bench --convolve`), on the
// same cases (--cases, --shapes; default 4096 and 1024x1024) and the same 2^total complex values per
// case. Inputs, as twiddle's: one std::mt19937 seeded with N draws x (batch arrays, real then
// imaginary, uniform in [-1, 1)), then a filter spectrum h of ONE array (N values) applied to every
// array of the batch. Timed, as one unit, on one stream: cufftExecC2C forward x -> t (out of place),
// multiply_filter t[i] = t[i] * h[i % N] * (1/N) (so the inverse is normalized as numpy's ifftn), and
// cufftExecC2C inverse t -> y, the same C2C plan for both directions. Also timed alone, the same way:
// the forward transform, and the multiply kernel (on t as the previous timing left it). GB/s =
// 2 * N * batch * 8 / seconds / 1e9 (x read, y written once). Accuracy: rel_l2 of y over three
// arrays of the batch (the first, the middle one, the last; fewer when batch < 3) against
// ifftn(fftn(x_b) * h) computed on the host in double (cpu_fftn: per-axis radix-2, or Bluestein for
// other lengths); over 1e-5, or not finite, the case's status is "failed" and the exit status 1.
// CSV: library,n,batch,ms,gbps,rel_l2,shape,fwd_ms,multiply_ms with library "cufft+multiply" (and
// the copy row, fwd_ms = multiply_ms = 0): the existing seven columns in their order, the two
// timings appended, as consumers read the file by column name (bench/compare.py: csv.DictReader).
//
// --sht: the Fourier stage of a spherical-harmonic transform, the baseline for twiddle's own stage.
// A case NLATxNPHIxMMAX (--sht-cases, default 1024x2048x1023,4096x8192x4095; mmax < nphi/2) and
// --fields F (default 1) give two arrays per case:
//   spatial   real float    spat[f * nlat*nphi + ilat * nphi + iphi]           (rows of nphi)
//   spectral  complex float fm[f * (mmax+1)*nlat + m * nlat + ilat], m = 0..mmax  (m-major)
// Analysis (spat -> fm): X_m = sum_j x_j e^{-2 pi i j m / nphi} of every row, unnormalized, m <= mmax
// kept. One cufftMakePlanMany64 R2C plan over all fields*nlat rows into a temporary of rows of
// nphi/2+1 complex, then rows_to_fm, a 32x32 shared-memory tiled transpose that keeps m <= mmax.
// Synthesis (fm -> spat): per row the half spectrum X_m = F_m for m <= mmax, 0 for mmax < m <=
// nphi/2, then the unnormalized inverse, x_j = Re F_0 + sum_{m=1..mmax} 2 Re(F_m e^{+2 pi i j m /
// nphi}) (cuFFT's C2R convention; Im F_0 is ignored). fm_to_rows, the same tiled transpose the other
// way round, writes the zero-padded temporary, then one C2R plan over all rows writes spat (the
// transpose runs every time, as an out-of-place C2R may overwrite its input).
// Each direction is timed as a whole, its two launches on one stream, as above (warm-up, median
// of `reps`). GB/s = (spat bytes + fm bytes) / seconds / 1e9 = fields * (nlat*nphi*4 +
// (mmax+1)*nlat*8) / seconds / 1e9: the stage's own input and output, not the temporary. The copy
// yardstick, per case, is a D2D copy of spat bytes + fm bytes (GB/s = 2 * bytes / seconds / 1e9).
// Inputs: std::mt19937 seeded with nphi, uniform floats in [-1, 1), in memory order: spat for
// analysis; fm for synthesis (real then imaginary part of each value), then Im F_0 set to 0 so the
// reference is unambiguous. rel_l2 is against the same stage in double precision: cuFFT D2Z of the
// same spat upcast, cropped and transposed on the host, or Z2D of the half spectra the same fm
// (upcast) give, over all fields. CSV: library,direction,nlat,nphi,mmax,fields,ms,gbps,rel_l2 with
// library cufft (direction synthesis or analysis) or copy (direction "-", rel_l2 0).

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
#include <utility>
#include <string>
#include <vector>

#include "vk/warm_up.hpp"  // twiddle's warm-up rule (src/)

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

// One --sht case: nlat rows of nphi real points per field, orders m = 0..mmax kept (mmax < nphi/2).
struct ShtCase {
    uint64_t nlat = 0, nphi = 0, mmax = 0;

    uint64_t half() const { return nphi / 2 + 1; }  // complex points in one row's half spectrum
    std::string name() const {                      // "1024x2048x1023"
        return std::to_string(nlat) + "x" + std::to_string(nphi) + "x" + std::to_string(mmax);
    }
};

// How a case is timed: `reps` executions after `warmup_s` seconds of untimed ones, in each of
// twiddle::vk::kTimedRounds rounds (time_median_ms).
struct Timing {
    unsigned reps;
    double warmup_s;
};

struct Args {
    unsigned total_log2 = 26;  // values per case = 2^total_log2 (complex; real with --r2c)
    unsigned reps = 20;        // timed executions per round
    double warmup_s = 1;       // seconds of untimed executions before the timed ones
    bool z2z = false;          // double precision instead of single
    bool r2c = false;          // real input, half spectrum out, instead of complex to complex
    bool convolve = false;     // forward C2C, multiply by a filter spectrum, inverse C2C
    std::string out;           // CSV path, empty for none
    std::vector<Shape> cases;  // --cases (rank 1) first, then --shapes
    bool sht = false;          // the spherical-harmonic Fourier stage instead of the cases above
    uint64_t fields = 1;       // --sht: fields per case
    std::vector<ShtCase> sht_cases;
    Timing timing() const { return {reps, warmup_s}; }
};

constexpr unsigned kMaxTotalLog2 = 30;         // 2^30 complex values: 8 GiB per f32 buffer, 16 GiB reference
constexpr uint64_t kMaxN = uint64_t(1) << 31;  // largest case, 1D or the product of a shape
constexpr size_t kMaxRank = 3;                 // cuFFT's limit
constexpr int kMinWarmup = 3;                  // warm-up executions at least
constexpr double kMaxWarmupS = 60;             // as `twiddle bench --warmup`

void usage(FILE* f) {
    std::fprintf(
        f,
        "usage: cufft_bench [--total LOG2] [--reps R] [--warmup S] [--out FILE.csv] [--cases LIST] "
        "[--shapes LIST] [--z2z | --r2c | --convolve]\n"
        "       cufft_bench --sht [--sht-cases LIST] [--fields F] [--reps R] [--warmup S] [--out FILE.csv]\n"
        "  --total LOG2   values per case = 2^LOG2 (complex; real with --r2c), batch = max(1, 2^LOG2 / N)\n"
        "                 (default 26)\n"
        "  --reps R       timed executions per round; the lower of two rounds' medians is reported\n"
        "                 (default 20)\n"
        "  --warmup S     seconds of executions back to back before each timing, then on until their\n"
        "                 speed is steady (at most as long again); at least 3 executions (default 1,\n"
        "                 as twiddle bench)\n"
        "  --out FILE     also write the results as CSV\n"
        "  --cases LIST   comma-separated 1D lengths N, e.g. 100,1000,1536,4095,10007\n"
        "  --shapes LIST  comma-separated C-order shapes transformed over all axes, e.g.\n"
        "                 256x256,1024x1024,64x64x64 (rank 1 to 3; N = product of the extents)\n"
        "                 (default without --cases and --shapes: N = 2^3 .. 2^24, plus 2^25 .. 2^27\n"
        "                 where N <= 2^LOG2; with either, just the cases given, --cases first;\n"
        "                 with --convolve the default is 4096,1024x1024)\n"
        "  --z2z          double-precision Z2Z instead of C2C; rel_l2 is the round trip's error\n"
        "  --r2c          single-precision R2C (numpy rfftn over all axes) instead of C2C: real arrays in,\n"
        "                 the last axis's N_last/2+1 points out; rel_l2 against a D2Z of the same values\n"
        "  --convolve     circular convolutions instead: C2C forward, a kernel multiplying every array by\n"
        "                 one filter spectrum (and 1/N), C2C inverse, timed together (the forward and the\n"
        "                 multiply also alone); rel_l2 of 3 arrays against a CPU double reference,\n"
        "                 status failed (exit 1) over 1e-5\n"
        "  --sht          the Fourier stage of a spherical-harmonic transform instead (synthesis and\n"
        "                 analysis: cuFFT C2R / R2C over all rows plus a transpose to / from m-major)\n"
        "  --sht-cases LIST\n"
        "                 comma-separated NLATxNPHIxMMAX, mmax < nphi/2\n"
        "                 (default 1024x2048x1023,4096x8192x4095)\n"
        "  --fields F     --sht: fields per case (default 1); fields * nlat * nphi at most 2^31\n");
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

double parse_seconds(const char* what, const std::string& s, double hi) {
    char* end = nullptr;
    errno = 0;
    const double v = s.empty() ? -1 : std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || errno == ERANGE || !(v >= 0 && v <= hi))
        bad_usage(std::string(what) + ": '" + s + "' is not a number of seconds in [0, " +
                  std::to_string(static_cast<int>(hi)) + "]");
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

// "1024x2048x1023" -> nlat 1024, nphi 2048, mmax 1023, with nphi >= 2 and mmax < nphi/2.
ShtCase parse_sht_case(const std::string& s) {
    const std::vector<std::string> parts = split(s, 'x');
    if (parts.size() != 3) bad_usage("--sht-cases: '" + s + "' is not NLATxNPHIxMMAX");
    ShtCase c;
    c.nlat = parse_uint("--sht-cases", parts[0], 1, kMaxN);
    c.nphi = parse_uint("--sht-cases", parts[1], 2, kMaxN);
    c.mmax = parse_uint("--sht-cases mmax", parts[2], 0, c.nphi / 2 - 1);
    return c;
}

Args parse_args(int argc, char** argv) {
    Args a;
    std::string cases, shapes;  // an empty value is as if the option were not given
    std::string sht_cases, fields;
    bool total_given = false;
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
        if (arg == "--sht") {
            a.sht = true;
            continue;
        }
        if (arg == "--convolve") {
            a.convolve = true;
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
        if (key != "--total" && key != "--reps" && key != "--warmup" && key != "--out" && key != "--cases" &&
            key != "--shapes" && key != "--sht-cases" && key != "--fields")
            bad_usage("unknown argument '" + arg + "'");
        if (!have_value) {
            if (i + 1 >= argc) bad_usage(key + " needs a value");
            value = argv[++i];
        }
        if (key == "--total") {
            a.total_log2 = static_cast<unsigned>(parse_uint("--total", value, 0, kMaxTotalLog2));
            total_given = true;
        } else if (key == "--reps")
            a.reps = static_cast<unsigned>(parse_uint("--reps", value, 1, 100000));
        else if (key == "--warmup")
            a.warmup_s = parse_seconds("--warmup", value, kMaxWarmupS);
        else if (key == "--out")
            a.out = value;
        else if (key == "--cases")
            cases = value;
        else if (key == "--shapes")
            shapes = value;
        else if (key == "--sht-cases")
            sht_cases = value;
        else
            fields = value;
    }
    if (a.z2z && a.r2c)
        bad_usage("--z2z (double-precision Z2Z) and --r2c (single-precision R2C) exclude each other");
    if (a.convolve && (a.z2z || a.r2c || a.sht))
        bad_usage("--convolve (single-precision C2C convolutions) excludes --z2z, --r2c and --sht");
    if (a.sht) {
        if (a.z2z || a.r2c || total_given || !cases.empty() || !shapes.empty())
            bad_usage(
                "--sht takes its cases from --sht-cases; --total, --cases, --shapes, --z2z and --r2c "
                "do not apply to it");
        if (!fields.empty()) a.fields = parse_uint("--fields", fields, 1, kMaxN);
        for (const std::string& c :
             split(sht_cases.empty() ? "1024x2048x1023,4096x8192x4095" : sht_cases, ','))
            a.sht_cases.push_back(parse_sht_case(c));
        for (const ShtCase& c : a.sht_cases)
            if (c.nlat > kMaxN / c.nphi || c.nlat * c.nphi > kMaxN / a.fields)
                bad_usage("--sht-cases: " + c.name() + " with --fields " + std::to_string(a.fields) +
                          " has more than " + std::to_string(kMaxN) + " real values");
        return a;
    }
    if (!sht_cases.empty() || !fields.empty()) bad_usage("--sht-cases and --fields need --sht");
    if (!cases.empty())
        for (const std::string& c : split(cases, ','))
            a.cases.push_back(Shape{{parse_uint("--cases", c, 1, kMaxN)}});
    if (!shapes.empty())
        for (const std::string& s : split(shapes, ',')) a.cases.push_back(parse_shape("--shapes", s));
    if (cases.empty() && shapes.empty() && a.convolve) {
        a.cases.push_back(Shape{{4096}});
        a.cases.push_back(Shape{{1024, 1024}});
    } else if (cases.empty() && shapes.empty()) {
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

// Times `t.reps` executions of `launch` on `stream` after the warm-up (kMinWarmup executions, then
// batches back to back, each between two events, as twiddle bench's WarmUp says for t.warmup_s
// seconds: src/vk/warm_up.hpp), each execution between its own pair of events, in
// twiddle::vk::kTimedRounds such rounds (warm-up and timed executions), and returns each round's
// median milliseconds, as twiddle bench does.
// The timed executions are queued back to back and the stream is synchronised once at the end.
template <typename Launch>
twiddle::vk::RoundMedians time_rounds_ms(cudaStream_t stream, Timing t, Launch&& launch) {
    const unsigned reps = t.reps;
    for (int w = 0; w < kMinWarmup; ++w) launch();
    CUDA_CHECK(cudaStreamSynchronize(stream));
    cudaEvent_t begin, end;
    CUDA_CHECK(cudaEventCreate(&begin));
    CUDA_CHECK(cudaEventCreate(&end));
    std::vector<cudaEvent_t> start(reps), stop(reps);
    for (unsigned r = 0; r < reps; ++r) {
        CUDA_CHECK(cudaEventCreate(&start[r]));
        CUDA_CHECK(cudaEventCreate(&stop[r]));
    }
    const twiddle::vk::RoundMedians rounds = twiddle::vk::timed_rounds([&] {
        double spent_s = 0;
        for (twiddle::vk::WarmUp w(t.warmup_s); w.running();) {
            CUDA_CHECK(cudaEventRecord(begin, stream));
            for (unsigned b = 0; b < w.batch(); ++b) launch();
            CUDA_CHECK(cudaEventRecord(end, stream));
            CUDA_CHECK(cudaEventSynchronize(end));
            float ms = 0;
            CUDA_CHECK(cudaEventElapsedTime(&ms, begin, end));
            spent_s += ms * 1e-3 + 1e-5;  // at least a little per batch, so that the loop ends
            w.ran(ms * 1e-3, spent_s);
        }
        for (unsigned r = 0; r < reps; ++r) {
            CUDA_CHECK(cudaEventRecord(start[r], stream));
            launch();
            CUDA_CHECK(cudaEventRecord(stop[r], stream));
        }
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<double> ms(reps);
        for (unsigned r = 0; r < reps; ++r) {
            float elapsed = 0;
            CUDA_CHECK(cudaEventElapsedTime(&elapsed, start[r], stop[r]));
            ms[r] = elapsed;
        }
        return median(ms);
    });
    CUDA_CHECK(cudaEventDestroy(begin));
    CUDA_CHECK(cudaEventDestroy(end));
    for (unsigned r = 0; r < reps; ++r) {
        CUDA_CHECK(cudaEventDestroy(start[r]));
        CUDA_CHECK(cudaEventDestroy(stop[r]));
    }
    return rounds;
}

// The same, the lowest round's median: the case's time.
template <typename Launch>
double time_median_ms(cudaStream_t stream, Timing t, Launch&& launch) {
    return time_rounds_ms(stream, t, std::forward<Launch>(launch)).fastest();
}

// Bandwidth of a device-to-device copy of `bytes`, counting bytes read + bytes written.
double copy_ms(cudaStream_t stream, uint64_t bytes, Timing timing) {
    void *src = nullptr, *dst = nullptr;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    CUDA_CHECK(cudaMemsetAsync(src, 0x3f, bytes, stream));
    const double ms = time_median_ms(stream, timing, [&] {
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
    });
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    return ms;
}

// Creates a batched plan over all axes of `shape`, arrays packed one after another (inembed =
// onembed = the shape, stride 1, idist = odist = N). For R2C and D2Z the output arrays are half
// spectra, so onembed = shape.half() and odist = its size, and for C2R and Z2D the input arrays;
// the transform lengths stay the real shape's. The 64-bit variant of cufftPlanMany is used so that
// N * batch beyond 2^31 cannot overflow; with batch 1 it is the plan cufftPlan1d/2d/3d makes.
cufftHandle make_plan(cudaStream_t stream, const Shape& shape, uint64_t batch, cufftType type) {
    cufftHandle plan;
    CUFFT_CHECK(cufftCreate(&plan));
    CUFFT_CHECK(cufftSetStream(plan, stream));
    const Shape in = type == CUFFT_C2R || type == CUFFT_Z2D ? shape.half() : shape;
    const Shape out = type == CUFFT_R2C || type == CUFFT_D2Z ? shape.half() : shape;
    std::vector<long long> len(shape.dims.begin(), shape.dims.end());
    std::vector<long long> inembed(in.dims.begin(), in.dims.end());
    std::vector<long long> onembed(out.dims.begin(), out.dims.end());
    const long long idist = static_cast<long long>(in.size());
    const long long odist = static_cast<long long>(out.size());
    size_t work = 0;
    // Advanced layout spelled out: embed = the arrays' own shapes, i.e. arrays packed.
    CUFFT_CHECK(cufftMakePlanMany64(plan, static_cast<int>(len.size()), len.data(), inembed.data(), 1, idist,
                                    onembed.data(), 1, odist, type, static_cast<long long>(batch), &work));
    return plan;
}

// Host <-> device copy ordered on `stream` (which does not synchronise with the legacy default
// stream), complete on return.
void copy_sync(cudaStream_t stream, void* dst, const void* src, uint64_t bytes, cudaMemcpyKind kind) {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

// sqrt(num / den) for the sums of squares below: 0 when both are zero, infinite when only num is.
double norm_ratio(long double num, long double den) {
    return den > 0 ? static_cast<double>(std::sqrt(num / den)) : (num == 0 ? 0.0 : INFINITY);
}

// ||out / divisor - ref|| / ||ref|| over all complex values, summed in long double. NaN or Inf
// anywhere in `out` makes it non-finite.
template <typename Out, typename Ref>
double relative_l2(const std::vector<Out>& out, const std::vector<Ref>& ref, long double divisor) {
    long double num = 0, den = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        const long double dx = static_cast<long double>(out[i].x) / divisor - ref[i].x;
        const long double dy = static_cast<long double>(out[i].y) / divisor - ref[i].y;
        num += dx * dx + dy * dy;
        den += static_cast<long double>(ref[i].x) * ref[i].x + static_cast<long double>(ref[i].y) * ref[i].y;
    }
    return norm_ratio(num, den);
}

// ||out - ref|| / ||ref|| over real values, as above.
double relative_l2(const std::vector<cufftReal>& out, const std::vector<cufftDoubleReal>& ref) {
    long double num = 0, den = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        const long double d = static_cast<long double>(out[i]) - ref[i];
        num += d * d;
        den += static_cast<long double>(ref[i]) * ref[i];
    }
    return norm_ratio(num, den);
}

// ---------------------------------------------------------------------------------------------
// Accuracy checks on the device: the f32 input widened to double for the reference transform, and
// the sums of squares of ||out - ref|| and ||ref|| over a whole batch, without copying 2^26 values
// to the host.

constexpr unsigned kCheckThreads = 256;

// The grid for a grid-stride loop over `count` elements: enough blocks to fill the device.
unsigned check_blocks(uint64_t count) {
    return static_cast<unsigned>(std::min<uint64_t>((count + kCheckThreads - 1) / kCheckThreads, 4096));
}

__device__ double widen(float v) { return v; }
__device__ double2 widen(float2 v) { return make_double2(v.x, v.y); }

template <typename In, typename Out>
__global__ void __launch_bounds__(kCheckThreads) widen_kernel(const In* in, Out* out, uint64_t count) {
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < count; i += uint64_t(gridDim.x) * blockDim.x)
        out[i] = widen(in[i]);
}

// out[i] = double(in[i]) for i < count, complete on return.
template <typename In, typename Out>
void widen_on_device(cudaStream_t stream, const In* in, Out* out, uint64_t count) {
    widen_kernel<<<check_blocks(count), kCheckThreads, 0, stream>>>(in, out, count);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

// Squared differences and squared reference values of one element, real or complex.
__device__ void add_squares(float out, double ref, double& num, double& den) {
    const double d = static_cast<double>(out) - ref;
    num += d * d;
    den += ref * ref;
}
__device__ void add_squares(float2 out, double2 ref, double& num, double& den) {
    add_squares(out.x, ref.x, num, den);
    add_squares(out.y, ref.y, num, den);
}

// sums[0] += sum |out - ref|^2, sums[1] += sum |ref|^2 over `count` elements. NaN or Inf in
// `out` makes sums[0] non-finite.
template <typename Out, typename Ref>
__global__ void __launch_bounds__(kCheckThreads)
    squares_kernel(const Out* out, const Ref* ref, uint64_t count, double* sums) {
    double num = 0, den = 0;
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < count; i += uint64_t(gridDim.x) * blockDim.x)
        add_squares(out[i], ref[i], num, den);
    for (unsigned offset = 16; offset > 0; offset /= 2) {
        num += __shfl_down_sync(0xffffffffu, num, offset);
        den += __shfl_down_sync(0xffffffffu, den, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(&sums[0], num);
        atomicAdd(&sums[1], den);
    }
}

// ||out - ref|| / ||ref|| over `count` device elements (float2 against double2, or float
// against double).
template <typename Out, typename Ref>
double relative_l2_on_device(cudaStream_t stream, const Out* out, const Ref* ref, uint64_t count) {
    double* d_sums = nullptr;
    CUDA_CHECK(cudaMalloc(&d_sums, 2 * sizeof(double)));
    CUDA_CHECK(cudaMemsetAsync(d_sums, 0, 2 * sizeof(double), stream));
    squares_kernel<<<check_blocks(count), kCheckThreads, 0, stream>>>(out, ref, count, d_sums);
    CUDA_CHECK(cudaGetLastError());
    double sums[2] = {0, 0};
    copy_sync(stream, sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost);
    CUDA_CHECK(cudaFree(d_sums));
    return norm_ratio(sums[0], sums[1]);
}

struct Row {
    std::string shape;          // "1024", "256x256"
    uint64_t n = 0, batch = 0;  // n = the product of the shape
    double ms = 0, gbps = 0, rel_l2 = 0;
    // Each timing round's median, in the order run (ms is the lowest), for the FFT cases.
    twiddle::vk::RoundMedians rounds;
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
        row.rounds = time_rounds_ms(stream, a.timing(),
                                    [&] { CUFFT_CHECK(cufftExecZ2Z(plan, d_a, d_b, CUFFT_FORWARD)); });
        row.ms = row.rounds.fastest();
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

    // Single-precision transform: time it; its output stays on the device for the check.
    cufftComplex *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    copy_sync(stream, d_in, h_in.data(), bytes, cudaMemcpyHostToDevice);
    cufftHandle plan = make_plan(stream, shape, row.batch, CUFFT_C2C);
    row.rounds = time_rounds_ms(stream, a.timing(),
                                [&] { CUFFT_CHECK(cufftExecC2C(plan, d_in, d_out, CUFFT_FORWARD)); });
    row.ms = row.rounds.fastest();
    row.gbps = 2.0 * static_cast<double>(bytes) / (row.ms * 1e-3) / 1e9;
    CUFFT_CHECK(cufftDestroy(plan));

    // Double-precision reference of the same (f32) input values, same shape, whole batch, in place.
    cufftDoubleComplex* d_ref = nullptr;
    CUDA_CHECK(cudaMalloc(&d_ref, count * sizeof(cufftDoubleComplex)));
    widen_on_device(stream, d_in, d_ref, count);
    CUDA_CHECK(cudaFree(d_in));
    cufftHandle ref_plan = make_plan(stream, shape, row.batch, CUFFT_Z2Z);
    CUFFT_CHECK(cufftExecZ2Z(ref_plan, d_ref, d_ref, CUFFT_FORWARD));
    CUFFT_CHECK(cufftDestroy(ref_plan));
    row.rel_l2 = relative_l2_on_device(stream, d_out, d_ref, count);
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_ref));
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
    row.rounds = time_rounds_ms(stream, a.timing(), [&] { CUFFT_CHECK(cufftExecR2C(plan, d_in, d_out)); });
    row.ms = row.rounds.fastest();
    row.gbps = static_cast<double>(in_bytes + out_bytes) / (row.ms * 1e-3) / 1e9;
    CUFFT_CHECK(cufftDestroy(plan));

    // Double-precision reference of the same (f32) input values, same shape, whole batch. Out of
    // place, as in place would need the padded real layout, not the packed one timed.
    cufftDoubleReal* d_real = nullptr;
    cufftDoubleComplex* d_ref = nullptr;
    CUDA_CHECK(cudaMalloc(&d_real, count * sizeof(cufftDoubleReal)));
    CUDA_CHECK(cudaMalloc(&d_ref, out_count * sizeof(cufftDoubleComplex)));
    widen_on_device(stream, d_in, d_real, count);
    CUDA_CHECK(cudaFree(d_in));
    cufftHandle ref_plan = make_plan(stream, shape, row.batch, CUFFT_D2Z);
    CUFFT_CHECK(cufftExecD2Z(ref_plan, d_real, d_ref));
    CUFFT_CHECK(cufftDestroy(ref_plan));
    CUDA_CHECK(cudaFree(d_real));
    // Over the half spectra, as numpy's rfftn returns.
    row.rel_l2 = relative_l2_on_device(stream, d_out, d_ref, out_count);
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_ref));
    return row;
}

// The copy yardstick over the byte count of one case (2^total complex values), timed and printed.
struct CopyResult {
    double ms = 0, gbps = 0;
};

CopyResult run_copy(cudaStream_t stream, const Args& a) {
    const uint64_t total = uint64_t(1) << a.total_log2;
    const uint64_t copy_bytes = total * sizeof(cufftComplex);
    CopyResult c;
    c.ms = copy_ms(stream, copy_bytes, a.timing());
    c.gbps = 2.0 * static_cast<double>(copy_bytes) / (c.ms * 1e-3) / 1e9;
    std::printf("copy: %llu bytes D2D, %.4f ms, %.1f GB/s (read + written)\n",
                static_cast<unsigned long long>(copy_bytes), c.ms, c.gbps);
    return c;
}

// The FFT run (C2C, --z2z or --r2c): the copy row, then one row per case. Returns false when a
// case's error is not finite.
bool run_fft_cases(cudaStream_t stream, const Args& a, FILE* csv) {
    const CopyResult copy = run_copy(stream, a);
    if (csv) {
        // Columns: the original six, then `shape` and `round_ms` (appended, so consumers by
        // position still work).
        std::fprintf(csv, "library,n,batch,ms,gbps,rel_l2,shape,round_ms\n");
        std::fprintf(csv, "copy,0,0,%.6g,%.6g,0,-,\n", copy.ms, copy.gbps);
        std::fflush(csv);
    }

    // One row per case, printed (and written) as soon as it is done.
    std::printf("%16s %10s %10s %10s %10s %10s\n", "shape", "N", "batch", "ms", "GB/s", "rel_l2");
    std::fflush(stdout);
    bool ok = true;
    for (const Shape& shape : a.cases) {
        const Row r = a.r2c ? run_r2c_case(stream, shape, a) : run_case(stream, shape, a);
        std::printf("%16s %10llu %10llu %10.4f %10.1f %10.2e\n", r.shape.c_str(),
                    static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.batch), r.ms,
                    r.gbps, r.rel_l2);
        std::fflush(stdout);
        if (csv) {
            std::fprintf(csv, "cufft,%llu,%llu,%.6g,%.6g,%.6g,%s,", static_cast<unsigned long long>(r.n),
                         static_cast<unsigned long long>(r.batch), r.ms, r.gbps, r.rel_l2, r.shape.c_str());
            for (size_t k = 0; k < r.rounds.ms.size(); ++k)
                std::fprintf(csv, "%s%.6g", k ? ";" : "", r.rounds.ms[k]);
            std::fprintf(csv, "\n");
            std::fflush(csv);
        }
        if (!std::isfinite(r.rel_l2)) ok = false;
    }
    return ok;
}

// ---------------------------------------------------------------------------------------------
// --sht: the Fourier stage of a spherical-harmonic transform, cuFFT over rows plus a transpose

// The transposes move kTile x kTile tiles of one field's nlat x (orders) matrix through shared
// memory so that both the global reads and the global writes of a warp are 32 consecutive complex
// values (256 bytes): rows of the half spectrum are m-contiguous, fm is ilat-contiguous. A block of
// kTile x kTileRows threads moves kTile / kTileRows values per thread each way.
constexpr unsigned kTile = 32;
constexpr unsigned kTileRows = 8;
constexpr unsigned kTileThreads = kTile * kTileRows;

// The tiles of every field, flattened into blockIdx.x, m tiles fastest: gridDim.y and z stop at
// 65535, which fields or nlat alone may pass. At most fields * nlat * (nphi/2) <= 2^30 blocks, as
// ceil(nlat/32) <= nlat and ceil((nphi/2+1)/32) <= nphi/2, within gridDim.x's 2^31-1.
struct TileGrid {
    unsigned m_tiles, lat_tiles;  // per field
    uint64_t blocks;              // fields * m_tiles * lat_tiles
};

TileGrid tile_grid(uint64_t fields, uint64_t nlat, uint64_t orders) {
    TileGrid g;
    g.m_tiles = static_cast<unsigned>((orders + kTile - 1) / kTile);
    g.lat_tiles = static_cast<unsigned>((nlat + kTile - 1) / kTile);
    g.blocks = fields * g.m_tiles * g.lat_tiles;
    return g;
}

// The tile of block `b`: its first order m0, its first row lat0 and its field f.
__device__ void tile_origin(unsigned b, unsigned m_tiles, unsigned lat_tiles, unsigned& m0, unsigned& lat0,
                            uint64_t& f) {
    m0 = (b % m_tiles) * kTile;
    b /= m_tiles;
    lat0 = (b % lat_tiles) * kTile;
    f = b / lat_tiles;
}

// Analysis, after the R2C: half[(f*nlat + ilat) * nh + m] -> fm[(f*(mmax+1) + m) * nlat + ilat] for
// m <= mmax; the orders above mmax are never read. Grid: tile_grid(fields, nlat, mmax + 1).
// The tile is padded to kTile + 1 columns so that the column-wise shared accesses of a half warp
// (8-byte values) fall in distinct banks.
__global__ void __launch_bounds__(kTileThreads)
    rows_to_fm(const cufftComplex* __restrict__ half, cufftComplex* __restrict__ fm, unsigned nlat,
               unsigned nh, unsigned mmax, unsigned m_tiles, unsigned lat_tiles) {
    __shared__ cufftComplex tile[kTile][kTile + 1];
    unsigned m0, lat0;
    uint64_t f;
    tile_origin(blockIdx.x, m_tiles, lat_tiles, m0, lat0, f);
    const unsigned m_in = m0 + threadIdx.x;  // a warp reads kTile consecutive orders of one row
    if (m_in <= mmax)
        for (unsigned i = threadIdx.y; i < kTile; i += kTileRows)
            if (lat0 + i < nlat) tile[i][threadIdx.x] = half[(f * nlat + lat0 + i) * nh + m_in];
    __syncthreads();
    const unsigned lat_out = lat0 + threadIdx.x;  // and writes kTile consecutive rows of one order
    if (lat_out < nlat)
        for (unsigned i = threadIdx.y; i < kTile; i += kTileRows)
            if (m0 + i <= mmax) fm[(f * (mmax + 1) + m0 + i) * nlat + lat_out] = tile[threadIdx.x][i];
}

// Synthesis, before the C2R: the other way round, fm -> half, and every order mmax < m < nh of a
// row written as zero (an out-of-place C2R may overwrite its input, so this runs every time).
// Grid: tile_grid(fields, nlat, nh).
__global__ void __launch_bounds__(kTileThreads)
    fm_to_rows(const cufftComplex* __restrict__ fm, cufftComplex* __restrict__ half, unsigned nlat,
               unsigned nh, unsigned mmax, unsigned m_tiles, unsigned lat_tiles) {
    __shared__ cufftComplex tile[kTile][kTile + 1];
    unsigned m0, lat0;
    uint64_t f;
    tile_origin(blockIdx.x, m_tiles, lat_tiles, m0, lat0, f);
    const unsigned lat_in = lat0 + threadIdx.x;  // a warp reads kTile consecutive rows of one order
    if (lat_in < nlat)
        for (unsigned i = threadIdx.y; i < kTile; i += kTileRows)
            tile[i][threadIdx.x] =
                m0 + i <= mmax ? fm[(f * (mmax + 1) + m0 + i) * nlat + lat_in] : make_float2(0.0f, 0.0f);
    __syncthreads();
    const unsigned m_out = m0 + threadIdx.x;  // and writes kTile consecutive orders of one row
    if (m_out < nh)
        for (unsigned i = threadIdx.y; i < kTile; i += kTileRows)
            if (lat0 + i < nlat) half[(f * nlat + lat0 + i) * nh + m_out] = tile[threadIdx.x][i];
}

struct ShtRow {
    const char* direction;  // "synthesis", "analysis", "-" for the copy row
    double ms = 0, gbps = 0, rel_l2 = 0;
};

// The byte counts GB/s is taken over: the stage's own input and output, not the temporary.
uint64_t spat_bytes(const ShtCase& c, uint64_t fields) {
    return fields * c.nlat * c.nphi * sizeof(cufftReal);
}
uint64_t fm_bytes(const ShtCase& c, uint64_t fields) {
    return fields * (c.mmax + 1) * c.nlat * sizeof(cufftComplex);
}

// Synthesis, fm -> spat: fm_to_rows then one C2R over all fields * nlat rows, timed together;
// rel_l2 against Z2D of the same half spectra in double.
ShtRow run_sht_synthesis(cudaStream_t stream, const ShtCase& c, const Args& a) {
    ShtRow row{"synthesis"};
    const uint64_t rows = a.fields * c.nlat, nh = c.half();
    const uint64_t spat_count = rows * c.nphi, fm_count = a.fields * (c.mmax + 1) * c.nlat,
                   half_count = rows * nh;

    // Input: real then imaginary part of each value in memory order; Im F_0 = 0, which C2R ignores,
    // so the reference need not guess.
    std::vector<cufftComplex> h_fm(fm_count);
    {
        std::mt19937 gen(static_cast<uint32_t>(c.nphi));
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (auto& v : h_fm) {
            v.x = dist(gen);
            v.y = dist(gen);
        }
        for (uint64_t f = 0; f < a.fields; ++f)
            for (uint64_t ilat = 0; ilat < c.nlat; ++ilat) h_fm[f * (c.mmax + 1) * c.nlat + ilat].y = 0.0f;
    }

    cufftComplex *d_fm = nullptr, *d_half = nullptr;
    cufftReal* d_spat = nullptr;
    CUDA_CHECK(cudaMalloc(&d_fm, fm_count * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMalloc(&d_half, half_count * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMalloc(&d_spat, spat_count * sizeof(cufftReal)));
    copy_sync(stream, d_fm, h_fm.data(), fm_count * sizeof(cufftComplex), cudaMemcpyHostToDevice);
    cufftHandle plan = make_plan(stream, Shape{{c.nphi}}, rows, CUFFT_C2R);
    const TileGrid g = tile_grid(a.fields, c.nlat, nh);
    row.ms = time_median_ms(stream, a.timing(), [&] {
        fm_to_rows<<<static_cast<unsigned>(g.blocks), dim3(kTile, kTileRows), 0, stream>>>(
            d_fm, d_half, static_cast<unsigned>(c.nlat), static_cast<unsigned>(nh),
            static_cast<unsigned>(c.mmax), g.m_tiles, g.lat_tiles);
        CUDA_CHECK(cudaGetLastError());
        CUFFT_CHECK(cufftExecC2R(plan, d_half, d_spat));
    });
    row.gbps = static_cast<double>(spat_bytes(c, a.fields) + fm_bytes(c, a.fields)) / (row.ms * 1e-3) / 1e9;
    std::vector<cufftReal> h_spat(spat_count);
    copy_sync(stream, h_spat.data(), d_spat, spat_count * sizeof(cufftReal), cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(plan));
    CUDA_CHECK(cudaFree(d_fm));
    CUDA_CHECK(cudaFree(d_half));
    CUDA_CHECK(cudaFree(d_spat));

    // Reference: the half spectra built on the host from the same fm values upcast (zero above
    // mmax), through Z2D in place of C2R.
    std::vector<cufftDoubleComplex> h_half(half_count, cufftDoubleComplex{0.0, 0.0});
    for (uint64_t f = 0; f < a.fields; ++f)
        for (uint64_t m = 0; m <= c.mmax; ++m)
            for (uint64_t ilat = 0; ilat < c.nlat; ++ilat) {
                const cufftComplex v = h_fm[(f * (c.mmax + 1) + m) * c.nlat + ilat];
                h_half[(f * c.nlat + ilat) * nh + m] = {static_cast<double>(v.x), static_cast<double>(v.y)};
            }
    std::vector<cufftComplex>().swap(h_fm);  // release host memory early
    cufftDoubleComplex* d_ref_half = nullptr;
    cufftDoubleReal* d_ref = nullptr;
    CUDA_CHECK(cudaMalloc(&d_ref_half, half_count * sizeof(cufftDoubleComplex)));
    CUDA_CHECK(cudaMalloc(&d_ref, spat_count * sizeof(cufftDoubleReal)));
    copy_sync(stream, d_ref_half, h_half.data(), half_count * sizeof(cufftDoubleComplex),
              cudaMemcpyHostToDevice);
    std::vector<cufftDoubleComplex>().swap(h_half);
    cufftHandle ref_plan = make_plan(stream, Shape{{c.nphi}}, rows, CUFFT_Z2D);
    CUFFT_CHECK(cufftExecZ2D(ref_plan, d_ref_half, d_ref));
    std::vector<cufftDoubleReal> h_ref(spat_count);
    copy_sync(stream, h_ref.data(), d_ref, spat_count * sizeof(cufftDoubleReal), cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(ref_plan));
    CUDA_CHECK(cudaFree(d_ref_half));
    CUDA_CHECK(cudaFree(d_ref));

    row.rel_l2 = relative_l2(h_spat, h_ref);
    return row;
}

// Analysis, spat -> fm: one R2C over all fields * nlat rows then rows_to_fm, timed together;
// rel_l2 against D2Z of the same values in double, cropped and transposed on the host.
ShtRow run_sht_analysis(cudaStream_t stream, const ShtCase& c, const Args& a) {
    ShtRow row{"analysis"};
    const uint64_t rows = a.fields * c.nlat, nh = c.half();
    const uint64_t spat_count = rows * c.nphi, fm_count = a.fields * (c.mmax + 1) * c.nlat,
                   half_count = rows * nh;

    std::vector<cufftReal> h_spat(spat_count);
    {
        std::mt19937 gen(static_cast<uint32_t>(c.nphi));
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (auto& v : h_spat) v = dist(gen);
    }

    cufftReal* d_spat = nullptr;
    cufftComplex *d_half = nullptr, *d_fm = nullptr;
    CUDA_CHECK(cudaMalloc(&d_spat, spat_count * sizeof(cufftReal)));
    CUDA_CHECK(cudaMalloc(&d_half, half_count * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMalloc(&d_fm, fm_count * sizeof(cufftComplex)));
    copy_sync(stream, d_spat, h_spat.data(), spat_count * sizeof(cufftReal), cudaMemcpyHostToDevice);
    cufftHandle plan = make_plan(stream, Shape{{c.nphi}}, rows, CUFFT_R2C);
    const TileGrid g = tile_grid(a.fields, c.nlat, c.mmax + 1);
    row.ms = time_median_ms(stream, a.timing(), [&] {
        CUFFT_CHECK(cufftExecR2C(plan, d_spat, d_half));
        rows_to_fm<<<static_cast<unsigned>(g.blocks), dim3(kTile, kTileRows), 0, stream>>>(
            d_half, d_fm, static_cast<unsigned>(c.nlat), static_cast<unsigned>(nh),
            static_cast<unsigned>(c.mmax), g.m_tiles, g.lat_tiles);
        CUDA_CHECK(cudaGetLastError());
    });
    row.gbps = static_cast<double>(spat_bytes(c, a.fields) + fm_bytes(c, a.fields)) / (row.ms * 1e-3) / 1e9;
    std::vector<cufftComplex> h_fm(fm_count);
    copy_sync(stream, h_fm.data(), d_fm, fm_count * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(plan));
    CUDA_CHECK(cudaFree(d_spat));
    CUDA_CHECK(cudaFree(d_half));
    CUDA_CHECK(cudaFree(d_fm));

    // Reference: D2Z of the same values upcast (out of place, as run_r2c_case), then orders m <=
    // mmax of each row moved to fm's layout on the host.
    std::vector<cufftDoubleReal> h_real(h_spat.begin(), h_spat.end());
    std::vector<cufftReal>().swap(h_spat);  // release host memory early
    cufftDoubleReal* d_real = nullptr;
    cufftDoubleComplex* d_ref_half = nullptr;
    CUDA_CHECK(cudaMalloc(&d_real, spat_count * sizeof(cufftDoubleReal)));
    CUDA_CHECK(cudaMalloc(&d_ref_half, half_count * sizeof(cufftDoubleComplex)));
    copy_sync(stream, d_real, h_real.data(), spat_count * sizeof(cufftDoubleReal), cudaMemcpyHostToDevice);
    std::vector<cufftDoubleReal>().swap(h_real);
    cufftHandle ref_plan = make_plan(stream, Shape{{c.nphi}}, rows, CUFFT_D2Z);
    CUFFT_CHECK(cufftExecD2Z(ref_plan, d_real, d_ref_half));
    std::vector<cufftDoubleComplex> h_half(half_count);
    copy_sync(stream, h_half.data(), d_ref_half, half_count * sizeof(cufftDoubleComplex),
              cudaMemcpyDeviceToHost);
    CUFFT_CHECK(cufftDestroy(ref_plan));
    CUDA_CHECK(cudaFree(d_real));
    CUDA_CHECK(cudaFree(d_ref_half));
    std::vector<cufftDoubleComplex> h_ref(fm_count);
    for (uint64_t f = 0; f < a.fields; ++f)
        for (uint64_t m = 0; m <= c.mmax; ++m)
            for (uint64_t ilat = 0; ilat < c.nlat; ++ilat)
                h_ref[(f * (c.mmax + 1) + m) * c.nlat + ilat] = h_half[(f * c.nlat + ilat) * nh + m];

    row.rel_l2 = relative_l2(h_fm, h_ref, 1.0L);
    return row;
}

// The --sht run: per case a copy row, then synthesis, then analysis, each printed (and written) as
// soon as it is done. Returns false when a row's error is not finite.
bool run_sht_cases(cudaStream_t stream, const Args& a, FILE* csv) {
    if (csv) {
        std::fprintf(csv, "library,direction,nlat,nphi,mmax,fields,ms,gbps,rel_l2\n");
        std::fflush(csv);
    }
    std::printf("%20s %8s %8s %10s %10s %10s %10s\n", "nlatxnphixmmax", "fields", "library", "direction",
                "ms", "GB/s", "rel_l2");
    std::fflush(stdout);
    bool ok = true;
    for (const ShtCase& c : a.sht_cases) {
        const auto emit = [&](const char* library, const ShtRow& r) {
            std::printf("%20s %8llu %8s %10s %10.4f %10.1f %10.2e\n", c.name().c_str(),
                        static_cast<unsigned long long>(a.fields), library, r.direction, r.ms, r.gbps,
                        r.rel_l2);
            std::fflush(stdout);
            if (csv) {
                std::fprintf(csv, "%s,%s,%llu,%llu,%llu,%llu,%.6g,%.6g,%.6g\n", library, r.direction,
                             static_cast<unsigned long long>(c.nlat), static_cast<unsigned long long>(c.nphi),
                             static_cast<unsigned long long>(c.mmax),
                             static_cast<unsigned long long>(a.fields), r.ms, r.gbps, r.rel_l2);
                std::fflush(csv);
            }
            if (!std::isfinite(r.rel_l2)) ok = false;
        };
        // Copy yardstick over the stage's own bytes, counted read + written as in the other modes.
        const uint64_t bytes = spat_bytes(c, a.fields) + fm_bytes(c, a.fields);
        ShtRow copy{"-"};
        copy.ms = copy_ms(stream, bytes, a.timing());
        copy.gbps = 2.0 * static_cast<double>(bytes) / (copy.ms * 1e-3) / 1e9;
        emit("copy", copy);
        emit("cufft", run_sht_synthesis(stream, c, a));
        emit("cufft", run_sht_analysis(stream, c, a));
    }
    return ok;
}

// ---------------------------------------------------------------------------------------------
// --convolve: forward C2C, the product with one filter spectrum, inverse C2C

constexpr double kConvolveMaxError = 1e-5;  // rel_l2 over which a case fails
constexpr unsigned kMultiplyThreads = 256;

// t[i] = t[i] * h[i % n] * scale over the whole batch, count = batch * n values: a grid-stride loop
// with 64-bit indices (count may reach 2^31). The filter index i % n is divided out once per thread
// and then stepped by stride % n, so the loop holds no 64-bit division.
__global__ void __launch_bounds__(kMultiplyThreads)
    multiply_filter(cufftComplex* __restrict__ t, const cufftComplex* __restrict__ h, uint64_t count,
                    uint64_t n, float scale) {
    const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
    const uint64_t step = stride % n;
    uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    uint64_t k = i % n;
    for (; i < count; i += stride) {
        const cufftComplex a = t[i], b = h[k];
        t[i] = make_float2((a.x * b.x - a.y * b.y) * scale, (a.x * b.y + a.y * b.x) * scale);
        k += step;
        if (k >= n) k -= n;
    }
}

// The host reference: transforms in double, O(n log n) for any length.
using Dc = cufftDoubleComplex;

Dc cmul(Dc a, Dc b) {
    return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
Dc conj(Dc a) {
    return {a.x, -a.y};
}

// The unnormalized DFT of one length n, X_j = sum_k x_k e^{sign 2 pi i j k / n}, in place in double:
// iterative radix-2 for a power of two, else Bluestein's chirp-z through a radix-2 transform of a
// power of two m >= 2n - 1. Twiddles and chirps are each computed by cos/sin (chirp exponents k^2
// reduced mod 2n first), not by recurrence.
class CpuDft {
public:
    CpuDft(uint64_t n, int sign) : n_(n), m_(n) {
        if ((n & (n - 1)) != 0) {
            m_ = 1;
            while (m_ < 2 * n - 1) m_ <<= 1;
        }
        const double pi = 3.14159265358979323846;
        w_.resize(m_ / 2);
        for (uint64_t k = 0; k < m_ / 2; ++k) {
            const double angle = sign * 2.0 * pi * static_cast<double>(k) / static_cast<double>(m_);
            w_[k] = {std::cos(angle), std::sin(angle)};
        }
        if (m_ == n_) return;
        chirp_.resize(n_);  // c_k = e^{sign pi i k^2 / n}
        for (uint64_t k = 0; k < n_; ++k) {
            const double angle = sign * pi * static_cast<double>((k * k) % (2 * n_)) / static_cast<double>(n_);
            chirp_[k] = {std::cos(angle), std::sin(angle)};
        }
        b_.assign(m_, Dc{0.0, 0.0});  // conj(c_|k|) at k and m - k, then its transform
        b_[0] = conj(chirp_[0]);
        for (uint64_t k = 1; k < n_; ++k) b_[k] = b_[m_ - k] = conj(chirp_[k]);
        radix2(b_.data());
        work_.resize(m_);
    }

    void operator()(Dc* a) {
        if (chirp_.empty()) return radix2(a);
        // X_j = c_j sum_k (x_k c_k) conj(c_{j-k}): a cyclic convolution of m points.
        for (uint64_t k = 0; k < n_; ++k) work_[k] = cmul(a[k], chirp_[k]);
        std::fill(work_.data() + n_, work_.data() + m_, Dc{0.0, 0.0});
        radix2(work_.data());
        for (uint64_t k = 0; k < m_; ++k) work_[k] = conj(cmul(work_[k], b_[k]));
        radix2(work_.data());  // the inverse, through conjugation
        const double inv_m = 1.0 / static_cast<double>(m_);
        for (uint64_t j = 0; j < n_; ++j) {
            const Dc v = conj(work_[j]);
            a[j] = cmul(chirp_[j], {v.x * inv_m, v.y * inv_m});
        }
    }

private:
    uint64_t n_, m_;       // m_: the radix-2 length, n_ itself or a power of two >= 2n - 1
    std::vector<Dc> w_;    // e^{sign 2 pi i k / m}, k < m/2
    std::vector<Dc> chirp_, b_, work_;  // Bluestein only

    void radix2(Dc* a) const {  // in place, m_ values
        for (uint64_t i = 1, j = 0; i < m_; ++i) {
            uint64_t bit = m_ >> 1;
            for (; j & bit; bit >>= 1) j ^= bit;
            j ^= bit;
            if (i < j) std::swap(a[i], a[j]);
        }
        for (uint64_t len = 2; len <= m_; len <<= 1) {
            const uint64_t half = len / 2, step = m_ / len;
            for (uint64_t s = 0; s < m_; s += len)
                for (uint64_t k = 0; k < half; ++k) {
                    const Dc u = a[s + k], v = cmul(w_[k * step], a[s + k + half]);
                    a[s + k] = {u.x + v.x, u.y + v.y};
                    a[s + k + half] = {u.x - v.x, u.y - v.y};
                }
        }
    }
};

// numpy's fftn (sign -1) or unnormalized ifftn (sign +1) over all axes of `shape`, in place on the
// N values of one array at `v`: the 1D transform along each axis in turn.
void cpu_fftn(Dc* v, const Shape& shape, int sign) {
    const uint64_t n = shape.size();
    for (size_t axis = 0; axis < shape.dims.size(); ++axis) {
        const uint64_t len = shape.dims[axis];
        uint64_t stride = 1;
        for (size_t k = axis + 1; k < shape.dims.size(); ++k) stride *= shape.dims[k];
        const uint64_t outer = n / (len * stride);
        CpuDft dft(len, sign);
        if (stride == 1) {  // contiguous lines
            for (uint64_t o = 0; o < outer; ++o) dft(v + o * len);
            continue;
        }
        std::vector<Dc> line(len);
        for (uint64_t o = 0; o < outer; ++o)
            for (uint64_t i = 0; i < stride; ++i) {
                Dc* base = v + o * len * stride + i;
                for (uint64_t k = 0; k < len; ++k) line[k] = base[k * stride];
                dft(line.data());
                for (uint64_t k = 0; k < len; ++k) base[k * stride] = line[k];
            }
    }
}

struct ConvolveRow : Row {
    double fwd_ms = 0, multiply_ms = 0;  // the forward transform alone, the multiply kernel alone
    const char* status = "ok";           // "failed" when rel_l2 is over kConvolveMaxError or not finite
};

// One --convolve case: y = ifftn(fftn(x) * h) for every array of the batch, h one filter spectrum.
ConvolveRow run_convolve_case(cudaStream_t stream, const Shape& shape, const Args& a) {
    ConvolveRow row{new_row(shape, a)};
    const uint64_t n = row.n, count = n * row.batch;  // complex values
    const uint64_t bytes = count * sizeof(cufftComplex);

    // Inputs, as `twiddle bench --convolve` draws them: x, then h, from one generator seeded with N.
    std::vector<cufftComplex> h_x(count), h_h(n);
    {
        std::mt19937 gen(static_cast<uint32_t>(n));
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (auto& v : h_x) {
            v.x = dist(gen);
            v.y = dist(gen);
        }
        for (auto& v : h_h) {
            v.x = dist(gen);
            v.y = dist(gen);
        }
    }
    // The arrays checked: the first, the middle one, the last (fewer when batch < 3). Their inputs
    // are kept, upcast, for the reference.
    std::vector<uint64_t> checked{0, row.batch / 2, row.batch - 1};
    checked.erase(std::unique(checked.begin(), checked.end()), checked.end());
    std::vector<Dc> h_ref(checked.size() * n);
    for (size_t c = 0; c < checked.size(); ++c)
        for (uint64_t k = 0; k < n; ++k) {
            const cufftComplex v = h_x[checked[c] * n + k];
            h_ref[c * n + k] = {static_cast<double>(v.x), static_cast<double>(v.y)};
        }

    cufftComplex *d_x = nullptr, *d_t = nullptr, *d_y = nullptr, *d_h = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, bytes));
    CUDA_CHECK(cudaMalloc(&d_t, bytes));
    CUDA_CHECK(cudaMalloc(&d_y, bytes));
    CUDA_CHECK(cudaMalloc(&d_h, n * sizeof(cufftComplex)));
    copy_sync(stream, d_x, h_x.data(), bytes, cudaMemcpyHostToDevice);
    copy_sync(stream, d_h, h_h.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice);
    std::vector<cufftComplex>().swap(h_x);  // release host memory early
    cufftHandle plan = make_plan(stream, shape, row.batch, CUFFT_C2C);  // both directions

    // The multiply's grid: as many blocks as are resident at once (fewer for a small batch), each
    // thread striding over the rest.
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, multiply_filter, kMultiplyThreads, 0));
    const uint64_t blocks =
        std::min<uint64_t>((count + kMultiplyThreads - 1) / kMultiplyThreads,
                           std::max<uint64_t>(1, static_cast<uint64_t>(sms) * static_cast<uint64_t>(per_sm)));
    const float scale = static_cast<float>(1.0 / static_cast<double>(n));  // 1/N, correctly rounded
    const auto multiply = [&] {
        multiply_filter<<<static_cast<unsigned>(blocks), kMultiplyThreads, 0, stream>>>(d_t, d_h, count, n, scale);
        CUDA_CHECK(cudaGetLastError());
    };

    row.ms = time_median_ms(stream, a.timing(), [&] {
        CUFFT_CHECK(cufftExecC2C(plan, d_x, d_t, CUFFT_FORWARD));
        multiply();
        CUFFT_CHECK(cufftExecC2C(plan, d_t, d_y, CUFFT_INVERSE));
    });
    row.gbps = 2.0 * static_cast<double>(bytes) / (row.ms * 1e-3) / 1e9;
    std::vector<cufftComplex> h_y(checked.size() * n);  // the checked arrays of y
    for (size_t c = 0; c < checked.size(); ++c)
        copy_sync(stream, h_y.data() + c * n, d_y + checked[c] * n, n * sizeof(cufftComplex),
                  cudaMemcpyDeviceToHost);
    // Where the time goes. The multiply alone runs on t as left by the forward transforms, shrinking
    // it by |h|/N each time; the values (and their eventual underflow) do not change its traffic.
    row.fwd_ms =
        time_median_ms(stream, a.timing(), [&] { CUFFT_CHECK(cufftExecC2C(plan, d_x, d_t, CUFFT_FORWARD)); });
    row.multiply_ms = time_median_ms(stream, a.timing(), multiply);
    CUFFT_CHECK(cufftDestroy(plan));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_t));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_h));

    // Reference on the host in double, with the same f32 values upcast: numpy's ifftn(fftn(x_b) * h),
    // the 1/N applied with h as in the kernel, as cpu_fftn's inverse is unnormalized.
    const double inv_n = 1.0 / static_cast<double>(n);
    for (size_t c = 0; c < checked.size(); ++c) {
        Dc* v = h_ref.data() + c * n;
        cpu_fftn(v, shape, -1);
        for (uint64_t k = 0; k < n; ++k) {
            const Dc p = cmul(v[k], {static_cast<double>(h_h[k].x), static_cast<double>(h_h[k].y)});
            v[k] = {p.x * inv_n, p.y * inv_n};
        }
        cpu_fftn(v, shape, +1);
    }
    row.rel_l2 = relative_l2(h_y, h_ref, 1.0L);
    if (!(row.rel_l2 <= kConvolveMaxError)) row.status = "failed";  // NaN fails too
    return row;
}

// The --convolve run: the copy row, then one row per case. Returns false when a case failed.
bool run_convolve_cases(cudaStream_t stream, const Args& a, FILE* csv) {
    const CopyResult copy = run_copy(stream, a);
    if (csv) {
        // The columns of the FFT run, in its order, then the two partial timings appended.
        std::fprintf(csv, "library,n,batch,ms,gbps,rel_l2,shape,fwd_ms,multiply_ms\n");
        std::fprintf(csv, "copy,0,0,%.6g,%.6g,0,-,0,0\n", copy.ms, copy.gbps);
        std::fflush(csv);
    }

    std::printf("%16s %10s %10s %10s %10s %11s %10s %10s  %s\n", "shape", "N", "batch", "ms", "fwd_ms",
                "multiply_ms", "GB/s", "rel_l2", "status");
    std::fflush(stdout);
    bool ok = true;
    for (const Shape& shape : a.cases) {
        const ConvolveRow r = run_convolve_case(stream, shape, a);
        std::printf("%16s %10llu %10llu %10.4f %10.4f %11.4f %10.1f %10.2e  %s\n", r.shape.c_str(),
                    static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.batch), r.ms,
                    r.fwd_ms, r.multiply_ms, r.gbps, r.rel_l2, r.status);
        std::fflush(stdout);
        if (csv) {
            std::fprintf(csv, "cufft+multiply,%llu,%llu,%.6g,%.6g,%.6g,%s,%.6g,%.6g\n",
                         static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.batch), r.ms,
                         r.gbps, r.rel_l2, r.shape.c_str(), r.fwd_ms, r.multiply_ms);
            std::fflush(csv);
        }
        if (std::strcmp(r.status, "ok") != 0) ok = false;
    }
    return ok;
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

    const bool ok = a.sht        ? run_sht_cases(stream, a, csv)
                    : a.convolve ? run_convolve_cases(stream, a, csv)
                                 : run_fft_cases(stream, a, csv);

    CUDA_CHECK(cudaStreamDestroy(stream));
    if (csv && std::fclose(csv) != 0) die("writing " + a.out + " failed");
    if (!ok && a.convolve) die("a case failed its accuracy gate (rel_l2 over 1e-5, or not finite)");
    if (!ok) die("a case produced a non-finite error (NaN or Inf in the output)");
    return 0;
}
