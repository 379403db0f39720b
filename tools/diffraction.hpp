// What `twiddle demo` and `twiddle serve` share: the gaps, their 2D transforms on the device pass by
// pass (a radix-2 plan), the pictures of both, and the timing chart of the CPU's and the GPU's
// transforms.
#pragma once

#include <CLI/CLI.hpp>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "chart.hpp"
#include "image.hpp"
#include "twiddle/context.hpp"

namespace twiddle::cli::diffraction {

using cf = std::complex<float>;

// The gaps there are, by name.
inline constexpr const char* kGaps[] = {"one", "two", "grating", "circle"};

// The largest --size, whose transform takes 2 log2(kMaxSize) passes.
inline constexpr uint32_t kMaxSize = 2048;

// The CLI transform (->transform) of a --size: a power of two from 16 to kMaxSize, handed on to
// CLI11 as decimal digits (see integer_in).
CLI::Validator size_validator();

// The gap: 1 where it is open and 0 where it is wall, n x n cells row by row, centred.
std::vector<float> aperture(const std::string& gap, uint32_t n);

// The gap in grey: wall dark, opening light.
image::Rgb draw_gap(const std::vector<float>& cells, uint32_t n);
// A transform (or a partial one) of n x n points as the article shows it: shifted by half, its
// brightness on a log scale of four factors of ten below the brightest cell, dark, red, white.
image::Rgb draw_spectrum(const std::vector<cf>& v, uint32_t n);

// The gap's 2D transform on the device, with a plan of radix 2 (2 log2 n passes: down the
// columns, then along the rows): element 0 is the gap with its middle at the corner (the transform's
// input), element p the result of the first p passes, the last the whole transform, unshifted.
std::vector<std::vector<cf>> transform_by_passes(const Context& ctx, const std::vector<float>& gap,
                                                 uint32_t n);

// What pass p of a transform of n x n points has done, as the article's readout says it.
std::string describe_pass(size_t p, uint32_t n);

// How long one transform takes: lines of 16 to 2048 numbers on the CPU by the definition and by a
// radix-2 FFT (best of three runs of at least 10 ms each), and pictures of 32^2 to 1024^2 cells on
// the device (the planner's default plan, GPU timestamps); and the 512 x 512 time.
// Milliseconds of one 2D transform of side x side points on the device (the planner's default
// plan, out of place): the median of GPU-timestamped runs after a short warm-up.
double gpu_ms(const Context& ctx, uint64_t side);

struct Timings {
    chart::Figure figure;
    double gpu_ms_512 = 0;
};
Timings measure_timings(const Context& ctx);

}  // namespace twiddle::cli::diffraction
