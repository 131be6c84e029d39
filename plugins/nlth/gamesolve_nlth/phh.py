"""Poker hand histories (PHH, the TOML format pokerkit reads and writes) for the NLTH engine.

Writing: :func:`dumps` turns an :class:`~gamesolve_nlth.state.NLTHState` (any point of a hand)
into PHH text::

    variant = 'NT'
    ante_trimming_status = true
    antes = [0, 0, 0]
    blinds_or_straddles = [50, 100, 0]
    min_bet = 100
    starting_stacks = [10000, 10000, 10000]
    actions = ['d dh p1 AsKd', 'd dh p2 ...', 'p3 cbr 300', 'p1 f', 'd db 7h8c2d', ...]
    seats = [2, 3, 1]
    seat_count = 3

PHH players ``p1..pn`` are in position order: ``p1`` is the first seat left of the button (the
small blind with 3+ players) and ``pn`` is the button -- pokerkit's player order. ``seats`` gives
each player's engine seat plus one, so the button is ``seats[-1] - 1``. Heads-up, PHH (like
pokerkit) still lists ``blinds_or_straddles = [sb, bb]`` and pokerkit swaps them for two players:
``p2`` (the button) posts the small blind. Showdowns are written as ``pK sm <cards>`` for every
player still in the hand, in position order; ``finishing_stacks`` is written for finished hands.

Reading: :func:`loads` parses PHH text (variant NT, no antes, two blinds, ``min_bet`` = big
blind) into a game and a state replayed through the engine; every player action is checked
against the engine's legality rules. Unknown hole cards (``????``) are filled with random unused
cards when ``unknown_seed`` is given (they never matter unless the player reaches showdown).
"""

from __future__ import annotations

import random
import tomllib

from gamesolve_nlth.cards import cards_str, parse_cards
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, NLTHState, action_raise_to, raise_action


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return "'" + v + "'" if "'" not in v else '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} to PHH")


def phh_fields(state: NLTHState, *, players: list[str] | None = None, hand: int | str | None = None) -> dict:
    """The PHH fields of ``state`` as a dict (see the module doc)."""
    game = state.game
    n = state.num_players
    b = state.button
    seat_of = [(b + 1 + k) % n for k in range(n)]  # PHH player k+1 -> engine seat
    label = {seat_of[k]: f"p{k + 1}" for k in range(n)}
    blinds = [0] * n
    blinds[0], blinds[1] = game.small_blind, game.big_blind
    actions = []
    for k in range(n):
        hole = state.hole_cards(seat_of[k])
        if len(hole) < 2:
            break  # not dealt yet
        actions.append(f"d dh p{k + 1} {cards_str(hole)}")
    board = state.board
    shown = 0

    def deal_board_until(count: int) -> None:
        nonlocal shown
        for street_count in (3, 4, 5):
            if shown < street_count <= count:
                actions.append(f"d db {cards_str(board[shown:street_count])}")
                shown = street_count

    for street, seat, a in state.log:
        deal_board_until((0, 3, 4, 5)[street])
        if a == FOLD:
            actions.append(f"{label[seat]} f")
        elif a == CHECK_CALL:
            actions.append(f"{label[seat]} cc")
        else:
            actions.append(f"{label[seat]} cbr {action_raise_to(a)}")
    deal_board_until(len(board))
    if state.is_terminal() and len(board) == 5 and sum(state.in_hand) > 1:
        for k in range(n):
            if state.in_hand[seat_of[k]]:
                actions.append(f"p{k + 1} sm {cards_str(state.hole_cards(seat_of[k]))}")
    fields: dict = {
        "variant": "NT",
        "ante_trimming_status": True,
        "antes": [0] * n,
        "blinds_or_straddles": blinds,
        "min_bet": game.big_blind,
        "starting_stacks": [game.stacks[seat_of[k]] for k in range(n)],
        "actions": actions,
    }
    if hand is not None:
        fields["hand"] = hand
    fields["seats"] = [seat_of[k] + 1 for k in range(n)]
    fields["seat_count"] = n
    if players is not None:
        if len(players) != n:
            raise ValueError(f"players: expected {n} names (one per seat), got {len(players)}")
        fields["players"] = [str(players[seat_of[k]]) for k in range(n)]
    if state.is_terminal():
        pay = state.payoffs()
        fields["finishing_stacks"] = [game.stacks[seat_of[k]] + pay[seat_of[k]] for k in range(n)]
    return fields


def dumps(state: NLTHState, *, players: list[str] | None = None, hand: int | str | None = None) -> str:
    """PHH text for ``state``; ``players`` are names per engine seat."""
    fields = phh_fields(state, players=players, hand=hand)
    return "".join(f"{k} = {_toml_value(v)}\n" for k, v in fields.items())


def loads(text: str, *, unknown_seed: int | None = None) -> NLTHState:
    """Parse PHH text into an engine state (the game is ``state.game``)."""
    data = tomllib.loads(text)
    return from_fields(data, unknown_seed=unknown_seed)


def _strip_comment(action: str) -> list[str]:
    words = action.split()
    if "#" in words:
        words = words[: words.index("#")]
    return words


def from_fields(data: dict, *, unknown_seed: int | None = None) -> NLTHState:
    """Replay a parsed PHH dict through the engine."""
    for key in ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions"):
        if key not in data:
            raise ValueError(f"PHH: missing required field {key!r}")
    if data["variant"] != "NT":
        raise ValueError(f"PHH: only variant 'NT' (no-limit Texas hold'em) is supported, got {data['variant']!r}")
    stacks = [int(x) for x in data["starting_stacks"]]
    n = len(stacks)
    if any(int(a) for a in data["antes"]):
        raise ValueError("PHH: antes are not supported by the engine")
    blinds = [int(x) for x in data["blinds_or_straddles"]] + [0] * n
    if any(blinds[2:]):
        raise ValueError("PHH: straddles are not supported by the engine (only two blinds)")
    sb, bb = blinds[0], blinds[1]
    if int(data.get("min_bet", bb)) != bb:
        raise ValueError(f"PHH: min_bet {data.get('min_bet')} must equal the big blind {bb}")
    # button and seats: our seats are contiguous 0..n-1 around the table
    button = n - 1
    seats = data.get("seats")
    if seats is not None and len(seats) == n:
        b = int(seats[-1]) - 1
        if all(int(seats[k]) - 1 == (b + 1 + k) % n for k in range(n)):
            button = b
    seat_of = [(button + 1 + k) % n for k in range(n)]
    stack_by_seat = [0] * n
    for k in range(n):
        stack_by_seat[seat_of[k]] = stacks[k]
    game = NLTHGame(players=n, stacks=",".join(map(str, stack_by_seat)), small_blind=sb, big_blind=bb, button=button)

    def player(word: str) -> int:
        if not (word.startswith("p") and word[1:].isdigit() and 1 <= int(word[1:]) <= n):
            raise ValueError(f"PHH: bad player label {word!r} (p1..p{n})")
        return seat_of[int(word[1:]) - 1]

    # pass 1: hole cards (possibly unknown) and every known card
    holes: dict[int, list[int | None]] = {}
    known: set[int] = set()
    for action in data["actions"]:
        words = _strip_comment(action)
        if len(words) >= 3 and words[:2] == ["d", "dh"]:
            seat = player(words[2])
            text = words[3] if len(words) > 3 else "????"
            cs: list[int | None] = []
            for i in range(0, len(text), 2):
                cs += [None] if text[i : i + 2] == "??" else parse_cards(text[i : i + 2])
            holes[seat] = cs
        elif len(words) == 3 and words[:2] == ["d", "db"]:
            known.update(parse_cards(words[2]))
        elif len(words) == 3 and words[1] == "sm" and words[2] != "-":
            seat = player(words[0])
            holes[seat] = parse_cards(words[2])  # shown at showdown: now known
    for cs in holes.values():
        known.update(c for c in cs if c is not None)
    rng = random.Random(unknown_seed)
    free = [c for c in range(52) if c not in known]
    rng.shuffle(free)
    st = game.new_initial_state()
    for seat in range(n):
        cs = holes.get(seat)
        if cs is None or len(cs) != 2:
            raise ValueError(f"PHH: seat {seat} (p{seat_of.index(seat) + 1}) needs two hole cards (d dh)")
        for c in cs:
            if c is None:
                if unknown_seed is None:
                    raise ValueError("PHH: unknown hole cards '??'; pass unknown_seed to fill them with random cards")
                c = free.pop()
            st.apply_action(c)
    # pass 2: board and player actions in order
    for action in data["actions"]:
        words = _strip_comment(action)
        if not words:
            continue
        if words[0] == "d":
            if words[1] == "db":
                st.deal(words[2])
            continue
        seat = player(words[0])
        kind = words[1] if len(words) > 1 else ""
        if kind == "sm":
            continue  # showdown is automatic in the engine
        if st.current_player() != seat:
            raise ValueError(f"PHH: action {action!r} out of turn; {st._describe_legal()}")
        if kind == "f":
            st.apply_action(FOLD)
        elif kind == "cc":
            st.apply_action(CHECK_CALL)
        elif kind == "cbr" and len(words) == 3:
            st.apply_action(raise_action(int(words[2])))
        else:
            raise ValueError(f"PHH: unsupported action {action!r}")
    return st
