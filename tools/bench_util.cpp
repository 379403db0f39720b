#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <span>
#include <sstream>

#include "bench.hpp"
#include "codegen/pass_kernel.hpp"
#include "cpu/reference.hpp"
#include "file_io.hpp"
#include "shape_args.hpp"
#include "vk/compute_kernel.hpp"
#include "vk/context_state.hpp"
#include "vk/memory.hpp"
#include "vk/tuning.hpp"
#include "vk/warm_up.hpp"

namespace twiddle::cli {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

vk::RoundMedians time_rounds(const Context& ctx, uint32_t reps, double warm_up,
                             const std::function<void(VkCommandBuffer)>& record) {
    GpuTimer timer(ctx, reps);
    return vk::timed_rounds([&] {
        vk::warm_up(ctx, warm_up, record);
        ctx.submit([&](VkCommandBuffer cmd) {
            timer.reset(cmd);
            for (uint32_t r = 0; r < reps; ++r) {
                vk::record_full_barrier(cmd);
                timer.begin(cmd, r);
                record(cmd);
                timer.end(cmd, r);
            }
        });
        return median(timer.read_ms());
    });
}

double time_median(const Context& ctx, uint32_t reps, double warm_up,
                   const std::function<void(VkCommandBuffer)>& record) {
    return time_rounds(ctx, reps, warm_up, record).fastest();
}

uint64_t copy_bytes(const Context& ctx, uint64_t wanted) {
    return std::clamp<uint64_t>(wanted / 16 * 16, 16, ctx.caps().max_storage_buffer_range / 16 * 16);
}

uint64_t copy_bytes(const Context& ctx, uint32_t total_log2, bool f64) {
    return copy_bytes(ctx, (uint64_t(1) << total_log2) * (f64 ? 16 : 8));
}

double copy_gbps(const Context& ctx, uint64_t bytes, uint32_t reps, double warm_up, uint32_t shared_bytes) {
    constexpr uint32_t kWorkgroup = 256;
    vk::ComputeKernel copy(*ctx.state(), codegen::generate_copy_kernel(kWorkgroup, shared_bytes), "copy", 2,
                           4);
    Buffer src(ctx, bytes), dst(ctx, bytes);
    src.fill(0x3f800000u);
    const uint32_t words = static_cast<uint32_t>(bytes / 16);
    const VkDescriptorBufferInfo buffers[] = {{src.handle(), 0, bytes}, {dst.handle(), 0, bytes}};
    std::vector<uint8_t> push(4);
    std::memcpy(push.data(), &words, 4);
    const double ms = time_median(ctx, reps, warm_up, [&](VkCommandBuffer cmd) {
        copy.dispatch(cmd, buffers, push, (words + kWorkgroup - 1) / kWorkgroup);
    });
    return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

const Buffer& Buffers::scratch_of(const Context& ctx, uint64_t bytes) {
    if (bytes > scratch->size()) {
        scratch.reset();
        scratch.emplace(ctx, bytes);
    }
    return *scratch;
}

BenchCase::BenchCase(std::vector<uint64_t> shape_, bool real_, Precision precision_, uint32_t total_log2,
                     Direction direction_)
    : shape(std::move(shape_)), real(real_), precision(precision_), direction(direction_) {
    for (uint64_t e : shape) n *= e;
    batch = std::max<uint64_t>(1, (uint64_t(1) << total_log2) / n);
}

FftDesc BenchCase::problem(uint64_t count) const {
    std::vector<uint64_t> full{count};
    std::vector<int> axes;
    for (uint64_t e : shape) {
        axes.push_back(static_cast<int>(full.size()));
        full.push_back(e);
    }
    const bool inverse = direction == Direction::inverse;
    FftDesc desc = !real     ? FftDesc::nd(full, axes)
                   : inverse ? FftDesc::c2r_nd(full, axes)
                             : FftDesc::r2c_nd(full, axes);
    // Unnormalized both ways, as cuFFT, FFTW and VkFFT by default.
    return desc.with_precision(precision).with_normalization(inverse ? Normalization::forward
                                                                     : Normalization::backward);
}

uint64_t BenchCase::input_bytes() const { return problem(batch).input_bytes(); }
uint64_t BenchCase::output_bytes() const { return problem(batch).output_bytes(); }
std::string BenchCase::name() const { return shape_name(shape); }
const char* BenchCase::kind() const {
    return !real ? "c2c" : direction == Direction::inverse ? "c2r" : "r2c";
}

namespace {

// Makes each half spectrum of `shape` in `words` (complex values, two words each, one array after
// another) the spectrum of a real array. Only the planes whose last index k is its own mirror (0,
// and n / 2 for even n) hold both points of a pair, X[i, k] and X[-i, k] with i the index over the
// other dims: the second becomes the conjugate of the first, and a point that is its own mirror
// real.
template <typename T>
void make_hermitian(std::span<T> words, const std::vector<uint64_t>& shape) {
    const uint64_t n = shape.back(), half = n / 2 + 1;
    uint64_t others = 1;
    for (size_t d = 0; d + 1 < shape.size(); ++d) others *= shape[d];
    auto mirror = [&](uint64_t i) {
        uint64_t m = 0, stride = 1;
        for (size_t d = shape.size() - 1; d-- > 0;) {
            const uint64_t e = shape[d], x = i / stride % e;
            m += (e - x) % e * stride;
            stride *= e;
        }
        return m;
    };
    std::vector<uint64_t> planes{0};
    if (n % 2 == 0 && n > 0) planes.push_back(n / 2);
    for (uint64_t at = 0; at + 2 * others * half <= words.size(); at += 2 * others * half)
        for (uint64_t k : planes)
            for (uint64_t i = 0; i < others; ++i) {
                const uint64_t j = mirror(i);
                T* x = words.data() + at + 2 * (i * half + k);
                T* y = words.data() + at + 2 * (j * half + k);
                if (i == j) {
                    x[1] = 0;
                } else if (i < j) {
                    y[0] = x[0];
                    y[1] = -x[1];
                }
            }
}

// Random rows, repeated after an odd number of rows (about 2^20 values), so that no power-of-two
// stride between tiles meets equal data: drawing all 2^26 values took longer than timing a case.
// Words of T: one per real, two per complex value. A c2r case's rows are made real arrays' spectra.
template <typename T>
void draw_input(std::vector<unsigned char>& bytes, const BenchCase& c, uint64_t row_words) {
    const uint64_t words = row_words * c.batch;
    std::vector<T> fresh(
        std::min<uint64_t>(words, row_words * (std::max<uint64_t>(1, (uint64_t(1) << 21) / row_words) | 1)));
    std::mt19937 gen(static_cast<uint32_t>(c.n));
    std::uniform_real_distribution<float> dist(-1, 1);  // float values in both precisions
    for (T& x : fresh) x = dist(gen);
    if (c.real && c.direction == Direction::inverse) make_hermitian(std::span<T>(fresh), c.shape);
    bytes.resize(words * sizeof(T));
    const uint64_t block = fresh.size() * sizeof(T);
    for (uint64_t at = 0; at < bytes.size(); at += block)
        std::memcpy(bytes.data() + at, fresh.data(), std::min<uint64_t>(block, bytes.size() - at));
}

template <typename T>
std::vector<std::complex<double>> as_complex(const unsigned char* bytes, size_t words) {
    std::vector<T> w(words);
    std::memcpy(w.data(), bytes, words * sizeof(T));
    std::vector<std::complex<double>> out(words / 2);
    for (size_t k = 0; k < out.size(); ++k) out[k] = {double(w[2 * k]), double(w[2 * k + 1])};
    return out;
}

}  // namespace

CaseData::CaseData(const BenchCase& c) : case_(c) {
    const FftDesc all = c.problem(c.batch);
    const bool f64 = c.precision == Precision::f64;
    const uint64_t word = f64 ? 8 : 4;
    const uint64_t in_words = all.input_bytes() / word / c.batch;
    out_words_ = all.output_bytes() / word / c.batch;
    if (f64)
        draw_input<double>(input_, c, in_words);
    else
        draw_input<float>(input_, c, in_words);
    // A real array's values pair up into the complex values the reference reads
    // (cpu::buffer_slots).
    rows_ = std::clamp<uint64_t>((uint64_t(1) << 15) / c.n, 1, c.batch);
    const uint64_t last = c.batch - rows_;  // the first of the last rows
    std::vector<unsigned char> sample(input_.begin(), input_.begin() + long(rows_ * in_words * word));
    sample.insert(sample.end(), input_.begin() + long(last * in_words * word), input_.end());
    const auto values = f64 ? as_complex<double>(sample.data(), sample.size() / word)
                            : as_complex<float>(sample.data(), sample.size() / word);
    want_.resize(rows_ * out_words_);
    // 1D complex rows go straight to the reference's rows: reference_nd's general layouts take two
    // index tables and a gathered copy of the sample.
    if (!c.real && c.shape.size() == 1)
        cpu::reference_dft(values, want_, c.n, 2 * rows_, c.direction);
    else
        cpu::reference_nd(values, want_, c.problem(2 * rows_), c.direction);
}

double CaseData::check(const std::function<void(void*, uint64_t, uint64_t)>& read) const {
    const uint64_t word = case_.precision == Precision::f64 ? 8 : 4;
    const uint64_t half = rows_ * out_words_ * word;  // bytes of each end
    std::vector<unsigned char> got(2 * half);
    read(got.data(), 0, half);
    read(got.data() + half, (case_.batch - rows_) * out_words_ * word, half);
    const auto values = word == 8 ? as_complex<double>(got.data(), got.size() / word)
                                  : as_complex<float>(got.data(), got.size() / word);
    return cpu::relative_l2(values, want_);
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string csv_number(double v) {
    if (!std::isfinite(v)) return "";
    std::ostringstream out;
    out << v;
    return out.str();
}

nlohmann::json json_number(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

void require_some_case_ran(const std::vector<std::string>& statuses) {
    const std::string prefix = "unsupported: ";
    const auto unsupported = [&](const std::string& s) { return s.rfind(prefix, 0) == 0; };
    if (!statuses.empty() && std::all_of(statuses.begin(), statuses.end(), unsupported))
        throw Error("bench: no case ran: " + statuses.front().substr(prefix.size()));
}

void write_results_file(const std::string& path, const DeviceCaps& caps, nlohmann::json cases,
                        const std::string& csv, const nlohmann::json& extra) {
    std::string text;
    const std::string driver = caps.driver_name + " " + caps.driver_info;
    if (path.size() >= 5 && path.substr(path.size() - 5) == ".json") {
        nlohmann::json j;
        j["device"] = caps.name;
        j["driver"] = driver;
        for (const auto& [key, value] : extra.items()) j[key] = value;
        j["cases"] = std::move(cases);
        text = j.dump(2) + "\n";
    } else {
        // The device and driver as the last two columns of every line, so that a CSV read apart
        // from its run still says where it was measured.
        const std::string header_end = ",device,driver\n";
        const std::string row_end = "," + csv_field(caps.name) + "," + csv_field(driver) + "\n";
        std::istringstream lines(csv);
        for (std::string line; std::getline(lines, line);)
            text += line + (text.empty() ? header_end : row_end);
    }
    write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
}

}  // namespace twiddle::cli
