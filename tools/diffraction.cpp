// The gaps, their transforms pass by pass, their pictures and the timing chart (diffraction.hpp).
#include "diffraction.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <numbers>
#include <optional>

#include "bench.hpp"
#include "shape_args.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli::diffraction {
namespace {

struct Colour {
    double r, g, b;
};

Colour mix(Colour a, Colour b, double t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

void put(image::Rgb& img, uint32_t x, uint32_t y, Colour c) {
    uint8_t* p = img.at(x, y);
    p[0] = static_cast<uint8_t>(std::lround(std::clamp(c.r, 0.0, 1.0) * 255));
    p[1] = static_cast<uint8_t>(std::lround(std::clamp(c.g, 0.0, 1.0) * 255));
    p[2] = static_cast<uint8_t>(std::lround(std::clamp(c.b, 0.0, 1.0) * 255));
}

// CPU transforms of a line of n numbers, as the article times them: both with the same table of
// sines and cosines, made before the clock starts.
struct CpuLine {
    uint32_t n;
    std::vector<double> cos, sin, re, im, out_re, out_im;

    explicit CpuLine(uint32_t n_) : n(n_), cos(n_), sin(n_), re(n_), im(n_, 0.0), out_re(n_), out_im(n_) {
        for (uint32_t j = 0; j < n; ++j) {
            cos[j] = std::cos(-2 * std::numbers::pi * j / n);
            sin[j] = std::sin(-2 * std::numbers::pi * j / n);
            re[j] = std::sin(0.37 * j * j + 1.0);  // any data
        }
    }

    // The definition: each of the n results adds up n terms.
    void definition() {
        for (uint32_t k = 0; k < n; ++k) {
            double sr = 0, si = 0;
            for (uint32_t j = 0; j < n; ++j) {
                const uint32_t w = static_cast<uint32_t>((uint64_t(j) * k) % n);
                sr += re[j] * cos[w] - im[j] * sin[w];
                si += re[j] * sin[w] + im[j] * cos[w];
            }
            out_re[k] = sr;
            out_im[k] = si;
        }
    }

    // Radix 2: the numbers in bit-reversed order, then pairs joined, then pairs of pairs.
    void radix2() {
        out_re = re;
        out_im = im;
        for (uint32_t i = 1, j = 0; i < n; ++i) {
            uint32_t bit = n >> 1;
            for (; j & bit; bit >>= 1) j ^= bit;
            j ^= bit;
            if (i < j) {
                std::swap(out_re[i], out_re[j]);
                std::swap(out_im[i], out_im[j]);
            }
        }
        for (uint32_t size = 2; size <= n; size *= 2) {
            const uint32_t stride = n / size;
            for (uint32_t start = 0; start < n; start += size)
                for (uint32_t k = 0; k < size / 2; ++k) {
                    const double wr = cos[k * stride], wi = sin[k * stride];
                    const uint32_t a = start + k, b = a + size / 2;
                    const double tr = out_re[b] * wr - out_im[b] * wi, ti = out_re[b] * wi + out_im[b] * wr;
                    out_re[b] = out_re[a] - tr;
                    out_im[b] = out_im[a] - ti;
                    out_re[a] += tr;
                    out_im[a] += ti;
                }
        }
    }
};

// The best of three attempts, each running `method` again and again for at least 10 ms: the
// microseconds of one run.
double best_of_three_us(const std::function<void()>& method) {
    using clock = std::chrono::steady_clock;
    double best = 1e300;
    for (int attempt = 0; attempt < 3; ++attempt) {
        int runs = 0;
        const auto start = clock::now();
        double elapsed = 0;
        do {
            method();
            ++runs;
            elapsed = std::chrono::duration<double, std::micro>(clock::now() - start).count();
        } while (elapsed < 10'000);
        best = std::min(best, elapsed / runs);
    }
    return best;
}

}  // namespace

// The gap's features scale with n: at 512 a slit is 8 cells wide and 192 high (so the fringes of its pattern
// lie 64 cells apart across and 2.7 down), two slits 48 apart, a grating nine slits 4 wide every
// 16, and a circle of radius 24. On small pictures a slit keeps at least 2 cells and the
// grating's slits at least 2 cells of wall between them.
std::vector<float> aperture(const std::string& gap, uint32_t n) {
    const double s = n / 512.0;
    const double height = std::max(4.0, 192 * s);
    std::vector<float> cells(size_t(n) * n, 0.0f);
    auto slit = [&](double centre, double width, double x, double y) {
        return std::abs(x - centre) < width / 2 && std::abs(y) < height / 2;
    };
    const double wide = std::max(2.0, 8 * s), narrow = std::max(2.0, 4 * s);
    const double apart = std::max(wide + 2, 48 * s), period = std::max(narrow + 2, 16 * s);
    for (uint32_t row = 0; row < n; ++row)
        for (uint32_t col = 0; col < n; ++col) {
            // Cell centres, from the middle of the picture.
            const double x = col + 0.5 - n / 2.0, y = row + 0.5 - n / 2.0;
            bool open = false;
            if (gap == "one") {
                open = slit(0, wide, x, y);
            } else if (gap == "two") {
                open = slit(-apart / 2, wide, x, y) || slit(apart / 2, wide, x, y);
            } else if (gap == "grating") {
                for (int k = -4; k <= 4; ++k) open = open || slit(period * k, narrow, x, y);
            } else {  // circle
                open = std::hypot(x, y) < std::max(2.0, 24 * s);
            }
            cells[size_t(row) * n + col] = open ? 1.0f : 0.0f;
        }
    return cells;
}

image::Rgb draw_gap(const std::vector<float>& cells, uint32_t n) {
    image::Rgb img(n, n);
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) {
            const double v = 0.10 + (0.92 - 0.10) * cells[size_t(y) * n + x];
            put(img, x, y, {v, v, v});
        }
    return img;
}

// Shifted by half so that the middle of the gap is in the middle; brightness |v|^2.
image::Rgb draw_spectrum(const std::vector<cf>& v, uint32_t n) {
    double peak = 0;
    for (const cf& c : v) peak = std::max(peak, double(std::norm(c)));
    peak = std::max(peak, 1e-30);
    constexpr Colour dark{0.10, 0.10, 0.10}, red{1.0, 0.282, 0.204}, white{1.0, 0.95, 0.9};
    image::Rgb img(n, n);
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) {
            const cf c = v[size_t((y + n / 2) % n) * n + (x + n / 2) % n];
            const double t = std::clamp((std::log10(std::norm(c) / peak + 1e-9) + 4.0) / 4.0, 0.0, 1.0);
            put(img, x, y, t < 0.6 ? mix(dark, red, t / 0.6) : mix(red, white, (t - 0.6) / 0.4));
        }
    return img;
}

std::vector<std::vector<cf>> transform_by_passes(const Context& ctx, const std::vector<float>& gap,
                                                 uint32_t n) {
    // The gap with its middle at the corner, so that the pattern's middle is at the corner too and
    // shifting the picture by half puts it in the middle.
    std::vector<cf> input(size_t(n) * n);
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
            input[size_t((y + n / 2) % n) * n + (x + n / 2) % n] = cf(gap[size_t(y) * n + x], 0.0f);
    const FftDesc desc = FftDesc::nd({n, n});
    const Plan plan(ctx, desc, Options{.radix = 2});
    Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
    const uint64_t scratch_bytes = plan.scratch_bytes(Placement::out_of_place);
    const Buffer scratch(ctx, std::max<uint64_t>(16, scratch_bytes));  // a buffer may not be empty
    in.upload(input.data(), desc.bytes());
    // For each p, the gap again, then the first p passes.
    std::vector<std::vector<cf>> results;
    for (size_t p = 0; p <= plan.passes(); ++p) {
        PartialResult where;
        ctx.submit([&](VkCommandBuffer cmd) {
            where = plan.record_first_passes(cmd, in.view(), out.view(),
                                             scratch_bytes ? scratch.view() : BufferView{},
                                             Direction::forward, p);
        });
        const Buffer& holder = where.buffer == BufferRole::input    ? in
                               : where.buffer == BufferRole::output ? out
                                                                    : scratch;
        std::vector<cf> result(input.size());
        holder.download(result.data(), desc.bytes(), where.element_offset * sizeof(cf));
        results.push_back(std::move(result));
    }
    return results;
}

CLI::Validator size_validator() {
    return CLI::Validator(
        [](std::string& s) {
            const auto v = parse_decimal(s);
            if (v && *v >= 16 && *v <= kMaxSize && std::has_single_bit(*v)) {
                s = std::to_string(*v);  // CLI11 would read "016" as octal 14 (see integer_in)
                return std::string();
            }
            return "--size must be a power of two from 16 to " + std::to_string(kMaxSize) + ", got " + s;
        },
        "POW2");
}

std::string describe_pass(size_t p, uint32_t n) {
    const size_t half = static_cast<size_t>(std::bit_width(n) - 1);
    if (p == 0) return "the gap itself";
    if (p < half) return "down the columns, in blocks of " + std::to_string(size_t(1) << p);
    if (p == half) return "the columns are done";
    if (p < 2 * half) return "along the rows, in blocks of " + std::to_string(size_t(1) << (p - half));
    return "the pattern";
}

double gpu_ms(const Context& ctx, uint64_t side) {
    const FftDesc desc = FftDesc::nd({side, side});
    const Plan plan(ctx, desc);
    Buffer in(ctx, desc.bytes()), out(ctx, desc.bytes());
    in.fill(0x3f800000u);
    const uint64_t scratch_bytes = plan.scratch_bytes(Placement::out_of_place);
    std::optional<Buffer> scratch;
    if (scratch_bytes) scratch.emplace(ctx, scratch_bytes);
    return time_median(ctx, 7, 0.2, [&](VkCommandBuffer cmd) {
        plan.record(cmd, in.view(), out.view(), scratch ? scratch->view() : BufferView{}, Direction::forward);
    });
}

Timings measure_timings(const Context& ctx) {
    // The article's colours: red for the definition, grey for the fast way, blue for the GPU.
    chart::Series definition{
        .name = "a line of n, CPU, by the definition", .points = {}, .color = {0xff, 0x48, 0x34}};
    chart::Series fast{.name = "a line of n, CPU, radix-2 FFT", .points = {}, .color = {0x60, 0x60, 0x60}};
    chart::Series gpu{
        .name = "a picture of n cells, GPU (twiddle)", .points = {}, .color = {0x3a, 0x9a, 0xd9}};
    for (uint32_t len = 16; len <= 2048; len *= 2) {
        CpuLine line(len);
        definition.points.push_back({len, best_of_three_us([&] { line.definition(); })});
        fast.points.push_back({len, best_of_three_us([&] { line.radix2(); })});
    }
    Timings t;
    for (uint64_t side = 32; side <= 1024; side *= 2) {
        const double ms = gpu_ms(ctx, side);
        if (side == 512) t.gpu_ms_512 = ms;
        gpu.points.push_back({double(side * side), ms * 1000});
    }
    t.figure = chart::Figure{
        .title = "How long one transform takes: " + ctx.caps().name,
        .charts = {chart::Chart{.title = "",
                                .x = {.label = "numbers transformed", .scale = chart::Scale::log10},
                                .y = {.label = "microseconds", .scale = chart::Scale::log10},
                                .series = {definition, fast, gpu},
                                .y_rules = {}}},
        .columns = 1,
        .panel_width = 960,
        .panel_height = 480,
    };
    return t;
}

}  // namespace twiddle::cli::diffraction
