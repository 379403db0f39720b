// PNG and APNG encoding (see image.hpp). Still images through libpng; animations, which libpng does
// not write, chunk by chunk with zlib. PNG: https://www.w3.org/TR/png/; APNG adds acTL (frame
// count), fcTL (each frame's geometry and delay) and fdAT (the data of the frames after the first),
// numbered in one sequence.
#include "image.hpp"

#include <png.h>
#include <zlib.h>

#include <cstddef>
#include <cstring>
#include <span>
#include <string>

#include "file_io.hpp"
#include "twiddle/error.hpp"

namespace twiddle::cli::image {
namespace {

void put32(std::vector<uint8_t>& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

void put16(std::vector<uint8_t>& out, uint16_t v) {
    out.push_back(static_cast<uint8_t>(v >> 8));
    out.push_back(static_cast<uint8_t>(v));
}

// Length, type, data and the CRC of type and data.
void chunk(std::vector<uint8_t>& out, const char (&type)[5], const std::vector<uint8_t>& data) {
    put32(out, static_cast<uint32_t>(data.size()));
    const size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    const uLong crc = crc32(0L, out.data() + start, static_cast<uInt>(out.size() - start));
    put32(out, static_cast<uint32_t>(crc));
}

// The image's rows, each after a filter-type byte (0: none), compressed by zlib.
std::vector<uint8_t> compressed_rows(const Rgb& image) {
    const size_t row = size_t(image.width) * 3;
    std::vector<uint8_t> raw;
    raw.reserve((row + 1) * image.height);
    for (uint32_t y = 0; y < image.height; ++y) {
        raw.push_back(0);
        raw.insert(raw.end(), image.pixels.begin() + static_cast<std::ptrdiff_t>(y * row),
                   image.pixels.begin() + static_cast<std::ptrdiff_t>((y + 1) * row));
    }
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::vector<uint8_t> out(size);
    if (compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), Z_BEST_SPEED) != Z_OK)
        throw Error("PNG: zlib could not compress an image");
    out.resize(size);
    return out;
}

void check(const Rgb& image) {
    if (image.width == 0 || image.height == 0) throw Error("PNG: an empty image");
    if (image.pixels.size() != size_t(image.width) * image.height * 3)
        throw Error("PNG: " + std::to_string(image.pixels.size()) + " bytes of pixels for " +
                    std::to_string(image.width) + " x " + std::to_string(image.height));
}

std::vector<uint8_t> header(uint32_t width, uint32_t height) {
    std::vector<uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<uint8_t> ihdr;
    put32(ihdr, width);
    put32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8 bits, RGB, deflate, adaptive filters, no interlace
    chunk(out, "IHDR", ihdr);
    return out;
}

void write_atomic(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
    write_file_atomic(path, std::as_bytes(std::span(bytes)));
}

}  // namespace

std::vector<uint8_t> encode_png(const Rgb& image) {
    check(image);
    png_image png;
    std::memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    png.width = image.width;
    png.height = image.height;
    png.format = PNG_FORMAT_RGB;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&png, nullptr, &size, 0, image.pixels.data(), 0, nullptr))
        throw Error(std::string("PNG encoding failed: ") + png.message);
    std::vector<uint8_t> out(size);
    if (!png_image_write_to_memory(&png, out.data(), &size, 0, image.pixels.data(), 0, nullptr))
        throw Error(std::string("PNG encoding failed: ") + png.message);
    out.resize(size);
    return out;
}

std::vector<uint8_t> encode_apng(const std::vector<Rgb>& frames, const std::vector<uint16_t>& delays_ms) {
    if (frames.empty() || delays_ms.size() != frames.size())
        throw Error("APNG: needs frames, and one delay for each");
    for (const Rgb& f : frames) {
        check(f);
        if (f.width != frames[0].width || f.height != frames[0].height)
            throw Error("APNG: frames of different sizes");
    }
    std::vector<uint8_t> out = header(frames[0].width, frames[0].height);
    std::vector<uint8_t> actl;
    put32(actl, static_cast<uint32_t>(frames.size()));
    put32(actl, 0);  // plays: forever
    chunk(out, "acTL", actl);
    uint32_t sequence = 0;
    for (size_t i = 0; i < frames.size(); ++i) {
        std::vector<uint8_t> fctl;
        put32(fctl, sequence++);
        put32(fctl, frames[i].width);
        put32(fctl, frames[i].height);
        put32(fctl, 0);  // x offset
        put32(fctl, 0);  // y offset
        put16(fctl, delays_ms[i]);
        put16(fctl, 1000);                // the delay's denominator: milliseconds
        fctl.insert(fctl.end(), {0, 0});  // dispose: none; blend: source
        chunk(out, "fcTL", fctl);
        std::vector<uint8_t> data = compressed_rows(frames[i]);
        if (i == 0) {
            chunk(out, "IDAT", data);
        } else {
            std::vector<uint8_t> fdat;
            put32(fdat, sequence++);
            fdat.insert(fdat.end(), data.begin(), data.end());
            chunk(out, "fdAT", fdat);
        }
    }
    chunk(out, "IEND", {});
    return out;
}

void write_png(const std::filesystem::path& path, const Rgb& image) { write_atomic(path, encode_png(image)); }

void write_apng(const std::filesystem::path& path, const std::vector<Rgb>& frames,
                const std::vector<uint16_t>& delays_ms) {
    write_atomic(path, encode_apng(frames, delays_ms));
}

}  // namespace twiddle::cli::image
