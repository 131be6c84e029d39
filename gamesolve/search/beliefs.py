"""Public belief states: the histories an outside observer cannot tell apart, with their
probabilities under a strategy profile.

Supplement, "Structure of imperfect-information subgames": the root of a subgame is a chance
node over the histories ``h`` of the root public state ``G`` with probability
``pi_sigma(h) / sum_{h' in G} pi_sigma(h')``, and each player's belief over their private
cards is updated by Bayes' rule with the profile ``sigma`` in force (the blueprint before
any search, then the latest search's average strategy).

Two representations:

* :class:`ItemRanges` keeps, per player, a vector of reach over their private states: Bayes'
  rule multiplies the actor's vector by the profile's probability of the action for each
  private state, and a public item dealt (a card) removes the states holding it. Nothing is
  enumerated: this is what the range search agent carries, at every size.
* :class:`PublicBeliefState` keeps every history of the current public state with its
  chance probability and, separately, each player's own reach ``pi_i(h)`` (the product of
  that player's action probabilities). Keeping the factors apart makes Bayes' rule a
  multiplication of one column. This exact enumeration walks the game's states; it is the
  check of the other (:class:`HistoryRanges`, ``-s beliefs=exact``).

Both give a subgame its root: every player's reach vector over private states.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamesolve.game.factored import FactoredGame, FormError
from gamesolve.game.state import CHANCE, Game, State

ActionProb = Callable[[str, int, int], float]
"""``prob(key, player, action)``: the profile's probability of ``action`` at information set ``key``."""


class ZeroReachError(ValueError):
    """No history of the public state has positive probability."""


class PublicBeliefState:
    """Histories of one public state (see the module docstring). Immutable: updates return new objects."""

    def __init__(self, num_players: int, states: list[State], chance: np.ndarray, reach: np.ndarray,
                 skipped_updates: int = 0):
        if not states:
            raise ZeroReachError("a public state needs at least one history")
        self.num_players = num_players
        self.states = states
        self.chance = chance  # float[H]: chance probability of each history
        self.reach = reach  # float[H, P]: each player's own reach
        self.skipped_updates = skipped_updates  # Bayes updates skipped because they zeroed a player

    @classmethod
    def initial(cls, game: Game) -> PublicBeliefState:
        return cls(game.num_players, [game.new_initial_state()], np.ones(1), np.ones((1, game.num_players)))

    # -- the public state --------------------------------------------------------------
    @property
    def representative(self) -> State:
        return self.states[0]

    def public_key(self) -> str:
        return self.representative.public_state_key()

    def current_player(self) -> int:
        return self.representative.current_player()

    def __len__(self) -> int:
        return len(self.states)

    # -- probabilities -----------------------------------------------------------------
    def weights(self) -> np.ndarray:
        """Normalised ``pi_sigma(h)`` over the histories (the subgame root's chance probabilities)."""
        w = self.chance * self.reach.prod(axis=1)
        total = w.sum()
        if total <= 0:
            raise ZeroReachError(f"every history of public state {self.public_key()!r} has probability 0")
        return w / total

    def beliefs(self, player: int) -> dict[str, float]:
        """``player``'s private situation (their information-state key here) -> probability."""
        out: dict[str, float] = {}
        for state, w in zip(self.states, self.weights()):
            key = state.information_state_key(player)
            out[key] = out.get(key, 0.0) + float(w)
        return out

    # -- updates -----------------------------------------------------------------------
    def after_chance(self, next_public_key: str) -> PublicBeliefState:
        """Expand chance: keep the outcomes consistent with the public state observed next
        (every outcome of a private deal, the one board card of a public deal)."""
        states, chance, reach = [], [], []
        for state, c, r in zip(self.states, self.chance, self.reach):
            if state.current_player() != CHANCE:
                raise ValueError(f"public state {self.public_key()!r} is not a chance node")
            for action, p in state.chance_outcomes():
                child = state.child(action)
                if child.public_state_key() == next_public_key:
                    states.append(child)
                    chance.append(c * p)
                    reach.append(r)
        if not states:
            raise ZeroReachError(f"no history of {self.public_key()!r} leads to public state {next_public_key!r}")
        return PublicBeliefState(self.num_players, states, np.array(chance), np.array(reach), self.skipped_updates)

    def after_action(self, action: int, prob: ActionProb) -> PublicBeliefState:
        """Bayes' rule for a public action: multiply the actor's reach by the profile's
        probability of the action at each history.

        If the profile gives the action probability 0 at *every* history (an opponent did
        what the model says never happens), the actor's beliefs are left as they were
        rather than made undefined; ``skipped_updates`` counts such events.
        """
        player = self.current_player()
        if player < 0:
            raise ValueError(f"public state {self.public_key()!r} is not a decision node")
        states = [s.child(action) for s in self.states]
        factor = np.array([prob(s.information_state_key(player), player, action) for s in self.states])
        reach = self.reach.copy()
        reach[:, player] *= factor
        skipped = self.skipped_updates
        if not (self.chance * reach.prod(axis=1)).sum() > 0:
            reach = self.reach.copy()
            skipped += 1
        return PublicBeliefState(self.num_players, states, self.chance.copy(), reach, skipped)

    def root_reach(self, form: FactoredGame, node: int) -> np.ndarray:
        """Every player's reach over the private states of ``form`` (``[P, S]``) at decision
        ``node`` (this public state), read off the histories: each history's reach of a player
        goes to the private state that player's key names there."""
        n = self.num_players
        reach = np.zeros((n, int(form.num_private.max())))
        seen = np.zeros(reach.shape, dtype=bool)
        tables = [form.private_keys(node, p) for p in range(n)]
        for i, state in enumerate(self.states):
            for p in range(n):
                s = tables[p][state.information_state_key(p)]
                if seen[p, s] and reach[p, s] != self.reach[i, p]:
                    raise FormError(f"player {p}'s reach differs between histories of one private state")
                reach[p, s], seen[p, s] = self.reach[i, p], True
        return reach


class ItemRanges:
    """Per-player reach over private states made of items (cards), for games too large to list
    their deals (hold'em: 1,326 hands per player). Nothing is bound to a form: a public item
    dealt removes the states holding it, and Bayes' rule multiplies the actor's vector by the
    profile's probability of the observed action for each of its private states. This is the
    root reach a search subgame with item removal starts from (:attr:`reach`).
    Immutable: updates return new objects.

    :param items: ``int[S, k]`` the items of each private state (-1 for none), shared by all players.
    """

    def __init__(self, items: np.ndarray, reach: np.ndarray, board: tuple[int, ...] = (), skipped_updates: int = 0):
        self.items = items
        self.reach = reach  # float[P, S]
        self.board = board  # public items dealt so far
        self.skipped_updates = skipped_updates

    @classmethod
    def initial(cls, items: np.ndarray, num_players: int) -> ItemRanges:
        return cls(items, np.ones((num_players, items.shape[0])))

    def after_item(self, item: int) -> ItemRanges:
        """A public item dealt: the states holding it cannot occur any more."""
        reach = self.reach.copy()
        reach[:, (self.items == int(item)).any(axis=1)] = 0.0
        return ItemRanges(self.items, reach, self.board + (int(item),), self.skipped_updates)

    def after_chance(self, state: State, action: int) -> ItemRanges:
        """A chance outcome: nothing to do (public items are removed by :meth:`after_item`)."""
        return self

    def after_action(self, player: int, probs: np.ndarray, action: int | None = None) -> ItemRanges:
        """Bayes' rule: ``player``'s reach times ``probs[s]``, the profile's probability of the
        observed ``action`` with private state ``s`` (beliefs over ranges need no more of the
        action). If that zeroes every state (the profile says the action never happens), the
        beliefs stay as they were and ``skipped_updates`` counts it."""
        reach = self.reach.copy()
        reach[player] *= np.asarray(probs, dtype=np.float64)
        if not reach[player].any():
            return ItemRanges(self.items, self.reach, self.board, self.skipped_updates + 1)
        return ItemRanges(self.items, reach, self.board, self.skipped_updates)

    def belief(self, player: int) -> np.ndarray:
        """``player``'s own range normalised (its reach over the states the board leaves);
        card removal against the other players' ranges is the subgame's business."""
        r = self.reach[player]
        total = r.sum()
        if total <= 0:
            raise ZeroReachError(f"player {player}'s range is empty")
        return r / total


class HistoryRanges:
    """The range search agent's beliefs by enumeration (``-s beliefs=exact``, the check of
    :class:`ItemRanges`): every history of the public state (:class:`PublicBeliefState`), the
    players' reach over private states read off them where a subgame asks (:attr:`reach`).
    Chance expands the histories; an action multiplies each history's reach of the actor by
    the profile's probability for the private state that history gives it. Needs a form that
    keeps keys (``locator``: :class:`~gamesolve.search.locate.FormLocator`)."""

    def __init__(self, histories: PublicBeliefState, locator):
        self.histories = histories
        self.locator = locator

    @classmethod
    def initial(cls, locator) -> HistoryRanges:
        return cls(PublicBeliefState.initial(locator.game), locator)

    @property
    def skipped_updates(self) -> int:
        return self.histories.skipped_updates

    @property
    def reach(self) -> np.ndarray:
        """``float[P, S]`` every player's reach at the current public state's node."""
        return self.histories.root_reach(self.locator.form, self.locator.node(self.histories.representative))

    def after_chance(self, state: State, action: int) -> HistoryRanges:
        return HistoryRanges(self.histories.after_chance(state.child(action).public_state_key()), self.locator)

    def after_action(self, player: int, probs: np.ndarray, action: int) -> HistoryRanges:
        keys = self.locator.form.private_keys(self.locator.node(self.histories.representative), player)
        return HistoryRanges(self.histories.after_action(action, lambda key, _p, _a: float(probs[keys[key]])), self.locator)
