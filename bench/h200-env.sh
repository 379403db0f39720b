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

# For the per-call scripts under results/ (bash): save tars $OUT's CSVs, logs and notes into
# $OUT/all.tgz (only a few files of $OUT come back, so everything travels in it); run NAME SECONDS
# BINARY ARGS... runs .h200/BINARY under a time limit with its output in $OUT/NAME.log, notes its
# start and end in $OUT/times.txt, and saves.
save() { (cd "$OUT" && tar czf all.tgz.new *.csv *.log times.txt gpu.txt 2>/dev/null; mv all.tgz.new all.tgz); }
run() {
  local name=$1 secs=$2 bin=$3; shift 3
  echo "$(date +%H:%M:%S.%N) start $name" >> "$OUT/times.txt"
  timeout "$secs" ".h200/$bin" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $name rc=$rc" >> "$OUT/times.txt"
  save
}
