// Small POSIX file helpers for the command-line tool.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

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
// keeps its permissions, and one the user may not write is refused; through symbolic links the
// file they end at is replaced (or made, for a link to a missing file in a directory that
// exists). On failure the temporary file is removed, `path` is left as it was, and
// twiddle::Error names the file. A device or a pipe (/dev/null, a FIFO) is written in place
// instead, as a shell's redirection would, and an open descriptor (/dev/stdout, /dev/fd/N) is
// written itself, at its position: not the file the shell opened for it, whose earlier contents
// (`>>`, or commands before in a `{ ...; } > file`) a rename would drop. The directory must be
// one the user may write in.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes);
// Throws the twiddle::Error write_file_atomic would for a path it cannot write at all (no file
// name, a directory, a missing directory or one the user may not write in, a file the user may
// not write, a descriptor not open for writing), so that a command refuses it before the work
// that makes the bytes.
void check_writable(const std::filesystem::path& path);

// The files a command writes as one set (pictures, a table and its chart). Each is written
// whole (write_file_atomic); note each before writing it, and a directory before making it.
// Unless keep() is called, the destructor removes the noted files and directories that did not
// exist when they were noted, so that a command failing part-way leaves nothing new of the set
// behind. (Files it replaced stay replaced.)
class FileSet {
public:
    FileSet() = default;
    FileSet(const FileSet&) = delete;
    FileSet& operator=(const FileSet&) = delete;
    ~FileSet();

    // `path`, to be written next. Throws twiddle::Error where its symbolic links cannot be
    // followed.
    std::filesystem::path note(const std::filesystem::path& path);
    // Makes the directory `dir` and those above it that are missing, noting each. Throws
    // twiddle::Error where one cannot be made, or `dir` is a file.
    void make_directories(const std::filesystem::path& dir);
    // Keeps every file: the set is complete.
    void keep() { created_.clear(); }

private:
    std::vector<std::filesystem::path> created_;
};

}  // namespace twiddle::cli
