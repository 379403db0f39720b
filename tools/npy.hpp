// NumPy .npy files: reading any simple numeric array, writing complex64, complex128, float32
// and float64 arrays.
//
// Format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace twiddle::npy {

// An element type: its kind as in numpy's type strings ('b' bool, 'i' signed integer,
// 'u' unsigned integer, 'f' floating point, 'c' complex) and its size in bytes.
struct Dtype {
    char kind = 'c';
    uint32_t size = 8;

    // numpy's name for it: "complex64", "float64", "int16", "bool", ...
    std::string name() const;
    bool operator==(const Dtype&) const = default;
};

inline constexpr Dtype kComplex64{'c', 8};
inline constexpr Dtype kComplex128{'c', 16};
inline constexpr Dtype kFloat32{'f', 4};
inline constexpr Dtype kFloat64{'f', 8};

struct NpyArray {
    Dtype dtype;
    std::vector<uint64_t> shape;  // empty for a 0-d array
    // The elements in C order and the machine's byte order, whatever order the file used.
    std::vector<std::byte> data;

    // Product of the shape (1 for a 0-d array).
    uint64_t elements() const;
};

// Reads a .npy file of format version 1.0, 2.0 or 3.0. Throws twiddle::Error, with a one-line
// message naming the file, for a file that cannot be read, is not a .npy file, has a malformed
// header, a dtype other than bool, integers, floats and complex numbers or a shape of more than
// 64 axes (numpy 2's limit), or whose data is shorter or longer than its header says.
NpyArray read_npy(const std::filesystem::path& path);

// The bytes of a .npy file holding `data` with shape `shape` in C order, format version 1.0.
// Throws twiddle::Error when the shape's product is not data.size() or when it has more than 64
// axes (which read_npy, as numpy, refuses).
std::vector<std::byte> encode_npy(std::span<const uint64_t> shape, std::span<const std::complex<float>> data);
std::vector<std::byte> encode_npy(std::span<const uint64_t> shape,
                                  std::span<const std::complex<double>> data);
std::vector<std::byte> encode_npy(std::span<const uint64_t> shape, std::span<const float> data);
std::vector<std::byte> encode_npy(std::span<const uint64_t> shape, std::span<const double> data);

// Writes encode_npy(shape, data) to `path` through a temporary file in the same directory that
// is renamed into place, so that readers see the old file or the whole new one. On failure the
// temporary file is removed, `path` is left as it was, and twiddle::Error names the file.
void write_npy_atomic(const std::filesystem::path& path, std::span<const uint64_t> shape,
                      std::span<const std::complex<float>> data);
void write_npy_atomic(const std::filesystem::path& path, std::span<const uint64_t> shape,
                      std::span<const std::complex<double>> data);
void write_npy_atomic(const std::filesystem::path& path, std::span<const uint64_t> shape,
                      std::span<const float> data);
void write_npy_atomic(const std::filesystem::path& path, std::span<const uint64_t> shape,
                      std::span<const double> data);

}  // namespace twiddle::npy
