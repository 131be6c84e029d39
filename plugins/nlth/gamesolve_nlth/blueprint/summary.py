"""What a poker player wants to see of a blueprint: preflop opening frequencies by position."""

from __future__ import annotations

import functools

import numpy as np

from gamesolve.game.factored import DECISION
from gamesolve.game.poker_form import CALL, FOLD, RAISE
from gamesolve_nlth.cards import RANKS
from gamesolve_nlth.isomorphism import HandIndexer

POSITIONS_6 = {2: "UTG", 3: "HJ", 4: "CO", 5: "BTN", 0: "SB", 1: "BB"}
SHOWCASE = ("AA", "KK", "QQ", "AKs", "AQo", "JTs", "88", "A5s", "KJo", "T9o", "72o")


@functools.lru_cache(maxsize=1)
def preflop_classes() -> tuple[list[str], np.ndarray]:
    """Name ("AKs", "72o", "QQ") and number of card combinations of each preflop bucket."""
    indexer = HandIndexer((2,))
    names, combos = [], []
    for i in range(indexer.size(0)):
        a, b = sorted(indexer.unindex(i, 0), reverse=True)
        ra, rb = RANKS[a >> 2], RANKS[b >> 2]
        if ra == rb:
            names.append(ra + rb)
            combos.append(6)
        elif (a & 3) == (b & 3):
            names.append(ra + rb + "s")
            combos.append(4)
        else:
            names.append(ra + rb + "o")
            combos.append(12)
    return names, np.array(combos, dtype=np.float64)


def position_name(seat: int, players: int) -> str:
    """Name of tree seat ``seat`` (seats are positions left of the button; heads-up the
    button, tree seat 1, is the small blind)."""
    if players == 6:
        return POSITIONS_6[seat]
    if players == 2:
        return ("BB", "SB")[seat]
    return {0: "SB", 1: "BB", players - 1: "BTN"}.get(seat, f"seat {seat}")


def unopened_nodes(tree) -> dict[int, int]:
    """For each seat, the node where it acts first after everyone before it folded."""
    nodes = {}
    node = 0
    while tree.node_kind[node] == DECISION and tree.node_round[node] == 0:
        seat = int(tree.node_player[node])
        if seat in nodes:
            break
        nodes[seat] = node
        c0, c1 = tree.child_start[node], tree.child_start[node + 1]
        folds = [k for k in range(c0, c1) if tree.edge_class[k] == FOLD]
        if not folds:
            break
        node = int(tree.child_list[folds[0]])
    return nodes


def opening_summary(game, tree, rows, node_offset) -> dict:
    """First-in frequencies of the strategy ``rows`` (the blueprint: the first round's average)
    at each seat's unopened node, weighted by card combinations. A raise is any raise, all-in
    included (its share is shown apart); a limp is the call of the big blind (the small
    blind's completion)."""
    from gamesolve_nlth.state import raise_action

    names, combos = preflop_classes()
    index = {name: i for i, name in enumerate(names)}
    lines = ["preflop, unopened pot (average strategy; share of hands, weighted by combinations):"]
    table = {}
    for seat, node in unopened_nodes(tree).items():
        c0, c1 = int(tree.child_start[node]), int(tree.child_start[node + 1])
        n_act = c1 - c0
        kinds = tree.edge_class[c0:c1]
        off = int(node_offset[node])
        probs = rows[off : off + 169 * n_act].reshape(169, n_act)
        w = combos / combos.sum()
        raise_p = float((probs[:, kinds == RAISE].sum(axis=1) * w).sum())
        fold_p = float((probs[:, kinds == FOLD].sum(axis=1) * w).sum())
        call_p = float((probs[:, kinds == CALL].sum(axis=1) * w).sum())  # 0 where the tree has no open limp
        all_in = (kinds == RAISE) & (tree.edge_label[c0:c1] - raise_action(0) >= max(game.stacks))
        all_in_p = float((probs[:, all_in].sum(axis=1) * w).sum())
        pos = position_name(seat, game.num_players)
        table[pos] = {"raise": raise_p, "call": call_p, "fold": fold_p}
        showcase = ", ".join(
            f"{h} {probs[index[h], kinds == RAISE].sum():.0%}" for h in SHOWCASE if h in index
        )
        shove = f" (all-in {all_in_p:.1%})" if all_in_p >= 0.0005 else ""
        lines.append(f"  {pos:<4} raise {raise_p:5.1%}{shove}  limp {call_p:5.1%}  fold {fold_p:5.1%}   raise freq: {showcase}")
    return {"summary": lines, "preflop_open": table}


TRUST_MINUTES = {"tiny": 20.0, "small": 60.0, "pluribus": 8 * 24 * 60.0}
"""Training a preset needs before its blueprint is worth playing: tiny, 20 minutes beat every
baseline agent alone at a table; small, the 60-minute acceptance run (docs/blueprint.md);
pluribus, the paper's 8 days."""


def trust_note(preset: str | None, seconds: float | None) -> str | None:
    """A warning line when a run is too short to trust (tiny's 90-second default is a demonstration)."""
    need = TRUST_MINUTES.get(preset or "tiny")
    if need is None or seconds is None or seconds >= need * 60:
        return None
    took = f"{seconds / 60:.1f} minutes" if seconds >= 60 else f"{seconds:.1f} seconds"
    return (f"note: {took} of training is a demonstration, not a blueprint to trust: the {preset or 'tiny'} "
            f"preset needs {_duration(need)} or more (docs/blueprint.md; continue with --resume)")


def _duration(minutes: float) -> str:
    if minutes >= 24 * 60:
        return f"{minutes / (24 * 60):g} days"
    return f"{minutes:g} minutes"
