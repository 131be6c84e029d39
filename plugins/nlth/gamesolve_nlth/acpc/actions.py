"""Engine actions and ACPC action tokens, one into the other.

The engine's raise is *to* an amount on the current street; ACPC's ``r<n>`` is to ``n`` chips
over the whole hand. The two differ by what the player committed on earlier streets.
"""

from __future__ import annotations

from gamesolve_nlth.acpc.protocol import ProtocolError, parse_action
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHState, action_raise_to, raise_action


def _earlier_streets(state: NLTHState, player: int) -> int:
    """Chips ``player`` committed before the current street."""
    return state.committed[player] - state.bets[player]


def token_of(state: NLTHState, action: int) -> str:
    """The ACPC token of engine ``action`` at ``state`` (a decision node)."""
    if action == FOLD:
        return "f"
    if action == CHECK_CALL:
        return "c"
    return f"r{_earlier_streets(state, state.current_player()) + action_raise_to(action)}"


def action_of(state: NLTHState, token: str) -> int:
    """The engine action of ACPC ``token`` at ``state``; :class:`ProtocolError` if the engine's
    rules do not allow it there."""
    kind, size = parse_action(token)
    if kind == "f":
        if "f" not in state.legal_action_kinds():
            raise ProtocolError("fold is not legal here: nothing to call")
        return FOLD
    if kind == "c":
        return CHECK_CALL
    lo, hi = state.min_raise_to, state.max_raise_to
    if lo is None:
        raise ProtocolError(f"{token}: no raise is legal here")
    base = _earlier_streets(state, state.current_player())
    if not base + lo <= size <= base + hi:
        raise ProtocolError(f"{token}: raises here go to {base + lo}..{base + hi} chips over the hand")
    return raise_action(size - base)


def fixed_action(state: NLTHState, text: str) -> tuple[int, str | None]:
    """The engine action for a client's answer ``text`` after the ACPC dealer's corrections
    (``isValidAction`` with fixing): a raise too small or too large goes to the nearest legal
    size; a raise when none is allowed, a fold with nothing to call, or an unreadable action
    becomes a call. Returns the action and, when it was corrected, why (one line)."""
    try:
        kind, size = parse_action(text)
    except ProtocolError as exc:
        return CHECK_CALL, f"{exc}; changed to call"
    if kind == "r" and state.min_raise_to is not None:
        base = _earlier_streets(state, state.current_player())
        lo, hi = base + state.min_raise_to, base + state.max_raise_to
        if not lo <= size <= hi:
            fixed = min(max(size, lo), hi)
            return action_of(state, f"r{fixed}"), f"raise to {size} changed to {fixed} (legal: {lo}..{hi})"
    try:
        return action_of(state, text), None
    except ProtocolError as exc:
        return CHECK_CALL, f"{exc}; changed to call"
