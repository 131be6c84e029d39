"""Log every numba compilation of every Python process that starts with this folder on
``PYTHONPATH`` and ``GAMESOLVE_COMPILE_LOG=DIR`` set (benchmarks/compile_report.py reads it).

Python imports ``sitecustomize`` at start-up, so a test run's xdist workers and the CLI
subprocesses its tests start inherit the logging through the environment, with no change to
the code under test. Each compilation is one JSON line in ``DIR/<pid>.jsonl``: the function,
its argument types, its seconds inclusive (with the callees it compiled while typing) and
exclusive (without them), as wall time and as the compiling thread's processor time
(``cpu_*``: on a busy machine the wall time is mostly waiting), its depth (0: compiled on a
call from Python), and its owner: itself, or for numba's own overloads (``np.empty``...) the
nearest kernel of ours that needed them, and ``end``, the wall clock (Unix seconds) when it
ended, for a timeline of a command's compilations. Lines are appended as compilations end, not at
exit: xdist workers and killed subprocesses may never run ``atexit``. A cache hit is no
compilation and is not logged. A process's waits on another's compilation of the same kernel
(:mod:`gamesolve.compile_lock`) go to ``DIR/<pid>.waits``.
"""

import os
import sys

_DIR = os.environ.get("GAMESOLVE_COMPILE_LOG")

if _DIR:
    try:
        import json
        import threading
        import time

        from numba.core import event

        class _CompileLog(event.Listener):
            def __init__(self, path):
                self.path = path
                self.local = threading.local()  # one stack of open compilations per thread

            def _stack(self):
                if not hasattr(self.local, "stack"):
                    self.local.stack = []
                return self.local.stack

            def on_start(self, ev):
                try:
                    py = ev.data["dispatcher"].py_func
                    name = f"{py.__module__}.{py.__qualname__}"
                except Exception:
                    name = "?"
                self._stack().append([time.perf_counter(), 0.0, name, time.thread_time(), 0.0])

            def on_end(self, ev):
                try:
                    self._log(ev)
                except Exception:  # never break the compilation being measured
                    pass

            def _log(self, ev):
                stack = self._stack()
                start, children, name, cpu_start, cpu_children = stack.pop()
                seconds = time.perf_counter() - start
                cpu = time.thread_time() - cpu_start
                if stack:
                    stack[-1][1] += seconds  # the caller's exclusive time leaves this out
                    stack[-1][4] += cpu
                # numba's own overloads (np.empty, ...) are charged to the nearest kernel of ours
                owner = next((n for n in [name] + [e[2] for e in reversed(stack)] if not n.startswith("numba.")), name)
                record = {"function": name, "owner": owner, "args": str(ev.data["args"]),
                          "inclusive": seconds, "exclusive": seconds - children,
                          "cpu_inclusive": cpu, "cpu_exclusive": cpu - cpu_children, "depth": len(stack),
                          "failed": getattr(ev, "_exc_details", None) is not None, "pid": os.getpid(), "end": time.time(), "argv": " ".join(sys.argv[:4])}
                with open(self.path, "a") as f:
                    f.write(json.dumps(record) + "\n")

        os.makedirs(_DIR, exist_ok=True)
        event.register("numba:compile", _CompileLog(os.path.join(_DIR, f"{os.getpid()}.jsonl")))

        # Waits on another process's compilation (gamesolve/compile_lock.py): one line each in
        # DIR/<pid>.waits, with the lock, the seconds waited and whether the wait ended in the
        # lock (or in its timeout).
        import gamesolve.compile_lock as _lock

        _acquire = _lock._acquire

        def _timed_acquire(path, *rest):
            started = time.perf_counter()
            fd = _acquire(path, *rest)
            waited = time.perf_counter() - started
            if waited > 0.01:
                with open(os.path.join(_DIR, f"{os.getpid()}.waits"), "a") as f:
                    f.write(json.dumps({"lock": os.path.basename(path), "waited": waited, "granted": fd is not None,
                                        "pid": os.getpid(), "end": time.time(), "argv": " ".join(sys.argv[:4])}) + "\n")
            return fd

        _lock._acquire = _timed_acquire
    except Exception as e:  # a measurement aid must never break the process it measures
        print(f"sitecustomize: compile log disabled ({e})", file=sys.stderr)
