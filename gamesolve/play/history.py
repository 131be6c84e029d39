"""Saving a play session's hands as it goes, so that no finished hand is lost.

Games whose plugin writes hand histories (``gamesolve_write_hand_histories``; NLTH: PHH)
are saved with that writer -- the whole session rewritten after each hand, into a temporary
file renamed over the old one, so a crash leaves the previous complete file. Other games get
JSON lines: one object per hand with the seats, every action (chance too) as the game names
it, and the returns.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from gamesolve.play.session import PlaySession


class HandHistories:
    """Writes a session's hands to ``path`` after each hand (``save`` is its ``on_hand_end``)."""

    def __init__(self, pm, game, path: Path):
        self.pm = pm
        self.game = game
        self.path = Path(path)
        self.native = pm is not None and pm.hook.gamesolve_write_hand_histories(game=game, hands=[], path=self.path) is not None

    @staticmethod
    def default_name(pm, game) -> str:
        """``hands.phhs`` for games with a PHH writer, ``hands.jsonl`` otherwise."""
        native = pm is not None and pm.hook.gamesolve_write_hand_histories(game=game, hands=[], path=Path("hands.phhs")) is not None
        return "hands.phhs" if native else "hands.jsonl"

    def save(self, session: PlaySession) -> None:
        if self.native:
            self._save_native(session)
        else:
            self._append_json(session)

    def _save_native(self, session: PlaySession) -> None:
        if self.path.suffix != ".phhs":  # a folder (one file per hand) or the writer's own kind
            self.pm.hook.gamesolve_write_hand_histories(game=self.game, hands=session.records, path=self.path)
            return
        # one file: written aside, then renamed over the old one (atomic on POSIX)
        tmp = self.path.with_name(f".{self.path.stem}.partial.phhs")
        self.pm.hook.gamesolve_write_hand_histories(game=self.game, hands=session.records, path=tmp)
        os.replace(tmp, self.path)

    def _append_json(self, session: PlaySession) -> None:
        record = session.records[-1]
        line = {
            "game": self.game.name,
            "params": {k: v for k, v in self.game.params.items()},
            "hand": record.number + 1,
            "seats": list(record.seats),
            "actions": [{"player": p, "action": a, "text": t} for p, a, t in session.histories[-1]],
            "returns": list(record.returns),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line, sort_keys=True) + "\n")
