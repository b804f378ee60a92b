#!/usr/bin/env python3
"""Checks one report.html as headless Chromium rendered it (report_browser_test.sh).

Reads the page's #selftest verdict from a --dump-dom file (reports/html_report.h) and a PNG
screenshot. Fails (exit 1, one line per failure) on a page error, a blank canvas, a chart whose
x-axis labels overlap by the page's layout rule or whose plot is flatter than --min-plot-height
pixels, a blank screenshot or one of the wrong size. --injection adds the checks of the
script-injection run: a drill-down that expands, no injected code run, the payload shown as text.

Usage: check_report.py NAME DOM CHROMIUM_LOG PNG WIDTHxHEIGHT [--injection] [--min-plot-height N]
"""
import argparse
import html
import json
import re
import struct
import sys
import zlib


def verdict_of(dom):
    match = re.search(r'<pre id="selftest"[^>]*>(.*?)</pre>', dom, re.S)
    if not match or not match.group(1).strip():
        sys.exit("FAIL: the page wrote no #selftest verdict (did its script run?)")
    return json.loads(html.unescape(match.group(1)))


def png_colours(path):
    """Width, height and the distinct colours of a sample of pixels of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"FAIL: {path} is not a PNG")
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
    return width, height, colours


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name")
    parser.add_argument("dom")
    parser.add_argument("log")
    parser.add_argument("png")
    parser.add_argument("size")
    parser.add_argument("--injection", action="store_true")
    parser.add_argument("--min-plot-height", type=int, default=170)
    args = parser.parse_args()

    failures = []
    dom = open(args.dom, encoding="utf-8").read()
    verdict = verdict_of(dom)
    if verdict["errors"]:
        failures.append(f"page errors: {verdict['errors']}")
    for canvas in verdict["canvases"]:
        if canvas["nonblank"] < 1000:
            failures.append(f"canvas {canvas['id']} is blank ({canvas['nonblank']} painted pixels)")
        if not canvas.get("drawn"):
            failures.append(f"canvas {canvas['id']} holds no chart")
            continue
        if canvas["labels_overlap"]:
            failures.append(f"canvas {canvas['id']}: {canvas['labels']} x-axis labels overlap "
                            f"({canvas['space_per_label']} px each, rotated {canvas['rotation']}°)")
        if canvas["plot_height"] < args.min_plot_height:
            failures.append(f"canvas {canvas['id']}: plot {canvas['plot_height']} px high "
                            f"(at least {args.min_plot_height})")
    if not verdict["canvases"] and not verdict.get("heatmap_charts") and not verdict.get("empty_chart_notes"):
        failures.append("no chart, no chart drawn as a heatmap and no note on an empty chart")
    if args.injection:
        if verdict["details"] < 1:
            failures.append("no drill-down entry")
        if not verdict["drilldown_expands"]:
            failures.append("the first drill-down entry does not expand")
        body = re.search(r"<body[^>]*>", dom)
        if body is None or "data-injected" in body.group(0):
            failures.append(f"injected code ran: {body.group(0) if body else 'no <body>'}")
        if "&lt;/script&gt;&lt;script&gt;document.body.setAttribute" not in dom:
            failures.append("the payload is not shown as text in the drill-down")
    uncaught = [line for line in open(args.log, encoding="utf-8", errors="replace") if "Uncaught" in line]
    if uncaught:
        failures.append(f"console: {uncaught[:3]}")

    width, height, colours = png_colours(args.png)
    expected = tuple(int(n) for n in args.size.split("x"))
    if (width, height) != expected:
        failures.append(f"screenshot is {width}x{height}, not {args.size}")
    if len(colours) < 50:
        failures.append(f"screenshot looks blank ({len(colours)} colours)")

    charts = ", ".join(f"{c['id']} {c['labels']} labels, plot {c['plot_height']} px" for c in verdict["canvases"]
                       if c.get("drawn"))
    print(f"{args.name}: {len(verdict['canvases'])} charts ({charts or 'none'}); "
          f"{verdict.get('heatmap_charts', 0)} drawn as heatmaps; {verdict.get('empty_chart_notes', 0)} empty-chart "
          f"notes; {verdict.get('collapsed_tables', 0)} long tables collapsed; {verdict['details']} drill-down entries; "
          f"screenshot {width}x{height}, {len(colours)} colours sampled")
    if failures:
        print(f"FAIL ({args.name}):\n  " + "\n  ".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
