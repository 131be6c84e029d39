"""Game names as users write them: ``NAME`` or ``NAME(KEY=VALUE,...)``.

``--game "leduc(players=3)"`` is ``--game leduc -p players=3``, and
``--game "openspiel:goofspiel(num_cards=4,points_order=descending)"`` names an open-spiel game
with its parameters, the way open-spiel writes them. Values may hold parentheses and commas
inside parentheses (``game=goofspiel(num_cards=3)``) and spaces (``blind=100 50``).
"""

from __future__ import annotations

from gamesolve.errors import UserError


def parse_game_text(text: str) -> tuple[str, dict[str, str]]:
    """``"name(a=1,b=x(y=2))"`` -> ``("name", {"a": "1", "b": "x(y=2)"})``; ``"name"`` ->
    ``("name", {})``. A malformed text is a :class:`UserError` naming it."""
    text = text.strip()
    open_at = text.find("(")
    if open_at < 0:
        if ")" in text:
            raise UserError(f"game {text!r}: ')' without '('")
        return text, {}
    name = text[:open_at].strip()
    if not name or not text.endswith(")"):
        raise UserError(f"game {text!r}: expected NAME or NAME(KEY=VALUE,...)")
    params: dict[str, str] = {}
    for part in _split_top_level(text[open_at + 1 : -1], text):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UserError(f"game {text!r}: parameter {part.strip()!r} is not KEY=VALUE")
        if key in params:
            raise UserError(f"game {text!r}: parameter {key!r} is given twice")
        params[key] = value.strip()
    return name, params


def with_params(text: str, params: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The name in ``text`` and its parameters merged with ``params`` (``-p KEY=VALUE`` on the
    command line); a parameter given both ways is a :class:`UserError`."""
    name, inline = parse_game_text(text)
    for key in sorted(set(inline) & set(params)):
        raise UserError(f"game parameter {key} is given twice ({text} and -p {key}={params[key]})")
    return name, {**inline, **params}


def _split_top_level(inner: str, text: str) -> list[str]:
    """``inner`` split at the commas outside parentheses (empty: no parts)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise UserError(f"game {text!r}: unbalanced parentheses")
        elif ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    if depth:
        raise UserError(f"game {text!r}: unbalanced parentheses")
    parts.append(inner[start:])
    return [p for p in parts if p.strip()] if len(parts) > 1 or inner.strip() else []
