#!/usr/bin/env bash
# Browser test of the HTML report (issue 5 item 4): a run against the built-in model, one answer
# rewritten to carry a script-injection payload, `codebias report`, then headless Chromium:
#   --dump-dom on file://...#selftest: the page's own verdict (html_report.h) must show no console
#   or script error, every canvas painted, the first drill-down expanding, and no injected code run;
#   --screenshot: a PNG that decodes and is not one flat colour.
# Chromium missing is a failure, not a skip: CI installs it (.ci/run).
# Usage: report_browser_test.sh CODEBIAS_CLI WORK_DIR [SCREENSHOT_COPY]
set -euo pipefail
cli=$1
work=$2
copy_to=${3:-}

chromium_bin=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium_bin" ]; then
  echo "FAIL: chromium is not installed (Debian: apt-get install chromium)" >&2
  exit 1
fi

rm -rf "$work"
mkdir -p "$work"
"$cli" run --scenario job --scenario edu --entities-per-group 1 --samples 3 --out "$work/run" 2>"$work/run.log"

# The payload goes into the code of the first biased answer, as a comment the analysis ignores.
python3 -I - "$work/run" <<'PY'
import json, sqlite3, sys
run = sys.argv[1]
payload = "</script><script>document.body.setAttribute('data-injected','script')</script>" \
          "<img src=x onerror=\"document.body.setAttribute('data-injected','img')\">"
for line in open(f"{run}/responses.jsonl", encoding="utf-8"):
    sample = json.loads(line)
    findings = (sample.get("analysis") or {}).get("attributes") or {}
    if any(f.get("biased") for f in findings.values()):
        break
else:
    sys.exit("FAIL: the run has no biased sample to carry the payload")
comment = "#" if sample["analysis"].get("language") == "python" else "//"
lines = sample["answer"].split("\n")
lines.insert(1, f"{comment} {payload}")
db = sqlite3.connect(f"{run}/run.sqlite")
changed = db.execute("UPDATE results SET answer = ? WHERE seq = (SELECT seq FROM samples WHERE id = ?)",
                     ("\n".join(lines), sample["id"])).rowcount
db.commit()
sys.exit(0 if changed == 1 else "FAIL: could not rewrite the answer")
PY

"$cli" report "$work/run" --format html --out "$work/report.html" 2>>"$work/run.log"

chromium() {
  local profile
  profile=$(mktemp -d "$work/profile.XXXXXX")
  HOME=$profile timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@"
}

chromium --dump-dom "file://$work/report.html#selftest" >"$work/dom.html" 2>"$work/chromium-dom.log" || {
  echo "FAIL: chromium --dump-dom exited $?" >&2
  tail -20 "$work/chromium-dom.log" >&2
  exit 1
}
chromium --screenshot="$work/report.png" --window-size=1280,2000 "file://$work/report.html" \
  >/dev/null 2>"$work/chromium-shot.log" || {
  echo "FAIL: chromium --screenshot exited $?" >&2
  tail -20 "$work/chromium-shot.log" >&2
  exit 1
}

python3 -I - "$work/dom.html" "$work/chromium-dom.log" "$work/report.png" <<'PY'
import html, json, re, struct, sys, zlib

dom_path, log_path, png_path = sys.argv[1:4]
failures = []
dom = open(dom_path, encoding="utf-8").read()

match = re.search(r'<pre id="selftest"[^>]*>(.*?)</pre>', dom, re.S)
if not match or not match.group(1).strip():
    sys.exit("FAIL: the page wrote no #selftest verdict (did its script run?)")
verdict = json.loads(html.unescape(match.group(1)))
print("verdict:", json.dumps(verdict))
if verdict["errors"]:
    failures.append(f"page errors: {verdict['errors']}")
if not verdict["canvases"]:
    failures.append("no chart canvas")
for canvas in verdict["canvases"]:
    if canvas["nonblank"] < 1000:
        failures.append(f"canvas {canvas['id']} is blank ({canvas['nonblank']} painted pixels)")
if verdict["details"] < 1:
    failures.append("no drill-down entry")
if not verdict["drilldown_expands"]:
    failures.append("the first drill-down entry does not expand")
body = re.search(r"<body[^>]*>", dom)
if body is None or "data-injected" in body.group(0):
    failures.append(f"injected code ran: {body.group(0) if body else 'no <body>'}")
if "&lt;/script&gt;&lt;script&gt;document.body.setAttribute" not in dom:
    failures.append("the payload is not shown as text in the drill-down")
uncaught = [line for line in open(log_path, encoding="utf-8", errors="replace") if "Uncaught" in line]
if uncaught:
    failures.append(f"console: {uncaught[:3]}")

# The screenshot: decode the PNG (8-bit RGB/RGBA, non-interlaced, as Chromium writes it) and
# require many distinct colours, i.e. a rendered page rather than a blank one.
data = open(png_path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("FAIL: the screenshot is not a PNG")
pos, idat, header = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    chunk = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        header = struct.unpack(">IIBBBBB", chunk)
    elif kind == b"IDAT":
        idat += chunk
    pos += 12 + length
width, height, depth, colour, _, _, interlace = header
channels = {2: 3, 6: 4}.get(colour)
if depth != 8 or channels is None or interlace:
    sys.exit(f"FAIL: unexpected PNG format {header}")
raw = zlib.decompress(idat)
stride = width * channels
previous = bytearray(stride)
colours = set()
for row in range(height):
    kind = raw[row * (stride + 1)]
    line = bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
    for i in range(stride):
        left = line[i - channels] if i >= channels else 0
        up = previous[i]
        corner = previous[i - channels] if i >= channels else 0
        if kind == 1:
            line[i] = (line[i] + left) & 255
        elif kind == 2:
            line[i] = (line[i] + up) & 255
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 255
        elif kind == 4:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
    if row % 4 == 0:
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, channels * 2))
    previous = line
print(f"screenshot: {width}x{height}, {len(colours)} distinct colours sampled")
if (width, height) != (1280, 2000):
    failures.append(f"screenshot is {width}x{height}, not 1280x2000")
if len(colours) < 50:
    failures.append(f"screenshot looks blank ({len(colours)} colours)")

if failures:
    print("FAIL:\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print("browser test passed")
PY

if [ -n "$copy_to" ]; then cp "$work/report.png" "$copy_to"; fi
