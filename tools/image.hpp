// Pictures for `twiddle demo`: 8-bit RGB images encoded as PNG files, and animations of such
// images as APNG files (animated PNG, which browsers play and other readers show as its first
// frame). Encoded with zlib, written atomically.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace twiddle::cli::image {

struct Rgb {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> pixels;  // row by row from the top, three bytes (red, green, blue) a pixel

    Rgb(uint32_t w, uint32_t h) : width(w), height(h), pixels(size_t(w) * h * 3) {}
    uint8_t* at(uint32_t x, uint32_t y) { return &pixels[(size_t(y) * width + x) * 3]; }
};

std::vector<uint8_t> encode_png(const Rgb& image);
// Frames of one size, each shown for its delay in milliseconds, looping forever.
std::vector<uint8_t> encode_apng(const std::vector<Rgb>& frames, const std::vector<uint16_t>& delays_ms);

void write_png(const std::filesystem::path& path, const Rgb& image);
void write_apng(const std::filesystem::path& path, const std::vector<Rgb>& frames,
                const std::vector<uint16_t>& delays_ms);

}  // namespace twiddle::cli::image
