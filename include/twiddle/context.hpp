// twiddle: the Vulkan context a plan runs on. Either twiddle creates the instance and device, or
// it wraps a caller's, so that twiddle lives inside someone else's Vulkan program.
#pragma once

#include <vulkan/vulkan.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "twiddle/caps.hpp"
#include "twiddle/export.hpp"

namespace twiddle {

namespace dist::detail {
class Copier;
}

class Graph;

struct ContextOptions {
    // Which device: an index into list_devices() or a case-insensitive substring of its name.
    // Empty: the TWIDDLE_DEVICE environment variable if set, else the first discrete GPU, else
    // the first integrated GPU, else the first device (lavapipe on a machine without a GPU).
    std::string device;
    // Enables the Khronos validation layer, with synchronization validation, and records its
    // messages (take_validation_messages()).
    // Unset: on when the TWIDDLE_VALIDATION environment variable is 1 (off when unset or 0; other
    // values are an Error).
    std::optional<bool> validation;
    // Keeps compiled kernels (SPIR-V), plans' twiddle tables and the driver's pipeline cache on
    // disk. Off: nothing is read or written. Unset: on, unless TWIDDLE_CACHE_DIR is "off" (in any
    // case).
    std::optional<bool> disk_cache;
    // Where the disk cache lives. Unset: TWIDDLE_CACHE_DIR, else $XDG_CACHE_HOME/twiddle, else
    // $HOME/.cache/twiddle.
    std::optional<std::filesystem::path> cache_dir;
    // Asks the driver for statistics of every kernel it compiles (registers, spills, shared
    // memory; see Plan::kernel_statistics), where it offers VK_KHR_pipeline_executable_properties.
    // For tuning. Unset: on when TWIDDLE_KERNEL_STATS is 1 (off when unset or 0; other values are
    // an Error).
    std::optional<bool> kernel_statistics;
    // Context::wrap only: whether the caller created the device with the shaderFloat64 feature,
    // which twiddle cannot read from a VkDevice. Unset: as the physical device offers it. false:
    // caps().shader_float64 is false, and f64 plans throw UnsupportedError instead of making
    // kernels the device was not enabled for.
    std::optional<bool> shader_float64;
};

class TWIDDLE_API Context {
public:
    // Creates an instance and a device.
    explicit Context(const ContextOptions& options = {});

    // Wraps a device the caller created and keeps owning; twiddle destroys none of these
    // handles (destroying the context waits for `queue` to be idle). `queue_family` must be
    // one of the physical device's, with compute (twiddle::Error otherwise). The instance must be
    // for Vulkan 1.1 or later, and the device must have been created with the extensions in
    // required_device_extensions() and, for f64 plans, the shaderFloat64 feature. The caller either
    // submits to `queue` through submit_commands(), which takes twiddle's lock of that queue (one
    // in the process, which every context wrapping the queue shares), or keeps it
    // externally synchronized against twiddle's own submissions: Plan construction (the twiddle table's
    // upload), Plan::execute(), Buffer upload/download/fill, Context::submit(), CompiledGraph::execute(),
    // sht::FourierStage's synthesize() and analyze(), and dist::DistPlan::execute(). Recording
    // (Plan::record() and the like) never submits. The options' validation and kernel_statistics do
    // not apply: they are properties of the caller's instance and device; shader_float64 says
    // whether the device was created with f64.
    static Context wrap(VkInstance instance, VkPhysicalDevice physical_device, VkDevice device,
                        uint32_t queue_family, VkQueue queue, const ContextOptions& options = {});

    // Device extensions twiddle needs enabled on a wrapped device.
    static std::vector<const char*> required_device_extensions();

    // Every Vulkan device the loader reports, in its order (indices for ContextOptions::device).
    static std::vector<DeviceCaps> list_devices();

    Context(Context&&) noexcept;
    Context& operator=(Context&&) noexcept;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context();

    const DeviceCaps& caps() const;
    VkInstance instance() const;
    VkPhysicalDevice physical_device() const;
    VkDevice device() const;
    VkQueue queue() const;
    uint32_t queue_family() const;

    // Records `record` into a command buffer of the context's (kept for later submissions), submits it
    // to the queue and waits.
    void submit(const std::function<void(VkCommandBuffer)>& record) const;

    // Submits command buffers the caller recorded (in the executable state) to the queue under the
    // lock that serializes twiddle's own submissions, and returns without waiting; `fence`, unless
    // VK_NULL_HANDLE, is signalled when they are done. For a program that submits to a wrapped
    // device's queue from several threads, twiddle's among them.
    void submit_commands(std::span<const VkCommandBuffer> commands, VkFence fence = VK_NULL_HANDLE) const;

    // Messages the validation layer reported since the last call (empty without validation).
    std::vector<std::string> take_validation_messages() const;

    // Writes the driver's pipeline cache to the disk cache now (also done on destruction).
    void save_cache() const;

    struct State;
    // Throws twiddle::Error once the context was moved from.
    const std::shared_ptr<State>& state() const;

private:
    friend class Graph;                 // builds plans for its nodes on the context it was made with
    friend class dist::detail::Copier;  // submits the exchanges' copies on the context it was made with
    explicit Context(std::shared_ptr<State> state);
    std::shared_ptr<State> state_;
};

}  // namespace twiddle
