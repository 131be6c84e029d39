"""Helpers for the ACPC tests: a dealer and its clients over TCP on localhost, in one process,
and open-spiel's ``universal_poker`` replaying a dealt hand (the oracle for every line sent)."""

from __future__ import annotations

import threading

import attrs

from gamesolve.evaluate.match import make_agents
from gamesolve_nlth.acpc import client
from gamesolve_nlth.acpc.dealer import Dealer, DealerConfig, deal
from gamesolve_nlth.acpc.gamedef import gamedef_fields
from gamesolve_nlth.acpc.protocol import parse_matchstate


@attrs.define
class Played:
    dealer: object  # DealerResult
    transcript: list  # (seat, line) in the order sent
    clients: list  # ClientResult per seat


def play_over_tcp(host, game, agents, hands, seed=0, timeout=60.0, log=None) -> Played:
    """``hands`` hands dealt to one client per agent (seat ``i`` plays ``agents[i]``: an agent,
    or its text for the registry); the dealer logs to ``log`` if given."""
    transcript: list = []
    listening, seated = threading.Event(), threading.Semaphore(0)
    where: list = []
    config = DealerConfig(game, hands, seed, timeout=timeout, log=log)
    dealer = Dealer(config, on_listen=lambda h, p: (where.append((h, p)), listening.set()),
                    on_seat=lambda seat: seated.release(), on_send=lambda seat, line: transcript.append((seat, line)))  # fmt: skip
    out: dict = {}
    threads = [threading.Thread(target=lambda: out.setdefault("dealer", _catch(dealer.run)))]
    threads[0].start()
    assert listening.wait(timeout), "the dealer did not start listening"
    if all(isinstance(a, str) for a in agents):
        agents, _ = make_agents(host.agents, game, agents, seed, plugins=host.pm)
    for seat, agent in enumerate(agents):
        thread = threading.Thread(target=lambda s=seat, a=agent: out.setdefault(s, _catch(lambda: client.play(game, a, client.connect(*where[0], timeout)))))
        thread.start()
        threads.append(thread)
        assert seated.acquire(timeout=timeout), f"client {seat} was not seated"
    for thread in threads:
        thread.join(timeout * 10)
    for key, value in out.items():
        if isinstance(value, BaseException):
            raise AssertionError(f"{key} failed: {value!r}") from value
    return Played(out["dealer"], transcript, [out[s] for s in range(len(agents))])


def _catch(fn):
    try:
        return fn()
    except BaseException as exc:  # reported by the caller, in the test's thread
        return exc


def universal_poker(game):
    import pyspiel

    return pyspiel.load_game("universal_poker", {**gamedef_fields(game), "bettingAbstraction": "fullgame"})


def expected_lines(up_game, game, seed: int, hand: int, final_line: str) -> tuple[list[list[str]], list[float]]:
    """What an ACPC dealer sends in hand ``hand`` (dealt by ``deal(seed, hand)``, its actions
    read from the hand's final line), by open-spiel's ``universal_poker`` -- its ACPC state
    string at every step, each player's view cut from it by ACPC's rule (others' hole cards
    only at a showdown, and only of those who did not fold) -- and its returns per position.
    ``lines[k][seat]`` is the line for ``seat`` after ``k`` actions."""
    n = game.num_players
    cards = deal(seed, hand, n)
    tokens = [t for rnd in parse_matchstate(final_line).betting for t in rnd]
    state = up_game.new_initial_state()
    for card in cards[: 2 * n]:
        state.apply_action(card)
    board = iter(cards[2 * n :])
    folded: set[int] = set()
    lines = []
    for k in range(len(tokens) + 1):
        while state.is_chance_node():
            state.apply_action(next(board))
        lines.append([_view(state, (seat - hand) % n, hand, n, folded) for seat in range(n)])
        if k == len(tokens):
            break
        token = tokens[k]
        if token == "f":
            folded.add(state.current_player())
        state.apply_action(0 if token == "f" else 1 if token == "c" else int(token[1:]))
    assert state.is_terminal(), final_line
    return lines, list(state.returns())


def _view(state, viewer: int, hand: int, n: int, folded: set[int]) -> str:
    acpc = state.to_dict()["acpc_state"].split("\n")[0]  # "STATE:0:<betting>:<cards>"
    _, _, betting, cards = acpc.split(":")
    holes, *boards = cards.split("/")
    showdown = state.is_terminal() and len(folded) < n - 1
    shown = [h if p == viewer or (showdown and p not in folded) else "" for p, h in enumerate(holes.split("|"))]
    return f"MATCHSTATE:{viewer}:{hand}:{betting}:" + "|".join(shown) + "".join("/" + b for b in boards)
