// Files under one directory, each framed with a magic word, its length and a checksum, so that a
// truncated or corrupt file reads as missing and is rebuilt, never trusted. Writes go to a
// temporary file that is renamed into place, so concurrent processes see whole files only.
// Failing to write is not an error: the cache is an optimization.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace twiddle::vk {

class DiskCache {
public:
    // nullopt: a disabled cache that reads nothing and writes nothing.
    explicit DiskCache(std::optional<std::filesystem::path> dir);

    bool enabled() const { return dir_.has_value(); }
    const std::optional<std::filesystem::path>& dir() const { return dir_; }

    std::optional<std::vector<uint8_t>> read(const std::string& name) const;
    void write(const std::string& name, std::span<const uint8_t> payload) const;

    // The directory the options and environment select, or nullopt when the cache is off.
    static std::optional<std::filesystem::path> resolve(std::optional<bool> enabled,
                                                        const std::optional<std::filesystem::path>& dir);

private:
    std::optional<std::filesystem::path> dir_;
};

}  // namespace twiddle::vk
