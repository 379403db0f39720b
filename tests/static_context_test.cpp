// Contexts in static objects, destroyed at exit after every function-local static that main made:
// a wrapped context's destructor takes its queue's lock (Context::wrap), which must still be
// there. Before 1a19774 the locks' map, a function-local static made by main's first submit, was
// destroyed first, and the process hung at exit. ctest's timeout catches a hang; the exit code
// catches a crash.
#include <twiddle/twiddle.hpp>

#include <complex>
#include <cstdio>
#include <optional>
#include <vector>

namespace {
// Constructed (empty) before main, so destroyed after what main's calls made: wrapped first.
std::optional<twiddle::Context> owner;
std::optional<twiddle::Context> wrapped;
}  // namespace

int main() {
    owner.emplace();
    wrapped.emplace(twiddle::Context::wrap(owner->instance(), owner->physical_device(), owner->device(),
                                           owner->queue_family(), owner->queue()));
    const twiddle::Plan plan(*wrapped, twiddle::FftDesc(64));
    std::vector<std::complex<float>> x(64, {1, 0});
    twiddle::Buffer in(*wrapped, 64 * sizeof x[0]), out(*wrapped, 64 * sizeof x[0]);
    in.upload(std::span<const std::complex<float>>(x));
    plan.execute(in, out, twiddle::Direction::forward);
    out.download(x.data(), 64 * sizeof x[0]);
    // The transform of ones: 64 at 0, zero elsewhere.
    if (x[0] != std::complex<float>(64, 0) || x[1] != std::complex<float>(0, 0)) {
        std::fprintf(stderr, "static_context_test: wrong transform\n");
        return 1;
    }
    return 0;
}
