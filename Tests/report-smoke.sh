#!/usr/bin/env bash
# Smoke test of `bench report` in a real browser (headless Chromium; Debian package chromium).
#
#     bash Tests/report-smoke.sh results/X.csv [BENCH]
#
# 1. writes the HTML report of the given results CSV (with `bench report`, BENCH or the release
#    build's bench, into a temporary folder) and checks that the page is self-contained: no
#    <script>, no http(s) URL in a src or href, no @import or url() in its CSS;
# 2. loads it in headless Chromium with its logging on standard error and --dump-dom, and fails on
#    any console message of the page (an error, a Content-Security-Policy violation: the page
#    forbids every resource but inline CSS, so a network request would be one) or a DOM dump
#    without the results table, the findings and at least one chart SVG per case;
# 3. takes a 1400x2000 screenshot and fails on a blank page: the PNG is decoded (python3 and zlib,
#    no PIL) and must not be one colour for more than 97 % of its pixels, nor shorter than 1400x2000.
# 4. measures a copy of the page in a 1280 x 800 window: no sideways scrolling, and the overview
#    chart in the first screen (whole, for a run of up to 24 cases).
# The screenshot is kept as X.report.png in REPORT_SMOKE_KEEP (a folder) when that is set.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: bash Tests/report-smoke.sh <results.csv> [bench binary]" >&2
  exit 2
fi
csv=$1
root="$(cd "$(dirname "$0")/.." && pwd)"
bench=${2:-}
fail() { echo "report-smoke: FAIL: $*" >&2; exit 1; }

[[ -r $csv ]] || fail "cannot read $csv"
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n $browser ]] || fail "chromium is not installed (apt-get install --no-install-recommends chromium)"
if [[ -z $bench ]]; then
  (cd "$root" && swift build -c release --product bench >/dev/null)
  bench="$root/.build/release/bench"
fi
"$browser" --version 2>/dev/null | head -1 || true

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
page="$tmp/report.html"

# --- 1. the page, self-contained --------------------------------------------------------------
"$bench" report "$csv" --output "$page" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "bench report exited $?"; }
[[ -s $page ]] || fail "no page written"
grep -qi '<script' "$page" && fail "the page has a <script>"
grep -Eqi '(src|href)="(https?:)?//' "$page" && fail "the page refers to a network resource"
grep -Eqi '@import|url\(' "$page" && fail "the page's CSS loads a resource"
echo "ok: page written ($(wc -c <"$page") bytes), self-contained"

# --- 2. console messages and the DOM ------------------------------------------------------------
# Chromium logs the page's console (console.error, uncaught exceptions, CSP violations) on
# standard error as ":INFO:CONSOLE" lines when logging is enabled; the page has no script, so
# any such line is a failure.
run_browser() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@" "file://$page"; }
run_browser --dump-dom >"$tmp/dom.html" 2>"$tmp/console.log" || fail "chromium --dump-dom failed: $(tail -3 "$tmp/console.log")"
if grep -E ':CONSOLE[:(]' "$tmp/console.log" >"$tmp/messages"; then
  cat "$tmp/messages" >&2
  fail "the page logged $(wc -l <"$tmp/messages") console message(s)"
fi
grep -q '<table class="results">' "$tmp/dom.html" || fail "the DOM has no results table"
grep -q 'id="findings"' "$tmp/dom.html" || fail "the DOM has no findings"
svgs=$(grep -o '<svg ' "$tmp/dom.html" | wc -l)
cases=$(python3 - "$csv" <<'PY'
import csv, sys
with open(sys.argv[1], newline='') as f:
    rows = list(csv.DictReader(f))
print(len({(r.get('hierarchy', ''), r.get('sweep_value', ''), r['workload'], r['variant']) for r in rows}))
PY
)
[[ $svgs -ge $cases ]] || fail "the DOM has $svgs chart SVGs for $cases cases"
echo "ok: no console message; the DOM has the results table, the findings and $svgs charts for $cases cases"

# --- 3. the screenshot is not blank ---------------------------------------------------------------
run_browser --screenshot="$tmp/shot.png" --window-size=1400,2000 >/dev/null 2>"$tmp/shot.log" || fail "chromium --screenshot failed: $(tail -3 "$tmp/shot.log")"
[[ -s $tmp/shot.png ]] || fail "no screenshot"
python3 - "$tmp/shot.png" <<'PY' || fail "the screenshot looks blank"
import struct, sys, zlib
from collections import Counter
data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit('not a PNG')
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
    if kind == b'IHDR': w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT': idat += body
    elif kind == b'IEND': break
if depth != 8 or interlace != 0 or ctype not in (2, 6):
    sys.exit(f'unexpected PNG format (depth {depth}, colour type {ctype}, interlace {interlace})')
if w < 1400 or h < 2000:
    sys.exit(f'the screenshot is {w}x{h}, expected 1400x2000')
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, i, colours = bytearray(stride), 0, Counter()
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    if f == 1:
        for x in range(bpp, stride): line[x] = (line[x] + line[x - bpp]) & 255
    elif f == 2:
        for x in range(stride): line[x] = (line[x] + prev[x]) & 255
    elif f == 3:
        for x in range(stride): line[x] = (line[x] + (((line[x - bpp] if x >= bpp else 0) + prev[x]) >> 1)) & 255
    elif f == 4:
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    if y % 4 == 0:  # every fourth row and column: enough to tell a page from a blank
        for x in range(0, w, 4): colours[bytes(line[x * bpp:x * bpp + 3])] += 1
colour, count = colours.most_common(1)[0]
share = count / sum(colours.values())
print(f'ok: screenshot {w}x{h}, {len(colours)} colours, the commonest (#{colour.hex()}) covers {share:.0%}')
if share > 0.97 or len(colours) < 16:
    sys.exit('blank')
PY
# --- 4. the answer first, and no sideways scrolling at 1280 px -----------------------------------
# A copy of the page with a measuring script (the page itself has none, and its policy forbids
# one) writes, into its title, how wide the document is and where the overview chart lies in a
# 1280 x 800 window: the page must not scroll sideways, and the overview must be in that first
# screen (whole, for a run of up to 24 cases).
sed -e 's|<meta http-equiv="Content-Security-Policy"[^>]*>||' \
    -e 's|</body>|<script>var f = document.querySelector("#answer figure.overview"); var r = f ? f.getBoundingClientRect() : null; var t = document.querySelector("table.results").parentElement; document.title = "measured " + Math.max(document.documentElement.scrollWidth, document.documentElement.clientWidth + t.scrollWidth - t.clientWidth) + " " + (r ? Math.round(r.top) + " " + Math.round(r.bottom) : "none none");</script></body>|' \
    "$page" >"$tmp/measured.html"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$tmp/profile" \
  --window-size=1280,800 --dump-dom "file://$tmp/measured.html" >"$tmp/measured.dom" 2>/dev/null || fail "chromium could not measure the page"
read -r width top bottom < <(grep -o '<title>measured [^<]*' "$tmp/measured.dom" | sed 's/<title>measured //') || fail "the page was not measured"
[[ $top != none ]] || fail "the page has no overview chart"
(( width <= 1280 )) || fail "the page or its results table is $width px wide in a 1280 px window: it scrolls sideways"
(( top < 800 )) || fail "the overview starts at $top px: below the first screen of a 1280 x 800 window"
if (( cases <= 24 && bottom > 800 )); then fail "the overview ends at $bottom px: not whole in the first screen of a 1280 x 800 window"; fi
echo "ok: the page fits 1280 px ($width px wide); the overview lies at $top–$bottom px of an 800 px screen"

if [[ -n ${REPORT_SMOKE_KEEP:-} ]]; then
  cp "$tmp/shot.png" "$REPORT_SMOKE_KEEP/$(basename "${csv%.csv}").report.png"
  echo "screenshot: $REPORT_SMOKE_KEEP/$(basename "${csv%.csv}").report.png"
fi
echo "report-smoke: all checks passed"
