#!/usr/bin/env bash
# Browser test of the HTML report in headless Chromium (issue 5 item 4, issue 33 point 5).
# 1. Injection: a small run against the built-in model, one answer rewritten to carry a
#    script-injection payload, `codebias report`; the page's own #selftest verdict (html_report.h,
#    read with --dump-dom) must show no console or script error, every canvas painted, the first
#    drill-down expanding and no injected code run.
# 2. Readable at any size: each suite's full default slice (faircoder and its test-case task,
#    ml-pipelines, bad-resume, bad-cat, solar, huang, hiring-audit; built-in model, no --execute; and
#    a small FairCoder job slice with --execute, whose code audit adds the impact-ratio chart), its report
#    rendered at 800 and 1280 px wide: every chart's x-axis labels clear of each other by the page's
#    layout rule, every plot at least 170 px high (check_report.py), and a screenshot of the first
#    screen (1280x900) per suite in WORK_DIR/screenshots/.
# Chromium missing is a failure, not a skip: CI installs it (.ci/run).
# Usage: report_browser_test.sh CODEBIAS_CLI WORK_DIR [SCREENSHOT_COPY]
set -euo pipefail
cli=$1
work=$(realpath -m "$2")  # file:// URLs need an absolute path
copy_to=${3:-}
here=$(cd "$(dirname "$0")" && pwd)

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
python3 -I "$here/check_report.py" injection "$work/dom.html" "$work/chromium-dom.log" "$work/report.png" 1280x2000 \
  --injection
if [ -n "$copy_to" ]; then cp "$work/report.png" "$copy_to"; fi

# One suite's default slice: run, then the report at 800 and 1280 px wide, and its first screen.
check_suite() {
  local name=$1
  shift
  local dir="$work/suites/$name"
  "$cli" run "$@" --out "$dir" >"$dir.log" 2>&1 || {
    echo "FAIL: codebias run $* exited $?" >&2
    tail -20 "$dir.log" >&2
    exit 1
  }
  local width
  for width in 800 1280; do
    chromium --dump-dom --window-size="$width,900" "file://$dir/report.html#selftest" >"$dir.dom$width.html" \
      2>"$dir.chromium$width.log" || {
      echo "FAIL: chromium --dump-dom exited $? on $name" >&2
      exit 1
    }
  done
  chromium --screenshot="$work/screenshots/$name.png" --window-size=1280,900 "file://$dir/report.html" \
    >/dev/null 2>"$dir.chromium-shot.log" || {
    echo "FAIL: chromium --screenshot exited $? on $name" >&2
    exit 1
  }
  python3 -I "$here/check_report.py" "$name at 800 px" "$dir.dom800.html" "$dir.chromium800.log" \
    "$work/screenshots/$name.png" 1280x900
  python3 -I "$here/check_report.py" "$name at 1280 px" "$dir.dom1280.html" "$dir.chromium1280.log" \
    "$work/screenshots/$name.png" 1280x900
}

mkdir -p "$work/suites" "$work/screenshots"
check_suite faircoder --suite faircoder
check_suite faircoder-testcase --suite faircoder --task testcase
check_suite ml-pipelines --suite ml-pipelines
check_suite bad-resume --suite bad-resume
check_suite bad-cat --suite bad-cat
check_suite solar --suite solar
check_suite huang --suite huang
check_suite hiring-audit --suite hiring-audit
check_suite code-audit --suite faircoder --scenario job --attribute gender --entities-per-group 1 --samples 2 --execute
grep -q 'Impact ratios by sex x race/ethnicity, code' "$work/suites/code-audit/report.html" || {
  echo "FAIL: the code audit's report.html has no impact-ratio chart" >&2
  exit 1
}
echo "browser test passed (screenshots in $work/screenshots)"
