"""Helpers comparing gamesolve games with open-spiel move for move."""

from __future__ import annotations

import numpy as np


def assert_same_tree(ours, theirs, max_nodes=None):
    """Walk both games in parallel: the same players, legal actions, chance outcomes and
    returns everywhere, and the same partition of histories into information sets."""
    return lockstep_walk(ours, theirs, max_nodes)[0]


def lockstep_walk(ours, theirs, max_nodes=None) -> tuple[int, dict[str, str]]:
    """:func:`assert_same_tree`, returning the number of histories walked and the bijection
    it found: open-spiel's information-state string -> our key, for every information set."""
    keys = _KeyBijection()
    stack = [(ours.new_initial_state(), theirs.new_initial_state())]
    nodes = 0
    while stack:
        a, b = stack.pop()
        nodes += 1
        if max_nodes and nodes > max_nodes:
            break
        for action in _compare(a, b, keys):
            stack.append((a.child(action), b.child(action)))
    return nodes, keys.theirs_to_ours


def assert_same_random_histories(ours, theirs, walks, seed=0, sampler=None):
    """:func:`assert_same_tree` along ``walks`` seeded random histories (chance sampled by
    its probabilities, players by ``sampler(actions, rng)``, uniformly by default), for games
    too big to walk whole; returns the number of histories compared."""
    rng = np.random.default_rng(seed)
    sampler = sampler or (lambda actions, r: actions[r.integers(len(actions))])
    keys = _KeyBijection()
    nodes = 0
    for _ in range(walks):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while True:
            nodes += 1
            actions = _compare(a, b, keys)
            if not actions:
                break
            if b.is_chance_node():
                outcomes = b.chance_outcomes()
                action = outcomes[rng.choice(len(outcomes), p=[q for _, q in outcomes])][0]
            else:
                action = sampler(actions, rng)
            a, b = a.child(action), b.child(action)
    return nodes


class _KeyBijection:
    """Our information-state keys against open-spiel's strings, one to one."""

    def __init__(self):
        self.ours_to_theirs: dict[str, str] = {}
        self.theirs_to_ours: dict[str, str] = {}

    def add(self, ka: str, kb: str) -> None:
        assert self.ours_to_theirs.setdefault(ka, kb) == kb, (ka, kb, self.ours_to_theirs[ka])
        assert self.theirs_to_ours.setdefault(kb, ka) == ka, (kb, ka, self.theirs_to_ours[kb])


def _compare(a, b, keys: _KeyBijection) -> list[int]:
    """Assert that our state ``a`` and open-spiel's ``b`` agree here; return the actions to follow."""
    if b.is_terminal():
        assert a.is_terminal(), (a, str(b))
        ra, rb = np.asarray(a.returns(), float), np.asarray(b.returns(), float)
        # assert_allclose only to report a failure: called on every terminal it took 24 of
        # a 37 s walk (Liar's Dice's 147,000 terminals)
        if ra.shape != rb.shape or not (np.abs(ra - rb) <= 1e-12).all():
            np.testing.assert_allclose(ra, rb, atol=1e-12)
        return []
    if b.is_chance_node():
        assert a.is_chance_node(), (a, str(b))
        oa, ob = dict(a.chance_outcomes()), dict(b.chance_outcomes())
        assert oa.keys() == ob.keys() and all(abs(oa[k] - ob[k]) < 1e-12 for k in oa), (a, str(b))
        return list(ob)
    p = b.current_player()
    assert a.current_player() == p, (a, str(b))
    assert list(a.legal_actions()) == list(b.legal_actions()), (a, str(b))
    keys.add(a.information_state_key(p), b.information_state_string(p))
    return list(b.legal_actions())


def openspiel_policy(pyspiel, os_game, tree, policy, key_of):
    """Our slot-indexed ``policy`` as a ``pyspiel.TabularPolicy`` (for ``pyspiel.nash_conv``);
    see :func:`openspiel_tabular_policy` for the arguments."""
    return pyspiel.TabularPolicy(openspiel_tabular_policy(os_game, tree, policy, key_of).to_dict())


def openspiel_tabular_policy(os_game, tree, policy, key_of):
    """Our slot-indexed ``policy`` as open-spiel's Python ``TabularPolicy`` (for
    ``exploitability.nash_conv``). ``tree`` is anything with our infoset layout
    (``infoset_keys``, ``infoset_slot_start``, ``slot_action``): an ``ExplicitTree`` or a
    ``PolicyStore`` read back from ``solve --out``; ``key_of`` maps an open-spiel
    information-state string to our key (a function or a dict's ``__getitem__``)."""
    from open_spiel.python import policy as policy_lib

    table = policy_lib.TabularPolicy(os_game)
    index = {key: i for i, key in enumerate(tree.infoset_keys)}
    for os_key, row in table.state_lookup.items():
        i = index[key_of(os_key)]
        s0, s1 = tree.infoset_slot_start[i], tree.infoset_slot_start[i + 1]
        probs = table.action_probability_array[row]
        probs[:] = 0
        probs[tree.slot_action[s0:s1]] = policy[s0:s1]
    return table


def leduc_key(os_key: str) -> str:
    """open-spiel's Leduc information-state string in gamesolve's key format."""
    fields = dict(part.split(":", 1) if ":" in part else (part.split(" ")[0], part.split(" ")[1]) for part in os_key.strip("[]").split("]["))
    card = fields["Private"].strip()
    board = fields.get("Public", " ?").strip()
    rounds = ["".join("fcr"[int(a)] for a in fields[f"Round{r}"].split()) for r in (1, 2)]
    betting = rounds[0] if fields["Round"].strip() == "1" else "|".join(rounds)
    return f"{card}:{board}:{betting}"


def kuhn_key(os_key: str) -> str:
    return os_key


def liars_dice_key(os_key: str) -> str:
    """open-spiel's Liar's Dice information-state string in gamesolve's key format:
    ``"35 1-4 2-6 Liar"`` -> ``"3,5|1x4 2x6 liar"`` (faces of one digit, sides <= 9)."""
    dice, *bids = os_key.split(" ")
    public = " ".join("liar" if bid == "Liar" else bid.replace("-", "x") for bid in bids)
    return f"{','.join(dice)}|{public or '-'}"
