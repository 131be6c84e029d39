"""Figures as PNG with matplotlib (Agg backend: no display needed)."""

from __future__ import annotations

import math
from pathlib import Path

from gamesolve.plot.figures import BarPanel, Figure, GridPanel, LinePanel


def render_png(figure: Figure, path: Path, dpi: int = 110) -> None:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    n = len(figure.panels)
    grids = all(isinstance(p, GridPanel) for p in figure.panels)
    cols = min(n, 3 if grids else 2)
    rows = math.ceil(n / cols)
    size = (5.2 * cols, 5.0 * rows + 0.6) if grids else (6.4 * cols, 4.4 * rows + 0.4 + 0.25 * len(figure.notes))
    fig, axes = plt.subplots(rows, cols, figsize=size, squeeze=False)
    for ax in axes.flat[n:]:
        ax.axis("off")
    for ax, panel in zip(axes.flat, figure.panels):
        if isinstance(panel, LinePanel):
            _lines(ax, panel)
        elif isinstance(panel, BarPanel):
            _bars(ax, panel)
        else:
            _grid(fig, ax, panel)
    fig.suptitle(figure.title, fontsize=13)
    if figure.notes:
        fig.text(0.01, 0.005, "\n".join(figure.notes), fontsize=8, va="bottom", ha="left", color="#444")
    fig.tight_layout(rect=(0, 0.02 + 0.02 * len(figure.notes), 1, 0.96))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def _lines(ax, panel: LinePanel) -> None:
    drawn = 0
    for s in panel.series:
        pts = [(x, y) for x, y in zip(s.x, s.y) if math.isfinite(x) and math.isfinite(y)
               and (x > 0 or not panel.xlog) and (y > 0 or not panel.ylog)]  # fmt: skip
        drawn += len(pts)
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", markersize=2.5, linewidth=1.4,
                linestyle="--" if s.dashed else "-", label=s.label)  # fmt: skip
    if panel.xlog and drawn:
        ax.set_xscale("log")
    if panel.ylog and drawn:
        ax.set_yscale("log")
    ax.set_title(panel.title)
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel)
    ax.grid(True, which="both", alpha=0.25)
    if panel.series:
        ax.legend(fontsize=8)


def _bars(ax, panel: BarPanel) -> None:
    groups = list(dict.fromkeys(b.group for b in panel.bars))
    labels = list(dict.fromkeys(b.label for b in panel.bars))
    width = 0.8 / max(1, len(labels))
    for j, label in enumerate(labels):
        xs, ys, err_lo, err_hi = [], [], [], []
        for b in panel.bars:
            if b.label == label:
                xs.append(groups.index(b.group) - 0.4 + width * (j + 0.5))
                ys.append(b.value)
                err_lo.append(b.value - b.low)
                err_hi.append(b.high - b.value)
        ax.bar(xs, ys, width=width * 0.92, yerr=[err_lo, err_hi], capsize=4, label=label)
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=15 if len(groups) > 3 else 0)
    ax.set_ylabel(panel.ylabel)
    ax.set_title(panel.title)
    ax.grid(True, axis="y", alpha=0.25)
    if len(labels) > 1:
        ax.legend(fontsize=8)


def _grid(fig, ax, panel: GridPanel) -> None:
    image = ax.imshow(panel.values, cmap="Reds", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(panel.col_labels)))
    ax.set_xticklabels(panel.col_labels, fontsize=7)
    ax.set_yticks(range(len(panel.row_labels)))
    ax.set_yticklabels(panel.row_labels, fontsize=7)
    ax.set_title(panel.title, fontsize=10)
    for r, row in enumerate(panel.text):
        for c, text in enumerate(row):
            v = panel.values[r][c]
            ax.text(c, r, text, ha="center", va="center", fontsize=5.2, color="white" if v > 0.6 else "black")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03)
