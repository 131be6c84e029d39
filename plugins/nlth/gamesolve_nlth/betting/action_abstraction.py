"""Action abstraction: which bet sizes the blueprint may use, per round and raise depth.

A raise size is a fraction of the pot *after calling* (1.0 = a pot-size raise): facing a bet
of ``owe`` chips with ``pot`` chips committed in all, a fraction ``f`` raises to
``max_bet + f * (pot + owe)``. Sizes are clipped to the legal minimum raise and to the stack,
and duplicates (e.g. several sizes that all become all-in) are merged. Fold and check/call are
always available when legal, but for an open limp where ``limp = false``: then a player
first in preflop (the small blind included) raises or folds, as in most solvers' six-handed
preflop trees. ``depth`` counts the bets and raises already made on the street
(0 = the first bet, or the preflop open over the blinds); the last list repeats for deeper
raises; no raise is offered once ``max_raises`` is reached.

Configured in TOML::

    name = "tiny"
    [[rounds]]            # preflop, then flop, turn, river
    raise_sizes = [[1.0], [1.0]]
    all_in = true
    max_raises = 2
    limp = true           # preflop only: may a player call the big blind first in?
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import attrs
import numpy as np

from gamesolve.options import parse_boolean

ROUND_NAMES = ("preflop", "flop", "turn", "river")


class AbstractionError(ValueError):
    """A malformed action abstraction; the message is fit to show a user."""


@attrs.frozen
class RoundActions:
    raise_sizes: tuple[tuple[float, ...], ...]  # per raise depth, pot fractions
    all_in: bool = True
    max_raises: int = 3
    limp: bool = True  # a call of the big blind with no raise yet (the first round's only)

    def __attrs_post_init__(self):
        for sizes in self.raise_sizes:
            if any(not (f > 0) for f in sizes):
                raise AbstractionError(f"raise sizes must be positive pot fractions, got {list(sizes)}")
        if self.max_raises < 0:
            raise AbstractionError("max_raises must be at least 0")


@attrs.frozen
class ActionAbstraction:
    name: str
    rounds: tuple[RoundActions, ...]

    def __attrs_post_init__(self):
        if len(self.rounds) != 4:
            raise AbstractionError(f"an NLTH action abstraction needs 4 rounds, got {len(self.rounds)}")

    @classmethod
    def from_dict(cls, data: dict) -> ActionAbstraction:
        try:
            rounds = tuple(
                RoundActions(
                    raise_sizes=tuple(tuple(float(f) for f in depth) for depth in r.get("raise_sizes", [])),
                    all_in=parse_boolean(r.get("all_in", True), "all_in"),
                    max_raises=int(r.get("max_raises", 3)),
                    limp=parse_boolean(r.get("limp", True), "limp"),
                )
                for r in data["rounds"]
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, AbstractionError):
                raise
            raise AbstractionError(f"malformed action abstraction: {exc}") from None
        return cls(name=str(data.get("name", "custom")), rounds=rounds)

    @classmethod
    def from_toml(cls, path: str | Path) -> ActionAbstraction:
        try:
            data = tomllib.loads(Path(path).read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise AbstractionError(f"cannot read action abstraction {path}: {exc}") from None
        return cls.from_dict(data)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "rounds": [
                {"raise_sizes": [list(d) for d in r.raise_sizes], "all_in": r.all_in, "max_raises": r.max_raises,
                 "limp": r.limp}
                for r in self.rounds
            ],
        }

    def as_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(fractions[R, D, K], counts[R, D], all_in[R], max_raises[R], limp[R])`` for the kernels."""
        depth = max(1, max(len(r.raise_sizes) for r in self.rounds))
        width = max(1, max((len(d) for r in self.rounds for d in r.raise_sizes), default=1))
        fractions = np.zeros((4, depth, width))
        counts = np.zeros((4, depth), dtype=np.int64)
        for i, r in enumerate(self.rounds):
            for d in range(depth):
                if not r.raise_sizes:
                    continue
                sizes = r.raise_sizes[min(d, len(r.raise_sizes) - 1)]
                fractions[i, d, : len(sizes)] = sizes
                counts[i, d] = len(sizes)
        all_in = np.array([r.all_in for r in self.rounds], dtype=np.bool_)
        max_raises = np.array([r.max_raises for r in self.rounds], dtype=np.int64)
        limp = np.array([r.limp for r in self.rounds], dtype=np.bool_)
        return fractions, counts, all_in, max_raises, limp


def _round(sizes, all_in=True, max_raises=3, limp=True):
    return RoundActions(tuple(tuple(d) for d in sizes), all_in, max_raises, limp)


PRESETS: dict[str, ActionAbstraction] = {
    # Trains in minutes with six players: a pot-size open or all-in preflop (then all-in
    # only), one pot-size bet per later round. First in, a player raises or folds (no open
    # limp): 234,455 public nodes with six players, against 1.8 M with limps, whose limped
    # multiway pots were most of the tree. At equal iterations the blueprints with and
    # without limps played level; without, an iteration takes about half the time
    # (docs/blueprint.md, "No open limp").
    "tiny": ActionAbstraction(
        "tiny",
        (
            _round([[1.0], []], max_raises=2, limp=False),
            _round([[1.0]], all_in=False, max_raises=1),
            _round([[1.0]], all_in=False, max_raises=1),
            _round([[1.0]], all_in=False, max_raises=1),
        ),
    ),
    # Half-pot and pot opens, pot 3-bets, all-in; one pot-size bet (or all-in) on the flop,
    # one pot-size bet on the turn and river. 9.6 M public nodes.
    "small": ActionAbstraction(
        "small",
        (
            _round([[0.5, 1.0], [1.0], []], max_raises=3),
            _round([[1.0]], max_raises=1),
            _round([[1.0]], all_in=False, max_raises=1),
            _round([[1.0]], all_in=False, max_raises=1),
        ),
    ),
    # The paper's blueprint abstraction, sized as the supplement gives it ("Action abstraction"):
    # "between one and 14 different raise sizes depending on the particular decision point",
    # "particularly fine-grained on the first betting round", "more coarse on the second", and
    # on the third and fourth "at most three raise sizes for the first raise in the round
    # (0.5 x pot, 1 x pot or all remaining chips), and at most two for the remaining raises
    # (1 x pot or all remaining chips)". The supplement does not list the first two rounds'
    # sizes: ours are chosen so the tree has the paper's 664,845,654 action sequences within
    # 2% (653,229,221; `gamesolve abstraction info --preset pluribus`, docs/abstraction.md).
    # First round: 13 open sizes and all-in (14 raise choices), three 3-bet sizes, then pot.
    # Second: three sizes for the first bet, then pot; at most three raises. Third and
    # fourth: the supplement names no cap; with 100 big blinds any cap from 6 gives this tree.
    "pluribus": ActionAbstraction(
        "pluribus",
        (
            _round(
                [[0.4, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0, 8.0], [0.5, 1.0, 2.0], [1.0]],
                max_raises=4,
            ),
            _round([[0.5, 1.0, 2.0], [1.0]], max_raises=3),
            _round([[0.5, 1.0], [1.0]], max_raises=8),
            _round([[0.5, 1.0], [1.0]], max_raises=8),
        ),
    ),
}


def action_abstraction(preset_or_path: str) -> ActionAbstraction:
    """A preset by name, or a TOML file path."""
    if preset_or_path in PRESETS:
        return PRESETS[preset_or_path]
    if preset_or_path.endswith(".toml"):
        return ActionAbstraction.from_toml(preset_or_path)
    raise AbstractionError(f"unknown action abstraction {preset_or_path!r} (presets: {', '.join(PRESETS)}; or a .toml file)")
