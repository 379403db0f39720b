// twiddle: the problem. Pure data, validated as it is built.
#pragma once

#include <cstdint>

#include "twiddle/export.hpp"
#include "twiddle/types.hpp"

namespace twiddle {

// A batch of 1D complex-to-complex transforms, each `length` points, packed one after another:
// transform b occupies elements [b * length, (b + 1) * length) of its buffer.
//
//   auto desc = twiddle::FftDesc(4096, 128).with_normalization(Normalization::ortho);
//
// Each field is checked when it is set; a bad value throws twiddle::Error naming the field and
// the value. Whether a device can run the problem is the planner's question, not this one's.
class TWIDDLE_API FftDesc {
public:
    explicit FftDesc(uint64_t length, uint64_t batch = 1);

    FftDesc& with_batch(uint64_t batch);
    FftDesc& with_precision(Precision precision);
    FftDesc& with_normalization(Normalization normalization);

    uint64_t length() const { return length_; }
    uint64_t batch() const { return batch_; }
    Precision precision() const { return precision_; }
    Normalization normalization() const { return normalization_; }

    // length * batch: the elements one buffer holds.
    uint64_t elements() const { return length_ * batch_; }
    // Bytes of one buffer of elements().
    uint64_t bytes() const { return elements() * complex_bytes(precision_); }

    bool operator==(const FftDesc&) const = default;

private:
    uint64_t length_;
    uint64_t batch_ = 1;
    Precision precision_ = Precision::f32;
    Normalization normalization_ = Normalization::backward;
};

}  // namespace twiddle
