#!/usr/bin/env bash
# Renders HTML reports and checks them in a real browser (headless Chromium):
#   - the page's own script ran to the end without throwing (it sets <body data-ready="1"> last),
#   - the page is not blank (findings and charts are in the DOM, the screenshot is not empty),
#   - markup planted in scanned file names, code and messages stayed text (no injected element, no script ran).
#
# Usage: Scripts/check-html-report.sh [REPORT.html ...]
#   Without arguments it renders the example app and a hostile fixture with `moat scan --format html`.
#   Screenshots are written next to the DOM dumps in out/html-check/ (open them to look at the report).
# Needs chromium (apt-get install -y chromium), or CHROME=/path/to/chrome.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROME="${CHROME:-}"
if [ -z "$CHROME" ]; then
  for candidate in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$candidate" >/dev/null 2>&1; then CHROME="$(command -v "$candidate")"; break; fi
  done
fi
if [ -z "$CHROME" ]; then
  echo "check-html-report: no Chromium found (apt-get install -y chromium, or set CHROME=...)" >&2
  exit 2
fi

OUT="out/html-check"
rm -rf "$OUT"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

reports=()
hostile=""
if [ $# -gt 0 ]; then
  for report in "$@"; do reports+=("$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"); done
else
  swift build --product moat >/dev/null
  MOAT="$(swift build --show-bin-path)/moat"
  # The example app.
  "$MOAT" scan Examples/LeakyBank --no-cache --format html -o "$OUT/example.html" || [ $? -eq 1 ]
  reports+=("$OUT/example.html")
  # A hostile fixture: markup in a file name, in code that ends up in excerpts and evidence, in plist values.
  fixture="$(mktemp -d)"
  trap 'rm -rf "$fixture"' EXIT
  mkdir -p "$fixture/App"
  name='Web<b id="pwned-name">x<\b>.swift'
  printf 'import UIKit\nlet web = UIWebView() // <img src=x onerror="document.body.dataset.pwned=1"><script>document.body.dataset.pwned=2</script>\n' > "$fixture/App/$name"
  cat > "$fixture/App/Info.plist" <<'PLIST'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
    <key>CFBundleName</key>
    <string>&lt;img src=x onerror="document.body.dataset.pwned=3"&gt;</string>
    <key>NSAppTransportSecurity</key>
    <dict>
        <key>NSAllowsArbitraryLoads</key>
        <true/>
    </dict>
</dict>
</plist>
PLIST
  "$MOAT" scan "$fixture" --no-cache --format html -o "$OUT/hostile.html" || [ $? -eq 1 ]
  reports+=("$OUT/hostile.html")
  hostile="$OUT/hostile.html"
fi

status=0
for report in "${reports[@]}"; do
  base="$OUT/$(basename "$report" .html)"
  flags=(--headless --disable-gpu --no-sandbox --no-first-run --disable-extensions --hide-scrollbars
         --user-data-dir="$OUT/profile" --virtual-time-budget=5000)
  timeout 120 "$CHROME" "${flags[@]}" --dump-dom "file://$report" > "$base.dom.html" 2> "$base.chrome.log" || true
  timeout 120 "$CHROME" "${flags[@]}" --window-size=1280,2000 --screenshot="$base.png" "file://$report" >> "$base.chrome.log" 2>&1 || true

  problems=()
  grep -q '<body[^>]*data-ready="1"' "$base.dom.html" || problems+=("the page script did not finish (JavaScript error?): no data-ready=\"1\" on <body>")
  grep -q 'class="finding' "$base.dom.html" || problems+=("no finding in the rendered DOM (blank page?)")
  grep -q '<svg id="chart-severity"' "$base.dom.html" || problems+=("the severity chart is missing")
  if [ ! -s "$base.png" ]; then
    problems+=("no screenshot")
  elif [ "$(wc -c < "$base.png")" -lt 20000 ]; then
    problems+=("the screenshot is nearly empty ($(wc -c < "$base.png") bytes)")
  fi
  # Escaped markup shows as &lt;…&gt; text; a literal tag or a body attribute means it was interpreted.
  if grep -q '<body[^>]*data-pwned' "$base.dom.html" || grep -q '<b id="pwned' "$base.dom.html" \
     || grep -q '<img' "$base.dom.html" || grep -q '<script>document.body.dataset.pwned' "$base.dom.html"; then
    problems+=("markup from the scanned app was interpreted (injection)")
  fi
  if [ "$report" = "$hostile" ] && ! grep -q '&lt;b id="pwned-name"&gt;' "$base.dom.html"; then
    problems+=("the hostile file name is not shown as text")
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    echo "ok    $report (screenshot: $base.png)"
  else
    status=1
    echo "FAIL  $report" >&2
    for problem in "${problems[@]}"; do echo "      - $problem" >&2; done
    echo "      chrome log: $base.chrome.log" >&2
  fi
done
rm -rf "$OUT/profile"
exit $status
