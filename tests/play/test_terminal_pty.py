"""``gamesolve play`` in a real pseudo-terminal (pexpect): ten hands typed as a person would,
illegal amounts refused and asked again, the result and the hand histories at the end."""

import re
import sys

import pytest

pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect (the test extra)")

PROMPT = r"\n> $"


def test_ten_hands_in_a_pseudo_terminal(tmp_path, tiny_blueprint):
    hh = tmp_path / "hands.phhs"
    agents = f"blueprint:store={tiny_blueprint},tag,random,call,blueprint:store={tiny_blueprint}"
    child = pexpect.spawn(sys.executable, ["-m", "gamesolve.cli", "play", "--game", "nlth", "--agents", agents,
                                           "--seat", "2", "--hands", "10", "--seed", "11", "--hh", str(hh)],
                          encoding="utf-8", timeout=30, dimensions=(50, 160), cwd=str(tmp_path))  # fmt: skip
    transcript = []
    child.logfile_read = _Collect(transcript)
    typed = refused = 0
    try:
        while True:
            i = child.expect([r"> $", r"session: (\d+) hands", pexpect.EOF])
            if i != 0:
                break
            screen = child.before
            typed += 1
            can_raise = re.search(r"\n  r N ", screen) is not None
            if typed == 1:
                child.sendline("banana")
                child.expect("is not an action")
                refused += 1
                child.expect(r"> $")
            if can_raise and refused == 1:
                child.sendline("r 1")  # below any minimum: refused, asked again
                child.expect("not legal: raise to 1 is below the minimum raise to")
                refused += 1
                child.expect(r"> $")
            # raise now and then with a typed size, otherwise check or call
            if typed % 4 == 3 and re.search(r"\n  r N ", screen):
                child.sendline("r 2/3pot" if typed % 8 == 3 else "r 3bb")
                k = child.expect([r"you \([A-Z/+0-9]+\): (raises|bets)",
                                  r"not legal: raise to (3bb|2/3pot) = [\d,]+ is (below|more than you have)"])
                if k == 1:  # the typed size is below the minimum or above the stack: refused; call instead
                    child.expect(r"> $")
                    child.sendline("c")
            else:
                child.sendline("c")
        assert i == 1, "".join(transcript)[-3000:]
        assert child.match.group(1) == "10"
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    text = "".join(transcript)
    assert refused == 2 and "Traceback" not in text
    assert text.count("=== hand ") == 10 and "bb/100" in text and "± " in text
    assert re.search(r"hand histories: .*hands\.phhs \(10 hands\)", text)
    assert hh.read_text().count("variant = 'NT'") == 10
    # bot actions are shown with their sizes and thinking time; positions rotate
    assert re.search(r"blueprint#\d \([A-Z]+\): (raises to|calls|checks|folds|bets)", text)
    assert re.search(r"\[\d+ ms\]", text)
    assert "you are in seat 2 (BB)" in text and "you are in seat 1 (SB)" in text


class _Collect:
    def __init__(self, into):
        self.into = into

    def write(self, s):
        self.into.append(s)

    def flush(self):
        pass
