#include "twiddle/desc.hpp"

#include <limits>
#include <string>

#include "twiddle/error.hpp"

namespace twiddle {

namespace {

void check_counts(uint64_t length, uint64_t batch) {
    if (length == 0) throw Error("FftDesc.length must be >= 1, got 0");
    if (batch == 0) throw Error("FftDesc.batch must be >= 1, got 0");
    // Bytes must be representable: length * batch * 16 < 2^64.
    if (batch > std::numeric_limits<uint64_t>::max() / 16 / length)
        throw Error("FftDesc.length * batch overflows: length " + std::to_string(length) + ", batch " +
                    std::to_string(batch));
}

}  // namespace

FftDesc::FftDesc(uint64_t length, uint64_t batch) : length_(length), batch_(batch) {
    check_counts(length_, batch_);
}

FftDesc& FftDesc::with_batch(uint64_t batch) {
    check_counts(length_, batch);
    batch_ = batch;
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

}  // namespace twiddle
