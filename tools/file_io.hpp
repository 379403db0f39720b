// Small POSIX file helpers for the command-line tool.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>

namespace twiddle::cli {

std::string errno_text(int error);

// Closes the descriptor it owns when it goes out of scope.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor();

    int get() const { return fd_; }
    // Closes now and returns close()'s errno, or 0 when it succeeded.
    int close();

private:
    int fd_;
};

// Writes `bytes` to `path` through a temporary file in the same directory that is synced and
// renamed into place, so that readers see the old file or the whole new one. A replaced file
// keeps its permissions; through a symbolic link the file it points to is replaced. On failure
// the temporary file is removed, `path` is left as it was, and twiddle::Error names the file.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes);

}  // namespace twiddle::cli
