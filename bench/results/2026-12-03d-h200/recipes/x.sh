#!/bin/bash
# The driver's compile time per SPIR-V recipe (pt2's: shaderc -O, level zero, spirv-opt lists;
# .h200/k holds the kernels of plantime/ and their .spv made by pt2 on the build machine), then
# pt2's shaderc times on this host with a fresh and with a kept shaderc::Compiler.
source bench/h200-env.sh
export __GL_SHADER_DISK_CACHE=0
mkdir -p /tmp/k && cp .h200/k/* /tmp/k/
.h200/pt /tmp/k 0 spv > $OUT/driver.txt 2>&1
.h200/pt2 /tmp/k > $OUT/shaderc-fresh.txt 2>&1
KEEP=1 .h200/pt2 /tmp/k > $OUT/shaderc-kept.txt 2>&1
tar czf $OUT/all.tgz -C $OUT driver.txt shaderc-fresh.txt shaderc-kept.txt
cat $OUT/driver.txt; grep -v "^  zero\|^  ssa3" $OUT/shaderc-kept.txt | head -30
