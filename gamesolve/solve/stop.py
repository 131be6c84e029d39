"""Stop requests that never interrupt a write.

A signal handler that raises runs at whatever bytecode the main thread is executing, and
zarr 3 writes from its own event-loop thread: an exception raised while the main thread
waits on a chunk write leaves that thread writing into the temporary folder after the
failure path has removed it, and the save that follows finds a half-written group there
(issue #34). So SIGTERM and a first SIGINT only *request* a stop; the training loop asks
:meth:`DeferredStop.check` between batches, after any checkpoint of that batch is sealed,
and the run then saves and exits 130. A second SIGINT (Ctrl-C twice) still stops at once:
the write in progress is abandoned and the last sealed checkpoint stays current.
"""

from __future__ import annotations

import os
import signal
import threading


class StopRequested(KeyboardInterrupt):
    """Raised between batches once a stop was requested (the command exits 130)."""


class DeferredStop:
    """While entered, SIGTERM and SIGINT set :attr:`requested` instead of raising, and say
    so in one line on standard error. Outside the main thread (where Python cannot install
    handlers) it does nothing and :meth:`check` never raises.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.requested: int | None = None  # the first signal's number
        self._previous: dict[int, object] = {}

    def __enter__(self) -> DeferredStop:
        if threading.current_thread() is threading.main_thread():
            for number in self.SIGNALS:
                self._previous[number] = signal.getsignal(number)
                signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc_info) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()

    def _handle(self, number: int, frame) -> None:
        if self.requested is not None:
            if number == signal.SIGINT:
                raise KeyboardInterrupt  # the second Ctrl-C: at once, the last sealed checkpoint kept
            return
        self.requested = number
        # os.write, not the progress display: the handler may run in the middle of its redraw.
        name = signal.Signals(number).name
        os.write(2, f"\n{name}: stopping after the current batch (Ctrl-C again stops at once)\n".encode())

    def check(self) -> None:
        """:class:`StopRequested` if a stop was requested since entering."""
        if self.requested is not None:
            raise StopRequested
