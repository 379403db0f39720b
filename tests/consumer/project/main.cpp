// Uses an installed twiddle: runs a small batched transform in place and checks every bin against
// the definition, and checks that errors thrown inside the library reach the caller as their types.
#include <twiddle/twiddle.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <span>
#include <string>
#include <vector>

namespace {

constexpr uint64_t kLength = 64;
constexpr uint64_t kBatch = 3;
constexpr double kBound = 1e-5;  // relative to the largest bin

// The public structs' member functions that are defined in the library: each must be exported.
bool check_public_members(const twiddle::Context& ctx) {
    bool ok = true;
    auto expect = [&ok](bool holds, const char* what) {
        if (!holds) std::fprintf(stderr, "%s\n", what);
        ok = ok && holds;
    };
    bool refused = false;
    try {
        twiddle::sht::Grid no_rows;
        no_rows.nlat = 0;
        no_rows.validate();
    } catch (const twiddle::Error&) {
        refused = true;
    }
    expect(refused, "sht::Grid::validate accepted nlat = 0");
    twiddle::FftCallbacks product;
    product.operand = true;
    product.multiply = true;
    expect(!product.store_body(twiddle::Precision::f32).empty(), "FftCallbacks::store_body is empty");
    twiddle::Graph graph(ctx);
    const twiddle::Resource operand = graph.transient(kLength * 8);
    expect(twiddle::FusedOps::multiply_store(operand, twiddle::Precision::f32).callbacks.multiply,
           "FusedOps::multiply_store made no product");
    expect(twiddle::FusedOps::window_load(operand, twiddle::Precision::f32, kLength).callbacks.operand,
           "FusedOps::window_load reads no operand");
    const twiddle::LogicalPlan logical = twiddle::plan(twiddle::FftDesc(kLength, kBatch), ctx.caps());
    const twiddle::PassKernel& kernel = logical.passes.at(0).kernel;
    expect(kernel.packed_src() && kernel.packed_dst() && kernel.place(0).src == 0,
           "PassKernel's layout of a packed batch");
    return ok;
}

bool check() {
    const twiddle::Context ctx;
    const twiddle::Plan plan(ctx, twiddle::FftDesc(kLength, kBatch));

    std::vector<std::complex<float>> x(kLength * kBatch);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = {static_cast<float>(std::sin(0.37 * i)), static_cast<float>(std::cos(1.3 * i))};
    twiddle::Buffer buffer(ctx, plan.desc().bytes());
    buffer.upload(std::span<const std::complex<float>>(x));
    plan.execute(buffer.view(), buffer.view(), twiddle::Direction::forward);
    std::vector<std::complex<float>> got(x.size());
    buffer.download(std::span<std::complex<float>>(got));

    double error = 0, largest = 0;
    for (uint64_t row = 0; row < kBatch; ++row) {
        for (uint64_t k = 0; k < kLength; ++k) {
            std::complex<double> want = 0;
            for (uint64_t j = 0; j < kLength; ++j) {
                const double angle = -2 * std::numbers::pi * static_cast<double>(j * k % kLength) / kLength;
                want += std::complex<double>(x[row * kLength + j]) * std::polar(1.0, angle);
            }
            error = std::max(error, std::abs(std::complex<double>(got[row * kLength + k]) - want));
            largest = std::max(largest, std::abs(want));
        }
    }
    bool ok = error <= kBound * largest;
    std::printf("twiddle %s on %s: %llu x %llu points, max relative error %.3g\n", TWIDDLE_VERSION_STRING,
                ctx.caps().name.c_str(), static_cast<unsigned long long>(kLength),
                static_cast<unsigned long long>(kBatch), error / largest);

    bool caught = false;
    try {
        // The direct sum goes up to 65536 points.
        twiddle::Options direct;
        direct.strategy = twiddle::Strategy::dft;
        const twiddle::Plan unsupported(ctx, twiddle::FftDesc(65537), direct);
    } catch (const twiddle::UnsupportedError&) {
        caught = true;
    }
    if (!caught) {
        std::fprintf(stderr, "the direct sum of 65537 points did not throw twiddle::UnsupportedError\n");
        ok = false;
    }
    ok = check_public_members(ctx) && ok;
    for (const std::string& message : ctx.take_validation_messages()) {
        std::fprintf(stderr, "validation: %s\n", message.c_str());
        ok = false;
    }
    return ok;
}

}  // namespace

int main() {
    try {
        if (check()) return 0;
    } catch (const twiddle::Error& e) {
        std::fprintf(stderr, "twiddle: %s\n", e.what());
    }
    std::fprintf(stderr, "FAILED\n");
    return 1;
}
