// twiddle: the small enums shared by every layer.
#pragma once

#include <cstdint>
#include <string_view>

#include "twiddle/export.hpp"

namespace twiddle {

// Floating-point precision of the data and of the arithmetic.
enum class Precision { f32, f64 };

// forward: X_k = sum_j x_j e^{-2 pi i jk/N}; inverse: e^{+2 pi i jk/N} (numpy.fft.fft / ifft).
enum class Direction { forward, inverse };

// Which direction is scaled, with numpy's meaning:
//   backward: forward unscaled, inverse scaled by 1/N (the default, as numpy);
//   ortho:    both scaled by 1/sqrt(N);
//   forward:  forward scaled by 1/N, inverse unscaled.
enum class Normalization { backward, ortho, forward };

// Whether the output buffer is the input buffer.
enum class Placement { out_of_place, in_place };

// How a plan computes its transform:
//   automatic: fast transforms: butterflies of up to 32 points in registers, several passes
//              where needed, for lengths whose prime factors are 2 to 31; Bluestein's algorithm
//              (a convolution through transforms of a length M >= 2N - 1 of the first kind) for
//              lengths with a larger prime factor. Subgroup operations where the device has them
//              and they were measured faster (see subgroups);
//   portable:  the same fast transforms with no subgroup operations at all: every exchange
//              between invocations goes through shared memory behind workgroup barriers;
//   subgroups: the fast transforms, exchanging the butterfly points of a one-pass power-of-two
//              kernel between stages with subgroupShuffleXor instead of shared memory, wherever
//              that applies (PassKernel::lane_swaps); where a transform spans several
//              subgroups, the exchanges that need points of other subgroups go through shared
//              memory (PassKernel::lane_remaps) and the others through shuffles. Needs the device's
//              basic and shuffle subgroup operations in compute shaders and a subgroup size of at
//              least 2; planning for a device without them throws twiddle::UnsupportedError.
//              Kernels check the lane layout at their start and exchange through shared memory
//              if the device lays subgroups out otherwise;
//   dft:       the direct O(N^2) sum for any length up to kMaxDirectLength, an independent check
//              of the fast transforms.
enum class Strategy { automatic, portable, subgroups, dft };

// The longest transform the direct sum does: beyond it O(N^2) work is no longer a sensible
// check (65536 points are 4 * 10^9 terms per transform).
inline constexpr uint64_t kMaxDirectLength = 65536;

// What a transform takes and gives, as the plan kinds of FFTW and cuFFT:
//   c2c: complex to complex, in either direction;
//   r2c: real to the Hermitian half spectrum, n / 2 + 1 points along the halved dim (forward
//        only: numpy.fft.rfft and rfftn);
//   c2r: the half spectrum to real (inverse only: numpy.fft.irfft and irfftn).
enum class Transform { c2c, r2c, c2r };

// How the real array of an r2c or c2r problem built by FftDesc::r2c, c2r, r2c_nd or c2r_nd lies
// along the halved axis:
//   packed: n reals per row;
//   padded: 2 (n / 2 + 1) reals per row, the last one or two unused (FFTW's and cuFFT's in-place
//           layout), so that the real and the complex array can share one buffer.
enum class RealLayout { packed, padded };

// How an r2c or c2r plan transforms rows of even length n along the halved dim:
//   half_length: the reals as n / 2 complex pairs, through a transform of n / 2 points and the
//                split (r2c) or join (c2r) step: half the arithmetic and half the shared memory;
//   full_length: a complex transform of all n points of (x_j, 0), as odd lengths always take:
//                for comparison.
enum class RealPath { half_length, full_length };

// Which buffer a pass reads or writes.
enum class BufferRole { input, output, scratch };

TWIDDLE_API std::string_view to_string(Precision p);
TWIDDLE_API std::string_view to_string(Direction d);
TWIDDLE_API std::string_view to_string(Normalization n);
TWIDDLE_API std::string_view to_string(Placement p);
TWIDDLE_API std::string_view to_string(BufferRole r);
TWIDDLE_API std::string_view to_string(Strategy s);
TWIDDLE_API std::string_view to_string(Transform t);
TWIDDLE_API std::string_view to_string(RealPath p);

// Parses the names above ("backward", "ortho", "forward"); throws twiddle::Error otherwise.
TWIDDLE_API Normalization parse_normalization(std::string_view name);
// Parses "auto", "portable", "subgroups" and "dft"; throws twiddle::Error otherwise.
TWIDDLE_API Strategy parse_strategy(std::string_view name);

// Bytes of one complex element.
constexpr uint32_t complex_bytes(Precision p) { return p == Precision::f32 ? 8u : 16u; }

// Bytes of one real element.
constexpr uint32_t real_bytes(Precision p) { return p == Precision::f32 ? 4u : 8u; }

// What the elements of an array are, as numpy's dtypes.
enum class DataType { float32, float64, complex64, complex128 };
TWIDDLE_API std::string_view to_string(DataType t);
constexpr bool is_complex(DataType t) { return t == DataType::complex64 || t == DataType::complex128; }
constexpr Precision precision_of(DataType t) {
    return t == DataType::float32 || t == DataType::complex64 ? Precision::f32 : Precision::f64;
}
constexpr uint32_t data_type_bytes(DataType t) {
    return (is_complex(t) ? 2u : 1u) * (precision_of(t) == Precision::f32 ? 4u : 8u);
}
// The complex or real type of a precision.
constexpr DataType complex_type(Precision p) {
    return p == Precision::f32 ? DataType::complex64 : DataType::complex128;
}
constexpr DataType real_type(Precision p) {
    return p == Precision::f32 ? DataType::float32 : DataType::float64;
}

// The factor a transform of `length` points in direction `d` scales its output by. Throws
// twiddle::Error for length 0, or a normalization or direction outside its enum.
TWIDDLE_API double scale_factor(Normalization n, Direction d, uint64_t length);

}  // namespace twiddle
