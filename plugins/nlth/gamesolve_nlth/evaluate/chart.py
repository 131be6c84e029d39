"""The preflop chart of a blueprint: a 13x13 grid of hand classes per position, coloured by
how often the blueprint raises when everyone before it folded (``gamesolve plot --kind
strategy``). Pairs are on the diagonal, suited hands above it (row = higher card), offsuit
hands below it (column = higher card), as in poker books."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gamesolve.game.poker_form import FOLD, RAISE
from gamesolve.plot.figures import Figure, GridPanel
from gamesolve.store.strategy_store import FORMAT, StrategyStore
from gamesolve.store.zarr_io import StoreError, open_group
from gamesolve_nlth.blueprint.summary import position_name, preflop_classes, unopened_nodes
from gamesolve_nlth.cards import RANKS

ORDER = RANKS[::-1]  # "AKQJT98765432"


def blueprint_path(path: Path) -> Path | None:
    """The poker-strategy store at ``path`` (or its ``blueprint`` folder) if it is an nlth one."""
    for candidate in (path / "blueprint", path):
        if (candidate / "zarr.json").exists():
            try:
                attrs = dict(open_group(candidate, "store").attrs)
            except StoreError:
                continue
            if attrs.get("format") == FORMAT and attrs.get("game") == "nlth":
                return candidate
    return None


def cell_name(row: int, col: int) -> str:
    hi, lo = ORDER[min(row, col)], ORDER[max(row, col)]
    if row == col:
        return hi + lo
    return hi + lo + ("s" if row < col else "o")


def preflop_chart(path: Path) -> Figure | None:
    found = blueprint_path(path)
    if found is None:
        return None
    store = StrategyStore(found)
    names, _ = preflop_classes()
    index = {name: i for i, name in enumerate(names)}
    players = int(store.attrs["params"]["players"])
    panels = []
    for seat, node in sorted(unopened_nodes(store).items(), key=lambda kv: _order(kv[0], players)):
        kinds = store.edge_class[store.child_start[node] : store.child_start[node + 1]]
        values, text, tips = [], [], []
        for r in range(13):
            vrow, trow, tiprow = [], [], []
            for c in range(13):
                name = cell_name(r, c)
                p = store.probabilities(node, index[name])
                raise_p, fold_p = float(p[kinds == RAISE].sum()), float(p[kinds == FOLD].sum())
                call_p = max(0.0, 1.0 - raise_p - fold_p)
                vrow.append(raise_p)
                trow.append(f"{raise_p * 100:.0f}")
                tiprow.append(f"{name}: raise {raise_p:.1%}, call {call_p:.1%}, fold {fold_p:.1%}")
            values.append(vrow)
            text.append(trow)
            tips.append(tiprow)
        panels.append(GridPanel(
            f"{position_name(seat, players)}: first in", list(ORDER), list(ORDER), values, text, tips,
            legend="colour and number: % raised (suited above the diagonal)",
        ))  # fmt: skip
    iterations = store.attrs.get("iterations")
    title = f"Preflop opening chart: {found.parent.name if found.name == 'blueprint' else found.name}"
    notes = [f"nlth, {players} players, preset {store.attrs['params'].get('preset', '?')}, "
             f"{iterations:,} iterations" if iterations else f"nlth, {players} players",
             "colour and number: % of the hands of each class raised when first in; suited above the diagonal, offsuit below"]
    return Figure(title, panels, notes)


def _order(seat: int, players: int) -> int:
    """Panels in the order of play preflop: first to act first (UTG ... BTN, SB)."""
    first = 1 if players == 2 else 2
    return (seat - first) % players


def raise_frequencies(path: Path) -> dict[str, np.ndarray]:
    """Per position, the raise frequency of the 13x13 grid (for tests and scripts)."""
    figure = preflop_chart(path)
    if figure is None:
        raise StoreError(f"{path} is not an nlth blueprint")
    return {p.title.split(":")[0]: np.array(p.values) for p in figure.panels}
