"""Lines over a TCP socket, as the ACPC protocol exchanges them (``\\r\\n``-terminated ASCII)."""

from __future__ import annotations

import socket


class LineSocket:
    """A connected socket read and written a line at a time; Nagle's algorithm is off, since
    the protocol is a ping-pong of short lines."""

    def __init__(self, sock: socket.socket, timeout: float | None = None):
        self.sock = sock
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.settimeout(timeout)
        self._reader = sock.makefile("rb")

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode("ascii") + b"\r\n")

    def read(self) -> str | None:
        """The next line without its end (``None`` when the other end closed); raises
        ``TimeoutError`` after the socket's timeout."""
        raw = self._reader.readline()
        if not raw:
            return None
        return raw.decode("ascii", "replace").rstrip("\r\n")

    def close(self) -> None:
        try:
            self._reader.close()
        finally:
            self.sock.close()
