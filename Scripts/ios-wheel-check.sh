#!/usr/bin/env bash
# Checks Moat's binary analysis on real Apple-linked iOS Mach-O files, fetched or built at run time:
#   1. downloads a small iOS wheel from PyPI (a Python extension module built for arm64 iPhoneOS),
#      unzips it, scans the folder, and checks what Moat reports about its .so;
#   2. compiles small C and Objective-C programs for arm64-apple-ios15.0 with the toolchain's clang (no
#      SDK: the prototypes are declared here) and links them with ld64.lld (Debian's lld-19 when the
#      toolchain's lld cannot link for iOS), then checks the imports, selectors, strings and hardening
#      findings; without a linker that can, the object files are checked instead.
# Nothing downloaded or built is kept. When PyPI cannot be reached the wheel part is skipped with a message
# (exit 0 if the rest passes).
#   Scripts/ios-wheel-check.sh     (MOAT=/path/to/moat: use that binary; MOAT_NO_LINKER=1: objects only)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

if [ -z "${MOAT:-}" ]; then
  swift build --product moat >/dev/null
  MOAT="$(swift build --show-bin-path)/moat"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/moat-ios-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Runs Moat on a path and checks its JSON output with the Python assertions given on stdin.
# The findings are in `findings` (dicts), errors in `errors`; `expect(condition, message)` records a failure.
check() {
  local label="$1" path="$2" script
  script="$(cat)"
  local report="$work/report-$label.json"
  "$MOAT" scan "$path" --no-cache --include-inventory --format json >"$report" || true
  if ! python3 - "$report" "$label" <<PYTHON
import json, sys
report = json.load(open(sys.argv[1]))
findings, errors = report["findings"], report.get("errors", [])
failed = []
def expect(condition, message):
    if not condition:
        failed.append(message)
def find(rule, symbol=None, path=None):
    return [f for f in findings if f["ruleId"] == rule
            and (symbol is None or f["location"].get("symbol") == symbol)
            and (path is None or f["location"]["path"].endswith(path))]
$script
for f in findings:
    symbol = f["location"].get("symbol") or f["location"].get("keyPath") or "-"
    print(f"  {sys.argv[2]}: {f['ruleId']} {f['severity']}/{f['confidence']} {f['location']['path']} [{symbol}] {f['message'][:110]}")
for message in failed:
    print(f"  {sys.argv[2]}: expected {message}")
sys.exit(1 if failed else 0)
PYTHON
  then
    fail "$label"
  fi
}

# 1. A real iOS wheel from PyPI.
echo "== iOS wheel from PyPI"
wheel=""
reachable=1
if ! python3 -c "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/markupsafe/', timeout=15)" 2>/dev/null; then
  echo "skip: PyPI is unreachable; the wheel was not checked"
  reachable=0
fi
[ "$reachable" = 1 ] && for package in markupsafe pyyaml; do
  for python in 3.13 3.14; do
    for platform in ios_13_0_arm64_iphoneos ios_12_0_arm64_iphoneos; do
      if python3 -m pip download --quiet --no-deps --only-binary :all: --python-version "$python" --platform "$platform" \
          "$package" -d "$work/wheels" >/dev/null 2>&1; then
        wheel="$(ls "$work"/wheels/*.whl 2>/dev/null | head -n 1)"
        [ -n "$wheel" ] && break 3
      fi
    done
  done
done
if [ "$reachable" = 0 ]; then
  :
elif [ -z "$wheel" ]; then
  fail "no iOS wheel could be downloaded (markupsafe, pyyaml; Python 3.13, 3.14)"
else
  echo "wheel: $(basename "$wheel")"
  python3 -m zipfile -e "$wheel" "$work/wheel"
  machos=$(python3 - "$work/wheel" <<'PYTHON'
import os, sys
count = 0
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        with open(os.path.join(folder, name), "rb") as handle:
            if handle.read(4) in (b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe"):
                count += 1
print(count)
PYTHON
)
  [ "$machos" -ge 1 ] || fail "the wheel holds no Mach-O file"
  check wheel "$work/wheel" <<'PYTHON'
inventory = [f for f in find("MOAT-RES-401") if f["location"]["path"].endswith(".so") or f["location"]["path"].endswith(".dylib")]
expect(len(inventory) >= 1, "a binary inventory finding for the extension module")
for f in inventory:
    m = f["message"]
    expect(": arm64 dynamic library for iOS " in m, f"arm64 dynamic library for iOS in {m!r}")
    count = int(m.split(" imported symbol")[0].rsplit("; ", 1)[-1])
    expect(count >= 2, f"imports read from the binary ({count})")
expect(not find("MOAT-CODE-401"), "no PIE finding on a library")
expect(not errors, f"no errors, got {errors}")
PYTHON
fi

# 2. Programs compiled and linked here.
echo "== programs compiled for arm64-apple-ios15.0"
cat >"$work/legacy.c" <<'C'
char *strcpy(char *, const char *);
int sprintf(char *, const char *, ...);
int rand(void);
void srand(unsigned);
const char *endpoint = "http://rates.moat-check.net/v1/rates";
const char *schema = "http://www.w3.org/2001/XMLSchema";
int legacy_main(int argc, char **argv) {
    char buffer[32];
    srand(7);
    strcpy(buffer, argv[argc - 1]);
    sprintf(buffer, "%d", rand());
    return buffer[0] + endpoint[0] + schema[0];
}
C
cat >"$work/web.m" <<'OBJC'
__attribute__((objc_root_class))
@interface NSObject
+ (instancetype)alloc;
- (instancetype)init;
@end
@interface UIWebView : NSObject
@end
@interface NSKeyedUnarchiver : NSObject
+ (id)unarchiveObjectWithData:(id)data;
@end
@interface NSXMLParser : NSObject
- (void)setShouldResolveExternalEntities:(_Bool)flag;
@end
@interface LBStatementArchive : NSObject
- (id)loadStatement:(id)data;
@end
@implementation LBStatementArchive
- (id)loadStatement:(id)data {
    NSXMLParser *parser = [[NSXMLParser alloc] init];
    [parser setShouldResolveExternalEntities:1];
    (void)[[UIWebView alloc] init];
    return [NSKeyedUnarchiver unarchiveObjectWithData:data];
}
@end
int legacy_main(int argc, char **argv);
int main(int argc, char **argv) { return [[LBStatementArchive alloc] loadStatement:0] != 0 || legacy_main(argc, argv); }
OBJC
# Enough C code (over 16 KiB) for the stack-canary check to judge it.
python3 - >"$work/bulk.c" <<'PYTHON'
print("void *memcpy(void *, const void *, unsigned long);")
for index in range(400):
    print(f"int bulk{index}(const char *input, int length) {{ char local[64]; memcpy(local, input, length & 63); "
          f"int sum = 0; for (int i = 0; i < (length & 63); i++) sum += local[i] * {index + 1}; return sum; }}")
PYTHON
target=(-target arm64-apple-ios15.0)
clang "${target[@]}" -O1 -fstack-protector-strong -c "$work/legacy.c" -o "$work/legacy.o"
clang "${target[@]}" -O1 -fobjc-arc -fstack-protector-strong -c "$work/web.m" -o "$work/web.o"
clang "${target[@]}" -O0 -fno-stack-protector -c "$work/bulk.c" -o "$work/bulk.o"

linker=""
# MOAT_NO_LINKER=1 checks the object files even when a linker is there.
[ -n "${MOAT_NO_LINKER:-}" ] || for candidate in ld64.lld ld64.lld-19; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -arch arm64 -platform_version ios 15.0 17.0 -dylib \
      -undefined dynamic_lookup -o "$work/probe.dylib" "$work/legacy.o" >/dev/null 2>&1; then
    linker="$candidate"
    break
  fi
done

if [ -n "$linker" ]; then
  echo "linker: $linker"
  mkdir -p "$work/app" "$work/libs"
  "$linker" -arch arm64 -platform_version ios 15.0 17.0 -undefined dynamic_lookup -o "$work/app/LeakyLegacy" \
    "$work/web.o" "$work/legacy.o"
  "$linker" -arch arm64 -platform_version ios 15.0 17.0 -dylib -install_name @rpath/libbulk.dylib -undefined dynamic_lookup \
    -o "$work/libs/libbulk.dylib" "$work/bulk.o"
  check executable "$work/app/LeakyLegacy" <<'PYTHON'
inventory = find("MOAT-RES-401")
expect(len(inventory) == 1 and inventory[0]["message"].startswith("LeakyLegacy: arm64 executable for iOS 15.0+ (SDK 17.0); PIE; Objective-C code;"),
       f"the executable's inventory, got {[f['message'] for f in inventory]}")
expect(find("MOAT-PLAT-001", "_OBJC_CLASS_$_UIWebView"), "UIWebView class reference (MOAT-PLAT-001)")
expect([f for f in find("MOAT-CODE-001", "unarchiveObjectWithData:") if f["confidence"] == "high"], "unarchiveObjectWithData: sent (MOAT-CODE-001, high confidence)")
expect([f for f in find("MOAT-CODE-002", "setShouldResolveExternalEntities:") if f["confidence"] == "low"], "setShouldResolveExternalEntities: (MOAT-CODE-002, low confidence)")
expect(find("MOAT-CODE-404", "_strcpy") and find("MOAT-CODE-404", "_sprintf"), "strcpy and sprintf (MOAT-CODE-404)")
expect(find("MOAT-CRYP-403", "_rand") and find("MOAT-CRYP-403", "_srand"), "rand and srand (MOAT-CRYP-403)")
expect(find("MOAT-NET-401", "http://rates.moat-check.net/v1/rates"), "the cleartext endpoint (MOAT-NET-401)")
expect(not [f for f in findings if "w3.org" in (f["location"].get("symbol") or "")], "the XML schema URL skipped")
expect(not find("MOAT-CODE-401"), "no PIE finding: lld links iOS executables as PIE")
expect(not find("MOAT-CODE-402"), "no canary finding: built with -fstack-protector-strong")
expect(not find("MOAT-CODE-403"), "no ARC finding: built with -fobjc-arc")
expect(not errors, f"no errors, got {errors}")
PYTHON
  check library "$work/libs" <<'PYTHON'
canaries = find("MOAT-CODE-402", path="libbulk.dylib")
expect(len(canaries) == 1 and canaries[0]["confidence"] == "low" and "its C code" in canaries[0]["message"],
       f"missing stack canaries in the -fno-stack-protector library, got {[f['message'] for f in canaries]}")
expect(find("MOAT-RES-401", path="libbulk.dylib") and find("MOAT-RES-401", path="libbulk.dylib")[0]["message"].startswith("libbulk.dylib: arm64 dynamic library for iOS 15.0+"),
       "the library's inventory")
expect(not errors, f"no errors, got {errors}")
PYTHON
else
  echo "no linker for iOS (install lld-19 for ld64.lld-19): checking object files"
  check object "$work/web.o" <<'PYTHON'
expect(find("MOAT-PLAT-001", "_OBJC_CLASS_$_UIWebView"), "UIWebView class reference (MOAT-PLAT-001)")
expect([f for f in find("MOAT-CODE-001", "unarchiveObjectWithData:") if f["confidence"] == "low"], "unarchiveObjectWithData: named (MOAT-CODE-001, low confidence in an object)")
expect(find("MOAT-RES-401") and ": arm64 object file for iOS 15.0+" in find("MOAT-RES-401")[0]["message"], "the object's inventory")
expect(not errors, f"no errors, got {errors}")
PYTHON
  check c-object "$work/legacy.o" <<'PYTHON'
expect(find("MOAT-CODE-404", "_strcpy"), "strcpy (MOAT-CODE-404)")
expect(find("MOAT-NET-401", "http://rates.moat-check.net/v1/rates"), "the cleartext endpoint (MOAT-NET-401)")
PYTHON
fi

elapsed=$(( $(date +%s) - start ))
if [ "$failures" -gt 0 ]; then
  echo "ios-wheel-check: $failures check(s) failed in ${elapsed}s"
  exit 1
fi
echo "ios-wheel-check: all checks passed in ${elapsed}s"
