#include "npy.hpp"

#include "file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string_view>

#include "twiddle/error.hpp"

namespace twiddle::npy {

namespace {

using cli::errno_text;
using cli::FileDescriptor;
using cli::write_file_atomic;

namespace fs = std::filesystem;

constexpr std::array<char, 6> kMagic = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
// numpy pads the header so that the data starts at a multiple of this many bytes.
constexpr size_t kAlignment = 64;
// Deeper nesting is garbage, not a header; the limit keeps the recursive parser's stack small.
constexpr int kMaxNesting = 32;
// numpy 2's NPY_MAXDIMS (numpy 1's is 32): no numpy makes an array of more axes or reads one.
constexpr size_t kMaxAxes = 64;

// Reads until `bytes` are read or the file ends; returns how many were read. Throws on a read error.
size_t read_fully(int fd, void* data, size_t bytes, const std::string& file) {
    size_t done = 0;
    while (done < bytes) {
        const ssize_t n = ::read(fd, static_cast<char*>(data) + done, bytes - done);
        const int error = errno;
        if (n < 0 && error == EINTR) continue;
        if (n < 0) throw Error(file + ": read failed: " + errno_text(error));
        if (n == 0) break;
        done += static_cast<size_t>(n);
    }
    return done;
}

// Reads `bytes` bytes into `out`, or fewer when the file ends first. Memory grows with what
// arrives rather than with what a damaged header claims, so that a pipe cannot make it ask for
// gigabytes that never come.
template <typename Bytes>
void read_into(int fd, Bytes& out, size_t bytes, const std::string& file) {
    constexpr size_t kChunk = size_t(1) << 20;
    out.clear();
    while (out.size() < bytes) {
        const size_t start = out.size();
        const size_t want = std::min(kChunk, bytes - start);
        out.resize(start + want);
        const size_t got = read_fully(fd, out.data() + start, want, file);
        out.resize(start + got);
        if (got < want) break;
    }
}

std::string shape_repr(std::span<const uint64_t> shape) {
    // Python's repr of a tuple: "()", "(3,)", "(3, 4)".
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

// --- The header: a Python dict literal such as {'descr': '<c8', 'fortran_order': False, 'shape': (3, 4), }

// The Python literals a header holds. Lists and tuples of strings appear in the descr of
// structured dtypes, which are parsed only to be refused with a clear message.
struct Literal {
    enum class Kind { string, integer, boolean, tuple, list };
    Kind kind = Kind::string;
    std::string text;
    uint64_t integer = 0;
    bool boolean = false;
    std::vector<Literal> items;
};

using HeaderDict = std::vector<std::pair<std::string, Literal>>;

class HeaderParser {
public:
    HeaderParser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

    // The dict, then nothing but whitespace (numpy pads with spaces and ends with a newline).
    HeaderDict parse() {
        HeaderDict dict;
        skip_space();
        expect('{');
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            if (peek() != '\'' && peek() != '"') fail("expected a quoted key or '}'");
            std::string key = string();
            skip_space();
            expect(':');
            dict.emplace_back(std::move(key), value(1));
            skip_space();
            if (peek() == '}') break;
            expect(',');
        }
        ++pos_;
        skip_space();
        if (pos_ != text_.size()) fail("unexpected text after the closing '}'");
        return dict;
    }

private:
    std::string_view text_;
    const std::string& file_;
    size_t pos_ = 0;

    // The next character, or '\0' at the end (a header holding a NUL is malformed anyway).
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

    void skip_space() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }

    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++pos_;
    }

    [[noreturn]] void fail(const std::string& what) const {
        std::string found = "the end of the header";
        if (pos_ < text_.size()) {
            const auto c = static_cast<unsigned char>(text_[pos_]);
            static const char* hex = "0123456789abcdef";
            const char quote = c == '\'' ? '"' : '\'';
            found = c >= 0x20 && c < 0x7f ? quote + std::string(1, text_[pos_]) + quote
                                          : std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
        }
        throw Error(file_ + ": malformed .npy header: " + what + ", found " + found + " at character " +
                    std::to_string(pos_));
    }

    Literal value(int depth) {
        if (depth > kMaxNesting) fail("values nested too deeply");
        skip_space();
        const char c = peek();
        if (c == '\'' || c == '"') return Literal{.kind = Literal::Kind::string, .text = string()};
        if (c >= '0' && c <= '9') return integer();
        if (c == '(' || c == '[') return sequence(depth);
        for (const bool b : {true, false}) {
            const std::string_view word = b ? "True" : "False";
            if (text_.substr(pos_, word.size()) == word) {
                pos_ += word.size();
                return Literal{.kind = Literal::Kind::boolean, .boolean = b};
            }
        }
        fail("expected a value");
    }

    std::string string() {
        const char quote = text_[pos_++];
        const size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != quote) {
            if (text_[pos_] == '\\') fail("escape sequences in strings are not supported");
            if (text_[pos_] == '\n') fail("unterminated string");
            ++pos_;
        }
        if (pos_ == text_.size()) fail("unterminated string");
        return std::string(text_.substr(start, pos_++ - start));
    }

    Literal integer() {
        // Python 3 spells integers without leading zeros, so "07" is not one.
        if (text_[pos_] == '0' && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' && text_[pos_ + 1] <= '9')
            fail("leading zero in an integer");
        Literal out{.kind = Literal::Kind::integer};
        while (peek() >= '0' && peek() <= '9') {
            const uint64_t digit = static_cast<uint64_t>(peek() - '0');
            if (out.integer > (std::numeric_limits<uint64_t>::max() - digit) / 10) fail("integer too large");
            out.integer = out.integer * 10 + digit;
            ++pos_;
        }
        return out;
    }

    // A tuple or a list. As in Python, "(x)" is x itself: only a comma makes a tuple of one.
    Literal sequence(int depth) {
        const bool tuple = text_[pos_++] == '(';
        const char close = tuple ? ')' : ']';
        Literal out{.kind = tuple ? Literal::Kind::tuple : Literal::Kind::list};
        bool comma = false;
        for (;;) {
            skip_space();
            if (peek() == close) break;
            out.items.push_back(value(depth + 1));
            skip_space();
            if (peek() == close) break;
            expect(',');
            comma = true;
        }
        ++pos_;
        if (tuple && out.items.size() == 1 && !comma) return std::move(out.items.front());
        return out;
    }
};

// --- dtypes

constexpr std::string_view kAcceptedDtypes = "twiddle reads bool, integer, float and complex arrays";

bool valid_size(char kind, uint32_t size) {
    switch (kind) {
    case 'b': return size == 1;
    case 'i':
    case 'u': return size == 1 || size == 2 || size == 4 || size == 8;
    // float16 .. float128 (x86's 80-bit long double, stored in 16 bytes) and their complex pairs.
    case 'f': return size == 2 || size == 4 || size == 8 || size == 16;
    case 'c': return size == 8 || size == 16 || size == 32;
    default: return false;
    }
}

struct FileDtype {
    Dtype dtype;
    bool swap = false;  // the file's byte order is not the machine's
};

// Parses a numpy type string such as "<c8", ">f4" or "|b1".
FileDtype parse_descr(const std::string& descr, const std::string& file) {
    const auto refuse = [&] {
        return Error(file + ": dtype '" + descr + "' is not supported (" + std::string(kAcceptedDtypes) +
                     ")");
    };
    std::string_view s = descr;
    std::optional<std::endian> order;
    if (!s.empty() && (s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '=')) {
        // '|' (byte order not applicable) and '=' mean native, as numpy reads them.
        if (s[0] == '<') order = std::endian::little;
        if (s[0] == '>') order = std::endian::big;
        s.remove_prefix(1);
    }
    if (s.size() < 2 || s.size() > 3 ||
        !std::all_of(s.begin() + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        throw refuse();
    FileDtype out;
    out.dtype.kind = s[0];
    out.dtype.size = static_cast<uint32_t>(std::stoul(std::string(s.substr(1))));
    if (!valid_size(out.dtype.kind, out.dtype.size)) throw refuse();
    out.swap = order && *order != std::endian::native && out.dtype.size > 1;
    return out;
}

// Reverses the bytes of each `word`-byte number in `data`.
void swap_bytes(std::vector<std::byte>& data, uint32_t word) {
    for (size_t i = 0; i + word <= data.size(); i += word)
        std::reverse(data.begin() + static_cast<ptrdiff_t>(i),
                     data.begin() + static_cast<ptrdiff_t>(i + word));
}

// Reorders `data`, `item` bytes per element, from Fortran order (first index fastest) to C order.
std::vector<std::byte> fortran_to_c(const std::vector<std::byte>& data, std::span<const uint64_t> shape,
                                    size_t item) {
    const size_t rank = shape.size();
    std::vector<uint64_t> stride(rank);  // Fortran-order strides, in elements
    uint64_t elements = 1;
    for (size_t j = 0; j < rank; ++j) {
        stride[j] = elements;
        elements *= shape[j];
    }
    std::vector<std::byte> out(data.size());
    // Walk the elements in C order with an odometer over the indices, tracking each one's
    // offset in the Fortran-ordered source.
    std::vector<uint64_t> index(rank, 0);
    uint64_t source = 0;
    for (uint64_t i = 0; i < elements; ++i) {
        std::memcpy(&out[i * item], &data[source * item], item);
        for (size_t j = rank; j-- > 0;) {
            if (++index[j] < shape[j]) {
                source += stride[j];
                break;
            }
            source -= (shape[j] - 1) * stride[j];
            index[j] = 0;
        }
    }
    return out;
}

const Literal& header_value(const HeaderDict& dict, std::string_view key, const std::string& file) {
    const Literal* found = nullptr;
    for (const auto& [k, v] : dict) {
        if (k != key) continue;
        if (found) throw Error(file + ": malformed .npy header: key '" + k + "' appears twice");
        found = &v;
    }
    if (!found) throw Error(file + ": malformed .npy header: no '" + std::string(key) + "' key");
    return *found;
}

}  // namespace

std::string Dtype::name() const {
    const std::string bits = std::to_string(size * 8);
    switch (kind) {
    case 'b': return "bool";
    case 'i': return "int" + bits;
    case 'u': return "uint" + bits;
    case 'f': return "float" + bits;
    case 'c': return "complex" + bits;
    default: return std::string(1, kind) + std::to_string(size);
    }
}

uint64_t NpyArray::elements() const {
    uint64_t n = 1;
    for (uint64_t d : shape) n *= d;
    return n;
}

NpyArray read_npy(const fs::path& path) {
    const std::string file = path.string();
    const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    const int open_error = errno;
    if (fd.get() < 0) throw Error(file + ": cannot open: " + errno_text(open_error));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
        const int error = errno;
        throw Error(file + ": cannot stat: " + errno_text(error));
    }
    if (S_ISDIR(st.st_mode)) throw Error(file + ": is a directory, not a .npy file");

    // Magic, version, header length: 10 bytes in version 1, 12 in versions 2 and 3.
    std::array<unsigned char, 12> prefix{};
    size_t got = read_fully(fd.get(), prefix.data(), 8, file);
    if (got < kMagic.size() || std::memcmp(prefix.data(), kMagic.data(), kMagic.size()) != 0)
        throw Error(file + ": not a .npy file (it does not start with \\x93NUMPY)");
    if (got < 8) throw Error(file + ": truncated: the file ends inside the .npy format version");
    const unsigned major = prefix[6], minor = prefix[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
        throw Error(file + ": unsupported .npy format version " + std::to_string(major) + "." +
                    std::to_string(minor) + " (twiddle reads 1.0, 2.0 and 3.0)");
    const size_t length_bytes = major == 1 ? 2 : 4;
    got = read_fully(fd.get(), prefix.data() + 8, length_bytes, file);
    if (got < length_bytes) throw Error(file + ": truncated: the file ends inside the .npy header length");
    size_t header_bytes = 0;
    for (size_t i = length_bytes; i-- > 0;) header_bytes = header_bytes << 8 | prefix[8 + i];

    // Versions 1 and 2 encode the header in Latin-1 and 3 in UTF-8; neither matters to a parser
    // that accepts only ASCII outside of strings.
    std::string header;
    read_into(fd.get(), header, header_bytes, file);
    if (header.size() < header_bytes)
        throw Error(file + ": truncated: the file ends inside the .npy header of " +
                    std::to_string(header_bytes) + " bytes");
    const HeaderDict dict = HeaderParser(header, file).parse();
    for (const auto& [key, value] : dict)
        if (key != "descr" && key != "fortran_order" && key != "shape")
            throw Error(file + ": malformed .npy header: unexpected key '" + key + "'");

    const Literal& descr = header_value(dict, "descr", file);
    if (descr.kind != Literal::Kind::string)
        throw Error(file + ": structured dtypes are not supported (" + std::string(kAcceptedDtypes) + ")");
    const FileDtype dtype = parse_descr(descr.text, file);

    const Literal& fortran = header_value(dict, "fortran_order", file);
    if (fortran.kind != Literal::Kind::boolean)
        throw Error(file + ": malformed .npy header: 'fortran_order' is not True or False");

    const Literal& shape_value = header_value(dict, "shape", file);
    if (shape_value.kind != Literal::Kind::tuple)
        throw Error(file + ": malformed .npy header: 'shape' is not a tuple");
    if (shape_value.items.size() > kMaxAxes)
        throw Error(file + ": shape has " + std::to_string(shape_value.items.size()) +
                    " axes; twiddle reads up to " + std::to_string(kMaxAxes) + ", as numpy 2");
    NpyArray out;
    out.dtype = dtype.dtype;
    for (const Literal& d : shape_value.items) {
        if (d.kind != Literal::Kind::integer)
            throw Error(file + ": malformed .npy header: 'shape' holds something other than integers");
        out.shape.push_back(d.integer);
    }
    // The product overflows only when no axis is empty.
    uint64_t elements = 1;
    if (std::find(out.shape.begin(), out.shape.end(), 0) != out.shape.end()) {
        elements = 0;
    } else {
        for (uint64_t d : out.shape) {
            if (elements > std::numeric_limits<uint64_t>::max() / d)
                throw Error(file + ": shape " + shape_repr(out.shape) + " is too large");
            elements *= d;
        }
    }
    if (elements > std::numeric_limits<size_t>::max() / dtype.dtype.size)
        throw Error(file + ": shape " + shape_repr(out.shape) + " is too large");
    const uint64_t data_bytes = elements * dtype.dtype.size;

    const auto size_error = [&](uint64_t held, bool more) {
        return Error(file + ": " + (held < data_bytes ? "truncated: " : "") + "the header of " + descr.text +
                     " " + shape_repr(out.shape) + " describes " + std::to_string(data_bytes) +
                     " bytes of data but the file holds " + (more ? "more" : std::to_string(held)));
    };
    // A regular file's size is known: refuse a wrong one before reading anything.
    const uint64_t data_start = (major == 1 ? 10 : 12) + header_bytes;
    if (S_ISREG(st.st_mode)) {
        const auto file_bytes = static_cast<uint64_t>(st.st_size);
        const uint64_t held = file_bytes > data_start ? file_bytes - data_start : 0;
        if (held != data_bytes) throw size_error(held, false);
    }
    read_into(fd.get(), out.data, data_bytes, file);
    if (out.data.size() < data_bytes) throw size_error(out.data.size(), false);
    char extra = 0;
    if (read_fully(fd.get(), &extra, 1, file) != 0) throw size_error(data_bytes + 1, true);

    if (dtype.swap) swap_bytes(out.data, dtype.dtype.kind == 'c' ? dtype.dtype.size / 2 : dtype.dtype.size);
    if (fortran.boolean) out.data = fortran_to_c(out.data, out.shape, dtype.dtype.size);
    return out;
}

namespace {

// The .npy bytes of `count` elements of `type` ("c8", "c16", "f4", "f8") at `data`, in the
// machine's byte order.
std::vector<std::byte> encode(std::span<const uint64_t> shape, const char* type, const void* data,
                              size_t count, size_t bytes) {
    // The product, or 0 with an empty axis; an overflow counts as no match.
    uint64_t elements = 1;
    bool overflow = false;
    for (uint64_t d : shape) overflow |= __builtin_mul_overflow(elements, d, &elements);
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) {
        elements = 0;
        overflow = false;
    }
    if (overflow || elements != count)
        throw Error("encode_npy: shape " + shape_repr(shape) + " holds " + std::to_string(elements) +
                    " elements but " + std::to_string(count) + " were given");
    // A file that no numpy, nor read_npy, would read back.
    if (shape.size() > kMaxAxes)
        throw Error("encode_npy: shape has " + std::to_string(shape.size()) +
                    " axes; .npy files hold up to " + std::to_string(kMaxAxes) + ", as numpy 2");

    const std::string descr = (std::endian::native == std::endian::little ? "<" : ">") + std::string(type);
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_repr(shape) + ", }";
    // Pad with spaces and a final newline so that the data starts aligned, as numpy does. Version
    // 1.0's two-byte header length always suffices: 64 axes of 20 digits make under 2 KiB.
    constexpr size_t prefix = 10;
    const size_t header_bytes =
        (prefix + header.size() + 1 + kAlignment - 1) / kAlignment * kAlignment - prefix;
    header.resize(header_bytes - 1, ' ');
    header += '\n';

    std::vector<std::byte> out(prefix + header_bytes + bytes);
    std::memcpy(out.data(), kMagic.data(), kMagic.size());
    out[6] = std::byte{1};
    out[7] = std::byte{0};
    out[8] = std::byte{static_cast<uint8_t>(header_bytes)};
    out[9] = std::byte{static_cast<uint8_t>(header_bytes >> 8)};
    std::memcpy(out.data() + prefix, header.data(), header_bytes);
    if (bytes != 0) std::memcpy(out.data() + prefix + header_bytes, data, bytes);
    return out;
}

}  // namespace

std::vector<std::byte> encode_npy(std::span<const uint64_t> shape,
                                  std::span<const std::complex<float>> data) {
    return encode(shape, "c8", data.data(), data.size(), data.size_bytes());
}

std::vector<std::byte> encode_npy(std::span<const uint64_t> shape,
                                  std::span<const std::complex<double>> data) {
    return encode(shape, "c16", data.data(), data.size(), data.size_bytes());
}

void write_npy_atomic(const fs::path& path, std::span<const uint64_t> shape,
                      std::span<const std::complex<float>> data) {
    write_file_atomic(path, encode_npy(shape, data));
}

void write_npy_atomic(const fs::path& path, std::span<const uint64_t> shape,
                      std::span<const std::complex<double>> data) {
    write_file_atomic(path, encode_npy(shape, data));
}

std::vector<std::byte> encode_npy(std::span<const uint64_t> shape, std::span<const float> data) {
    return encode(shape, "f4", data.data(), data.size(), data.size_bytes());
}

std::vector<std::byte> encode_npy(std::span<const uint64_t> shape, std::span<const double> data) {
    return encode(shape, "f8", data.data(), data.size(), data.size_bytes());
}

void write_npy_atomic(const fs::path& path, std::span<const uint64_t> shape, std::span<const float> data) {
    write_file_atomic(path, encode_npy(shape, data));
}

void write_npy_atomic(const fs::path& path, std::span<const uint64_t> shape, std::span<const double> data) {
    write_file_atomic(path, encode_npy(shape, data));
}

}  // namespace twiddle::npy
