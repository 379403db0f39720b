#include "twiddle/desc.hpp"

#include <algorithm>
#include <limits>
#include <string>

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

// Throws unless no two output elements share an index (see FftDesc::guru).
void check_output_nesting(const std::vector<Dim>& dims, const std::vector<Dim>& batch) {
    std::vector<Dim> all;
    for (const auto* list : {&dims, &batch})
        for (const Dim& d : *list)
            if (d.n > 1) all.push_back(d);
    std::sort(all.begin(), all.end(), [](const Dim& a, const Dim& b) { return a.out_stride < b.out_stride; });
    uint64_t covered = 1;  // the smaller dims fill indices [0, covered)
    for (const Dim& d : all) {
        if (d.out_stride < covered)
            throw Error("FftDesc output layout: a dim of " + std::to_string(d.n) + " points with stride " +
                        std::to_string(d.out_stride) + " steps inside the extent " + std::to_string(covered) +
                        " of the dims with smaller strides, so output elements could overlap");
        covered =
            checked_add(checked_mul(d.n - 1, d.out_stride, "FftDesc extent"), covered, "FftDesc extent");
    }
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

FftDesc FftDesc::guru(const std::vector<Dim>& dims, const std::vector<Dim>& batch_dims) {
    if (dims.empty()) throw Error("FftDesc dims: a transform needs at least one dim");
    uint64_t count = 1;
    for (const auto& [list, name] : {std::pair{&dims, "dims"}, std::pair{&batch_dims, "batch_dims"}})
        for (size_t i = 0; i < list->size(); ++i) {
            if ((*list)[i].n == 0) throw Error(dim_name(name, i) + ".n must be >= 1, got 0");
            count = checked_mul(count, (*list)[i].n, "FftDesc element count");
        }
    FftDesc d;
    d.dims_ = dims;
    d.batch_dims_ = batch_dims;
    d.input_elements();  // checks that the extents are representable
    d.output_elements();
    check_output_nesting(dims, batch_dims);
    return d;
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
    const uint64_t in = extent(dims_, {}, [](const Dim& d) { return d.in_stride; });
    const uint64_t out = extent(dims_, {}, [](const Dim& d) { return d.out_stride; });
    if (batch > kMax / 16 / std::max(in, out))
        throw Error("FftDesc.length * batch overflows: length " + std::to_string(length()) + ", batch " +
                    std::to_string(batch));
    batch_dims_ = {Dim{batch, in, out}};
    return *this;
}

FftDesc& FftDesc::with_precision(Precision precision) {
    if (precision != Precision::f32 && precision != Precision::f64)
        throw Error("FftDesc.precision is not a Precision value: " +
                    std::to_string(static_cast<int>(precision)));
    precision_ = precision;
    return *this;
}

FftDesc& FftDesc::with_normalization(Normalization normalization) {
    if (normalization != Normalization::backward && normalization != Normalization::ortho &&
        normalization != Normalization::forward)
        throw Error("FftDesc.normalization is not a Normalization value: " +
                    std::to_string(static_cast<int>(normalization)));
    normalization_ = normalization;
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

uint64_t FftDesc::input_elements() const {
    return extent(dims_, batch_dims_, [](const Dim& d) { return d.in_stride; });
}

uint64_t FftDesc::output_elements() const {
    return extent(dims_, batch_dims_, [](const Dim& d) { return d.out_stride; });
}

bool FftDesc::same_layouts() const {
    for (const auto* list : {&dims_, &batch_dims_})
        for (const Dim& d : *list)
            if (d.n > 1 && d.in_stride != d.out_stride) return false;
    return true;
}

}  // namespace twiddle
