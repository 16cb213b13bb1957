#!/usr/bin/env bash
# Fuzzes Moat's parsers of untrusted bytes with libFuzzer, each for a bounded time.
#   Scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]      (default: 60 seconds, every target)
# Crashes are written to Fuzz/crashes/<target>/. Turn each into a regression test by copying the input to
# Tests/MoatScanTests/Fixtures/fuzz-regressions/<target>/ (FuzzRegressionTests replays them all).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"; shift || true
export MOAT_FUZZ=1
swift build --sanitize fuzzer --scratch-path .build/fuzz --product moat-fuzz
binary=".build/fuzz/debug/moat-fuzz"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=($(ls Fuzz/corpus))
fi
status=0
for target in "${targets[@]}"; do
  mkdir -p "Fuzz/crashes/$target" ".build/fuzz/corpus/$target"
  echo "== fuzzing $target for ${seconds}s"
  if ! SWIFT_BACKTRACE=enable=no MOAT_FUZZ_TARGET="$target" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -artifact_prefix="Fuzz/crashes/$target/" -print_final_stats=1 \
      ".build/fuzz/corpus/$target" "Fuzz/corpus/$target" 2>".build/fuzz/$target.log"; then
    echo "!! $target: crash or timeout, see .build/fuzz/$target.log and Fuzz/crashes/$target/"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" ".build/fuzz/$target.log" || true
done
exit $status
