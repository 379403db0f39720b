// The .npy reader and writer, on files written byte by byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <complex>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "file_io.hpp"
#include "npy.hpp"
#include "twiddle/error.hpp"

namespace twiddle::npy {
namespace {

namespace fs = std::filesystem;

using Complex = std::complex<float>;

// A .npy file: magic, version, little-endian header length, header, data. No padding: readers
// must not depend on numpy's alignment.
std::string npy_file(int major, const std::string& header, const std::string& data) {
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    const size_t length_bytes = major == 1 ? 2 : 4;
    for (size_t i = 0; i < length_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return out + header + data;
}

std::string header(const std::string& descr, bool fortran, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
           ", 'shape': " + shape + ", }\n";
}

// The bytes of `value` in big-endian order.
template <typename T>
std::string big_endian(T value) {
    std::string bytes(sizeof(T), '\0');
    std::memcpy(bytes.data(), &value, sizeof(T));
    if constexpr (std::endian::native == std::endian::little) std::reverse(bytes.begin(), bytes.end());
    return bytes;
}

template <typename T>
std::string native(const std::vector<T>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

template <typename T>
std::vector<T> elements(const NpyArray& a) {
    EXPECT_EQ(a.data.size() % sizeof(T), 0u);
    std::vector<T> out(a.data.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), a.data.data(), a.data.size());
    return out;
}

std::vector<Complex> ramp(size_t n) {
    std::vector<Complex> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = {static_cast<float>(i), -0.5f * static_cast<float>(i)};
    return v;
}

class NpyTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("twiddle-npy-test-" + std::to_string(std::random_device{}()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path write(const std::string& name, const std::string& bytes) const {
        const fs::path p = dir_ / name;
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }

    // The names in the directory, to check that no temporary file was left behind.
    std::vector<std::string> listing() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

    // Expects reading `bytes` to throw twiddle::Error naming the file and containing `text`.
    void expect_refused(const std::string& bytes, const std::string& text) const {
        const fs::path p = write("bad.npy", bytes);
        try {
            read_npy(p);
            ADD_FAILURE() << "read_npy accepted a file it should refuse (" << text << ")";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(p.string()), std::string::npos) << what;
            EXPECT_NE(what.find(text), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }

    fs::path dir_;
};

TEST(Dtype, Names) {
    EXPECT_EQ(kComplex64.name(), "complex64");
    EXPECT_EQ(kComplex128.name(), "complex128");
    EXPECT_EQ((Dtype{'f', 8}.name()), "float64");
    EXPECT_EQ((Dtype{'i', 2}.name()), "int16");
    EXPECT_EQ((Dtype{'u', 1}.name()), "uint8");
    EXPECT_EQ((Dtype{'b', 1}.name()), "bool");
}

TEST_F(NpyTest, RoundTripsShapes) {
    for (const std::vector<uint64_t>& shape :
         std::vector<std::vector<uint64_t>>{{}, {1}, {7}, {2, 3}, {2, 3, 4}, {1, 2, 1, 8}, {0}, {3, 0, 2}}) {
        uint64_t n = 1;
        for (uint64_t d : shape) n *= d;
        const auto data = ramp(n);
        const fs::path p = dir_ / "a.npy";
        write_npy_atomic(p, shape, data);
        const NpyArray a = read_npy(p);
        EXPECT_EQ(a.dtype, kComplex64);
        EXPECT_EQ(a.shape, shape);
        EXPECT_EQ(a.elements(), n);
        EXPECT_EQ(elements<Complex>(a), data);
    }
    EXPECT_EQ(listing(), std::vector<std::string>{"a.npy"});
}

TEST_F(NpyTest, RoundTripsComplex128) {
    const std::vector<uint64_t> shape{2, 3};
    std::vector<std::complex<double>> data;
    for (int i = 0; i < 6; ++i) data.push_back({i + 1e-12 * i, -i - 1e-13});  // beyond complex64
    const fs::path p = dir_ / "d.npy";
    write_npy_atomic(p, shape, data);
    const NpyArray a = read_npy(p);
    EXPECT_EQ(a.dtype, kComplex128);
    EXPECT_EQ(a.shape, shape);
    EXPECT_EQ(elements<std::complex<double>>(a), data);
    EXPECT_THROW(encode_npy(std::vector<uint64_t>{4}, std::span<const std::complex<double>>(data)), Error);
}

TEST_F(NpyTest, WritesNumpysVersion1Header) {
    const std::vector<uint64_t> shape{2, 3};
    const auto bytes = encode_npy(shape, ramp(6));
    const std::string s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    ASSERT_EQ(s.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    const size_t header_bytes = static_cast<uint8_t>(s[8]) | static_cast<uint8_t>(s[9]) << 8;
    EXPECT_EQ((10 + header_bytes) % 64, 0u);
    ASSERT_EQ(s.size(), 10 + header_bytes + 6 * sizeof(Complex));
    const std::string text = s.substr(10, header_bytes);
    const std::string dict = "{'descr': '<c8', 'fortran_order': False, 'shape': (2, 3), }";
    EXPECT_EQ(text.substr(0, dict.size()), dict);
    EXPECT_EQ(text.find_first_not_of(' ', dict.size()), header_bytes - 1);
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(s.substr(10 + header_bytes), native(ramp(6)));

    // Python writes a one-element tuple with a trailing comma.
    const std::vector<uint64_t> one{5};
    const auto b1 = encode_npy(one, ramp(5));
    EXPECT_NE(std::string(reinterpret_cast<const char*>(b1.data()), b1.size()).find("'shape': (5,), }"),
              std::string::npos);
}

// The writer makes version 1.0 headers (64 axes of 20-digit lengths would fit its 65535 bytes),
// and refuses more axes than numpy takes, and shapes whose product overflows, before any file is
// written.
TEST_F(NpyTest, WritesAtMostNumpysAxes) {
    const std::vector<uint64_t> widest(64, 1);
    const auto bytes = encode_npy(widest, ramp(1));
    ASSERT_GT(bytes.size(), 10u);
    EXPECT_EQ(static_cast<int>(bytes[6]), 1);
    auto text = [](const std::vector<std::byte>& b) {
        return std::string(reinterpret_cast<const char*>(b.data()), b.size());
    };
    EXPECT_EQ(read_npy(write("widest.npy", text(bytes))).shape, widest);
    // The product of 64 axes of 2^64 - 1 wraps to 1: refused, not written as one element.
    EXPECT_THROW(encode_npy(std::vector<uint64_t>(64, UINT64_MAX), ramp(1)), Error);
    // With an empty axis the product is 0 whatever the others are, as read_npy takes it.
    const std::vector<uint64_t> empty{UINT64_MAX, 2, 0};
    const auto none = encode_npy(empty, ramp(0));
    EXPECT_EQ(read_npy(write("empty.npy", text(none))).shape, empty);

    const std::vector<uint64_t> wider(65, 1);
    try {
        encode_npy(wider, ramp(1));
        ADD_FAILURE() << "65 axes were encoded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("shape has 65 axes; .npy files hold up to 64"),
                  std::string::npos)
            << e.what();
    }
    const fs::path p = dir_ / "wide.npy";
    EXPECT_THROW(write_npy_atomic(p, wider, ramp(1)), Error);
    EXPECT_FALSE(fs::exists(p));
}

// numpy 2 makes arrays of up to 64 axes (NPY_MAXDIMS; numpy 1, 32): a shape of more is refused
// in one line, before its product or data are looked at.
TEST_F(NpyTest, RefusesMoreAxesThanNumpy) {
    std::string ones;
    for (int i = 0; i < 64; ++i) ones += "1, ";
    const NpyArray a =
        read_npy(write("a.npy", npy_file(1, header("<c8", false, "(" + ones + ")"), native(ramp(1)))));
    EXPECT_EQ(a.shape, std::vector<uint64_t>(64, 1));
    EXPECT_EQ(elements<Complex>(a), ramp(1));
    expect_refused(npy_file(1, header("<c8", false, "(" + ones + "1)"), native(ramp(1))),
                   "shape has 65 axes; twiddle reads up to 64, as numpy 2");
    expect_refused(npy_file(2, header("<c8", false, "(" + ones + ones + "0)"), ""), "has 129 axes");
}

TEST_F(NpyTest, ReadsEveryFormatVersion) {
    const auto data = ramp(4);
    for (int major : {1, 2, 3}) {
        const NpyArray a =
            read_npy(write("v.npy", npy_file(major, header("<c8", false, "(2, 2)"), native(data))));
        EXPECT_EQ(a.shape, (std::vector<uint64_t>{2, 2})) << "version " << major;
        EXPECT_EQ(elements<Complex>(a), data) << "version " << major;
    }
}

TEST_F(NpyTest, ToleratesWhitespaceKeyOrderAndQuotes) {
    const std::string h = "{ \"shape\" :(2,3) ,\n'descr':\t\"<c8\",'fortran_order'  : False}   \n";
    const NpyArray a = read_npy(write("w.npy", npy_file(1, h, native(ramp(6)))));
    EXPECT_EQ(a.shape, (std::vector<uint64_t>{2, 3}));
    EXPECT_EQ(elements<Complex>(a), ramp(6));

    const NpyArray scalar =
        read_npy(write("s.npy", npy_file(1, header("<c8", false, "()"), native(ramp(1)))));
    EXPECT_TRUE(scalar.shape.empty());
    EXPECT_EQ(scalar.elements(), 1u);
}

TEST_F(NpyTest, ReadsOtherNumericDtypes) {
    const std::vector<double> f64{1.5, -2.0, 3.25};
    NpyArray a = read_npy(write("f.npy", npy_file(1, header("<f8", false, "(3,)"), native(f64))));
    EXPECT_EQ(a.dtype, (Dtype{'f', 8}));
    EXPECT_EQ(elements<double>(a), f64);

    const std::vector<std::complex<double>> c128{{1, 2}, {3, 4}};
    a = read_npy(write("c.npy", npy_file(1, header("<c16", false, "(2,)"), native(c128))));
    EXPECT_EQ(a.dtype.name(), "complex128");
    EXPECT_EQ(elements<std::complex<double>>(a), c128);

    a = read_npy(write("b.npy", npy_file(1, header("|b1", false, "(2,)"), std::string("\x01\x00", 2))));
    EXPECT_EQ(a.dtype.name(), "bool");
    a = read_npy(write("u.npy", npy_file(1, header("|u1", false, "(1,)"), "x")));
    EXPECT_EQ(a.dtype.name(), "uint8");
}

TEST_F(NpyTest, SwapsBigEndianData) {
    const std::vector<Complex> expected{{1.0f, -2.5f}, {3.0e-8f, 4.0e8f}};
    std::string data;
    for (const Complex& c : expected) data += big_endian(c.real()) + big_endian(c.imag());
    NpyArray a = read_npy(write("be.npy", npy_file(1, header(">c8", false, "(2,)"), data)));
    EXPECT_EQ(a.dtype, kComplex64);
    EXPECT_EQ(elements<Complex>(a), expected);

    const std::vector<int32_t> ints{1, -2, 0x01020304};
    data.clear();
    for (int32_t i : ints) data += big_endian(i);
    a = read_npy(write("bi.npy", npy_file(1, header(">i4", false, "(3,)"), data)));
    EXPECT_EQ(elements<int32_t>(a), ints);
}

TEST_F(NpyTest, TransposesFortranOrder) {
    // Element (i, j, k) of a 2 x 3 x 4 array holds 100 i + 10 j + k; the file stores i fastest.
    std::vector<Complex> fortran, c_order;
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 2; ++i) fortran.push_back({float(100 * i + 10 * j + k), float(-k)});
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 4; ++k) c_order.push_back({float(100 * i + 10 * j + k), float(-k)});
    NpyArray a = read_npy(write("f.npy", npy_file(1, header("<c8", true, "(2, 3, 4)"), native(fortran))));
    EXPECT_EQ(a.shape, (std::vector<uint64_t>{2, 3, 4}));
    EXPECT_EQ(elements<Complex>(a), c_order);

    // Big-endian and Fortran-ordered at once.
    std::string data;
    for (const Complex& c : fortran) data += big_endian(c.real()) + big_endian(c.imag());
    a = read_npy(write("fb.npy", npy_file(2, header(">c8", true, "(2, 3, 4)"), data)));
    EXPECT_EQ(elements<Complex>(a), c_order);

    // Empty arrays have nothing to move.
    a = read_npy(write("fe.npy", npy_file(1, header("<c8", true, "(2, 0)"), "")));
    EXPECT_EQ(a.elements(), 0u);
}

TEST_F(NpyTest, RefusesWrongDataSize) {
    const std::string h = header("<c8", false, "(2, 3)");
    const std::string data = native(ramp(6));
    expect_refused(npy_file(1, h, data.substr(0, data.size() - 1)), "truncated");
    expect_refused(npy_file(1, h, ""), "truncated");
    expect_refused(npy_file(1, h, data + "x"), "describes 48 bytes of data but the file holds 49");
    expect_refused(npy_file(1, h, "").substr(0, 20), "truncated");
    expect_refused(std::string("\x93NUMPY\x01", 7), "truncated");
    expect_refused(std::string("\x93NUMPY\x02\x00\x10", 9), "truncated");
    // A damaged length must not make the reader allocate 4 GiB before it finds out.
    expect_refused(std::string("\x93NUMPY\x02\x00\xf0\xff\xff\xff{'descr'", 20), "truncated");
}

TEST_F(NpyTest, RefusesForeignFiles) {
    expect_refused("", "not a .npy file");
    expect_refused("hello, world\n", "not a .npy file");
    expect_refused("\x93NUMPZ\x01\x00", "not a .npy file");
    expect_refused(npy_file(4, header("<c8", false, "(1,)"), native(ramp(1))), "version 4.0");
    std::string minor = npy_file(1, header("<c8", false, "(1,)"), native(ramp(1)));
    minor[7] = 1;
    expect_refused(minor, "version 1.1");
}

TEST_F(NpyTest, RefusesMalformedHeaders) {
    const std::string data = native(ramp(2));
    const auto refuse = [&](const std::string& h, const std::string& text) {
        SCOPED_TRACE(h);
        expect_refused(npy_file(1, h, data), text);
    };
    refuse("", "malformed");
    refuse("garbage", "malformed");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), } x", "malformed");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), ", "malformed");
    refuse("{'descr': '<c8' 'fortran_order': False, 'shape': (2,)}", "malformed");
    refuse("{'descr': '<c8, 'fortran_order': False, 'shape': (2,)}", "malformed");
    refuse("{'descr': '<c8', 'fortran_order': False}", "no 'shape' key");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "unexpected key 'extra'");
    refuse("{'descr': '<c8', 'descr': '<c8', 'fortran_order': False, 'shape': (2,)}", "appears twice");
    refuse("{'descr': '<c8', 'fortran_order': 'False', 'shape': (2,)}",
           "'fortran_order' is not True or False");
    refuse("{'descr': '<c8', 'fortran_order': 0, 'shape': (2,)}", "'fortran_order' is not True or False");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (2)}", "'shape' is not a tuple");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': [2]}", "'shape' is not a tuple");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (2, 'a')}", "other than integers");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (-2,)}", "malformed");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (02,)}", "leading zero");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (99999999999999999999,)}", "too large");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", "too large");
    refuse("{'descr': '<c8', 'fortran_order': False, 'shape': " + std::string(1000, '(') + "}", "nested");
    refuse(std::string("{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}") + '\0', "byte 0x00");
}

TEST_F(NpyTest, RefusesUnknownDtypes) {
    for (const std::string descr : {"<U5", "|O", "<c12", "<i3", "<f", "c", "<M8[ns]", "|V8", ">b2"}) {
        SCOPED_TRACE(descr);
        expect_refused(npy_file(1, header(descr, false, "(1,)"), "12345678"), "dtype '" + descr + "' is not");
    }
    expect_refused(npy_file(1,
                            "{'descr': [('a', '<i4'), ('b', '<f8', (2,))], 'fortran_order': False, "
                            "'shape': (1,)}",
                            std::string(20, '\0')),
                   "structured dtypes are not supported");
}

TEST_F(NpyTest, RefusesMissingFilesAndDirectories) {
    for (const fs::path& p : {dir_ / "missing.npy", dir_}) {
        try {
            read_npy(p);
            ADD_FAILURE() << "read " << p;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
        }
    }
}

TEST_F(NpyTest, AtomicWriteReplacesAndCleansUp) {
    const fs::path p = dir_ / "out.npy";
    const std::vector<uint64_t> two{2}, three{3};
    write_npy_atomic(p, two, ramp(2));
    write_npy_atomic(p, three, ramp(3));
    EXPECT_EQ(read_npy(p).shape, three);

    // A shape that does not match the data: nothing written, the old file kept.
    EXPECT_THROW(write_npy_atomic(p, two, ramp(3)), Error);
    EXPECT_EQ(read_npy(p).shape, three);

    // The rename fails onto a directory; the temporary file must go.
    fs::create_directory(dir_ / "sub");
    EXPECT_THROW(write_npy_atomic(dir_ / "sub", two, ramp(2)), Error);
    EXPECT_THROW(write_npy_atomic(dir_ / "nowhere" / "x.npy", two, ramp(2)), Error);
    EXPECT_EQ(listing(), (std::vector<std::string>{"out.npy", "sub"}));
    EXPECT_TRUE(fs::is_empty(dir_ / "sub"));
}

// What a command checks before its work: the message write_file_atomic would give, nothing made.
TEST_F(NpyTest, UnwritablePathsAreRefusedUpFront) {
    write("file", "x");
    fs::create_directory(dir_ / "sub");
    const std::string long_name(256, 'n');
    const std::vector<std::pair<fs::path, std::string>> refused = {
        {dir_ / "sub", "cannot write: it is a directory"},
        {dir_ / "nowhere" / "x.npy", "cannot write in " + (dir_ / "nowhere").string()},
        {dir_ / "file" / "x.npy", "cannot write: Not a directory"},
        {dir_ / long_name, "cannot write: File name too long"}};
    for (const auto& [path, message] : refused) {
        try {
            cli::check_writable(path);
            ADD_FAILURE() << "accepted " << path;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
        EXPECT_THROW(write_npy_atomic(path, std::vector<uint64_t>{2}, ramp(2)), Error);
    }
    EXPECT_NO_THROW(cli::check_writable(dir_ / "new.npy"));
    EXPECT_NO_THROW(cli::check_writable(dir_ / "file"));
    EXPECT_NO_THROW(cli::check_writable("/dev/null"));
    EXPECT_EQ(listing(), (std::vector<std::string>{"file", "sub"}));
}

// A set of files that fails part-way removes the files it made; a file it replaced stays replaced.
TEST_F(NpyTest, AFailedFileSetRemovesWhatItMade) {
    write("old.csv", "old");
    const std::vector<uint64_t> two{2};
    try {
        cli::FileSet files;
        write_npy_atomic(files.note(dir_ / "table.npy"), two, ramp(2));
        write_npy_atomic(files.note(dir_ / "old.csv"), two, ramp(2));
        write_npy_atomic(files.note(dir_ / "nowhere" / "chart.npy"), two, ramp(2));
        files.keep();
        ADD_FAILURE() << "no error";
    } catch (const Error&) {
    }
    EXPECT_EQ(listing(), (std::vector<std::string>{"old.csv"}));
    EXPECT_EQ(read_npy(dir_ / "old.csv").shape, two);
    {
        cli::FileSet files;
        write_npy_atomic(files.note(dir_ / "table.npy"), two, ramp(2));
        files.keep();
    }
    EXPECT_EQ(listing(), (std::vector<std::string>{"old.csv", "table.npy"}));
}

}  // namespace
}  // namespace twiddle::npy
