#include "vk/disk_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "core/hash.hpp"

namespace twiddle::vk {

namespace {

constexpr char kMagic[8] = {'T', 'W', 'I', 'D', 'D', 'L', 'E', '1'};
constexpr size_t kHeader = sizeof kMagic + 8 + 32;  // magic, payload length, hex checksum

std::string checksum(std::span<const uint8_t> payload) {
    return Hash128().add(payload.data(), payload.size()).hex();
}

}  // namespace

DiskCache::DiskCache(std::optional<std::filesystem::path> dir) : dir_(std::move(dir)) {}

std::optional<std::filesystem::path> DiskCache::resolve(std::optional<bool> enabled,
                                                        const std::optional<std::filesystem::path>& dir) {
    const char* env = std::getenv("TWIDDLE_CACHE_DIR");
    if (enabled.has_value() && !*enabled) return std::nullopt;
    if (!enabled.has_value() && env && std::strcmp(env, "off") == 0) return std::nullopt;
    if (dir) return *dir;
    if (env && *env && std::strcmp(env, "off") != 0) return std::filesystem::path(env);
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "twiddle";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "twiddle";
    return std::nullopt;  // nowhere sensible to keep it
}

std::optional<std::vector<uint8_t>> DiskCache::read(const std::string& name) const {
    if (!dir_) return std::nullopt;
    std::ifstream in(*dir_ / name, std::ios::binary);
    if (!in) return std::nullopt;
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
    uint64_t length = 0;
    std::memcpy(&length, bytes.data() + sizeof kMagic, 8);
    if (length != bytes.size() - kHeader) return std::nullopt;
    std::span<const uint8_t> payload(bytes.data() + kHeader, length);
    if (std::memcmp(bytes.data() + sizeof kMagic + 8, checksum(payload).data(), 32) != 0) return std::nullopt;
    return std::vector<uint8_t>(payload.begin(), payload.end());
}

void DiskCache::write(const std::string& name, std::span<const uint8_t> payload) const {
    if (!dir_) return;
    std::error_code ec;
    std::filesystem::create_directories(*dir_, ec);
    if (ec) return;
    static std::atomic<unsigned> counter{0};
    const auto final_path = *dir_ / name;
    const auto temp = *dir_ / (name + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) return;
        const uint64_t length = payload.size();
        out.write(kMagic, sizeof kMagic);
        out.write(reinterpret_cast<const char*>(&length), 8);
        out.write(checksum(payload).data(), 32);
        out.write(reinterpret_cast<const char*>(payload.data()),
                  static_cast<std::streamsize>(payload.size()));
        if (!out) {
            out.close();
            std::filesystem::remove(temp, ec);
            return;
        }
    }
    std::filesystem::rename(temp, final_path, ec);
    if (ec) std::filesystem::remove(temp, ec);
}

}  // namespace twiddle::vk
