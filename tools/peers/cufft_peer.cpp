// cuFFT on the GPU twiddle runs on, through the CUDA runtime. Both are loaded with dlopen at run
// time, so that twiddle never needs CUDA to build or to run: where they are missing, or no CUDA
// device is the Vulkan device, the peer says why and the comparison goes on without it. The few
// entry points used are declared here, as the CUDA headers declare them.
#include <dlfcn.h>

#include <cstring>
#include <vector>

#include "peers/peer.hpp"
#include "twiddle/error.hpp"
#include "vk/warm_up.hpp"

namespace twiddle::cli {

namespace {

using cudaError_t = int;
using cudaEvent_t = void*;
using cudaStream_t = void*;
using cufftResult = int;
using cufftHandle = int;
constexpr int cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2;
constexpr int CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29, CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c,
              CUFFT_Z2Z = 0x69;
constexpr int CUFFT_FORWARD = -1, CUFFT_INVERSE = 1;

struct CudaApi {
    cudaError_t (*GetDeviceCount)(int*);
    cudaError_t (*SetDevice)(int);
    cudaError_t (*GetDeviceProperties)(void*, int);
    cudaError_t (*RuntimeGetVersion)(int*);
    const char* (*GetErrorString)(cudaError_t);
    cudaError_t (*Malloc)(void**, size_t);
    cudaError_t (*Free)(void*);
    cudaError_t (*Memcpy)(void*, const void*, size_t, int);
    cudaError_t (*DeviceSynchronize)();
    cudaError_t (*EventCreate)(cudaEvent_t*);
    cudaError_t (*EventDestroy)(cudaEvent_t);
    cudaError_t (*EventRecord)(cudaEvent_t, cudaStream_t);
    cudaError_t (*EventSynchronize)(cudaEvent_t);
    cudaError_t (*EventElapsedTime)(float*, cudaEvent_t, cudaEvent_t);
};

struct CufftApi {
    cufftResult (*PlanMany)(cufftHandle*, int, int*, int*, int, int, int*, int, int, int, int);
    cufftResult (*Destroy)(cufftHandle);
    cufftResult (*ExecC2C)(cufftHandle, void*, void*, int);
    cufftResult (*ExecZ2Z)(cufftHandle, void*, void*, int);
    cufftResult (*ExecR2C)(cufftHandle, void*, void*);
    cufftResult (*ExecD2Z)(cufftHandle, void*, void*);
    cufftResult (*ExecC2R)(cufftHandle, void*, void*);
    cufftResult (*ExecZ2D)(cufftHandle, void*, void*);
    cufftResult (*GetVersion)(int*);
};

// The first of `names` that loads, as is (the loader's search path) or from /usr/local/cuda/lib64.
void* open_first(const std::vector<std::string>& names, std::string& tried) {
    for (const char* dir : {"", "/usr/local/cuda/lib64/"})
        for (const std::string& name : names) {
            const std::string path = dir + name;
            if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
            tried += (tried.empty() ? "" : ", ") + path;
        }
    return nullptr;
}

// Binds `f` to `symbol`; on failure adds the symbol's name to `missing`.
template <typename F>
bool bind(void* lib, F& f, const char* symbol, std::string& missing) {
    f = reinterpret_cast<F>(dlsym(lib, symbol));
    if (!f) missing += std::string(missing.empty() ? "" : ", ") + symbol;
    return f != nullptr;
}

class CufftPeer final : public Peer {
public:
    explicit CufftPeer(const Context& ctx) { unavailable_ = load(ctx); }

    ~CufftPeer() override {
        release();
        if (cuda_ready_) {
            for (cudaEvent_t e : events_) cuda_.EventDestroy(e);
            if (in_) cuda_.Free(in_);
            if (out_) cuda_.Free(out_);
        }
        // The libraries stay loaded: CUDA registers exit handlers of its own.
    }

    std::string name() const override { return "cufft"; }
    std::string unavailable() const override { return unavailable_; }
    std::string detail() const override { return detail_; }

    std::string prepare(const BenchCase& c, const CaseData& data) override {
        if (c.shape.size() > 3) return "unsupported: cuFFT transforms up to 3 dimensions";
        for (uint64_t e : c.shape)
            if (e > uint64_t(INT32_MAX)) return "unsupported: extent over cufftPlanMany's int";
        if (c.batch > uint64_t(INT32_MAX)) return "unsupported: batch over cufftPlanMany's int";
        const bool f64 = c.precision == Precision::f64;
        in_bytes_ = c.input_bytes();
        out_bytes_ = c.output_bytes();
        // One pair of device buffers for every case, grown when a case needs more.
        const uint64_t bytes = std::max(in_bytes_, out_bytes_);
        if (bytes > capacity_) {
            if (in_) cuda_.Free(in_);
            if (out_) cuda_.Free(out_);
            in_ = out_ = nullptr;
            capacity_ = 0;
            check(cuda_.Malloc(&in_, bytes), "cudaMalloc");
            check(cuda_.Malloc(&out_, bytes), "cudaMalloc");
            capacity_ = bytes;
        }
        check(cuda_.Memcpy(in_, data.input(), in_bytes_, cudaMemcpyHostToDevice), "cudaMemcpy");
        // The real side holds n points along the last axis, the complex side of a real transform n /
        // 2 + 1; a C2R (Z2D) reads the complex side.
        const bool inverse = c.direction == Direction::inverse;
        std::vector<int> n(c.shape.begin(), c.shape.end()), half = n;
        if (c.real) half.back() = n.back() / 2 + 1;
        std::vector<int>& in_embed = c.real && inverse ? half : n;
        std::vector<int>& out_embed = c.real && !inverse ? half : n;
        int in_dist = 1, out_dist = 1;
        for (size_t k = 0; k < n.size(); ++k) {
            in_dist *= in_embed[k];
            out_dist *= out_embed[k];
        }
        const int type = !c.real   ? (f64 ? CUFFT_Z2Z : CUFFT_C2C)
                         : inverse ? (f64 ? CUFFT_Z2D : CUFFT_C2R)
                                   : (f64 ? CUFFT_D2Z : CUFFT_R2C);
        const cufftResult r = cufft_.PlanMany(&plan_, int(n.size()), n.data(), in_embed.data(), 1, in_dist,
                                              out_embed.data(), 1, out_dist, type, int(c.batch));
        if (r != 0) return "unsupported: cufftPlanMany returned " + std::to_string(r);
        has_plan_ = true;
        exec_ = [this, type, direction = inverse ? CUFFT_INVERSE : CUFFT_FORWARD] {
            cufftResult e = 0;
            switch (type) {
            case CUFFT_C2C: e = cufft_.ExecC2C(plan_, in_, out_, direction); break;
            case CUFFT_Z2Z: e = cufft_.ExecZ2Z(plan_, in_, out_, direction); break;
            case CUFFT_R2C: e = cufft_.ExecR2C(plan_, in_, out_); break;
            case CUFFT_D2Z: e = cufft_.ExecD2Z(plan_, in_, out_); break;
            case CUFFT_C2R: e = cufft_.ExecC2R(plan_, in_, out_); break;
            case CUFFT_Z2D: e = cufft_.ExecZ2D(plan_, in_, out_); break;
            }
            if (e != 0) throw Error("cufftExec returned " + std::to_string(e));
        };
        return {};
    }

    void run() override {
        exec_();
        check(cuda_.DeviceSynchronize(), "cudaDeviceSynchronize");
    }

    void read_output(void* dst, uint64_t offset, uint64_t bytes) override {
        check(cuda_.Memcpy(dst, static_cast<const char*>(out_) + offset, bytes, cudaMemcpyDeviceToHost),
              "cudaMemcpy");
    }

    // Runs back to back as WarmUp says for `warm_up` (events bracketing each batch of runs), then
    // `reps` runs each between its own pair of events on the default stream, in vk::kTimedRounds
    // such rounds: the lowest round's median.
    double time_ms(uint32_t reps, double warm_up) override {
        while (events_.size() < 2 * size_t(reps)) {
            cudaEvent_t e = nullptr;
            check(cuda_.EventCreate(&e), "cudaEventCreate");
            events_.push_back(e);
        }
        const vk::RoundMedians rounds = vk::timed_rounds([&] {
            double spent = 0;
            for (vk::WarmUp w(warm_up); w.running();) {
                check(cuda_.EventRecord(events_[0], nullptr), "cudaEventRecord");
                for (uint32_t i = 0; i < w.batch(); ++i) exec_();
                check(cuda_.EventRecord(events_[1], nullptr), "cudaEventRecord");
                check(cuda_.EventSynchronize(events_[1]), "cudaEventSynchronize");
                float ms = 0;
                check(cuda_.EventElapsedTime(&ms, events_[0], events_[1]), "cudaEventElapsedTime");
                spent += ms * 1e-3 + 1e-5;  // at least a little per batch, so that the loop ends
                w.ran(ms * 1e-3, spent);
            }
            for (uint32_t r = 0; r < reps; ++r) {
                check(cuda_.EventRecord(events_[2 * r], nullptr), "cudaEventRecord");
                exec_();
                check(cuda_.EventRecord(events_[2 * r + 1], nullptr), "cudaEventRecord");
            }
            check(cuda_.EventSynchronize(events_[2 * reps - 1]), "cudaEventSynchronize");
            std::vector<double> ms(reps);
            for (uint32_t r = 0; r < reps; ++r) {
                float t = 0;
                check(cuda_.EventElapsedTime(&t, events_[2 * r], events_[2 * r + 1]), "cudaEventElapsedTime");
                ms[r] = t;
            }
            return median(ms);
        });
        return rounds.fastest();
    }

    void release() override {
        if (has_plan_) cufft_.Destroy(plan_);
        has_plan_ = false;
    }

private:
    // Loads both libraries and picks the CUDA device whose UUID is the Vulkan device's; returns
    // why not, or "".
    std::string load(const Context& ctx) {
        std::string tried;
        void* cudart =
            open_first({"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"}, tried);
        if (!cudart) return "the CUDA runtime did not load (tried " + tried + ")";
        tried.clear();
        void* cufft =
            open_first({"libcufft.so", "libcufft.so.12", "libcufft.so.11", "libcufft.so.13"}, tried);
        if (!cufft) return "cuFFT did not load (tried " + tried + ")";
        std::string missing;
        bool ok = bind(cudart, cuda_.GetDeviceCount, "cudaGetDeviceCount", missing) &&
                  bind(cudart, cuda_.SetDevice, "cudaSetDevice", missing) &&
                  bind(cudart, cuda_.RuntimeGetVersion, "cudaRuntimeGetVersion", missing) &&
                  bind(cudart, cuda_.GetErrorString, "cudaGetErrorString", missing) &&
                  bind(cudart, cuda_.Malloc, "cudaMalloc", missing) &&
                  bind(cudart, cuda_.Free, "cudaFree", missing) &&
                  bind(cudart, cuda_.Memcpy, "cudaMemcpy", missing) &&
                  bind(cudart, cuda_.DeviceSynchronize, "cudaDeviceSynchronize", missing) &&
                  bind(cudart, cuda_.EventCreate, "cudaEventCreate", missing) &&
                  bind(cudart, cuda_.EventDestroy, "cudaEventDestroy", missing) &&
                  bind(cudart, cuda_.EventRecord, "cudaEventRecord", missing) &&
                  bind(cudart, cuda_.EventSynchronize, "cudaEventSynchronize", missing) &&
                  bind(cudart, cuda_.EventElapsedTime, "cudaEventElapsedTime", missing);
        // CUDA 12 headers call the current form cudaGetDeviceProperties_v2.
        std::string unused;
        ok = (bind(cudart, cuda_.GetDeviceProperties, "cudaGetDeviceProperties_v2", unused) ||
              bind(cudart, cuda_.GetDeviceProperties, "cudaGetDeviceProperties", missing)) &&
             ok;
        if (!ok) return "the CUDA runtime lacks " + missing;
        missing.clear();
        ok = bind(cufft, cufft_.PlanMany, "cufftPlanMany", missing) &&
             bind(cufft, cufft_.Destroy, "cufftDestroy", missing) &&
             bind(cufft, cufft_.ExecC2C, "cufftExecC2C", missing) &&
             bind(cufft, cufft_.ExecZ2Z, "cufftExecZ2Z", missing) &&
             bind(cufft, cufft_.ExecR2C, "cufftExecR2C", missing) &&
             bind(cufft, cufft_.ExecD2Z, "cufftExecD2Z", missing) &&
             bind(cufft, cufft_.ExecC2R, "cufftExecC2R", missing) &&
             bind(cufft, cufft_.ExecZ2D, "cufftExecZ2D", missing) &&
             bind(cufft, cufft_.GetVersion, "cufftGetVersion", missing);
        if (!ok) return "cuFFT lacks " + missing;

        int count = 0;
        if (const cudaError_t e = cuda_.GetDeviceCount(&count); e != 0)
            return std::string("cudaGetDeviceCount: ") + cuda_.GetErrorString(e);
        // cudaDeviceProp begins with char name[256] and cudaUUID_t uuid (16 bytes) in every CUDA
        // release; the rest, whose layout changes, is room.
        std::vector<char> props(1 << 16);
        for (int d = 0; d < count; ++d) {
            std::fill(props.begin(), props.end(), 0);
            if (cuda_.GetDeviceProperties(props.data(), d) != 0) continue;
            if (std::memcmp(props.data() + 256, ctx.caps().device_uuid.data(), 16) != 0) continue;
            check(cuda_.SetDevice(d), "cudaSetDevice");
            cuda_ready_ = true;
            int runtime = 0, version = 0;
            cuda_.RuntimeGetVersion(&runtime);
            cufft_.GetVersion(&version);
            detail_ = "cuFFT " + std::to_string(version) + ", CUDA runtime " +
                      std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10) + " on " +
                      std::string(props.data());
            return {};
        }
        return "none of the " + std::to_string(count) + " CUDA devices is the Vulkan device " +
               ctx.caps().name;
    }

    void check(cudaError_t e, const char* what) const {
        if (e != 0) throw Error(std::string(what) + ": " + cuda_.GetErrorString(e));
    }

    std::string unavailable_, detail_;
    CudaApi cuda_{};
    CufftApi cufft_{};
    bool cuda_ready_ = false, has_plan_ = false;
    cufftHandle plan_ = 0;
    void *in_ = nullptr, *out_ = nullptr;
    uint64_t capacity_ = 0, in_bytes_ = 0, out_bytes_ = 0;
    std::vector<cudaEvent_t> events_;
    std::function<void()> exec_;
};

}  // namespace

std::unique_ptr<Peer> make_cufft_peer(const Context& ctx) { return std::make_unique<CufftPeer>(ctx); }

}  // namespace twiddle::cli
