#include "vk/disk_cache.hpp"

#include <fcntl.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
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

bool DiskCache::off_in_environment() {
    const char* env = std::getenv("TWIDDLE_CACHE_DIR");
    return env && ::strcasecmp(env, "off") == 0;
}

std::optional<std::filesystem::path> DiskCache::resolve(std::optional<bool> enabled,
                                                        const std::optional<std::filesystem::path>& dir) {
    if (enabled.has_value() && !*enabled) return std::nullopt;
    const bool env_off = off_in_environment();
    if (!enabled.has_value() && env_off) return std::nullopt;
    if (dir) return *dir;
    if (const char* env = std::getenv("TWIDDLE_CACHE_DIR"); env && *env && !env_off)
        return std::filesystem::path(env);
    // The XDG base directory specification: a relative XDG_CACHE_HOME is ignored.
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return std::filesystem::path(xdg) / "twiddle";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "twiddle";
    return std::nullopt;  // nowhere sensible to keep it
}

std::optional<std::vector<uint8_t>> DiskCache::read(const std::string& name) const {
    if (!dir_) return std::nullopt;
    // O_NONBLOCK: a FIFO of the name must not wait for a writer; it is no regular file and is
    // passed over. The size is the file's when opened: one written later reads as corrupt.
    const int fd = ::open((*dir_ / name).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::vector<uint8_t> bytes;
    struct stat st {};
    bool whole = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= static_cast<off_t>(kHeader);
    if (whole) {
        bytes.resize(static_cast<size_t>(st.st_size));
        size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += static_cast<size_t>(n);
        }
        whole = done == bytes.size();
    }
    ::close(fd);
    if (!whole || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
    uint64_t length = 0;
    std::memcpy(&length, bytes.data() + sizeof kMagic, 8);
    if (length != bytes.size() - kHeader) return std::nullopt;
    std::span<const uint8_t> payload(bytes.data() + kHeader, length);
    if (std::memcmp(bytes.data() + sizeof kMagic + 8, checksum(payload).data(), 32) != 0) return std::nullopt;
    return std::vector<uint8_t>(payload.begin(), payload.end());
}

bool DiskCache::write(const std::string& name, std::span<const uint8_t> payload) const {
    if (!dir_) return true;
    std::error_code ec;
    std::filesystem::create_directories(*dir_, ec);
    if (ec) return false;
    static std::atomic<unsigned> counter{0};
    const auto final_path = *dir_ / name;
    const auto temp = *dir_ / (name + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) return false;
        const uint64_t length = payload.size();
        out.write(kMagic, sizeof kMagic);
        out.write(reinterpret_cast<const char*>(&length), 8);
        out.write(checksum(payload).data(), 32);
        out.write(reinterpret_cast<const char*>(payload.data()),
                  static_cast<std::streamsize>(payload.size()));
        out.close();
        if (!out) {
            std::filesystem::remove(temp, ec);
            return false;
        }
    }
    std::filesystem::rename(temp, final_path, ec);
    if (!ec) return true;
    std::filesystem::remove(temp, ec);
    return false;
}

std::optional<std::filesystem::path> DiskCache::path(const std::string& name) const {
    if (!dir_) return std::nullopt;
    return *dir_ / name;
}

DiskCache::Lock::~Lock() {
    if (fd_ >= 0) ::close(fd_);  // which releases the lock
}

DiskCache::Lock DiskCache::lock(const std::string& name) const {
    if (!dir_) return Lock(-1);
    std::error_code ec;
    std::filesystem::create_directories(*dir_, ec);
    // Read-only: flock needs no more, and another user's lock file (0644 under umask 022) opens so.
    const int fd = ::open((*dir_ / name).c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return Lock(-1);
    while (::flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            ::close(fd);
            return Lock(-1);
        }
    return Lock(fd);
}

}  // namespace twiddle::vk
