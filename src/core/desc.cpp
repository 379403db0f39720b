#include "twiddle/desc.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "core/enum_values.hpp"
#include "twiddle/error.hpp"

namespace twiddle {

namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

// a * b, or throws naming `what` when it overflows (with room for 16-byte elements).
uint64_t checked_mul(uint64_t a, uint64_t b, const std::string& what) {
    if (a != 0 && b > kMax / 16 / a) throw Error(what + " overflows");
    return a * b;
}

uint64_t checked_add(uint64_t a, uint64_t b, const std::string& what) {
    if (b > kMax / 16 - a) throw Error(what + " overflows");
    return a + b;
}

// One past the largest index of a layout, `stride` picking the input or output strides.
template <typename Stride>
uint64_t extent(const std::vector<Dim>& dims, const std::vector<Dim>& batch, Stride stride) {
    uint64_t last = 0;
    for (const auto* list : {&dims, &batch})
        for (const Dim& d : *list)
            last = checked_add(last, checked_mul(d.n - 1, stride(d), "FftDesc extent"), "FftDesc extent");
    return last + 1;
}

std::string dim_name(const char* list, size_t i) {
    return std::string("FftDesc ") + list + "[" + std::to_string(i) + "]";
}

// The first dim (of more than one point) of a layout, `stride` picking the input or output
// strides, that steps inside the extent of the dims with smaller strides, so that two elements
// could share an index; nothing if the layout nests (see FftDesc::guru). `covered` is set to the
// extent the smaller dims fill then.
template <typename Stride>
std::optional<Dim> overlapping_dim(const std::vector<Dim>& dims, const std::vector<Dim>& batch, Stride stride,
                                   uint64_t& covered) {
    std::vector<Dim> all;
    for (const auto* list : {&dims, &batch})
        for (const Dim& d : *list)
            if (d.n > 1) all.push_back(d);
    std::sort(all.begin(), all.end(), [&](const Dim& a, const Dim& b) { return stride(a) < stride(b); });
    covered = 1;  // the smaller dims fill indices [0, covered)
    for (const Dim& d : all) {
        if (stride(d) < covered) return d;
        covered = checked_add(checked_mul(d.n - 1, stride(d), "FftDesc extent"), covered, "FftDesc extent");
    }
    return std::nullopt;
}

// Throws unless no two output elements share an index.
void check_output_nesting(const std::vector<Dim>& dims, const std::vector<Dim>& batch) {
    uint64_t covered = 1;
    if (auto d = overlapping_dim(
            dims, batch, [](const Dim& x) { return x.out_stride; }, covered))
        throw Error("FftDesc output layout: a dim of " + std::to_string(d->n) + " points with stride " +
                    std::to_string(d->out_stride) + " steps inside the extent " + std::to_string(covered) +
                    " of the dims with smaller strides, so output elements could overlap");
}

}  // namespace

FftDesc::FftDesc(uint64_t length, uint64_t batch) {
    if (length == 0) throw Error("FftDesc.length must be >= 1, got 0");
    if (batch == 0) throw Error("FftDesc.batch must be >= 1, got 0");
    // Bytes must be representable: length * batch * 16 < 2^64.
    if (batch > kMax / 16 / length)
        throw Error("FftDesc.length * batch overflows: length " + std::to_string(length) + ", batch " +
                    std::to_string(batch));
    dims_ = {Dim{length, 1, 1}};
    batch_dims_ = {Dim{batch, length, length}};
}

FftDesc FftDesc::guru(const std::vector<Dim>& dims, const std::vector<Dim>& batch_dims, Transform transform,
                      uint64_t spectrum_length) {
    return make(dims, batch_dims, transform, spectrum_length, true);
}

FftDesc FftDesc::make(const std::vector<Dim>& dims, const std::vector<Dim>& batch_dims, Transform transform,
                      uint64_t spectrum_length, bool check_nesting) {
    if (dims.empty()) throw Error("FftDesc dims: a transform needs at least one dim");
    detail::checked(transform, "FftDesc transform");
    uint64_t count = 1;
    for (const auto& [list, name] : {std::pair{&dims, "dims"}, std::pair{&batch_dims, "batch_dims"}})
        for (size_t i = 0; i < list->size(); ++i) {
            if ((*list)[i].n == 0) throw Error(dim_name(name, i) + ".n must be >= 1, got 0");
            count = checked_mul(count, (*list)[i].n, "FftDesc element count");
        }
    FftDesc d;
    d.dims_ = dims;
    d.batch_dims_ = batch_dims;
    d.transform_ = transform;
    if (transform != Transform::c2c) {
        d.spectrum_length_ = dims.back().n / 2 + 1;
        if (spectrum_length) d.with_spectrum_length(spectrum_length);
    } else if (spectrum_length) {
        throw Error("FftDesc.spectrum_length applies to r2c and c2r problems, not c2c");
    }
    d.input_elements();  // checks that the extents are representable
    d.output_elements();
    if (check_nesting) check_output_nesting(d.output_dims(), batch_dims);
    return d;
}

FftDesc FftDesc::r2c(uint64_t n, uint64_t batch, RealLayout layout) {
    if (n == 0) throw Error("FftDesc.length must be >= 1, got 0");
    if (batch == 0) throw Error("FftDesc.batch must be >= 1, got 0");
    return real_nd({batch, n}, {1}, layout, Transform::r2c);
}

FftDesc FftDesc::c2r(uint64_t n, uint64_t batch, RealLayout layout) {
    if (n == 0) throw Error("FftDesc.length must be >= 1, got 0");
    if (batch == 0) throw Error("FftDesc.batch must be >= 1, got 0");
    return real_nd({batch, n}, {1}, layout, Transform::c2r);
}

FftDesc FftDesc::r2c_nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes, RealLayout layout) {
    return real_nd(shape, axes, layout, Transform::r2c);
}

FftDesc FftDesc::c2r_nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes, RealLayout layout) {
    return real_nd(shape, axes, layout, Transform::c2r);
}

FftDesc FftDesc::real_nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes, RealLayout layout,
                         Transform transform) {
    detail::checked(layout, "FftDesc: layout");
    nd(shape, axes);  // refuses what numpy refuses: no axes, a zero extent, a bad or repeated axis
    const int rank = static_cast<int>(shape.size());
    const int halved = axes.empty() ? rank - 1 : (axes.back() < 0 ? axes.back() + rank : axes.back());
    if (layout == RealLayout::padded && halved != rank - 1)
        throw Error("FftDesc: the padded real layout needs the halved axis (" + std::to_string(halved) +
                    ") to be the array's last axis");
    std::vector<uint64_t> complex_shape = shape, real_shape = shape;
    complex_shape[halved] = shape[halved] / 2 + 1;
    if (layout == RealLayout::padded) real_shape[halved] = 2 * complex_shape[halved];
    // C-order strides of each array.
    auto strides = [&](const std::vector<uint64_t>& s) {
        std::vector<uint64_t> out(s.size());
        uint64_t stride = 1;
        for (int k = rank - 1; k >= 0; --k) {
            out[k] = stride;
            stride = checked_mul(stride, s[k], "FftDesc real array element count");
        }
        return out;
    };
    const auto real_strides = strides(real_shape), complex_strides = strides(complex_shape);
    const bool r2c = transform == Transform::r2c;
    std::vector<Dim> dims, batch;
    std::vector<bool> transformed(shape.size(), axes.empty());
    for (int a : axes) transformed[a < 0 ? a + rank : a] = true;
    Dim last;
    for (int k = 0; k < rank; ++k) {
        const uint64_t rs = real_strides[k], cs = complex_strides[k];
        const Dim d{shape[k], r2c ? rs : cs, r2c ? cs : rs};
        if (k == halved)
            last = d;
        else
            (transformed[k] ? dims : batch).push_back(d);
    }
    dims.push_back(last);  // the halved dim last
    return guru(dims, batch, transform);
}

FftDesc FftDesc::nd(const std::vector<uint64_t>& shape, const std::vector<int>& axes) {
    if (shape.empty()) throw Error("FftDesc::nd: the shape has no axes");
    const int rank = static_cast<int>(shape.size());
    std::vector<bool> transformed(shape.size(), axes.empty());
    for (int a : axes) {
        if (a < -rank || a >= rank)
            throw Error("FftDesc::nd: axis " + std::to_string(a) + " is out of range for " +
                        std::to_string(rank) + " axes");
        const int k = a < 0 ? a + rank : a;
        if (transformed[k]) throw Error("FftDesc::nd: axis " + std::to_string(a) + " is repeated");
        transformed[k] = true;
    }
    std::vector<Dim> dims, batch;
    uint64_t stride = 1;
    for (int k = rank - 1; k >= 0; --k) {
        if (shape[k] == 0) throw Error("FftDesc::nd: axis " + std::to_string(k) + " has length 0");
        // numpy's order: the dims keep the order of the axes.
        (transformed[k] ? dims : batch)
            .insert((transformed[k] ? dims : batch).begin(), Dim{shape[k], stride, stride});
        stride = checked_mul(stride, shape[k], "FftDesc::nd element count");
    }
    return guru(dims, batch);
}

FftDesc& FftDesc::with_batch(uint64_t batch) {
    if (batch == 0) throw Error("FftDesc.batch must be >= 1, got 0");
    const uint64_t in = extent(input_dims(), {}, [](const Dim& d) { return d.in_stride; });
    const uint64_t out = extent(output_dims(), {}, [](const Dim& d) { return d.out_stride; });
    if (batch > kMax / 16 / std::max(in, out))
        throw Error("FftDesc.length * batch overflows: length " + std::to_string(length()) + ", batch " +
                    std::to_string(batch));
    batch_dims_ = {Dim{batch, in, out}};
    return *this;
}

FftDesc& FftDesc::with_spectrum_length(uint64_t m) {
    if (transform_ == Transform::c2c)
        throw Error("FftDesc.spectrum_length applies to r2c and c2r problems, not c2c");
    const uint64_t full = dims_.back().n / 2 + 1;
    if (m == 0 || m > full)
        throw Error("FftDesc.spectrum_length must be in [1, " + std::to_string(full) +
                    "] (n / 2 + 1 for n = " + std::to_string(dims_.back().n) + "), got " + std::to_string(m));
    // More points than before may make the complex side's elements overlap (or overflow).
    const uint64_t before = spectrum_length_;
    spectrum_length_ = m;
    try {
        input_elements();
        output_elements();
        if (transform_ == Transform::r2c) check_output_nesting(output_dims(), batch_dims_);
    } catch (const Error&) {
        spectrum_length_ = before;
        throw;
    }
    return *this;
}

FftDesc& FftDesc::with_precision(Precision precision) {
    precision_ = detail::checked(precision, "FftDesc.precision");
    return *this;
}

FftDesc& FftDesc::with_normalization(Normalization normalization) {
    normalization_ = detail::checked(normalization, "FftDesc.normalization");
    return *this;
}

uint64_t FftDesc::length() const {
    uint64_t n = 1;
    for (const Dim& d : dims_) n *= d.n;
    return n;
}

uint64_t FftDesc::batch() const {
    uint64_t n = 1;
    for (const Dim& d : batch_dims_) n *= d.n;
    return n;
}

std::vector<Dim> FftDesc::input_dims() const {
    std::vector<Dim> out = dims_;
    if (transform_ == Transform::c2r) out.back().n = spectrum_length_;
    return out;
}

std::vector<Dim> FftDesc::output_dims() const {
    std::vector<Dim> out = dims_;
    if (transform_ == Transform::r2c) out.back().n = spectrum_length_;
    return out;
}

uint64_t FftDesc::input_elements() const {
    return extent(input_dims(), batch_dims_, [](const Dim& d) { return d.in_stride; });
}

uint64_t FftDesc::output_elements() const {
    return extent(output_dims(), batch_dims_, [](const Dim& d) { return d.out_stride; });
}

uint32_t FftDesc::input_element_bytes() const {
    return input_real() ? real_bytes(precision_) : complex_bytes(precision_);
}

uint32_t FftDesc::output_element_bytes() const {
    return output_real() ? real_bytes(precision_) : complex_bytes(precision_);
}

bool FftDesc::same_layouts() const {
    if (transform_ == Transform::c2c) {
        for (const auto* list : {&dims_, &batch_dims_})
            for (const Dim& d : *list)
                if (d.n > 1 && d.in_stride != d.out_stride) return false;
        return true;
    }
    // A complex value takes the place of two reals: the halved dim's reals pair up into its
    // complex points, and every other dim steps over the same bytes on both sides. The complex
    // side must nest too (c2r's input may otherwise repeat elements): in place, a row's points
    // would be another row's.
    if (spectrum_length_ != dims_.back().n / 2 + 1) return false;
    const bool r2c = transform_ == Transform::r2c;
    uint64_t covered = 1;
    if (overlapping_dim(
            r2c ? output_dims() : input_dims(), batch_dims_,
            [&](const Dim& d) { return r2c ? d.out_stride : d.in_stride; }, covered))
        return false;
    auto real_stride = [&](const Dim& d) { return r2c ? d.in_stride : d.out_stride; };
    auto complex_stride = [&](const Dim& d) { return r2c ? d.out_stride : d.in_stride; };
    if (dims_.back().n > 1 && (real_stride(dims_.back()) != 1 || complex_stride(dims_.back()) != 1))
        return false;
    for (const auto* list : {&dims_, &batch_dims_})
        for (size_t i = 0; i < list->size(); ++i) {
            const Dim& d = (*list)[i];
            if (list == &dims_ && i + 1 == list->size()) continue;
            if (d.n > 1 && real_stride(d) != 2 * complex_stride(d)) return false;
        }
    return true;
}

}  // namespace twiddle
