// twiddle: the problem. Pure data, validated as it is built.
#pragma once

#include <cstdint>
#include <vector>

#include "twiddle/export.hpp"
#include "twiddle/types.hpp"

namespace twiddle {

namespace detail {
struct DescAccess;  // the planner's way to the sub-problems of real transforms (src/plan)
}

// One dimension of a layout, as FFTW's fftw_iodim: `n` points, `in_stride` elements apart in the
// input buffer and `out_stride` elements apart in the output buffer.
struct Dim {
    uint64_t n = 1;
    uint64_t in_stride = 1;
    uint64_t out_stride = 1;
    bool operator==(const Dim&) const = default;
};

// A batch of transforms: the problem a plan solves. Complex to complex (Transform::c2c) unless
// built as a real transform (below).
//
// Three ways to build one:
//   1D, packed:  FftDesc(4096, 128) transforms 128 rows of 4096 points; row b occupies elements
//                [b * 4096, (b + 1) * 4096) of each buffer.
//   N-D, packed: FftDesc::nd({8, 512, 1024}, {-2, -1}) is numpy.fft.fftn(a, axes=(-2, -1)) for a
//                C-order array of that shape: the axes not listed are batch. No axes: all of them.
//   Any layout:  FftDesc::guru(dims, batch_dims), as FFTW's guru interface and cufftPlanMany: the
//                transform runs over `dims` and is repeated over `batch_dims`; element
//                (i_0, i_1, ...) of all the dims lies at sum_k i_k * in_stride_k in the input and
//                sum_k i_k * out_stride_k in the output (strides in elements; embedded, padded and
//                interleaved layouts are strides too). Buffers hold input_elements() and
//                output_elements() elements.
//
//   auto desc = twiddle::FftDesc(4096, 128).with_normalization(Normalization::ortho);
//
// Real transforms (numpy.fft.rfft, irfft, rfftn, irfftn): FftDesc::r2c(n, batch), c2r(n, batch),
// r2c_nd(shape, axes), c2r_nd(shape, axes), or guru(dims, batch_dims, Transform::r2c). Each dim's
// `n` is the real array's extent; the last of dims() is the halved dim, whose complex side holds
// n / 2 + 1 points (the Hermitian half spectrum). Strides count elements of each side's own type:
// reals on the real side, complex values on the complex side. r2c runs forward only and c2r
// inverse only; c2r ignores the imaginary parts of the points a real signal's spectrum has real
// (0, and n / 2 for even n), as numpy does. with_spectrum_length() band-limits the complex side.
//
// Each field is checked when it is set; a bad value throws twiddle::Error naming the field and
// the value. Whether a device can run the problem is the planner's question, not this one's.
class TWIDDLE_API FftDesc {
public:
    explicit FftDesc(uint64_t length, uint64_t batch = 1);

    // numpy fftn semantics on a packed C-order array: `axes` index `shape` (negative ones count from
    // the end); empty means every axis. Throws for an empty shape, a zero extent, or an axis
    // that is repeated or out of range.
    static FftDesc nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes = {});
    // The transform over `dims`, repeated over `batch_dims`. Throws for no dims, a zero extent,
    // or an output layout in which two elements could land on one place: sorted by output
    // stride, each dimension of more than one point must step past the whole extent of the
    // smaller ones (the nesting of every packed, padded or embedded layout). The input layout may
    // repeat elements (a stride of 0 reads one value many times).
    // For r2c and c2r, `spectrum_length` is with_spectrum_length()'s m (0: n / 2 + 1), given here
    // for layouts whose complex side nests only with m points along the halved dim.
    static FftDesc guru(const std::vector<Dim>& dims, const std::vector<Dim>& batch_dims = {},
                        Transform transform = Transform::c2c, uint64_t spectrum_length = 0);

    // `batch` packed rows of n reals (RealLayout::padded: 2 (n / 2 + 1) apart) and of n / 2 + 1
    // complex values: r2c from the first to the second, c2r back.
    static FftDesc r2c(uint64_t n, uint64_t batch = 1, RealLayout layout = RealLayout::packed);
    static FftDesc c2r(uint64_t n, uint64_t batch = 1, RealLayout layout = RealLayout::packed);
    // numpy rfftn and irfftn on C-order arrays: `shape` is the real array's (irfftn's s, with
    // the batch axes too); the last of `axes` (or the last axis) is halved, and the complex
    // array has n / 2 + 1 points there. RealLayout::padded pads the real array's rows along
    // that axis to 2 (n / 2 + 1), which needs it to be the array's last axis.
    static FftDesc r2c_nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes = {},
                          RealLayout layout = RealLayout::packed);
    static FftDesc c2r_nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes = {},
                          RealLayout layout = RealLayout::packed);

    // Replaces the batch dims with `batch` copies of the transform, each following the last:
    // copy b starts b * (extent of one transform) elements in, in the input and in the output.
    // (The padded real layout's last row has no padding in that extent: build padded batches with
    // r2c(n, batch, RealLayout::padded) and the like.)
    FftDesc& with_batch(uint64_t batch);
    // Real transforms: the points of the complex side along the halved dim, m (default n / 2 + 1;
    // 1 <= m <= n / 2 + 1). A band-limited spectrum: r2c keeps X_k for k < m only, and c2r takes
    // X_k as 0 for k >= m, as numpy.fft.irfft(a, n) zero-pads an `a` of m points. The strides
    // stay as they are: r2c(n, b).with_spectrum_length(m) keeps its rows n / 2 + 1 apart, while
    // a later with_batch() packs them m apart. Throws for c2c problems, for m out of range, and
    // where r2c's output elements would overlap (leaving the desc as it was).
    FftDesc& with_spectrum_length(uint64_t m);
    FftDesc& with_precision(Precision precision);
    FftDesc& with_normalization(Normalization normalization);

    Transform transform() const { return transform_; }
    bool input_real() const { return transform_ == Transform::r2c; }
    bool output_real() const { return transform_ == Transform::c2r; }
    // The complex side's points along the halved dim of a real transform (see
    // with_spectrum_length); 0 for c2c.
    uint64_t spectrum_length() const { return spectrum_length_; }
    // The dims with the extents each buffer holds: the halved dim has spectrum_length() points
    // on the complex side of a real transform; otherwise dims().
    std::vector<Dim> input_dims() const;
    std::vector<Dim> output_dims() const;

    const std::vector<Dim>& dims() const { return dims_; }
    const std::vector<Dim>& batch_dims() const { return batch_dims_; }
    // The points of one transform: the product of the dims' n (what the normalization divides
    // by). For a 1D problem, its length.
    uint64_t length() const;
    // The number of transforms: the product of the batch dims' n.
    uint64_t batch() const;
    Precision precision() const { return precision_; }
    Normalization normalization() const { return normalization_; }

    // length * batch: the points transformed.
    uint64_t elements() const { return length() * batch(); }
    // Bytes of elements() complex values packed: the size of each buffer of a packed (1D or nd)
    // complex problem.
    uint64_t bytes() const { return elements() * complex_bytes(precision_); }
    // The elements the input and output buffers must hold (reals on a real side): one past the
    // largest index.
    uint64_t input_elements() const;
    uint64_t output_elements() const;
    // Bytes of one element of each buffer, and of the whole buffers.
    uint32_t input_element_bytes() const;
    uint32_t output_element_bytes() const;
    uint64_t input_bytes() const { return input_elements() * input_element_bytes(); }
    uint64_t output_bytes() const { return output_elements() * output_element_bytes(); }
    // Whether input and output can be one range, as running in place needs: the same strides
    // (c2c), or a real side whose halved dim has unit stride on both sides, whose other dims'
    // real strides are twice the complex ones, and whose complex side nests (r2c and c2r:
    // RealLayout::padded, with the whole half spectrum).
    bool same_layouts() const;

    bool operator==(const FftDesc&) const = default;

private:
    friend struct detail::DescAccess;
    FftDesc() = default;
    // guru(), with the check that the output nests optional: a real plan's half-length transform
    // writes rows of n / 2 points whose band-limited output keeps only spectrum_length() of them.
    static FftDesc make(const std::vector<Dim>& dims, const std::vector<Dim>& batch_dims, Transform transform,
                        uint64_t spectrum_length, bool check_nesting);
    static FftDesc real_nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes,
                           RealLayout layout, Transform transform);

    std::vector<Dim> dims_;
    std::vector<Dim> batch_dims_;
    Precision precision_ = Precision::f32;
    Normalization normalization_ = Normalization::backward;
    Transform transform_ = Transform::c2c;
    uint64_t spectrum_length_ = 0;
};

}  // namespace twiddle
