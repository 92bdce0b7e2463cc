#!/usr/bin/env python3
"""Draws bench/warmup.sh's curves as an SVG (N-6): req/s per 5 s slice from the ready line, one line per leg.

    bench/plot-warmup.py bench/warmup-results.md docs/warmup-curve.svg [more results files...]

Each results file's legs are drawn; with several files (e.g. a run before and after a change) the legs are
labelled with the file's commit so the curves can be compared on one chart. Standard library only, so the
bench needs nothing beyond python3 (which warmup.sh already uses).
"""
import re
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
W, H, LEFT, RIGHT, TOP, BOTTOM = 720, 360, 70, 170, 40, 50


def legs(path):
    """(label, [req/s per slice]) for every leg in one warmup-results.md."""
    text = open(path, encoding="utf-8").read()
    commit = re.search(r"commit (\w+)", text)
    tag = commit.group(1) if commit else path
    found = []
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        name = block.split()[1]
        ready = re.search(r"ready after (\d+) ms", block)
        rates = re.search(r"^\| req/s \|(.*)\|\s*$", block, flags=re.M)
        if not rates:
            continue
        values = [int(v) for v in rates.group(1).split("|")]
        label = f"{name} @{tag}" + (f" (ready {int(ready.group(1)) / 1000:.1f} s)" if ready else "")
        found.append((label, values))
    return found


def round_step(top):
    """A round tick step giving at most six ticks up to top."""
    for step in (100, 200, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000):
        if top / step <= 6:
            return step
    return 100000


def svg(series):
    slices = max(len(v) for _, v in series)
    top = max(max(v) for _, v in series)
    step = round_step(top)
    top = (top // step + 1) * step
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i):
        return LEFT + pw * (i + 1) / slices

    def y(v):
        return TOP + ph * (1 - v / top)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{LEFT}" y="22" font-size="13">Detour warm-up: buffered req/s per 5 s slice after the ready line</text>']
    for v in range(0, top + 1, step):
        out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:,}</text>')
    for i in range(slices):
        if (i + 1) % 2 == 0 or slices <= 10:
            out.append(f'<text x="{x(i):.1f}" y="{TOP + ph + 16}" text-anchor="middle">{(i + 1) * 5}</text>')
    out.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + ph}" stroke="black"/>')
    out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{TOP + ph}" y2="{TOP + ph}" stroke="black"/>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 10}" text-anchor="middle">seconds of load after the ready line</text>')
    out.append(f'<text x="16" y="{TOP + ph / 2}" transform="rotate(-90 16 {TOP + ph / 2})" text-anchor="middle">req/s</text>')
    for n, (label, values) in enumerate(series):
        colour = COLOURS[n % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        ly = TOP + 14 + n * 18
        out.append(f'<line x1="{W - RIGHT + 10}" x2="{W - RIGHT + 30}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{W - RIGHT + 34}" y="{ly}">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    series = [leg for path in [argv[1], *argv[3:]] for leg in legs(path)]
    if not series:
        sys.exit(f"no legs found in {argv[1]}")
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(svg(series))


if __name__ == "__main__":
    main(sys.argv)
