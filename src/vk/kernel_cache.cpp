#include "vk/kernel_cache.hpp"

#include <cstring>
#include <fstream>

#include "codegen/pass_kernel.hpp"
#include "core/hash.hpp"
#include "twiddle/error.hpp"
#include "vk/check.hpp"
#include "vk/compiler.hpp"

namespace twiddle::vk {

namespace {

std::string hex(const std::array<uint8_t, 16>& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (uint8_t b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

// The driver validates its own header too; this keeps data from another device or driver out.
bool pipeline_cache_matches(const std::vector<uint8_t>& data, const DeviceCaps& caps) {
    VkPipelineCacheHeaderVersionOne h{};
    if (data.size() < sizeof h) return false;
    std::memcpy(&h, data.data(), sizeof h);
    return h.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && h.vendorID == caps.vendor_id &&
           h.deviceID == caps.device_id &&
           std::memcmp(h.pipelineCacheUUID, caps.pipeline_cache_uuid.data(), VK_UUID_SIZE) == 0;
}

}  // namespace

KernelCache::KernelCache(VkDevice device, const DeviceCaps& caps,
                         std::optional<std::filesystem::path> cache_dir,
                         std::optional<std::filesystem::path> dump_dir, bool validate_entries)
    : device_(device),
      caps_(caps),
      disk_(std::move(cache_dir)),
      dump_dir_(std::move(dump_dir)),
      validate_entries_(validate_entries) {
    std::vector<uint8_t> initial;
    if (auto data = disk_.read(pipeline_cache_name()); data && pipeline_cache_matches(*data, caps_))
        initial = std::move(*data);
    VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    info.initialDataSize = initial.size();
    info.pInitialData = initial.empty() ? nullptr : initial.data();
    VkPipelineCache cache = VK_NULL_HANDLE;
    if (vkCreatePipelineCache(device_, &info, nullptr, &cache) != VK_SUCCESS) {
        // The driver refused the stored data: start empty.
        info.initialDataSize = 0;
        info.pInitialData = nullptr;
        check(vkCreatePipelineCache(device_, &info, nullptr, &cache), "vkCreatePipelineCache");
    }
    pipeline_cache_ = UniquePipelineCache(device_, cache);
}

std::string KernelCache::device_key() const {
    return hex(caps_.device_uuid) + "-" + std::to_string(caps_.driver_version);
}

std::string KernelCache::pipeline_cache_name() const { return "pipelines-" + device_key() + ".bin"; }

void KernelCache::build(const std::string& glsl, const std::string& name, KernelSource origin,
                        const std::function<void(std::span<const uint32_t>)>& make_pipeline) {
    const std::string key = Hash128()
                                .add(codegen::kGeneratorVersion)
                                .add(caps_.device_uuid.data(), caps_.device_uuid.size())
                                .add(&caps_.driver_version, sizeof caps_.driver_version)
                                .add(compiler_version())
                                .add(origin == KernelSource::generated ? "generated" : "with caller code")
                                .add(glsl)
                                .hex();
    if (dump_dir_) {  // asked for: a dump that cannot be written is an error
        std::error_code ec;
        std::filesystem::create_directories(*dump_dir_, ec);
        const std::filesystem::path path = *dump_dir_ / (name + "-" + key.substr(0, 12) + ".comp");
        std::ofstream out(path);
        out << glsl;
        out.close();
        if (!out)
            throw Error("TWIDDLE_DUMP_SHADERS: cannot write " + path.string() +
                        (ec ? ": " + ec.message() : ""));
    }
    const std::string file = key + ".spv";
    if (auto data = disk_.read(file); data && data->size() % 4 == 0 && !data->empty()) {
        std::vector<uint32_t> words(data->size() / 4);
        std::memcpy(words.data(), data->data(), data->size());
        if (words[0] == 0x07230203u && (!validate_entries_ || valid_spirv(words))) {  // SPIR-V magic
            try {
                make_pipeline(words);
                std::lock_guard lock(mutex_);
                ++loaded_;
                dirty_ = true;  // the pipeline built from it may be new to the pipeline cache
                return;
            } catch (const VulkanError&) {
                // The driver rejected the entry's SPIR-V: a miss, compiled afresh below and
                // overwritten, as a damaged file or one the validator rejects is. A genuine device
                // error (out of memory, a lost device) recurs with the fresh words and is thrown then.
            }
        }
    }
    const auto start = std::chrono::steady_clock::now();
    const auto words = compile_compute(glsl, name, origin);
    compile_ns_ += std::chrono::nanoseconds(std::chrono::steady_clock::now() - start).count();
    disk_.write(file, std::span(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4));
    {
        std::lock_guard lock(mutex_);
        ++compiled_;
        dirty_ = true;
    }
    make_pipeline(words);
}

void KernelCache::save() {
    std::lock_guard lock(mutex_);
    if (!disk_.enabled() || !dirty_) return;
    size_t size = 0;
    if (vkGetPipelineCacheData(device_, pipeline_cache_.get(), &size, nullptr) != VK_SUCCESS) return;
    std::vector<uint8_t> data(size);
    if (vkGetPipelineCacheData(device_, pipeline_cache_.get(), &size, data.data()) != VK_SUCCESS) return;
    data.resize(size);
    disk_.write(pipeline_cache_name(), data);
    dirty_ = false;
}

}  // namespace twiddle::vk
