"""Where a history of the game sits in a lossless factored form: its public node, and each
player's private state there.

A form that keeps keys (the generic compiler's; a factored contract's below its key limit)
answers by key: the public state key names the node, the information-state key the private
state (``form.locate``). A factored contract's form above the key limit (Liar's Dice with two
dice of six sides: 16.7 million public nodes) names nothing: the node is found by walking the
form from its root along the edge labels the contract gives for the history
(:meth:`~gamesolve.game.factored_contract.FactoredContract.public_path`), and the private state
by comparing the history's information-state key with the contract's key of each private
label there. Both are cached by public state key: a match keeps returning to the same lines.
"""

from __future__ import annotations

import numpy as np

from gamesolve.game.factored import FactoredGame, FormError
from gamesolve.game.state import Game, State


def public_nodes(form: FactoredGame) -> dict[str, int]:
    """The node each public state key of ``form`` names; a :class:`FormError` where one names
    several (a hidden action: search needs public states)."""
    nodes: dict[str, int] = {}
    for node, key in enumerate(form.node_keys):
        if nodes.setdefault(key, node) != node:
            raise FormError(f"{form.game_name}: public state {key!r} names more than one node (a hidden action); "
                            f"search needs public states")  # fmt: skip
    return nodes


class FormLocator:
    """The node and private states of ``game``'s histories in ``form`` (module docstring)."""

    def __init__(self, game: Game, form: FactoredGame):
        self.game = game
        self.form = form
        self.num_private = int(form.num_private.max())
        self._node: dict[str, int] = {}
        self._private: dict[tuple[str, int], dict[str, int]] = {}
        self._contract = None
        if form.locate is not None and form.node_keys:
            self._node = public_nodes(form)
            return
        contract = game.factored_contract() if hasattr(game, "factored_contract") else None
        if contract is None:
            raise FormError(f"the form of {game.describe()} names no public states and the game has no factored contract "
                            f"to walk it by: its histories cannot be found in it")  # fmt: skip
        try:
            contract.public_path(game.new_initial_state())
        except NotImplementedError as exc:
            raise FormError(str(exc)) from None
        self._contract = contract
        self._labels = [list(contract.private_states(p)) for p in range(game.num_players)]

    @property
    def keyed(self) -> bool:
        return self._contract is None

    def node(self, state: State) -> int:
        """The public node of ``state``."""
        key = state.public_state_key()
        node = self._node.get(key)
        if node is None:
            if self.keyed:
                raise FormError(f"public state {key!r} is not a node of {self.form.game_name}'s form")
            node = self._node[key] = self._walk(key, self._contract.public_path(state))
        return node

    def _walk(self, key: str, path) -> int:
        form, node = self.form, 0
        for label in path:
            labels = form.labels(node)
            at = np.flatnonzero(labels == int(label))
            if len(at) != 1:
                raise FormError(f"public state {key!r}: edge {label} is not an action of the form at node {node} "
                                f"(labels {labels.tolist()})")  # fmt: skip
            node = int(form.children(node)[at[0]])
        return node

    def private(self, state: State, player: int) -> int:
        """``player``'s private state at ``state`` (a history where every private state is dealt)."""
        key = state.information_state_key(player)
        if self.keyed:
            return int(self.form.locate(key)[1])
        public = state.public_state_key()
        by_key = self._private.get((public, player))
        if by_key is None:
            info_key = self._contract.information_state_key
            by_key = self._private[(public, player)] = {info_key(public, player, label): s for s, label in enumerate(self._labels[player])}
        found = by_key.get(key)
        if found is None:
            raise FormError(f"information state {key!r} of player {player} has no private state in the form")
        return found
