"""Policies round-trip through zarr stores; foreign and mismatched stores are refused."""

import numpy as np
import pytest
import zarr

from gamesolve.store.policy_store import read_policy, write_policy
from gamesolve.store.zarr_io import StoreError


def test_policy_round_trips_with_its_attributes(tmp_path, kuhn2_tree):
    policy = kuhn2_tree.uniform_policy() * 0 + np.linspace(0, 1, kuhn2_tree.num_slots)
    write_policy(tmp_path / "s.zarr", kuhn2_tree, policy, algo="cfr+", iterations=7, seconds=0.5)
    store = read_policy(tmp_path / "s.zarr")
    assert store.attrs["algo"] == "cfr+" and store.attrs["iterations"] == 7
    assert store.game == "kuhn" and store.params == {"players": 2}
    assert "code_version" in store.attrs
    np.testing.assert_array_equal(store.policy_for(kuhn2_tree), policy)


def test_store_is_plain_zarr_without_pickle(tmp_path, kuhn2_tree):
    write_policy(tmp_path / "s.zarr", kuhn2_tree, kuhn2_tree.uniform_policy())
    group = zarr.open_group(str(tmp_path / "s.zarr"), mode="r")
    assert set(group.array_keys()) >= {"average_policy", "infoset_keys", "slot_action"}
    assert not list(tmp_path.rglob("*.pkl"))


def test_policy_for_another_game_is_refused(tmp_path, kuhn2_tree, kuhn3_tree):
    write_policy(tmp_path / "s.zarr", kuhn2_tree, kuhn2_tree.uniform_policy())
    with pytest.raises(StoreError, match="kuhn"):
        read_policy(tmp_path / "s.zarr").policy_for(kuhn3_tree)


def test_missing_store_is_reported(tmp_path):
    with pytest.raises(StoreError, match="no policy store"):
        read_policy(tmp_path / "nothing.zarr")


def test_foreign_zarr_group_is_refused(tmp_path):
    zarr.open_group(str(tmp_path / "other.zarr"), mode="w").attrs["format"] = "something-else"
    with pytest.raises(StoreError, match="not a gamesolve policy store"):
        read_policy(tmp_path / "other.zarr")


def test_failed_write_leaves_the_previous_store_intact(tmp_path, kuhn2_tree):
    path = tmp_path / "s.zarr"
    write_policy(path, kuhn2_tree, kuhn2_tree.uniform_policy(), iterations=1)
    with pytest.raises(TypeError):
        write_policy(path, kuhn2_tree, kuhn2_tree.uniform_policy(), iterations=object())
    assert read_policy(path).attrs["iterations"] == 1
