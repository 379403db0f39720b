# Sourced by the bench/h200-*.sh scripts on the GPU machine: unpacks the Vulkan loader and the
# GL vendor-neutral libraries NVIDIA's driver needs (.gl/*.deb, from ../shared/device/get-vulkan-loader
# and the device notes), points the loader at NVIDIA's driver, and keeps twiddle's kernel cache in /tmp.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
# NVIDIA's ICD manifest is not where the loader looks by default on that machine.
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
