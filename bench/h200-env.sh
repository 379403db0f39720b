# Sourced by the bench/h200-*.sh scripts on the GPU machine: unpacks the Vulkan loader and the
# GL vendor-neutral libraries NVIDIA's driver needs (.gl/*.deb), points the loader at NVIDIA's
# driver, and keeps twiddle's kernel cache in /tmp. ../shared/device/get-vulkan-loader fetches
# libvulkan1 alone; without libglvnd's libraries the loader finds no driver ("no Vulkan driver
# found"). Fetch them once, on the build machine in the project root (as the device notes say):
#   o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
#   mkdir -p /tmp/amd64/partial && apt-get $o update && (cd .gl && apt-get $o download libvulkan1 \
#     libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
# NVIDIA's ICD manifest is not where the loader looks by default on that machine.
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache

# For the per-call scripts under results/ (bash): only 8 files of $OUT come back. pack_out (call
# it first) has the script write into a local folder instead, and save tars the CSVs, logs,
# tables and notes there into all.tgz and copies that one file to the real $OUT. run NAME SECONDS
# BINARY ARGS... runs .h200/BINARY under a time limit with its output in $OUT/NAME.log, notes its
# start and end in $OUT/times.txt, and saves.
RETURNED_OUT=${OUT:-}
pack_out() {
  OUT=/tmp/twiddle-out
  rm -rf "$OUT" && mkdir -p "$OUT"
}
save() {
  (cd "$OUT" && tar czf all.tgz.new *.csv *.log *.md times.txt gpu.txt 2>/dev/null; mv all.tgz.new all.tgz
   cp all.tgz "$RETURNED_OUT/all.tgz.new" && mv "$RETURNED_OUT/all.tgz.new" "$RETURNED_OUT/all.tgz")
}
run() {
  local name=$1 secs=$2 bin=$3; shift 3
  echo "$(date +%H:%M:%S.%N) start $name" >> "$OUT/times.txt"
  timeout "$secs" ".h200/$bin" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $name rc=$rc" >> "$OUT/times.txt"
  save
}

# sample_gpu (after pack_out): nvidia-smi beside the runs, into $OUT: gpu.txt (the card, its
# driver and clocks), clocks.csv (every 200 ms: SM and memory clocks, power, temperature,
# utilisation, memory in use; another process on the GPU would show there), reasons.csv (every
# 200 ms: the active clock-event reasons) and apps.csv (every second: the compute processes).
# stop_sampling ends them.
sample_gpu() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,memory.used \
    --format=csv -lms 200 > "$OUT/clocks.csv" 2>&1 &
  SAMPLERS=$!
  nvidia-smi --query-gpu=timestamp,clocks_event_reasons.active --format=csv -lms 200 > "$OUT/reasons.csv" 2>&1 &
  SAMPLERS="$SAMPLERS $!"
  nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv -l 1 > "$OUT/apps.csv" 2>&1 &
  SAMPLERS="$SAMPLERS $!"
}
stop_sampling() {
  kill $SAMPLERS
}

# sweep_issue6 (after pack_out): issue 6's sweep, cuFFT then twiddle for each kind of case (c2c
# lengths, r2c lengths, 2D shapes), both timed in two rounds of 0.5 s warm-ups, into
# $OUT/{cufft,sweep}{,-r2c,-2d}.csv, with bench/compare.py's tables in $OUT/compare{,-r2c,-2d}.md.
# print_issue6 prints each table's ratios on one line, and the cases whose two timing rounds lie
# more than 5% apart (round_ms: column 14 of twiddle's CSVs, 8 of cufft_bench's).
sweep_issue6() {
  local w="--warmup 0.5" t
  local all=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
  all=$all,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
  local shapes=256x256,512x512,1024x1024,2048x2048,4096x4096
  local real=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
  run cufft 120 cufft_bench $w --cases $all --out "$OUT/cufft.csv"
  run sweep 100 twiddle bench $w --n $all --out "$OUT/sweep.csv"
  run cufft-r2c 50 cufft_bench $w --cases $real --r2c --out "$OUT/cufft-r2c.csv"
  run sweep-r2c 50 twiddle bench $w --n $real --real --out "$OUT/sweep-r2c.csv"
  run cufft-2d 30 cufft_bench $w --shapes $shapes --out "$OUT/cufft-2d.csv"
  run sweep-2d 30 twiddle bench $w --shapes $shapes --out "$OUT/sweep-2d.csv"
  for t in "" -r2c -2d; do
    python3 bench/compare.py "$OUT/sweep$t.csv" "$OUT/cufft$t.csv" > "$OUT/compare$t.md" 2>&1
  done
  save
}
print_issue6() {
  local t f c s
  for t in "" -r2c -2d; do
    grep "^| [0-9]" "$OUT/compare$t.md" | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
  done
  for f in "$OUT"/*.csv; do
    case $f in */clocks.csv|*/reasons.csv|*/apps.csv) continue;; */cufft*) c=8; s=7;; *) c=14; s=10;; esac
    awk -F, -v c=$c -v s=$s -v f="$(basename "$f" .csv)" 'NR > 1 && $c ~ /;/ {
      split($c, r, ";"); lo = r[1] < r[2] ? r[1] : r[2]; hi = r[1] < r[2] ? r[2] : r[1];
      if (hi > 1.05 * lo) printf "%s %s %s | ", f, $s, $c }' "$f"
  done
  echo
}
