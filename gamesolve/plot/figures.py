"""What a figure shows, independent of how it is drawn: panels of lines, bars or grids.

Sources (:mod:`gamesolve.plot.sources`, plugins) build these; the renderers
(:mod:`gamesolve.plot.render_png`, :mod:`gamesolve.plot.render_html`) draw them.
"""

from __future__ import annotations

import attrs


@attrs.define
class Series:
    """One curve: ``x`` and ``y`` of equal length (NaN points are skipped)."""

    label: str
    x: list[float]
    y: list[float]
    dashed: bool = False


@attrs.define
class LinePanel:
    title: str
    xlabel: str
    ylabel: str
    series: list[Series]
    xlog: bool = False
    ylog: bool = False


@attrs.define
class Bar:
    """One bar of a group: ``value`` with a confidence interval ``[low, high]``."""

    group: str  # the x position (e.g. the agent)
    label: str  # the bar within the group (e.g. the match file, raw or AIVAT)
    value: float
    low: float
    high: float


@attrs.define
class BarPanel:
    title: str
    ylabel: str
    bars: list[Bar]


@attrs.define
class GridPanel:
    """A heat map: ``values[r][c]`` in [0, 1] coloured, ``text[r][c]`` written in the cell,
    ``tooltips[r][c]`` shown on hover (HTML)."""

    title: str
    row_labels: list[str]
    col_labels: list[str]
    values: list[list[float]]
    text: list[list[str]]
    tooltips: list[list[str]]
    legend: str = ""


Panel = LinePanel | BarPanel | GridPanel


@attrs.define
class Figure:
    title: str
    panels: list[Panel]
    notes: list[str] = attrs.field(factory=list)  # printed under the figure
