#!/usr/bin/env bash
# The compiler flags that tune a release build for this machine's CPU, printed for `swift build`:
# Haswell's instruction set (AVX2, FMA, BMI2, …) when /proc/cpuinfo lists it, nothing otherwise.
# AVX2 runs the synthesis' SIMD4<Double> lanes in one register where baseline x86-64 (SSE2) needs
# two, and does more per instruction elsewhere (docs/benchmarks.md, the fourth pass).
# The samples stay the same to the bit: Swift does not contract a·b + c into an FMA, and the C
# targets are told not to (-ffp-contract=off). A binary for other machines (make deb, make dist)
# is built without these flags. ENTRAIN_PORTABLE=1 prints nothing (a build for any x86-64).
set -euo pipefail
[ "${ENTRAIN_PORTABLE:-0}" = 1 ] && exit 0
[ "$(uname -m)" = x86_64 ] || exit 0
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
for feature in sse4_2 avx avx2 fma bmi1 bmi2 f16c movbe popcnt abm xsave; do
  [[ " $flags " == *" $feature "* ]] || exit 0
done
echo "-Xswiftc -target-cpu -Xswiftc haswell -Xcc -march=haswell -Xcc -ffp-contract=off"
