"""Hold'em's exact equity kernels (AIVAT's check-down values, LBR's win probabilities): the
best of five runs of a flop's equity vector (every turn and river), the turn equities of every
turn card at once, and ten turn boards' equity vectors; the results are saved to PATH so that
two source trees can be compared bit for bit:

    python benchmarks/equity_kernels.py PATH
    PYTHONPATH=OTHER_TREE:OTHER_TREE/plugins/nlth python benchmarks/equity_kernels.py PATH2
"""
import time, numpy as np, sys
import gamesolve_nlth.evaluate.equity as E
from gamesolve_nlth.evaluate.equity import equity_vector, turn_equities
print(E.__file__)
hero=(0,5); flop=[10,20,30]
cards=[c for c in range(52) if c not in (0,5,10,20,30)]
equity_vector(hero, flop); turn_equities(hero, flop, cards); equity_vector(hero, flop+[cards[0]])
res={}
for name, f in (("flop equity_vector", lambda: equity_vector(hero, flop)), ("turn_equities", lambda: turn_equities(hero, flop, cards)),
                ("turn equity_vector x10", lambda: [equity_vector(hero, flop+[c]) for c in cards[:10]])):
    best=1e9
    for _ in range(5):
        t=time.perf_counter(); f(); best=min(best, time.perf_counter()-t)
    print(f"{name}: {best*1000:.1f} ms")
np.save(sys.argv[1], np.concatenate([equity_vector(hero, flop), turn_equities(hero, flop, cards).ravel(), equity_vector(hero, flop+[cards[3]]), equity_vector(hero, flop+[cards[3], cards[9]])]))
