#include "file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "twiddle/error.hpp"

namespace twiddle::cli {

namespace fs = std::filesystem;

std::string errno_text(int error) { return std::strerror(error); }

FileDescriptor::~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
}

int FileDescriptor::close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result == 0 ? 0 : errno;
}

namespace {

// The descriptor a path names, or -1: N for a path whose directory is this process's descriptor
// directory, however spelled: /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N, /dev//fd/N
// (/dev/stdout is a link to /proc/self/fd/1). The directory's canonical form, through its links,
// is /proc/<pid>/fd or /proc/<pid>/task/<tid>/fd.
int descriptor_named(const fs::path& path) {
    const std::string name = path.filename().string();
    if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    std::error_code ec;
    const fs::path parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const std::string dir = fs::canonical(parent, ec).string();
    if (ec) return -1;
    const std::string process = "/proc/" + std::to_string(::getpid());
    const std::string task = process + "/task/";
    const bool ours = dir == process + "/fd" || (dir.starts_with(task) && dir.ends_with("/fd") &&
                                                 dir.find('/', task.size()) == dir.size() - 3);
    return ours ? std::stoi(name) : -1;
}

// The file that symbolic links starting at `requested` end at (which may not exist yet), or
// `requested` itself when it is no link. With `descriptor`, a path on the way that names one of
// the process's descriptors (descriptor_named) ends the walk there and sets *descriptor to it:
// through /dev/stdout a link would lead to the file the shell opened, not to the open stream.
// Throws twiddle::Error for a link that cannot be read and for more than 40 links in a row.
fs::path link_target(const fs::path& requested, int* descriptor = nullptr) {
    std::error_code ec;
    fs::path path = requested;
    for (int links = 0;; ++links) {
        if (descriptor && (*descriptor = descriptor_named(path)) >= 0) break;
        if (!fs::is_symlink(fs::symlink_status(path, ec))) break;
        if (links == 40)
            throw Error(requested.string() + ": cannot write: too many levels of symbolic links");
        const fs::path target = fs::read_symlink(path, ec);
        if (ec) throw Error(requested.string() + ": cannot resolve the symbolic link: " + ec.message());
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    return path;
}

// Writes all of `bytes` to `fd`; returns 0, or the errno of the write that failed.
int write_all(int fd, std::span<const std::byte> bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        const int error = errno;
        if (n < 0 && error == EINTR) continue;
        if (n < 0) return error;
        done += static_cast<size_t>(n);
    }
    return 0;
}

// Where write_file_atomic puts `requested`: an open descriptor (/dev/stdout, /dev/fd/3) written
// where it stands, at its offset and with its append mode, as the shell opened it (`descriptor`);
// a device or a pipe (/dev/null, a FIFO) opened and written in place (`in_place`), as a shell's
// redirection writes it, since a file renamed over it would replace the node itself; else,
// through symbolic links, the file they end at. Throws twiddle::Error for a path it cannot
// write: one that names no file, a descriptor not open for writing, a directory, a file in a
// directory that does not exist or that the user may not write in, a file the user may not
// write, a name the system refuses.
struct Destination {
    fs::path path;
    bool in_place = false;
    int descriptor = -1;
    bool replaces = false;
    mode_t mode = 0;  // of the file it replaces
};

Destination destination(const fs::path& requested) {
    const std::string file = requested.string();
    if (!requested.has_filename()) throw Error(file + ": cannot write: the path names no file");
    Destination d;
    d.path = link_target(requested, &d.descriptor);
    if (d.descriptor >= 0) {
        const int flags = ::fcntl(d.descriptor, F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
            throw Error(file + ": cannot write: descriptor " + std::to_string(d.descriptor) +
                        " is not open for writing");
        return d;
    }
    struct stat node {};
    if (::stat(requested.c_str(), &node) == 0 && !S_ISREG(node.st_mode) && !S_ISDIR(node.st_mode))
        return {requested, true};
    struct stat existing {};
    d.replaces = ::stat(d.path.c_str(), &existing) == 0;
    if (!d.replaces && errno != ENOENT)  // a name too long, a file where a directory should be
        throw Error(file + ": cannot write: " + errno_text(errno));
    if (d.replaces) {
        if (S_ISDIR(existing.st_mode)) throw Error(file + ": cannot write: it is a directory");
        // A file the user may not write stays as it is, as with a shell's redirection (the
        // rename in write_file_atomic needs only the directory's permission).
        if (::faccessat(AT_FDCWD, d.path.c_str(), W_OK, AT_EACCESS) != 0)
            throw Error(file + ": cannot write: " + errno_text(errno));
        d.mode = existing.st_mode;
    }
    const fs::path dir = d.path.has_parent_path() ? d.path.parent_path() : fs::path(".");
    if (!d.replaces) {
        struct stat parent {};
        if (::stat(dir.c_str(), &parent) != 0)
            throw Error(file + ": cannot write in " + dir.string() + ": " + errno_text(errno));
        if (!S_ISDIR(parent.st_mode))
            throw Error(file + ": cannot write: " + dir.string() + " is not a directory");
    }
    // The temporary file, and the rename that replaces a file whole, need the directory's.
    if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
        throw Error(file + ": cannot write in " + dir.string() + ": " + errno_text(errno));
    return d;
}

}  // namespace

void check_writable(const fs::path& path) { destination(path); }

void write_file_atomic(const fs::path& requested, std::span<const std::byte> bytes) {
    const std::string file = requested.string();
    const Destination target = destination(requested);
    if (target.descriptor >= 0) {
        std::fflush(nullptr);  // what stdio holds for the same stream goes first
        if (const int error = write_all(target.descriptor, bytes); error != 0)
            throw Error(file + ": cannot write: " + errno_text(error));
        return;
    }
    if (target.in_place) {
        FileDescriptor fd(::open(requested.c_str(), O_WRONLY | O_CLOEXEC));
        if (fd.get() < 0) throw Error(file + ": cannot open for writing: " + errno_text(errno));
        if (const int error = write_all(fd.get(), bytes); error != 0)
            throw Error(file + ": cannot write: " + errno_text(error));
        if (const int error = fd.close(); error != 0)
            throw Error(file + ": cannot close: " + errno_text(error));
        return;
    }
    const fs::path& path = target.path;

    // A name no one else uses, in the target's directory so that the rename cannot cross file
    // systems. O_EXCL refuses to reuse an existing file.
    std::random_device random;
    fs::path temporary;
    int raw_fd = -1;
    for (int attempt = 0; raw_fd < 0; ++attempt) {
        // The target's name, cut where the temporary name would pass the 255 bytes a name may have.
        const std::string suffix = ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(random());
        temporary = path;
        temporary.replace_filename("." + path.filename().string().substr(0, 255 - 1 - suffix.size()) +
                                   suffix);
        raw_fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        const int error = errno;
        if (raw_fd < 0 && (error != EEXIST || attempt == 100))
            throw Error(file + ": cannot create the temporary file " + temporary.string() + ": " +
                        errno_text(error));
    }
    FileDescriptor fd(raw_fd);
    // Removes the temporary file and describes the failure of `action`, which set errno `error`.
    const auto fail = [&](const char* action, int error) {
        ::unlink(temporary.c_str());
        return Error(file + ": cannot " + action + " (" + temporary.string() + "): " + errno_text(error));
    };

    if (const int error = write_all(fd.get(), bytes); error != 0)
        throw fail("write the temporary file", error);
    // A replaced file keeps its permissions.
    if (target.replaces && ::fchmod(fd.get(), target.mode & 07777) != 0)
        throw fail("set the permissions of the temporary file", errno);
    // Without the sync a crash soon after the rename could leave an empty file under the name.
    if (::fsync(fd.get()) != 0) throw fail("sync the temporary file", errno);
    if (const int error = fd.close(); error != 0) throw fail("close the temporary file", error);
    if (::rename(temporary.c_str(), path.c_str()) != 0)
        throw fail("rename the temporary file into place", errno);
}

FileSet::~FileSet() {
    std::error_code ignored;  // removing what it can: the command is failing already
    // Last noted first, so that a directory noted before its files is empty when its turn comes.
    for (auto path = created_.rbegin(); path != created_.rend(); ++path) fs::remove(*path, ignored);
}

fs::path FileSet::note(const fs::path& path) {
    // What writing `path` makes new is the file its links end at (a link to a missing file
    // makes that file); the links themselves stay. An open descriptor makes nothing.
    int descriptor = -1;
    const fs::path target = link_target(path, &descriptor);
    if (descriptor >= 0) return path;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(target, ec))) created_.push_back(target);
    return path;
}

void FileSet::make_directories(const fs::path& dir) {
    if (dir.empty()) throw Error("cannot make a directory of an empty path");
    std::error_code ec;
    std::vector<fs::path> missing;  // innermost first
    for (fs::path p = dir.lexically_normal(); !p.empty() && !fs::exists(fs::symlink_status(p, ec));
         p = p.parent_path()) {
        if (p.has_filename()) missing.push_back(p);
        if (p == p.parent_path()) break;
    }
    for (auto p = missing.rbegin(); p != missing.rend(); ++p) {
        note(*p);
        if (!fs::create_directory(*p, ec) && ec)
            throw Error("cannot make the directory " + p->string() + ": " + ec.message());
    }
    if (!fs::is_directory(dir, ec)) throw Error(dir.string() + " is not a directory");
}

}  // namespace twiddle::cli
