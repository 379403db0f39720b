// Instance and device creation, device selection, capabilities, and the wrapping of a caller's
// device.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <utility>

#include "core/moved_from.hpp"
#include "twiddle/context.hpp"
#include "twiddle/error.hpp"
#include "vk/check.hpp"
#include "vk/context_state.hpp"
#include "vk/disk_cache.hpp"
#include "vk/staging.hpp"

namespace twiddle {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                void* user) {
    auto* state = static_cast<Context::State*>(user);
    std::lock_guard lock(state->messages_mutex);
    state->messages.emplace_back(data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(Context::State* state) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    info.pfnUserCallback = on_debug_message;
    info.pUserData = state;
    return info;
}

// A switch from the environment: unset, empty or 0 is off, 1 is on; anything else is refused
// rather than read as off.
bool env_flag(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v || std::strcmp(v, "0") == 0) return false;
    if (std::strcmp(v, "1") == 0) return true;
    throw Error(std::string(name) + " is '" + v + "'; set it to 1 (on) or 0 (off)");
}

bool layer_available(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

VkInstance create_instance(bool validation, Context::State* state) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "twiddle";
    app.pEngineName = "twiddle";
    app.apiVersion = VK_API_VERSION_1_3;
    std::vector<const char*> layers, extensions;
    VkDebugUtilsMessengerCreateInfoEXT debug = messenger_info(state);
    const VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    if (validation) {
        if (!layer_available(kValidationLayer))
            throw UnsupportedError(std::string("validation was requested but ") + kValidationLayer +
                                   " is not installed (Debian: vulkan-validationlayers)");
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        // Synchronization validation too: a missing barrier between passes is the bug it finds.
        features.enabledValidationFeatureCount = 1;
        features.pEnabledValidationFeatures = &sync;
        features.pNext = &debug;  // also report problems in instance creation and destruction
        info.pNext = &features;
    }
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkInstance instance = VK_NULL_HANDLE;
    const VkResult r = vkCreateInstance(&info, nullptr, &instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw UnsupportedError(
            "no Vulkan driver found (install mesa-vulkan-drivers for lavapipe, "
            "or a GPU driver)");
    vk::check(r, "vkCreateInstance");
    return instance;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
    uint32_t count = 0;
    vk::check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> out(count);
    vk::check(vkEnumeratePhysicalDevices(instance, &count, out.data()), "vkEnumeratePhysicalDevices");
    return out;
}

bool has_device_extension(VkPhysicalDevice pd, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> ext(count);
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, ext.data());
    return std::any_of(ext.begin(), ext.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

// The compute queue family twiddle uses: one with compute, preferring one with timestamps.
std::optional<uint32_t> compute_family(VkPhysicalDevice pd) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families.data());
    std::optional<uint32_t> best;
    for (uint32_t i = 0; i < count; ++i) {
        if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
        if (!best || (families[i].timestampValidBits > 0 && families[*best].timestampValidBits == 0))
            best = i;
    }
    return best;
}

DeviceCaps query_caps(VkPhysicalDevice pd, uint32_t family) {
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    subgroup.pNext = &id;
    id.pNext = &driver;
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(pd, &props);
    const auto& p = props.properties;
    const auto& l = p.limits;

    DeviceCaps c;
    c.name = p.deviceName;
    switch (p.deviceType) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: c.type = DeviceType::integrated_gpu; break;
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: c.type = DeviceType::discrete_gpu; break;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: c.type = DeviceType::virtual_gpu; break;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: c.type = DeviceType::cpu; break;
    default: c.type = DeviceType::other; break;
    }
    c.vendor_id = p.vendorID;
    c.device_id = p.deviceID;
    c.api_version = p.apiVersion;
    c.driver_version = p.driverVersion;
    c.driver_name = driver.driverName;
    c.driver_info = driver.driverInfo;
    std::memcpy(c.device_uuid.data(), id.deviceUUID, VK_UUID_SIZE);
    std::memcpy(c.pipeline_cache_uuid.data(), p.pipelineCacheUUID, VK_UUID_SIZE);
    c.max_shared_memory_bytes = l.maxComputeSharedMemorySize;
    c.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
    for (int i = 0; i < 3; ++i) {
        c.max_workgroup_size[i] = l.maxComputeWorkGroupSize[i];
        c.max_workgroup_count[i] = l.maxComputeWorkGroupCount[i];
    }
    c.max_storage_buffer_range = l.maxStorageBufferRange;
    c.min_storage_buffer_offset_alignment = l.minStorageBufferOffsetAlignment;
    c.max_push_constants_bytes = l.maxPushConstantsSize;
    c.timestamp_period_ns = l.timestampPeriod;

    VkPhysicalDeviceMemoryProperties mem{};
    vkGetPhysicalDeviceMemoryProperties(pd, &mem);
    for (uint32_t i = 0; i < mem.memoryHeapCount; ++i)
        if (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            c.device_local_bytes = std::max<uint64_t>(c.device_local_bytes, mem.memoryHeaps[i].size);

    if (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) {
        c.subgroup_size = subgroup.subgroupSize;
        const std::pair<VkSubgroupFeatureFlagBits, const char*> ops[] = {
            {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
            {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
            {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
            {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
            {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
            {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
            {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
            {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
        };
        for (const auto& [bit, name] : ops)
            if (subgroup.supportedOperations & bit) c.subgroup_operations.emplace_back(name);
    }

    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(pd, &features);
    c.shader_float64 = features.shaderFloat64 == VK_TRUE;

    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families.data());
    c.timestamp_valid_bits = family < count ? families[family].timestampValidBits : 0;
    c.timestamps = c.timestamp_valid_bits > 0 && l.timestampPeriod > 0;
    return c;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return s;
}

// The device index ContextOptions::device, TWIDDLE_DEVICE or the default order selects.
size_t select_device(const std::vector<DeviceCaps>& devices, std::string wanted) {
    if (devices.empty()) throw UnsupportedError("no Vulkan device found");
    if (wanted.empty())
        if (const char* env = std::getenv("TWIDDLE_DEVICE")) wanted = env;
    if (!wanted.empty()) {
        if (std::all_of(wanted.begin(), wanted.end(), [](unsigned char ch) { return std::isdigit(ch); })) {
            size_t index = 0;
            const auto [end, error] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), index);
            if (error != std::errc() || end != wanted.data() + wanted.size() || index >= devices.size())
                throw Error("device index " + wanted + " is out of range: there are " +
                            std::to_string(devices.size()) + " devices");
            return index;
        }
        for (size_t i = 0; i < devices.size(); ++i)
            if (lower(devices[i].name).find(lower(wanted)) != std::string::npos) return i;
        throw Error("no Vulkan device name contains '" + wanted + "'");
    }
    for (DeviceType t : {DeviceType::discrete_gpu, DeviceType::integrated_gpu})
        for (size_t i = 0; i < devices.size(); ++i)
            if (devices[i].type == t) return i;
    return 0;
}

std::optional<std::filesystem::path> dump_dir() {
    const char* env = std::getenv("TWIDDLE_DUMP_SHADERS");
    if (env && *env) return std::filesystem::path(env);
    return std::nullopt;
}

// Common to created and wrapped contexts: capabilities, extension entry points and kernel cache.
void finish_state(Context::State& s, const ContextOptions& options) {
    s.caps = query_caps(s.physical_device, s.queue_family);
    // What a wrapped device was created with is the caller's to say: a feature the hardware
    // offers may not have been enabled.
    if (!s.owns_device && options.shader_float64 == false) s.caps.shader_float64 = false;
    if (VK_API_VERSION_MAJOR(s.caps.api_version) == 1 && VK_API_VERSION_MINOR(s.caps.api_version) < 1)
        throw UnsupportedError("device '" + s.caps.name + "' supports Vulkan 1.0 only; twiddle needs 1.1");
    vkGetPhysicalDeviceMemoryProperties(s.physical_device, &s.memory);
    s.push_descriptor_set = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
        vkGetDeviceProcAddr(s.device, "vkCmdPushDescriptorSetKHR"));
    if (!s.push_descriptor_set)
        throw UnsupportedError("the device lacks " + std::string(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) +
                               ", which twiddle needs enabled");
    s.kernels = std::make_unique<vk::KernelCache>(
        s.device, s.caps, vk::DiskCache::resolve(options.disk_cache, options.cache_dir), dump_dir(),
        /*validate_entries=*/s.messenger != VK_NULL_HANDLE);
}

}  // namespace

// The lock of a queue, one per VkQueue in the process: contexts that wrap the same queue (two
// parts of a program, each with its own Context::wrap) must not submit to it at once.
// The map is never destroyed: a context in a static object may be destroyed after it at exit.
std::mutex& queue_lock(VkQueue queue) {
    static auto* guard = new std::mutex;
    static auto* locks = new std::map<VkQueue, std::unique_ptr<std::mutex>>;
    const std::lock_guard lock(*guard);
    std::unique_ptr<std::mutex>& m = (*locks)[queue];
    if (!m) m = std::make_unique<std::mutex>();
    return *m;
}

Context::State::~State() {
    // twiddle submits to its queue only. A wrapped device's other queues are the caller's, and
    // vkDeviceWaitIdle would need them externally synchronized too.
    if (owns_device && device != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(device);
    } else if (queue != VK_NULL_HANDLE) {
        const std::lock_guard lock(queue_lock(queue));
        vkQueueWaitIdle(queue);
    }
    if (kernels) kernels->save();
    kernels.reset();
    staging.reset();
    idle_recorders.clear();
    if (owns_device && device != VK_NULL_HANDLE) vkDestroyDevice(device, nullptr);
    if (messenger != VK_NULL_HANDLE) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy) destroy(instance, messenger, nullptr);
    }
    if (owns_instance && instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}

vk::Staging& Context::State::stager() {
    std::lock_guard lock(staging_mutex);
    if (!staging) staging = std::make_unique<vk::Staging>();
    return *staging;
}

Context::State::Submission::Submission(Submission&& o) noexcept
    : state_(o.state_), recorder_(std::move(o.recorder_)) {}

Context::State::Submission& Context::State::Submission::operator=(Submission&& o) noexcept {
    if (this != &o) {
        settle();
        state_ = o.state_;
        recorder_ = std::move(o.recorder_);
    }
    return *this;
}

Context::State::Submission::~Submission() { settle(); }

void Context::State::Submission::wait() {
    if (!recorder_) return;
    std::unique_ptr<Recorder> r = std::move(recorder_);  // dropped, not reused, if a call fails
    const VkFence fence = r->fence.get();
    vk::check(vkWaitForFences(state_->device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    vk::check(vkResetFences(state_->device, 1, &fence), "vkResetFences");
    std::lock_guard lock(state_->recorders_mutex);
    state_->idle_recorders.push_back(std::move(r));
}

void Context::State::Submission::settle() noexcept {
    if (!recorder_) return;
    const VkFence fence = recorder_->fence.get();
    if (vkWaitForFences(state_->device, 1, &fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS ||
        vkResetFences(state_->device, 1, &fence) != VK_SUCCESS) {
        recorder_.reset();
        return;
    }
    std::lock_guard lock(state_->recorders_mutex);
    state_->idle_recorders.push_back(std::move(recorder_));
}

Context::State::Submission Context::State::submit_async(const std::function<void(VkCommandBuffer)>& record) {
    std::unique_ptr<Recorder> r;
    {
        std::lock_guard lock(recorders_mutex);
        if (!idle_recorders.empty()) {
            r = std::move(idle_recorders.back());
            idle_recorders.pop_back();
        }
    }
    if (!r) {
        r = std::make_unique<Recorder>();
        VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool_info.flags =
            VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pool_info.queueFamilyIndex = queue_family;
        VkCommandPool pool_handle = VK_NULL_HANDLE;
        vk::check(vkCreateCommandPool(device, &pool_info, nullptr, &pool_handle), "vkCreateCommandPool");
        r->pool = vk::UniqueCommandPool(device, pool_handle);  // frees its command buffer too
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = pool_handle;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        vk::check(vkAllocateCommandBuffers(device, &alloc, &r->cmd), "vkAllocateCommandBuffers");
        VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkFence fence_handle = VK_NULL_HANDLE;
        vk::check(vkCreateFence(device, &fence_info, nullptr, &fence_handle), "vkCreateFence");
        r->fence = vk::UniqueFence(device, fence_handle);
    }
    // A recorder that fails here is dropped with `r`; one already recorded into is reset first.
    vk::check(vkResetCommandBuffer(r->cmd, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk::check(vkBeginCommandBuffer(r->cmd, &begin), "vkBeginCommandBuffer");
    record(r->cmd);
    vk::check(vkEndCommandBuffer(r->cmd), "vkEndCommandBuffer");

    queue_submit(std::span(&r->cmd, 1), r->fence.get());
    Submission out;
    out.state_ = this;
    out.recorder_ = std::move(r);
    return out;
}

void Context::State::submit(const std::function<void(VkCommandBuffer)>& record) {
    submit_async(record).wait();
}

void Context::State::queue_submit(std::span<const VkCommandBuffer> commands, VkFence fence) {
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = static_cast<uint32_t>(commands.size());
    submit.pCommandBuffers = commands.data();
    const std::lock_guard lock(queue_lock(queue));
    vk::check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
}

Context::Context(std::shared_ptr<State> state) : state_(std::move(state)) {}

Context::Context(const ContextOptions& options) : state_(std::make_shared<State>()) {
    State& s = *state_;
    const bool validation = options.validation ? *options.validation : env_flag("TWIDDLE_VALIDATION");
    s.instance = create_instance(validation, &s);
    s.owns_instance = true;
    if (validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(s.instance, "vkCreateDebugUtilsMessengerEXT"));
        auto info = messenger_info(&s);
        if (create)
            vk::check(create(s.instance, &info, nullptr, &s.messenger), "vkCreateDebugUtilsMessengerEXT");
    }

    const auto pds = physical_devices(s.instance);
    std::vector<DeviceCaps> all;
    for (VkPhysicalDevice pd : pds) all.push_back(query_caps(pd, compute_family(pd).value_or(0)));
    const size_t index = select_device(all, options.device);
    s.physical_device = pds[index];
    const auto family = compute_family(s.physical_device);
    if (!family) throw UnsupportedError("device '" + all[index].name + "' has no compute queue");
    s.queue_family = *family;
    if (!has_device_extension(s.physical_device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        throw UnsupportedError("device '" + all[index].name + "' lacks " +
                               VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = s.queue_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkPhysicalDeviceFeatures features{};
    features.shaderFloat64 = all[index].shader_float64 ? VK_TRUE : VK_FALSE;
    auto extensions = required_device_extensions();
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_info{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    executable_info.pipelineExecutableInfo = VK_TRUE;
    const bool statistics =
        (options.kernel_statistics ? *options.kernel_statistics : env_flag("TWIDDLE_KERNEL_STATS")) &&
        has_device_extension(s.physical_device, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (statistics) extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    if (statistics) info.pNext = &executable_info;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.pEnabledFeatures = &features;
    vk::check(vkCreateDevice(s.physical_device, &info, nullptr, &s.device), "vkCreateDevice");
    s.owns_device = true;
    vkGetDeviceQueue(s.device, s.queue_family, 0, &s.queue);
    if (statistics)
        s.get_statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
            vkGetDeviceProcAddr(s.device, "vkGetPipelineExecutableStatisticsKHR"));
    finish_state(s, options);
}

Context Context::wrap(VkInstance instance, VkPhysicalDevice physical_device, VkDevice device,
                      uint32_t queue_family, VkQueue queue, const ContextOptions& options) {
    if (!instance || !physical_device || !device || !queue)
        throw Error("Context::wrap needs a non-null instance, physical device, device and queue");
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &families, nullptr);
    std::vector<VkQueueFamilyProperties> properties(families);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &families, properties.data());
    if (queue_family >= families)
        throw Error("Context::wrap: queue family " + std::to_string(queue_family) +
                    " does not exist; the device has " + std::to_string(families));
    if (!(properties[queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        throw Error("Context::wrap: queue family " + std::to_string(queue_family) +
                    " does not support compute");
    auto state = std::make_shared<State>();
    state->instance = instance;
    state->physical_device = physical_device;
    state->device = device;
    state->queue_family = queue_family;
    state->queue = queue;
    finish_state(*state, options);
    return Context(std::move(state));
}

std::vector<const char*> Context::required_device_extensions() {
    return {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
}

std::vector<DeviceCaps> Context::list_devices() {
    State scratch;  // holds the temporary instance; owns it so it is destroyed
    scratch.instance = create_instance(false, &scratch);
    scratch.owns_instance = true;
    std::vector<DeviceCaps> out;
    for (VkPhysicalDevice pd : physical_devices(scratch.instance))
        out.push_back(query_caps(pd, compute_family(pd).value_or(0)));
    return out;
}

Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;
const std::shared_ptr<Context::State>& Context::state() const {
    detail::held(state_, "Context");
    return state_;
}

const DeviceCaps& Context::caps() const { return state()->caps; }
VkInstance Context::instance() const { return state()->instance; }
VkPhysicalDevice Context::physical_device() const { return state()->physical_device; }
VkDevice Context::device() const { return state()->device; }
VkQueue Context::queue() const { return state()->queue; }
uint32_t Context::queue_family() const { return state()->queue_family; }

void Context::submit(const std::function<void(VkCommandBuffer)>& record) const {
    if (!record) throw Error("Context::submit: the recording function is empty");
    state()->submit(record);
}

void Context::submit_commands(std::span<const VkCommandBuffer> commands, VkFence fence) const {
    if (commands.size() > std::numeric_limits<uint32_t>::max())
        throw Error("Context::submit_commands: more than 2^32 - 1 command buffers");
    for (size_t i = 0; i < commands.size(); ++i)
        if (commands[i] == VK_NULL_HANDLE)
            throw Error("Context::submit_commands: command buffer " + std::to_string(i) + " is null");
    state()->queue_submit(commands, fence);
}

std::vector<std::string> Context::take_validation_messages() const {
    std::lock_guard lock(state()->messages_mutex);
    return std::exchange(state()->messages, {});
}

void Context::save_cache() const {
    if (state()->kernels) state()->kernels->save();
}

}  // namespace twiddle
