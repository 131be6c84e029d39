"""gamesolve.threads.run_blocks: every row once, results in block order, one thread inline."""

from __future__ import annotations

import threading

import pytest

from gamesolve.threads import run_blocks


@pytest.mark.parametrize("threads,blocks", [(2, None), (2, 7), (3, 32), (4, 2)])
def test_blocks_cover_the_range_once_and_come_back_in_block_order(threads, blocks):
    seen: list[tuple[int, int]] = []
    got = run_blocks(100, lambda lo, hi: seen.append((lo, hi)) or (lo, hi), blocks=blocks, threads=threads)
    assert got == sorted(seen)
    assert got[0][0] == 0 and got[-1][1] == 100
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(got, got[1:]))


def test_one_thread_calls_the_kernel_once_on_the_whole_range_on_the_calling_thread():
    calls = []
    assert run_blocks(10, lambda lo, hi: calls.append((lo, hi, threading.current_thread())) or 1, blocks=8,
                      threads=1) == [1]  # fmt: skip
    assert calls == [(0, 10, threading.current_thread())]


def test_fewer_rows_than_threads_and_an_error_in_a_block():
    assert run_blocks(1, lambda lo, hi: (lo, hi), threads=4) == [(0, 1)]

    def bad(lo, hi):
        if lo > 0:
            raise ValueError("block")
        return lo

    with pytest.raises(ValueError):
        run_blocks(10, bad, blocks=4, threads=2)
