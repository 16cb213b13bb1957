#!/usr/bin/env bash
# Fuzzes Moat's parsers of untrusted bytes with libFuzzer, each for a bounded time.
#   Scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]      (default: 60 seconds, every target)
# `Scripts/fuzz.sh 20` is the CI smoke (.ci/run): every target about 20 s. A crash, a timeout (one input
# running over 10 s), an out-of-memory (over 2 GB RSS) or a leak fails the run alike: the script checks
# libFuzzer's exit code and the artifact files it writes (crash-*, timeout-*, oom-*, leak-*), prints one line
# per target (result, executions, peak RSS, wall and CPU seconds) and exits 1 when any target failed.
# MOAT_FUZZ_SEED fixes libFuzzer's seed (CI uses 1, so a red smoke reproduces; 0, the default, is random).
# Artifacts are written to Fuzz/crashes/<target>/. Turn each into a regression test by copying the input to
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

artifacts() { # artifacts DIR MARKER: the libFuzzer artifact files in DIR written after MARKER, one a line
  # (newer than the marker, not merely new: an input found again is rewritten under the same hash name)
  find "$1" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) \
    -newer "$2" 2>/dev/null | sort
}
stat_of() { # stat_of NAME LOG: the value of libFuzzer's final stat::NAME, or "?"
  local value
  value=$(sed -n "s/^stat::$1: *\([0-9][0-9]*\).*/\1/p" "$2" | tail -n 1)
  echo "${value:-?}"
}
children_cpu() { # children_cpu: sets cpu_now to the CPU seconds (user + system) of this shell's finished children
  # (called as a command, not in $(...): `times` in a subshell would report the subshell's children)
  times >".build/fuzz/times" # its second line is the children's user and system time
  cpu_now=$(sed -n 2p .build/fuzz/times | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t }')
}

status=0
summary=()
for target in "${targets[@]}"; do
  crashes="Fuzz/crashes/$target"
  log=".build/fuzz/$target.log"
  mkdir -p "$crashes" ".build/fuzz/corpus/$target"
  marker=".build/fuzz/$target.started"
  touch "$marker"
  echo "== fuzzing $target for ${seconds}s"
  started=$(date +%s)
  children_cpu; cpu_before=$cpu_now
  code=0
  SWIFT_BACKTRACE=enable=no MOAT_FUZZ_TARGET="$target" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -seed="${MOAT_FUZZ_SEED:-0}" \
      -max_len=65536 -artifact_prefix="$crashes/" -print_final_stats=1 \
      ".build/fuzz/corpus/$target" "Fuzz/corpus/$target" 2>"$log" || code=$?
  elapsed=$(( $(date +%s) - started ))
  children_cpu; cpu=$(( cpu_now - cpu_before ))
  new=$(artifacts "$crashes" "$marker")
  result="ok"
  if [ -n "$new" ] || [ "$code" -ne 0 ]; then
    status=1
    kinds=$(echo "$new" | sed -n 's|.*/\([a-z]*\)-[^/]*$|\1|p' | sort -u | tr '\n' ' ' | sed 's/ $//')
    result="FAILED (exit $code${kinds:+, $kinds})"
    echo "!! $target: $result; from $log:"
    first=$(grep -n -m 1 -E 'ALARM:|Fatal error|ERROR: libFuzzer|==ERROR' "$log" | cut -d: -f1 || true)
    { if [ -n "$first" ]; then sed -n "${first},$((first + 14))p" "$log"; grep -E '^SUMMARY:' "$log" || true; else tail -n 25 "$log"; fi; } | sed 's/^/   /'
    [ -z "$new" ] || echo "$new" | sed 's/^/   artifact: /'
  fi
  line=$(printf '%-22s %-28s %10s execs  peak RSS %5s MB  %5ss (CPU %ss)' "$target" "$result" \
    "$(stat_of number_of_executed_units "$log")" "$(stat_of peak_rss_mb "$log")" "$elapsed" "$cpu")
  echo "$line"
  summary+=("$line")
done
echo "== fuzz summary (${seconds}s per target, -timeout=10, -rss_limit_mb=2048)"
printf '%s\n' "${summary[@]}"
[ "$status" -eq 0 ] || echo "!! fuzzing failed: inputs are in Fuzz/crashes/<target>/"
exit $status
