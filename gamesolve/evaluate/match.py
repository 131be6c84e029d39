"""Matches between agents, for any game of the contract, with duplicate dealing.

How a match is played
---------------------
A match is a number of **deals**. A deal is one seeded sequence of chance outcomes; it is
played once for each of the P rotations of the agents around the table (agent ``i`` sits
in seat ``(i + r) % P`` in rotation ``r``), so every agent plays every seat with the same
cards: this is *duplicate* dealing, and it cancels most of the luck of the deal.

Replaying a deal: the k-th chance event of every rotation takes the k-th recorded outcome
if it is still legal there (with positive probability); otherwise a fresh outcome is drawn
from the deal's own random stream (the record keeps the first one). Events beyond the
record are drawn and appended. For NLTH the dealing order is fixed by seat (two cards per
seat, then the board), so a seat gets the same hole cards, and the board is the same, in
every rotation.

Statistics
----------
An agent's result for a deal is its total winnings over the P rotations divided by P (a
per-hand figure). The deals are independent, so the win rate is the mean over deals and
its standard error is their sample standard deviation over sqrt(deals). The one-tailed
p-value tests "win rate > 0" (normal approximation; see :mod:`gamesolve.evaluate.statistics`).
For games with a ``big_blind`` parameter results are reported in **mbb/game**
(thousandths of a big blind per hand); otherwise in the game's own units per hand.

Everything is deterministic for a seed: chance draws use ``random.Random`` streams seeded
by ``(seed, deal)``, and agents are built with seeds derived from the match seed. Agents
that reseed per hand (``gamesolve.agents.hand_seed``; every built-in agent does) make each
hand a function of the seed and its number alone, so ``workers`` processes playing ranges
of deals give exactly the single-process result.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from gamesolve.agents import Agent, AgentSpec
from gamesolve.evaluate.statistics import win_rate
from gamesolve.game.state import CHANCE, Game, State
from gamesolve.json_report import number


class MatchError(ValueError):
    """A match cannot be played as asked (bad agent list, an agent chose an illegal action...)."""


@attrs.frozen
class HandRecord:
    """One hand of a match, kept for hand histories.

    ``seats[s]`` is the name of the agent in seat ``s``; ``state`` is the terminal state.
    """

    number: int
    deal: int
    rotation: int
    seats: tuple[str, ...]
    state: State
    returns: tuple[float, ...]


@attrs.frozen
class AgentResult:
    """One agent's results: per-hand win rate in ``unit``, its standard error, p-value;
    ``aivat`` (with ``--aivat``, for agents that expose their strategy): the AIVAT-corrected
    ``win_rate``, ``stderr``, ``p_value`` and ``variance_reduction`` (raw variance / AIVAT
    variance of the per-deal samples); ``complement`` True for the one agent of a zero-sum
    match that does not expose its strategy while all the others do (minus their sum)."""

    name: str
    win_rate: float
    stderr: float
    p_value: float
    total: float  # total winnings in game units over all hands
    hands: int
    aivat: dict[str, float] | None = None
    latency: dict[str, Any] | None = None  # seconds per decision: see :func:`latency_summary`


@attrs.define
class MatchResult:
    game: str
    players: int
    deals: int
    hands: int
    unit: str
    scale: float  # multiply game units per hand by this to get ``unit``
    agents: list[AgentResult]
    seconds: float
    seed: int
    records: list[HandRecord] = attrs.field(factory=list, repr=False)
    # with aivat: per deal, each agent's AIVAT estimate in game units per hand (the zero-sum
    # complement's as minus the others'; None for an agent without one), for paired analyses
    aivat_deals: list[list[float | None]] = attrs.field(factory=list, repr=False)
    # per deal, each agent's winnings in game units per hand (the raw twin of ``aivat_deals``;
    # the win rates average these)
    deal_returns: list[list[float]] = attrs.field(factory=list, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """The JSON report: per-agent win rate, standard error, p-value, hands."""
        return {
            "game": self.game,
            "players": self.players,
            "deals": self.deals,
            "hands": self.hands,
            "unit": self.unit,
            "seed": self.seed,
            "seconds": self.seconds,
            "hands_per_second": self.hands / self.seconds if self.seconds > 0 else None,
            "agents": [attrs.asdict(a) for a in self.agents],
        }

    def summary_lines(self) -> list[str]:
        w = max([24] + [len(a.name) for a in self.agents])  # the name column fits the longest name
        lines = [
            f"game        {self.game} ({self.players} players)",
            f"hands       {self.hands:,} ({self.deals:,} duplicate deals x {self.players} seatings) in {self.seconds:.2f} s",
            f"{'agent':<{w}} {self.unit:>12} {'± SE':>10} {'p(>0)':>8}",
        ]
        for a in self.agents:
            lines.append(f"{a.name:<{w}} {a.win_rate:>+12.2f} {number(a.stderr, '>10.2f')} {number(a.p_value, '>8.4f')}")
        slow = [a for a in self.agents if a.latency and a.latency["p95"] >= 0.1]
        if slow:
            lines.append("seconds per decision (median / 95th percentile, by round):")
            for a in slow:
                rounds = " ".join(f"r{r}={v['median']:.2f}/{v['p95']:.2f}" for r, v in a.latency["by_round"].items())
                lines.append(f"{a.name:<{w}} {a.latency['median']:>8.2f} / {a.latency['p95']:.2f}  {rounds}")
                if "searched" in a.latency:
                    s = a.latency["searched"]
                    rounds = " ".join(f"r{r}={v['median']:.2f}/{v['p95']:.2f}" for r, v in s["by_round"].items())
                    lines.append(f"{'  searched decisions':<{w}} {s['median']:>8.2f} / {s['p95']:.2f}  {rounds}  ({s['decisions']:,})")
        corrected = [a for a in self.agents if a.aivat]
        if corrected:
            lines.append("AIVAT (agents that expose their strategy; docs/evaluation.md):")
            lines.append(f"{'agent':<{w}} {self.unit:>12} {'± SE':>10} {'p(>0)':>8} {'variance':>10}")
            for a in corrected:
                v = a.aivat
                lines.append(f"{a.name:<{w}} {v['win_rate']:>+12.2f} {number(v['stderr'], '>10.2f')} {number(v['p_value'], '>8.4f')} "
                             f"{'/' + format(v['variance_reduction'], '.1f'):>10}"
                             + ("  (minus the others' AIVAT sum: zero-sum)" if v.get("complement") else ""))
        return lines


def latency_summary(decisions: Sequence[tuple[int, float, bool]]) -> dict[str, Any] | None:
    """Seconds per decision: count, median, 95th percentile and max, overall, by round
    (``by_round[r]``) and, for an agent that searched, over the decisions a search decided
    (``searched``, with its own ``by_round``); None for an agent that made no decision."""
    if not decisions:
        return None

    def stats(seconds: list[float]) -> dict[str, float]:
        x = np.asarray(seconds)
        return {"decisions": len(x), "median": float(np.median(x)), "p95": float(np.percentile(x, 95)), "max": float(x.max())}

    def summary(rows) -> dict[str, Any]:
        by_round: dict[int, list[float]] = {}
        for r, t, _ in rows:
            by_round.setdefault(int(r), []).append(t)
        return {**stats([t for _, t, _ in rows]), "by_round": {r: stats(v) for r, v in sorted(by_round.items())}}

    out = summary(decisions)
    searched = [d for d in decisions if d[2]]
    if searched:
        out["searched"] = summary(searched)
    return out


def unit_of(game: Game) -> tuple[str, float]:
    """``("mbb/game", 1000 / big_blind)`` for games with a big blind; else the game's units."""
    bb = game.params.get("big_blind")
    if bb:
        return "mbb/game", 1000.0 / float(bb)
    return "units/game", 1.0


def deals_for(hands: int, players: int) -> int:
    """Duplicate deals needed for at least ``hands`` hands (each deal is ``players`` hands)."""
    return max(1, -(-int(hands) // int(players)))


class _DealReplay:
    """Chance outcomes of one deal, recorded on its first play and replayed afterwards."""

    def __init__(self, seed: int, deal: int):
        self.rng = random.Random(f"gamesolve-match:{seed}:{deal}")
        self.record: list[int] = []

    def outcome(self, state: State, index: int) -> int:
        outcomes = state.chance_outcomes()
        if index < len(self.record):
            wanted = self.record[index]
            for action, p in outcomes:
                if action == wanted and p > 0:
                    return wanted
        drawn = _sample(outcomes, self.rng.random())
        if index >= len(self.record):
            self.record.append(drawn)
        return drawn


def _sample(outcomes: Sequence[tuple[int, float]], u: float) -> int:
    total = 0.0
    for _, p in outcomes:
        total += p
    x = u * total
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc and p > 0:
            return action
    return next(a for a, p in reversed(outcomes) if p > 0)


def play_hand(game: Game, seated: Sequence[Agent], number: int, replay: _DealReplay,
              steps: list[tuple[State, int]] | None = None,
              decisions: list[list[tuple[int, float, bool]]] | None = None) -> State:  # fmt: skip
    """Play one hand with ``seated[s]`` in seat ``s``; return the terminal state.
    ``steps`` (if given) receives every transition ``(state, action)``; ``decisions[s]`` (if
    given) the ``(round, seconds, searched)`` of each decision of seat ``s``: the time in
    ``act`` plus the time the agent spent observing since its previous decision (a search may
    run there), and whether a search decided it (:attr:`Agent.last_searched`)."""
    for seat, agent in enumerate(seated):
        agent.new_hand(seat, number)
    state = game.new_initial_state()
    chance_index = 0
    busy = [0.0] * len(seated)
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = replay.outcome(state, chance_index)
            chance_index += 1
        else:
            started = time.perf_counter()
            action = seated[player].act(state, player)
            if decisions is not None:
                decisions[player].append((state.betting_round(), busy[player] + time.perf_counter() - started,
                                          seated[player].last_searched))  # fmt: skip
                busy[player] = 0.0
        for seat, agent in enumerate(seated):
            started = time.perf_counter()
            agent.observe(state, action)
            busy[seat] += time.perf_counter() - started
        if steps is not None:
            steps.append((state, action))
        try:
            state = state.child(action)
        except ValueError as exc:
            who = "chance" if player == CHANCE else f"agent {getattr(seated[player], 'name', '?')!r} in seat {player}"
            raise MatchError(f"hand {number}: {who} chose an illegal action {action}: {exc}") from None
    return state


def play_match(
    game: Game,
    agents: Sequence[Agent],
    hands: int,
    *,
    seed: int = 0,
    names: Sequence[str] | None = None,
    progress=None,
    keep_hands: bool = False,
    workers: int = 1,
    aivat: bool = False,
    aivat_values: str | None = None,
    plugins=None,
    remote: Callable[[int, int, Any], list] | None = None,
) -> MatchResult:
    """Play at least ``hands`` hands (whole duplicate deals) between ``agents``, one per seat.

    :param agents: one agent per player; agent ``i`` sits in seat ``(i + r) % P`` in rotation ``r``.
    :param names: names to report (default: each agent's ``name``, numbered when repeated).
    :param progress: a :class:`gamesolve.solve.spec.Progress` (e.g. the CLI's bar), advanced per deal.
    :param keep_hands: keep a :class:`HandRecord` per hand (for hand histories).
    :param workers: processes to play the deals in (forked copies of the agents). The result
        equals the single-process one when every agent reseeds per hand (see
        :class:`gamesolve.agents.Agent`).
    :param remote: play the deals elsewhere, with ``workers`` workers:
        ``remote(n_deals, workers, progress)`` returns the played deal ranges in deal order
        (:meth:`Table.play_deals`' results), e.g. a Ray cluster's
        (:func:`gamesolve.evaluate.match_ray.ray_runner`); the same result again.
    :param aivat: also report AIVAT-corrected win rates for the agents that expose their
        strategy (:mod:`gamesolve.evaluate.aivat`), and, in a zero-sum game, for the one agent
        that does not when all the others do (minus the sum of their estimates); ``plugins`` (the plugin manager) lets a
        game's plugin supply a faster estimator; ``aivat_values`` names the value function
        when the plugin offers several (None: its default).
    """
    p = game.num_players
    if len(agents) != p:
        raise MatchError(f"{game.name} with {p} players needs {p} agents, got {len(agents)}")
    if int(hands) < 1:
        raise MatchError(f"hands must be at least 1, got {hands}")
    if int(workers) < 1:
        raise MatchError(f"workers must be at least 1, got {workers}")
    names = list(names) if names is not None else default_names([getattr(a, "name", "agent") for a in agents])
    n_deals = deals_for(hands, p)
    unit, scale = unit_of(game)
    if progress is not None:
        progress.start(n_deals * p, "hands", f"{game.name} match")
    started = time.perf_counter()
    estimators = None
    if aivat:
        from gamesolve.evaluate.aivat import aivat_estimators

        estimators = aivat_estimators(game, agents, plugins, aivat_values)
        if not any(estimators):
            raise MatchError("--aivat: no agent of this match exposes its strategy (policy, search, blueprint agents do)")
    table = Table(game, list(agents), names, seed, keep_hands, estimators)
    if remote is not None:
        played = remote(n_deals, int(workers), progress)
    elif workers == 1:
        played = []
        for deal in range(n_deals):
            played.append(table.play_deals(deal, deal + 1))
            if progress is not None:
                progress.advance(p)
    else:
        played = _play_in_workers(table, n_deals, int(workers), progress)
    seconds = time.perf_counter() - started
    per_deal = [row for part in played for row in part[0]]
    deal_totals = [row for part in played for row in part[1]]
    totals = [sum(row[i] for row in deal_totals) for i in range(p)]  # in deal order, whatever the workers
    records = [r for part in played for r in part[2]]
    corrected = [row for part in played for row in part[3]]
    decisions = [[d for part in played for d in part[4][i]] for i in range(p)]
    complement = _complement_agent(game, estimators, per_deal)
    estimated = [estimators is not None and (estimators[i] is not None or i == complement) for i in range(p)]
    aivat_deals = [_aivat_row(row, estimated, complement) for row in corrected]
    results = []
    for i in range(p):
        wr = win_rate([row[i] * scale for row in per_deal])
        extra = None
        if estimated[i]:
            av = win_rate([row[i] * scale for row in aivat_deals])
            if i == complement:  # zero-sum: its winnings are minus the others', estimate by estimate
                values = "zero-sum complement: minus the sum of the other agents' AIVAT estimates"
            else:
                values = getattr(estimators[i], "description", "")
            reduction = (wr.stderr / av.stderr) ** 2 if av.stderr > 0 else float("inf")
            extra = {"win_rate": av.mean, "stderr": av.stderr, "p_value": av.p_value, "variance_reduction": reduction,
                     "values": values, "complement": i == complement}
        results.append(AgentResult(names[i], wr.mean, wr.stderr, wr.p_value, totals[i], n_deals * p, extra,
                                   latency_summary(decisions[i])))  # fmt: skip
    return MatchResult(game.name, p, n_deals, n_deals * p, unit, scale, results, seconds, seed, records, aivat_deals,
                       [list(row) for row in per_deal])  # fmt: skip


def _aivat_row(row: Sequence[float], estimated: Sequence[bool], complement: int | None) -> list[float | None]:
    """One deal's AIVAT estimates: each estimated agent's own, the zero-sum complement's as
    minus the others' (estimate by estimate), None for an agent without one."""
    return [(-sum(x for j, x in enumerate(row) if j != i) if i == complement else row[i]) if estimated[i] else None
            for i in range(len(row))]  # fmt: skip


def _complement_agent(game: Game, estimators, per_deal: Sequence[Sequence[float]]) -> int | None:
    """The one agent without an AIVAT estimator when every other agent has one, in a zero-sum
    game (every deal's results summing to zero, as checked here too): its corrected win rate is
    then minus the sum of the others' AIVAT estimates, unbiased because theirs are (a search
    agent, whose strategy over its other hands is only modelled, at a table of blueprints).
    None otherwise."""
    if estimators is None or not game.zero_sum:
        return None
    missing = [i for i, e in enumerate(estimators) if e is None]
    if len(missing) != 1:
        return None
    if any(abs(math.fsum(row)) > 1e-9 * max(1.0, max(abs(x) for x in row)) for row in per_deal):
        return None
    return missing[0]


@attrs.frozen(eq=False)
class Table:
    """The agents of a match at one table; plays ranges of deals."""

    game: Game
    agents: list[Agent]
    names: list[str]
    seed: int
    keep_hands: bool
    estimators: list | None = None  # AIVAT estimator per agent (None: not evaluated)

    def play_deals(self, first: int, last: int) -> tuple[list[list[float]], list[list[float]], list[HandRecord], list[list[float]], list[list[tuple[int, float]]]]:
        """Deals ``first..last-1``: per deal and agent the result per hand and the total
        winnings; the hand records; per deal and agent the AIVAT estimate per hand; per agent
        the ``(round, seconds)`` of its decisions."""
        from gamesolve.evaluate.aivat import HandLog

        p = self.game.num_players
        per_deal = []
        deal_totals = []
        corrected = []
        records: list[HandRecord] = []
        decisions: list[list[tuple[int, float, bool]]] = [[] for _ in range(p)]  # per agent
        for deal in range(first, last):
            replay = _DealReplay(self.seed, deal)
            row = [0.0] * p
            totals = [0.0] * p
            aivat_row = [0.0] * p
            for rotation in range(p):
                seat_of = [(i + rotation) % p for i in range(p)]
                seated: list[Agent] = [None] * p  # type: ignore[list-item]
                for i, s in enumerate(seat_of):
                    seated[s] = self.agents[i]
                number = deal * p + rotation
                steps: list | None = [] if self.estimators is not None else None
                seat_decisions: list[list[tuple[int, float, bool]]] = [[] for _ in range(p)]
                final = play_hand(self.game, seated, number, replay, steps, seat_decisions)
                for i, s in enumerate(seat_of):
                    decisions[i].extend(seat_decisions[s])
                rets = [float(x) for x in final.returns()]
                for i, s in enumerate(seat_of):
                    row[i] += rets[s] / p
                    totals[i] += rets[s]
                if self.estimators is not None:  # right after the hand: agents still hold its state
                    log = HandLog(tuple(steps), final)
                    for i, s in enumerate(seat_of):
                        if self.estimators[i] is not None:
                            aivat_row[i] += self.estimators[i].estimate(log, s) / p
                if self.keep_hands:
                    seat_names = [""] * p
                    for i, s in enumerate(seat_of):
                        seat_names[s] = self.names[i]
                    records.append(HandRecord(number, deal, rotation, tuple(seat_names), final, tuple(rets)))
            per_deal.append(row)
            deal_totals.append(totals)
            if self.estimators is not None:
                corrected.append(aivat_row)
        return per_deal, deal_totals, records, corrected, decisions


_FORKED_TABLE: Table | None = None  # the table a forked worker plays at (inherited, not sent)


def _worker_play(bounds: tuple[int, int]):
    return _FORKED_TABLE.play_deals(*bounds)


def _play_in_workers(table: Table, n_deals: int, workers: int, progress) -> list:
    """Deal ranges played by ``workers`` forked processes, results in deal order."""
    global _FORKED_TABLE
    if "fork" not in multiprocessing.get_all_start_methods():
        raise MatchError("--workers above 1 needs the 'fork' start method (Linux, macOS); use --workers 1")
    size = max(1, min(64, n_deals // (workers * 8)))
    chunks = [(a, min(a + size, n_deals)) for a in range(0, n_deals, size)]
    _FORKED_TABLE = table
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            played = []
            for part in pool.imap(_worker_play, chunks):
                played.append(part)
                if progress is not None:
                    progress.advance(len(part[0]) * table.game.num_players)
            return played
    finally:
        _FORKED_TABLE = None


def default_names(names: Sequence[str]) -> list[str]:
    """Agent names, numbered where repeated: ``["tag", "tag", "call"] -> ["tag#1", "tag#2", "call"]``."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if counts[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            out.append(f"{n}#{seen[n]}")
        else:
            out.append(n)
    return out


def parse_agent(text: str) -> tuple[str, dict[str, str]]:
    """``"name:key=value:key2=value2"`` -> ``("name", {"key": "value", ...})``."""
    name, *parts = text.strip().split(":")
    if not name:
        raise MatchError(f"agent {text!r}: expected NAME or NAME:KEY=VALUE[:KEY=VALUE...]")
    options = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise MatchError(f"agent {text!r}: option {part!r} is not KEY=VALUE")
        options[key.strip().replace("-", "_")] = value.strip()
    return name, options


def agent_seed(seed: int, index: int) -> int:
    """The seed agent ``index`` of a match with ``seed`` is built with (distinct per agent)."""
    return (int(seed) * 1_000_003 + 7919 * (index + 1)) % (2**63)


def make_agents(registry, game: Game, texts: Sequence[str], seed: int, plugins=None) -> tuple[list[Agent], list[str]]:
    """Build agents from ``NAME[:KEY=VALUE...]`` texts with the agent registry; return agents and names.

    ``plugins`` (the plugin manager) reaches the agents whose spec ``needs_plugins``.

    Raises :class:`gamesolve.registry.RegistryError` for an unknown name and
    :class:`MatchError` for an agent that does not play ``game`` or rejects its options.
    """
    agents = []
    for index, text in enumerate(texts):
        name, options = parse_agent(text)
        spec: AgentSpec = registry.get(name)
        if not spec.supports(game):
            raise MatchError(f"agent {name!r} does not play {game.name} (it plays: {', '.join(spec.games)})")
        try:
            agents.append(spec.create(game, agent_seed(seed, index), plugins=plugins, **options))
        except TypeError as exc:
            raise MatchError(f"agent {name!r}: bad options {options}: {exc}") from None
        except ValueError as exc:
            raise MatchError(f"agent {name!r}: {exc}") from None
    labels = default_names([t.strip() for t in texts])
    return agents, labels

