// Files under one directory, each framed with a magic word, its length and a checksum, so that a
// truncated or corrupt file reads as missing and is rebuilt, never trusted; so does anything that
// is not a regular file (a directory, a FIFO). Writes go to a temporary file that is renamed into
// place, so concurrent processes see whole files only. Failing to write is not an error for the
// kernels and tables, which are an optimization; write() says whether it succeeded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace twiddle::vk {

class DiskCache {
public:
    // nullopt: a disabled cache that reads nothing and writes nothing.
    explicit DiskCache(std::optional<std::filesystem::path> dir);

    bool enabled() const { return dir_.has_value(); }
    const std::optional<std::filesystem::path>& dir() const { return dir_; }

    std::optional<std::vector<uint8_t>> read(const std::string& name) const;
    // False where the file could not be written (always true for a disabled cache).
    bool write(const std::string& name, std::span<const uint8_t> payload) const;
    // The path of `name` in the directory (nullopt for a disabled cache), for messages.
    std::optional<std::filesystem::path> path(const std::string& name) const;

    // An exclusive lock of the file `name` (an empty file made for it) held until it is
    // destroyed, which serializes a read, change and write of another file among processes and
    // contexts. Holds nothing for a disabled cache, or where the file cannot be made.
    class Lock {
    public:
        explicit Lock(int fd) : fd_(fd) {}
        Lock(Lock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
        Lock& operator=(Lock&&) = delete;
        Lock(const Lock&) = delete;
        Lock& operator=(const Lock&) = delete;
        ~Lock();

    private:
        int fd_;
    };
    Lock lock(const std::string& name) const;

    // The directory the options and environment select, or nullopt when the cache is off.
    static std::optional<std::filesystem::path> resolve(std::optional<bool> enabled,
                                                        const std::optional<std::filesystem::path>& dir);
    // Whether TWIDDLE_CACHE_DIR asks for no cache: "off" in any case, as "OFF" is meant (a
    // directory of that name is given as ./off).
    static bool off_in_environment();

private:
    std::optional<std::filesystem::path> dir_;
};

}  // namespace twiddle::vk
