"""Figures as one self-contained HTML file: inline SVG, a few lines of JavaScript, no CDN.

Hovering a point, bar or cell shows its values (SVG ``<title>`` tooltips); clicking a legend
entry hides or shows that curve.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

from gamesolve.plot.figures import BarPanel, Figure, GridPanel, LinePanel

COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
W, H = 560, 380
LEFT, RIGHT, TOP, BOTTOM = 78, 16, 34, 52

SCRIPT = """
document.querySelectorAll('[data-toggle]').forEach(function (item) {
  item.addEventListener('click', function () {
    var svg = item.closest('svg'), key = item.getAttribute('data-toggle');
    svg.querySelectorAll('[data-series="' + key + '"]').forEach(function (g) {
      g.style.display = g.style.display === 'none' ? '' : 'none';
    });
    item.style.opacity = item.style.opacity === '0.35' ? '1' : '0.35';
  });
});
"""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } .panels { display: flex; flex-wrap: wrap; gap: 16px; }
svg { background: #fff; border: 1px solid #ddd; } text { font-size: 11px; fill: #333; }
.title { font-size: 13px; font-weight: 600; } .notes { font-size: 12px; color: #555; white-space: pre-line; }
[data-toggle] { cursor: pointer; }
"""


def render_html(figure: Figure, path: Path) -> None:
    panels = []
    for i, panel in enumerate(figure.panels):
        if isinstance(panel, LinePanel):
            panels.append(_lines(panel, i))
        elif isinstance(panel, BarPanel):
            panels.append(_bars(panel))
        else:
            panels.append(_grid(panel))
    notes = f'<p class="notes">{html.escape(chr(10).join(figure.notes))}</p>' if figure.notes else ""
    page = (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
        + html.escape(figure.title)
        + f"</title><style>{STYLE}</style></head><body><h1>{html.escape(figure.title)}</h1>"
        + '<div class="panels">' + "".join(panels) + "</div>" + notes
        + f"<script>{SCRIPT}</script></body></html>\n"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")


# -- scales ----------------------------------------------------------------------------------
class Scale:
    def __init__(self, lo: float, hi: float, a: float, b: float, log: bool):
        self.log = log
        if log:
            lo, hi = math.log10(lo), math.log10(hi)
        if hi <= lo:
            lo, hi = lo - 0.5, hi + 0.5
        self.lo, self.hi, self.a, self.b = lo, hi, a, b

    def __call__(self, v: float) -> float:
        if self.log:
            v = math.log10(v)
        return self.a + (v - self.lo) / (self.hi - self.lo) * (self.b - self.a)

    def ticks(self) -> list[float]:
        if self.log:
            return [10.0**k for k in range(math.floor(self.lo), math.ceil(self.hi) + 1) if self.lo - 1e-9 <= k <= self.hi + 1e-9]
        span = self.hi - self.lo
        step = 10 ** math.floor(math.log10(span / 5)) if span > 0 else 1.0
        for m in (1, 2, 5, 10):
            if span / (step * m) <= 6:
                step *= m
                break
        first = math.ceil(self.lo / step) * step
        return [first + k * step for k in range(int((self.hi - first) / step + 1e-9) + 1)]


def _fmt(v: float) -> str:
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e5 or a < 1e-3:
        return f"{v:.0e}" if math.log10(a).is_integer() else f"{v:.2e}"
    return f"{v:,.4g}"


def _axes(title: str, xlabel: str, ylabel: str, xs: Scale, ys: Scale) -> list[str]:
    out = [f'<text class="title" x="{W / 2}" y="18" text-anchor="middle">{html.escape(title)}</text>']
    x0, x1, y0, y1 = LEFT, W - RIGHT, H - BOTTOM, TOP
    out.append(f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" fill="none" stroke="#999"/>')
    for t in xs.ticks():
        x = xs(t)
        out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y1}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{y0 + 15}" text-anchor="middle">{_fmt(t)}</text>')
    for t in ys.ticks():
        y = ys(t)
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{_fmt(t)}</text>')
    out.append(f'<text x="{(x0 + x1) / 2}" y="{H - 12}" text-anchor="middle">{html.escape(xlabel)}</text>')
    out.append(f'<text transform="translate(16,{(y0 + y1) / 2}) rotate(-90)" text-anchor="middle">{html.escape(ylabel)}</text>')
    return out


def _range(values: list[float], log: bool) -> tuple[float, float]:
    vals = [v for v in values if math.isfinite(v) and (v > 0 or not log)]
    if not vals:
        return (1.0, 10.0) if log else (0.0, 1.0)
    lo, hi = min(vals), max(vals)
    if not log:
        pad = (hi - lo) * 0.05 or abs(hi) * 0.05 or 1.0
        return lo - pad, hi + pad
    return lo / 1.3, hi * 1.3


def _lines(panel: LinePanel, index: int) -> str:
    xs = Scale(*_range([x for s in panel.series for x in s.x], panel.xlog), LEFT, W - RIGHT, panel.xlog)
    ys = Scale(*_range([y for s in panel.series for y in s.y], panel.ylog), H - BOTTOM, TOP, panel.ylog)
    out = _axes(panel.title, panel.xlabel, panel.ylabel, xs, ys)
    for k, s in enumerate(panel.series):
        color = COLORS[k % len(COLORS)]
        pts = [(x, y) for x, y in zip(s.x, s.y) if math.isfinite(x) and math.isfinite(y) and (x > 0 or not panel.xlog) and (y > 0 or not panel.ylog)]
        group = [f'<g data-series="{k}">']
        if pts:
            coords = " ".join(f"{xs(x):.1f},{ys(y):.1f}" for x, y in pts)
            dash = ' stroke-dasharray="6,4"' if s.dashed else ""
            group.append(f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="1.6"{dash}/>')
            for x, y in pts:
                tip = html.escape(f"{s.label}\n{panel.xlabel}: {_fmt(x)}\n{panel.ylabel}: {_fmt(y)}")
                group.append(f'<circle cx="{xs(x):.1f}" cy="{ys(y):.1f}" r="2.6" fill="{color}"><title>{tip}</title></circle>')
        group.append("</g>")
        out.extend(group)
        ly = TOP + 14 + 15 * k
        out.append(f'<g data-toggle="{k}"><rect x="{LEFT + 10}" y="{ly - 8}" width="12" height="3" fill="{color}"/>'
                   f'<text x="{LEFT + 27}" y="{ly - 3}">{html.escape(s.label)}</text></g>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" id="panel-{index}">' + "".join(out) + "</svg>"


def _bars(panel: BarPanel) -> str:
    groups = list(dict.fromkeys(b.group for b in panel.bars))
    labels = list(dict.fromkeys(b.label for b in panel.bars))
    lo = min([0.0] + [b.low for b in panel.bars])
    hi = max([0.0] + [b.high for b in panel.bars])
    ys = Scale(*_range([lo, hi], False), H - BOTTOM, TOP, False)
    out = [f'<text class="title" x="{W / 2}" y="18" text-anchor="middle">{html.escape(panel.title)}</text>']
    x0, x1 = LEFT, W - RIGHT
    for t in ys.ticks():
        y = ys(t)
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{_fmt(t)}</text>')
    out.append(f'<line x1="{x0}" y1="{ys(0):.1f}" x2="{x1}" y2="{ys(0):.1f}" stroke="#000"/>')
    slot = (x1 - x0) / max(1, len(groups))
    width = slot * 0.8 / max(1, len(labels))
    for b in panel.bars:
        g, j = groups.index(b.group), labels.index(b.label)
        color = COLORS[j % len(COLORS)]
        x = x0 + slot * g + slot * 0.1 + width * j
        top, base = ys(max(b.value, 0.0)), ys(min(b.value, 0.0))
        tip = html.escape(f"{b.group} ({b.label})\n{_fmt(b.value)} [{_fmt(b.low)}, {_fmt(b.high)}]")
        cx = x + width / 2
        out.append(f'<g data-series="{j}"><rect x="{x:.1f}" y="{top:.1f}" width="{width * 0.92:.1f}" height="{max(base - top, 0.5):.1f}" '
                   f'fill="{color}" opacity="0.85"><title>{tip}</title></rect>'
                   f'<line x1="{cx:.1f}" y1="{ys(b.low):.1f}" x2="{cx:.1f}" y2="{ys(b.high):.1f}" stroke="#000"/>'
                   f'<line x1="{cx - 5:.1f}" y1="{ys(b.low):.1f}" x2="{cx + 5:.1f}" y2="{ys(b.low):.1f}" stroke="#000"/>'
                   f'<line x1="{cx - 5:.1f}" y1="{ys(b.high):.1f}" x2="{cx + 5:.1f}" y2="{ys(b.high):.1f}" stroke="#000"/></g>')
    for g, name in enumerate(groups):
        out.append(f'<text x="{x0 + slot * (g + 0.5):.1f}" y="{H - BOTTOM + 16}" text-anchor="middle">{html.escape(name)}</text>')
    for j, label in enumerate(labels):
        ly = TOP + 14 + 15 * j
        out.append(f'<g data-toggle="{j}"><rect x="{x1 - 150}" y="{ly - 9}" width="10" height="10" fill="{COLORS[j % len(COLORS)]}"/>'
                   f'<text x="{x1 - 135}" y="{ly}">{html.escape(label)}</text></g>')
    out.append(f'<text transform="translate(16,{(H - BOTTOM + TOP) / 2}) rotate(-90)" text-anchor="middle">{html.escape(panel.ylabel)}</text>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}">' + "".join(out) + "</svg>"


def _red(v: float) -> str:
    v = min(max(v, 0.0), 1.0)
    r, g, b = 255 - int(v * 52), 245 - int(v * 230), 240 - int(v * 225)
    return f"rgb({r},{g},{b})"


def _grid(panel: GridPanel) -> str:
    rows, cols = len(panel.row_labels), len(panel.col_labels)
    cell = 30
    left, top = 30, 36
    width, height = left + cols * cell + 12, top + rows * cell + 34
    out = [f'<text class="title" x="{width / 2}" y="18" text-anchor="middle">{html.escape(panel.title)}</text>']
    for r in range(rows):
        out.append(f'<text x="{left - 6}" y="{top + r * cell + cell / 2 + 4}" text-anchor="end">{html.escape(panel.row_labels[r])}</text>')
        for c in range(cols):
            v = panel.values[r][c]
            x, y = left + c * cell, top + r * cell
            tip = html.escape(panel.tooltips[r][c])
            color = "#fff" if v > 0.6 else "#000"
            out.append(f'<g><rect x="{x}" y="{y}" width="{cell - 1}" height="{cell - 1}" fill="{_red(v)}"><title>{tip}</title></rect>'
                       f'<text x="{x + cell / 2}" y="{y + cell / 2 + 3}" text-anchor="middle" style="font-size:8px;fill:{color};pointer-events:none">'
                       f'{html.escape(panel.text[r][c])}</text></g>')
    for c in range(cols):
        out.append(f'<text x="{left + c * cell + cell / 2}" y="{top - 4}" text-anchor="middle">{html.escape(panel.col_labels[c])}</text>')
    if panel.legend:
        out.append(f'<text x="{left}" y="{height - 10}">{html.escape(panel.legend)}</text>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">' + "".join(out) + "</svg>"
