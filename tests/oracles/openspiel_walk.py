"""Helpers comparing gamesolve games with open-spiel move for move."""

from __future__ import annotations

import numpy as np


def assert_same_tree(ours, theirs, max_nodes=None):
    """Walk both games in parallel: the same players, legal actions, chance outcomes and
    returns everywhere, and the same partition of histories into information sets."""
    ours_to_theirs: dict[str, str] = {}
    theirs_to_ours: dict[str, str] = {}
    stack = [(ours.new_initial_state(), theirs.new_initial_state())]
    nodes = 0
    while stack:
        a, b = stack.pop()
        nodes += 1
        if max_nodes and nodes > max_nodes:
            break
        if b.is_terminal():
            assert a.is_terminal(), (a, str(b))
            np.testing.assert_allclose(a.returns(), b.returns(), atol=1e-12)
            continue
        if b.is_chance_node():
            assert a.is_chance_node(), (a, str(b))
            oa, ob = dict(a.chance_outcomes()), dict(b.chance_outcomes())
            assert oa.keys() == ob.keys() and all(abs(oa[k] - ob[k]) < 1e-12 for k in oa)
            actions = list(ob)
        else:
            p = b.current_player()
            assert a.current_player() == p, (a, str(b))
            assert list(a.legal_actions()) == list(b.legal_actions()), (a, str(b))
            ka, kb = a.information_state_key(p), b.information_state_string(p)
            assert ours_to_theirs.setdefault(ka, kb) == kb and theirs_to_ours.setdefault(kb, ka) == ka
            actions = list(b.legal_actions())
        for action in actions:
            stack.append((a.child(action), b.child(action)))
    return nodes


def openspiel_policy(pyspiel, os_game, tree, policy, key_of):
    """Our slot-indexed ``policy`` as a ``pyspiel.TabularPolicy``; ``key_of`` maps an
    open-spiel information-state string to our key."""
    from open_spiel.python import policy as policy_lib

    table = policy_lib.TabularPolicy(os_game)
    index = tree.infoset_index()
    for os_key, row in table.state_lookup.items():
        i = index[key_of(os_key)]
        s0, s1 = tree.infoset_slot_start[i], tree.infoset_slot_start[i + 1]
        probs = table.action_probability_array[row]
        probs[:] = 0
        probs[tree.slot_action[s0:s1]] = policy[s0:s1]
    return pyspiel.TabularPolicy(table.to_dict())


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
