// FFTW on the CPU, with threads, for reference: linked statically (libfftw3f.a, libfftw3.a and
// their _threads variants), so that the binary runs where FFTW is not installed. Plans are
// FFTW_MEASURE, each given at most 2 seconds of measuring; times are wall clock.
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "peers/peer.hpp"
#include "twiddle/error.hpp"

namespace twiddle::cli {

namespace {

// The single- and double-precision APIs under one name.
template <typename T>
struct Fftw;
template <>
struct Fftw<float> {
    using plan = fftwf_plan;
    using complex = fftwf_complex;
    static constexpr auto init_threads = fftwf_init_threads;
    static constexpr auto plan_with_nthreads = fftwf_plan_with_nthreads;
    static constexpr auto set_timelimit = fftwf_set_timelimit;
    static constexpr auto allocate = fftwf_malloc;
    static constexpr auto deallocate = fftwf_free;
    static constexpr auto plan_many_dft = fftwf_plan_many_dft;
    static constexpr auto plan_many_dft_r2c = fftwf_plan_many_dft_r2c;
    static constexpr auto plan_many_dft_c2r = fftwf_plan_many_dft_c2r;
    static constexpr auto execute = fftwf_execute;
    static constexpr auto destroy_plan = fftwf_destroy_plan;
};
template <>
struct Fftw<double> {
    using plan = fftw_plan;
    using complex = fftw_complex;
    static constexpr auto init_threads = fftw_init_threads;
    static constexpr auto plan_with_nthreads = fftw_plan_with_nthreads;
    static constexpr auto set_timelimit = fftw_set_timelimit;
    static constexpr auto allocate = fftw_malloc;
    static constexpr auto deallocate = fftw_free;
    static constexpr auto plan_many_dft = fftw_plan_many_dft;
    static constexpr auto plan_many_dft_r2c = fftw_plan_many_dft_r2c;
    static constexpr auto plan_many_dft_c2r = fftw_plan_many_dft_c2r;
    static constexpr auto execute = fftw_execute;
    static constexpr auto destroy_plan = fftw_destroy_plan;
};

// Plans and arrays of one precision; the arrays serve every case, grown when one needs more.
template <typename T>
class FftwState {
public:
    using F = Fftw<T>;
    explicit FftwState(int threads) {
        F::init_threads();
        F::plan_with_nthreads(threads);
        F::set_timelimit(2.0);  // seconds of FFTW_MEASURE per plan
    }
    ~FftwState() {
        release();
        F::deallocate(in_);
        F::deallocate(out_);
    }

    std::string prepare(const BenchCase& c, const CaseData& data) {
        const uint64_t bytes = std::max(c.input_bytes(), c.output_bytes());
        if (bytes > capacity_) {
            F::deallocate(in_);
            F::deallocate(out_);
            in_ = static_cast<T*>(F::allocate(bytes));
            out_ = static_cast<T*>(F::allocate(bytes));
            if (!in_ || !out_) throw Error("fftw_malloc failed");
            capacity_ = bytes;
        }
        const bool inverse = c.direction == Direction::inverse;
        std::vector<int> n(c.shape.begin(), c.shape.end());
        int full = 1, half = 1;  // points per array on the real side and on the complex side
        for (size_t k = 0; k < n.size(); ++k) {
            full *= n[k];
            half *= k + 1 < n.size() || !c.real ? n[k] : n[k] / 2 + 1;
        }
        const int rank = int(n.size()), howmany = int(c.batch);
        auto* complex_in = reinterpret_cast<typename F::complex*>(in_);
        auto* complex_out = reinterpret_cast<typename F::complex*>(out_);
        // FFTW_MEASURE overwrites the arrays, so the input goes in after planning. A c2r plan may
        // overwrite its input too (FFTW's default for c2r): only the first run, which is checked,
        // reads the case's input.
        if (!c.real)
            plan_ = F::plan_many_dft(rank, n.data(), howmany, complex_in, nullptr, 1, full, complex_out,
                                     nullptr, 1, full, inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_MEASURE);
        else if (inverse)
            plan_ = F::plan_many_dft_c2r(rank, n.data(), howmany, complex_in, nullptr, 1, half, out_, nullptr,
                                         1, full, FFTW_MEASURE);
        else
            plan_ = F::plan_many_dft_r2c(rank, n.data(), howmany, in_, nullptr, 1, full, complex_out, nullptr,
                                         1, half, FFTW_MEASURE);
        if (!plan_) return "unsupported: FFTW made no plan";
        std::memcpy(in_, data.input(), c.input_bytes());
        return {};
    }
    void run() { F::execute(plan_); }
    const void* output() const { return out_; }
    void release() {
        if (plan_) F::destroy_plan(plan_);
        plan_ = nullptr;
    }

private:
    typename F::plan plan_ = nullptr;
    T *in_ = nullptr, *out_ = nullptr;
    uint64_t capacity_ = 0;
};

class FftwPeer final : public Peer {
public:
    explicit FftwPeer(uint32_t threads)
        : threads_(threads ? int(threads) : int(std::max(1u, std::thread::hardware_concurrency()))),
          f32_(threads_),
          f64_(threads_) {}

    std::string name() const override { return "fftw"; }
    std::string detail() const override {
        return std::string(fftwf_version) + " on the CPU, " + std::to_string(threads_) + " threads";
    }

    std::string prepare(const BenchCase& c, const CaseData& data) override {
        f64_case_ = c.precision == Precision::f64;
        return f64_case_ ? f64_.prepare(c, data) : f32_.prepare(c, data);
    }
    void run() override { f64_case_ ? f64_.run() : f32_.run(); }
    void read_output(void* dst, uint64_t offset, uint64_t bytes) override {
        const void* out = f64_case_ ? f64_.output() : f32_.output();
        std::memcpy(dst, static_cast<const char*>(out) + offset, bytes);
    }
    // Wall time of each run, after `warm_up` seconds of runs; at most about 3 seconds of timed
    // runs (at least 3), as a CPU takes far longer than the GPUs over the same data.
    double time_ms(uint32_t reps, double warm_up) override {
        using clock = std::chrono::steady_clock;
        const auto start = clock::now();
        while (std::chrono::duration<double>(clock::now() - start).count() < warm_up) run();
        std::vector<double> ms;
        const auto timed = clock::now();
        while (ms.size() < reps &&
               (ms.size() < 3 || std::chrono::duration<double>(clock::now() - timed).count() < 3)) {
            const auto t0 = clock::now();
            run();
            ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
        }
        return median(ms);
    }
    void release() override {
        f32_.release();
        f64_.release();
    }

private:
    int threads_;
    FftwState<float> f32_;
    FftwState<double> f64_;
    bool f64_case_ = false;
};

}  // namespace

std::unique_ptr<Peer> make_fftw_peer(uint32_t threads) { return std::make_unique<FftwPeer>(threads); }

}  // namespace twiddle::cli
