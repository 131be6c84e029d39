"""No-limit Texas hold'em rules engine: a numba state machine over one small int64 array.

A hand state is a flat ``int64`` array of :data:`STATE_SIZE` entries (layout below), so a
kernel copies it with ``s.copy()`` / ``dst[:] = src`` and steps it with the ``njit`` functions of
this module; nothing here allocates Python objects on the hot path. :mod:`gamesolve_nlth.state`
wraps it in the game contract; :mod:`gamesolve_nlth.phh` reads and writes hand histories.

Seats, button, positions
------------------------
Seats are ``0..n-1`` (2 <= n <= 9) and are the contract's players. The button seat is a hand
parameter; moving it one seat left each hand is the caller's job (``button = hand % n``).
*Position* ``pos`` of a seat is its distance left of the button minus one:
``pos = (seat - button - 1) % n``; pos 0 is the first seat left of the button. This is exactly
pokerkit's player index (pokerkit player ``i`` = PHH ``p{i+1}`` = seat ``(button + 1 + i) % n``).

Rules (Pluribus supplement, "Rules for no-limit Texas hold'em poker"; pokerkit 0.7.7 semantics)
---------------------------------------------------------------------------------------------
* Blinds: with 3+ players pos 0 posts the small blind and pos 1 the big blind. Heads-up the
  button posts the small blind and the other seat the big blind (pokerkit reverses the blinds for
  two players, as real rooms do). A stack smaller than its blind posts all of it.
* First actor: preflop, the seat after the largest blind (pos 2; heads-up the button). After the
  flop, the first seat left of the button still able to act. Players who are all-in (or whose
  *effective* stack -- what they can still lose to someone -- is 0) are skipped, as in pokerkit.
* Actions: fold, check/call (a call is capped at the stack: calling all-in for less), raise-to
  ``a`` where ``a`` is the player's total bet on this street. Max raise-to = stack + bet (no
  limit). Min raise-to = max bet + max(big blind, last full raise increment), capped at
  stack + bet (so an all-in for less than a full raise is always allowed).
* A raise whose increment is at least the last full increment is *full*: it reopens betting for
  everyone. The first bet/raise of a street counts as full whatever its size (pokerkit: the
  increment is compared with 0), e.g. a 150 all-in over the 100 big blind reopens, and the next
  min raise-to is then 150 + 100.
* Short all-in (increment smaller than the last full one) does not reopen betting for players
  who already acted since the last full raise: they may only fold or call. Players who have not
  acted yet may raise. pokerkit's extension, adopted here: **consecutive** short all-ins whose
  increments add up to at least the full increment do reopen betting (any raise by a player who
  keeps chips behind resets the running sum). A short all-in never lowers the min-raise increment.
* No raise when every other player still in the hand is all-in or folded (pokerkit: "pointless
  raise"); also no raise when the call alone puts the player all-in.
* Folding when checking is free is **not** legal (pokerkit ``Mode.TOURNAMENT``; the differential
  oracle uses the same mode). The PHH replay in pokerkit runs in cash-game mode, where it would
  only warn, but the engine never produces such a fold.
* At the end of each street a bet above the second-highest bet is uncalled and returns to its
  owner (pokerkit's bet collection). The pot is every chip committed so far, including bets of
  the current street.
* When at most one player still in the hand has chips, there is no more betting and the board is
  run out (one runout; no run-it-twice).
* Showdown: main and side pots are layered by committed amounts; each pot goes to the best hand
  among the non-folded players who contributed to that layer. As in pokerkit, hands that cannot
  win any layer are mucked first, and then consecutive layers with the same remaining contenders
  are merged into one pot before splitting -- this only matters for where odd chips go. A split
  pot gives each winner the quotient, and the remainder (odd chips) to the first winner left of
  the button (lowest position).
* Burn cards are irrelevant: the engine only sees the cards that are dealt face up or down.
  There is no rake and there are no antes.

Deal order (chance actions, one card each): hole cards seat 0 (two cards), seat 1, ..., then the
flop (3), turn, river as each street starts. ``new_hand`` may also be given the cards up front.

Payoffs are chips won minus chips committed (they sum to 0).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The shared table-driven 7-card evaluator: value 1..7462, larger is better, equal = tie.
from gamesolve_nlth.evaluator import evaluate7
from gamesolve_nlth.seats import MAX_PLAYERS

# ---- header fields -------------------------------------------------------------------------
H_N = 0  # number of players
H_SB = 1  # small blind
H_BB = 2  # big blind (= minimum bet)
H_BUTTON = 3  # button seat
H_STREET = 4  # 0 preflop, 1 flop, 2 turn, 3 river
H_STAGE = 5  # STAGE_DEAL / STAGE_BET / STAGE_DONE
H_ACTOR = 6  # seat to act, CHANCE or TERMINAL
H_NDEALT = 7  # cards dealt so far (hole cards then board)
H_CBR = 8  # last full raise increment on this street (pokerkit completion_betting_or_raising_amount)
H_SHORT = 9  # running sum of consecutive short all-in increments (0 = none pending)
H_RAISES = 10  # bets/raises on this street
H_NACT = 11  # player actions so far in the hand
H_ALLIN = 12  # 1 once at most one player still in the hand has chips (board runs out)
H_USED = 13  # bit mask of dealt cards
H_SHOWDOWN = 14  # 1 if the hand ended at a showdown
HEADER = 16

# ---- per-seat blocks (MAX_PLAYERS entries each) ------------------------------------------------
STACK = HEADER  # chips behind
BET = STACK + MAX_PLAYERS  # chips bet on this street
COMMIT = BET + MAX_PLAYERS  # chips committed this hand (including BET)
START = COMMIT + MAX_PLAYERS  # starting stack
ACTIVE = START + MAX_PLAYERS  # 1 = still in the hand (not folded)
ACTED = ACTIVE + MAX_PLAYERS  # 1 = acted since the last full raise (pokerkit acted_player_indices)
PENDING = ACTED + MAX_PLAYERS  # 1 = still has to act on this street (pokerkit actor_indices)
PAYOFF = PENDING + MAX_PLAYERS  # final payoff (valid at terminal)
CARDS = PAYOFF + MAX_PLAYERS  # dealt cards: hole of seat s at CARDS+2s, CARDS+2s+1; board at CARDS+2n+j
STATE_SIZE = CARDS + 2 * MAX_PLAYERS + 5

STAGE_DEAL = 0
STAGE_BET = 1
STAGE_DONE = 2

CHANCE = -1
TERMINAL = -4

# action kinds for apply_action
KIND_FOLD = 0
KIND_CALL = 1
KIND_RAISE = 2

# error codes returned by the apply_* functions (0 = ok); nothing is changed on error
ERR_NOT_DECISION = 1
ERR_CANNOT_FOLD = 2
ERR_CANNOT_RAISE = 3
ERR_RAISE_SIZE = 4
ERR_NOT_CHANCE = 5
ERR_BAD_CARD = 6

BOARD_AT_STREET = (0, 3, 4, 5)


# -- reading and setting a state from Python -------------------------------------------------
# Code outside this module reads the layout above through these (plain Python: builders of
# search subgames and spots call them per node); numba kernels index the layout directly.


def num_seats(s) -> int:
    return int(s[H_N])


def button(s) -> int:
    """The button's seat."""
    return int(s[H_BUTTON])


def per_seat(s, field: str) -> list[int]:
    """``stack``, ``bet``, ``commit`` or ``active`` of every seat, in seat order."""
    start = {"stack": STACK, "bet": BET, "commit": COMMIT, "active": ACTIVE}[field]
    return [int(x) for x in s[start : start + int(s[H_N])]]


def hole_cards(s, seat: int) -> list[int]:
    """The cards of ``seat``'s hand dealt so far (0, 1 or 2)."""
    k = min(2, max(0, int(s[H_NDEALT]) - 2 * seat))
    return [int(s[CARDS + 2 * seat + j]) for j in range(k)]


def return_card(s, card: int) -> None:
    """Mark ``card`` as not dealt (it may be dealt again: a hypothetical world's deal)."""
    s[H_USED] &= ~(np.int64(1) << np.int64(card))


def street(s) -> int:
    """0 preflop, 1 flop, 2 turn, 3 river."""
    return int(s[H_STREET])


def actor(s) -> int:
    """The seat to act (after :func:`next_actor`), :data:`CHANCE` or :data:`TERMINAL`."""
    return int(s[H_ACTOR])


def raises(s) -> int:
    """Bets and raises on this street."""
    return int(s[H_RAISES])


def stack_of(s, seat: int) -> int:
    """Chips behind."""
    return int(s[STACK + seat])


def bet_of(s, seat: int) -> int:
    """Chips bet on this street."""
    return int(s[BET + seat])


def committed(s, seat: int) -> int:
    """Chips committed this hand (this street's bet included)."""
    return int(s[COMMIT + seat])


def in_hand(s, seat: int) -> bool:
    """Not folded."""
    return bool(s[ACTIVE + seat])


def used_cards(s) -> int:
    """The bit mask of the cards dealt."""
    return int(s[H_USED])


def at_showdown(s) -> bool:
    """Whether the hand ended at a showdown."""
    return bool(s[H_SHOWDOWN])


def set_min_bet(s, amount: int) -> None:
    """The smallest bet and raise increment from here on (the big blind's role)."""
    s[H_BB] = amount


@njit(cache=True, inline="always")
def _board_count(street):
    if street <= 0:
        return 0
    if street == 1:
        return 3
    if street == 2:
        return 4
    return 5


@njit(cache=True)
def seat_of_pos(s, pos):
    n = s[H_N]
    return (s[H_BUTTON] + 1 + pos) % n


@njit(cache=True)
def pos_of_seat(s, seat):
    n = s[H_N]
    return (seat - s[H_BUTTON] - 1 + 2 * n) % n


@njit(cache=True)
def max_bet(s):
    m = 0
    for i in range(s[H_N]):
        if s[BET + i] > m:
            m = s[BET + i]
    return m


@njit(cache=True)
def num_active(s):
    c = 0
    for i in range(s[H_N]):
        c += s[ACTIVE + i]
    return c


@njit(cache=True)
def pot(s):
    """All chips committed so far, current-street bets included (pokerkit total_pot_amount)."""
    t = 0
    for i in range(s[H_N]):
        t += s[COMMIT + i]
    return t


@njit(cache=True)
def effective_stack(s, p):
    # pokerkit get_effective_stack: what p can still lose = min(stack, second-largest
    # (bet + stack) among players in the hand - p's bet).
    n = s[H_N]
    if s[ACTIVE + p] == 0:
        return 0
    first = -1
    second = -1
    for i in range(n):
        if s[ACTIVE + i]:
            t = s[BET + i] + s[STACK + i]
            if t > first:
                second = first
                first = t
            elif t > second:
                second = t
    e = second - s[BET + p]
    if e < 0:
        e = 0
    if s[STACK + p] < e:
        e = s[STACK + p]
    return e


@njit(cache=True)
def _next_pending(s, start):
    n = s[H_N]
    for k in range(n):
        seat = (start + k) % n
        if s[PENDING + seat]:
            return seat
    return -1


@njit(cache=True)
def init_hand(s, n, stacks, sb, bb, button):
    """Fill ``s`` with a fresh hand (blinds posted, no cards dealt). Returns nothing."""
    s[:] = 0
    s[H_N] = n
    s[H_SB] = sb
    s[H_BB] = bb
    s[H_BUTTON] = button
    for i in range(n):
        s[STACK + i] = stacks[i]
        s[START + i] = stacks[i]
        s[ACTIVE + i] = 1
    # Blinds. Heads-up the button posts the small blind (pokerkit reverses the blinds for 2).
    if n == 2:
        sb_seat = button
        bb_seat = (button + 1) % n
    else:
        sb_seat = (button + 1) % n
        bb_seat = (button + 2) % n
    a = sb if sb < s[STACK + sb_seat] else s[STACK + sb_seat]
    s[STACK + sb_seat] -= a
    s[BET + sb_seat] += a
    s[COMMIT + sb_seat] += a
    a = bb if bb < s[STACK + bb_seat] else s[STACK + bb_seat]
    s[STACK + bb_seat] -= a
    s[BET + bb_seat] += a
    s[COMMIT + bb_seat] += a
    s[H_STREET] = 0
    s[H_STAGE] = STAGE_DEAL
    s[H_ACTOR] = CHANCE


@njit(cache=True)
def new_hand(stacks, sb, bb, button, cards, ncards):
    """A new hand state: ``stacks`` per seat, blinds, button seat; ``cards[:ncards]`` dealt in
    deal order (hole cards seat by seat, then the board). With ``ncards == 0`` the state starts
    at a chance node. Cards must be distinct values 0..51 (checked by the Python wrappers)."""
    s = np.zeros(STATE_SIZE, np.int64)
    n = stacks.shape[0]
    init_hand(s, n, stacks, sb, bb, button)
    for k in range(ncards):
        s[CARDS + k] = cards[k]
        s[H_USED] |= np.int64(1) << cards[k]
    s[H_NDEALT] = ncards
    advance(s)
    return s


@njit(cache=True)
def _begin_betting(s):
    n = s[H_N]
    s[H_CBR] = 0
    s[H_SHORT] = 0
    s[H_RAISES] = 0
    for i in range(n):
        s[ACTED + i] = 0
        s[PENDING + i] = 0
    s[H_STAGE] = STAGE_BET
    if s[H_STREET] == 0:
        # pokerkit Opening.POSITION: the player after the largest blind (ties -> later position).
        # Heads-up both players are blind posters; otherwise positions 0 and 1.
        nb = n if n == 2 else 2
        best_pos = 0
        best_bet = -1
        for pos in range(nb):
            b = s[BET + seat_of_pos(s, pos)]
            if b >= best_bet:
                best_bet = b
                best_pos = pos
        opener = seat_of_pos(s, (best_pos + 1) % n)
    else:
        opener = seat_of_pos(s, 0)
    count = 0
    last = -1
    for i in range(n):
        if s[ACTIVE + i] and s[STACK + i] > 0 and effective_stack(s, i) > 0:
            s[PENDING + i] = 1
            count += 1
            last = i
    # pokerkit: a lone player who already matches the largest bet has nothing to decide.
    if count == 1 and s[BET + last] >= max_bet(s):
        s[PENDING + last] = 0
    s[H_ACTOR] = _next_pending(s, opener)


@njit(cache=True)
def _end_street(s):
    n = s[H_N]
    # Uncalled chips above the second-largest bet go back (pokerkit bet collection).
    first = -1
    second = -1
    for i in range(n):
        b = s[BET + i]
        if b > first:
            second = first
            first = b
        elif b > second:
            second = b
    for i in range(n):
        if s[BET + i] > second:
            extra = s[BET + i] - second
            s[STACK + i] += extra
            s[COMMIT + i] -= extra
        s[BET + i] = 0
        s[PENDING + i] = 0
    with_chips = 0
    for i in range(n):
        if s[ACTIVE + i] and s[STACK + i] > 0:
            with_chips += 1
    if with_chips <= 1:
        s[H_ALLIN] = 1
    if num_active(s) <= 1:
        _settle_uncontested(s)
    elif s[H_STREET] >= 3:
        _showdown(s)
    else:
        s[H_STREET] += 1
        s[H_STAGE] = STAGE_DEAL


@njit(cache=True)
def _settle_uncontested(s):
    n = s[H_N]
    total = pot(s)
    for i in range(n):
        s[PAYOFF + i] = -s[COMMIT + i]
        if s[ACTIVE + i]:
            s[PAYOFF + i] += total
    s[H_STAGE] = STAGE_DONE
    s[H_ACTOR] = TERMINAL


@njit(cache=True)
def hand_value(s, seat):
    n = s[H_N]
    b = CARDS + 2 * n
    return evaluate7(
        s[CARDS + 2 * seat], s[CARDS + 2 * seat + 1], s[b], s[b + 1], s[b + 2], s[b + 3], s[b + 4]
    )


@njit(cache=True)
def _award(s, amount, mask, values):
    # Split `amount` among the best hands in `mask`; odd chips to the first winner left of the
    # button (lowest position), as pokerkit does (divmod, remainder to the first winner).
    n = s[H_N]
    if mask == 0 or amount == 0:
        return  # pokerkit burns such chips; cannot happen with legal play
    best = -1
    for i in range(n):
        if (mask >> i) & 1 and values[i] > best:
            best = values[i]
    k = 0
    for i in range(n):
        if (mask >> i) & 1 and values[i] == best:
            k += 1
    q = amount // k
    r = amount - q * k
    first = True
    for pos in range(n):
        i = seat_of_pos(s, pos)
        if (mask >> i) & 1 and values[i] == best:
            s[PAYOFF + i] += q
            if first:
                s[PAYOFF + i] += r
                first = False


@njit(cache=True)
def _next_level(s, prev):
    # smallest committed amount above `prev`, or -1
    level = -1
    for i in range(s[H_N]):
        c = s[COMMIT + i]
        if c > prev and (level < 0 or c < level):
            level = c
    return level


@njit(cache=True)
def _showdown(s):
    values = np.full(MAX_PLAYERS, -1, np.int64)
    for i in range(s[H_N]):
        if s[ACTIVE + i]:
            values[i] = hand_value(s, i)
    settle_showdown(s, values)


@njit(cache=True)
def settle_showdown(s, values):
    """Share the pots of a hand at its showdown among the players in the hand by their hand
    ``values`` (higher wins; -1 for folded seats): the payoffs, and the hand is over."""
    n = s[H_N]
    for i in range(n):
        s[PAYOFF + i] = -s[COMMIT + i]
    # Pots are layered by distinct committed amounts (pokerkit State.pots); a layer's contenders
    # are the players still in the hand who committed at least that much.
    # Pass 1 -- pokerkit mucks/kills every hand that cannot win any pot before pushing chips, so
    # the contenders that matter are the players with a best hand in at least one layer.
    winners = 0
    prev = 0
    while True:
        level = _next_level(s, prev)
        if level < 0:
            break
        best = -1
        for i in range(n):
            if s[ACTIVE + i] and s[COMMIT + i] >= level and values[i] > best:
                best = values[i]
        for i in range(n):
            if s[ACTIVE + i] and s[COMMIT + i] >= level and values[i] == best:
                winners |= 1 << i
        prev = level
    # Pass 2 -- layers with contenders restricted to those players; consecutive layers with the
    # same contenders merge into one pot before it is split (this decides where odd chips go).
    prev = 0
    cur_amount = 0
    cur_mask = -1
    while True:
        level = _next_level(s, prev)
        if level < 0:
            break
        amount = 0
        mask = 0
        for i in range(n):
            if s[COMMIT + i] >= level:
                amount += level - prev
                if s[ACTIVE + i] and (winners >> i) & 1:
                    mask |= 1 << i
        if mask == cur_mask:
            cur_amount += amount
        else:
            if cur_mask >= 0:
                _award(s, cur_amount, cur_mask, values)
            cur_amount = amount
            cur_mask = mask
        prev = level
    if cur_mask >= 0:
        _award(s, cur_amount, cur_mask, values)
    s[H_SHOWDOWN] = 1
    s[H_STAGE] = STAGE_DONE
    s[H_ACTOR] = TERMINAL


@njit(cache=True)
def advance(s):
    """Run the automatic steps (start of a street, end of a street, showdown) until a player or
    chance has to act or the hand is over. Sets ``s[H_ACTOR]``."""
    n = s[H_N]
    while True:
        stage = s[H_STAGE]
        if stage == STAGE_DONE:
            s[H_ACTOR] = TERMINAL
            return
        if stage == STAGE_DEAL:
            if s[H_NDEALT] < 2 * n + _board_count(s[H_STREET]):
                s[H_ACTOR] = CHANCE
                return
            _begin_betting(s)
        # STAGE_BET
        if s[H_ACTOR] >= 0 and num_active(s) > 1:
            return
        _end_street(s)


@njit(cache=True)
def next_actor(s):
    """The seat to act, CHANCE (-1) or TERMINAL (-4)."""
    return s[H_ACTOR]


@njit(cache=True)
def is_terminal(s):
    return s[H_STAGE] == STAGE_DONE


@njit(cache=True)
def payoffs(s):
    """Chips won minus chips committed, per seat (valid at a terminal state)."""
    n = s[H_N]
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = s[PAYOFF + i]
    return out


@njit(cache=True)
def legal(s):
    """``(can_fold, can_check_call, call_amount, min_raise_to, max_raise_to)`` for the actor.

    ``min_raise_to == max_raise_to == -1`` when raising is not allowed. At a chance or terminal
    node everything is False / -1.
    """
    p = s[H_ACTOR]
    if p < 0:
        return False, False, -1, -1, -1
    n = s[H_N]
    mb = max_bet(s)
    bet = s[BET + p]
    stack = s[STACK + p]
    owe = mb - bet
    call = owe if owe < stack else stack
    can_fold = bet < mb  # no fold when checking is free (pokerkit Mode.TOURNAMENT)
    can_raise = True
    cbr = s[H_CBR]
    if call < cbr:
        can_raise = False  # facing a short all-in after having acted (pokerkit)
    elif s[H_SHORT] > 0 and s[H_SHORT] < cbr and s[ACTED + p]:
        can_raise = False  # short all-in(s) not summing to a full raise: no reopening
    elif stack <= owe:
        can_raise = False  # calling already puts the player all-in
    else:
        other = False
        for i in range(n):
            if i != p and s[ACTIVE + i] and s[STACK + i] + s[BET + i] > mb:
                other = True
                break
        if not other:
            can_raise = False  # everyone else is all-in or folded: a raise is pointless
    if not can_raise:
        return can_fold, True, call, -1, -1
    inc = cbr if cbr > s[H_BB] else s[H_BB]
    hi = stack + bet
    lo = mb + inc
    if lo > hi:
        lo = hi
    return can_fold, True, call, lo, hi


@njit(cache=True)
def _after_action(s, p):
    s[H_NACT] += 1
    s[H_ACTOR] = _next_pending(s, p + 1)
    advance(s)


@njit(cache=True)
def apply_fold(s):
    p = s[H_ACTOR]
    if p < 0:
        return ERR_NOT_DECISION
    if s[BET + p] >= max_bet(s):
        return ERR_CANNOT_FOLD
    s[ACTIVE + p] = 0
    s[PENDING + p] = 0
    s[ACTED + p] = 1
    _after_action(s, p)
    return 0


@njit(cache=True)
def apply_call(s):
    """Check or call (all-in for less when the stack is short)."""
    p = s[H_ACTOR]
    if p < 0:
        return ERR_NOT_DECISION
    owe = max_bet(s) - s[BET + p]
    a = owe if owe < s[STACK + p] else s[STACK + p]
    s[STACK + p] -= a
    s[BET + p] += a
    s[COMMIT + p] += a
    s[PENDING + p] = 0
    s[ACTED + p] = 1
    _after_action(s, p)
    return 0


@njit(cache=True)
def apply_raise_to(s, amount):
    """Bet or raise to ``amount`` (the player's total bet on this street)."""
    p = s[H_ACTOR]
    if p < 0:
        return ERR_NOT_DECISION
    _, _, _, lo, hi = legal(s)
    if lo < 0:
        return ERR_CANNOT_RAISE
    if amount < lo or amount > hi:
        return ERR_RAISE_SIZE
    n = s[H_N]
    mb = max_bet(s)
    inc = amount - mb
    delta = amount - s[BET + p]
    s[BET + p] = amount
    s[STACK + p] -= delta
    s[COMMIT + p] += delta
    # Everyone else still in with chips must act again (pokerkit rebuilds actor_indices).
    for i in range(n):
        s[PENDING + i] = 1 if (i != p and s[ACTIVE + i] and s[STACK + i] > 0) else 0
    if inc >= s[H_CBR]:
        # A full raise reopens the betting for everyone.
        for i in range(n):
            s[ACTED + i] = 0
        s[H_CBR] = inc
    s[ACTED + p] = 1
    if s[STACK + p] > 0:
        s[H_SHORT] = 0
    else:
        s[H_SHORT] += inc
    if s[H_SHORT] >= s[H_CBR]:
        s[H_SHORT] = 0  # consecutive all-ins added up to a full raise: reopened
    s[H_RAISES] += 1
    _after_action(s, p)
    return 0


@njit(cache=True)
def apply_action(s, kind, amount):
    """``kind`` KIND_FOLD / KIND_CALL / KIND_RAISE (``amount`` = raise-to)."""
    if kind == KIND_FOLD:
        return apply_fold(s)
    if kind == KIND_CALL:
        return apply_call(s)
    return apply_raise_to(s, amount)


@njit(cache=True)
def deal_card(s, card):
    """Deal the next card (chance action)."""
    if s[H_ACTOR] != CHANCE:
        return ERR_NOT_CHANCE
    if card < 0 or card > 51 or (s[H_USED] >> card) & 1:
        return ERR_BAD_CARD
    k = s[H_NDEALT]
    s[CARDS + k] = card
    s[H_USED] |= np.int64(1) << card
    s[H_NDEALT] = k + 1
    advance(s)
    return 0


@njit(cache=True)
def board_cards(s):
    n = s[H_N]
    k = s[H_NDEALT] - 2 * n
    if k < 0:
        k = 0
    vis = _board_count(s[H_STREET])
    if s[H_STAGE] == STAGE_DONE:
        vis = 5 if s[H_SHOWDOWN] else vis
    if k > vis:
        k = vis
    out = np.empty(k, np.int64)
    for j in range(k):
        out[j] = s[CARDS + 2 * n + j]
    return out


# ---- batch kernel: random complete hands (benchmark, fuzzing) ----------------------------------


@njit(cache=True)
def _deal_deck(s, deck, need):
    # partial Fisher-Yates: the first `need` cards of a fresh shuffle
    for k in range(need):
        j = k + np.random.randint(0, 52 - k)
        t = deck[k]
        deck[k] = deck[j]
        deck[j] = t
        s[CARDS + k] = deck[k]
        s[H_USED] |= np.int64(1) << deck[k]
    s[H_NDEALT] = need


@njit(cache=True)
def random_policy_step(s, min_bias):
    """One random action: kind uniform over the legal kinds; raise-to uniform in [min, max],
    or exactly the minimum with probability ``min_bias``."""
    can_fold, _, _, lo, hi = legal(s)
    nk = 1 + (1 if can_fold else 0) + (1 if lo >= 0 else 0)
    r = np.random.randint(0, nk)
    if can_fold:
        if r == 0:
            return apply_fold(s)
        r -= 1
    if r == 0:
        return apply_call(s)
    if min_bias > 0.0 and np.random.random() < min_bias:
        return apply_raise_to(s, lo)
    return apply_raise_to(s, np.random.randint(lo, hi + 1))


@njit(cache=True)
def play_random_hands(num_hands, stacks, sb, bb, seed, min_bias, out_payoffs):
    """Play ``num_hands`` complete hands with a seeded random policy; the button moves one seat
    each hand. Writes per-seat payoffs to ``out_payoffs[h]`` (shape (num_hands, n)) and returns
    the number of player actions taken."""
    np.random.seed(seed)
    n = stacks.shape[0]
    s = np.zeros(STATE_SIZE, np.int64)
    deck = np.arange(52)
    actions = 0
    for h in range(num_hands):
        init_hand(s, n, stacks, sb, bb, h % n)
        _deal_deck(s, deck, 2 * n + 5)
        advance(s)
        while s[H_STAGE] != STAGE_DONE:
            random_policy_step(s, min_bias)
            actions += 1
        for i in range(n):
            out_payoffs[h, i] = s[PAYOFF + i]
    return actions
