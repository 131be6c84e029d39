"""User-facing errors: what a command shows as one line (``Error: ...``) with exit status 2.

The core and the plugins raise these instead of importing from ``gamesolve.cli``, so that
library code never depends on the command line and every command reports them the same
way. A message is one line, names the path or option at fault, and never shows library
internals (no zarr, numpy or numba type names, no tracebacks).

* :class:`UserError` - bad input or a bad file; library code raises it (or a subclass).
* :class:`OptionError` - a bad ``KEY=VALUE`` option, by its field name (the command shows
  the flag the user typed).
* :class:`StoreError` - a store is missing, foreign, damaged, locked or cannot be written.
* :class:`InputError` - the same inside a click command (a :class:`click.ClickException`).
"""

from __future__ import annotations

import errno

import click

EXIT_STATUS = 2  # every one-line error, whatever its cause: bad input, bad store, full disk


class UserError(ValueError):
    """Bad input from the user or a bad file; the message is fit to show a user.

    A ValueError, so code that validates with ``except ValueError`` keeps working."""


class OptionError(UserError):
    """A bad option value: ``field`` is the option's name (``prune_threshold``, ``checkpoint``,
    ``order``), ``message`` what is wrong with it, a phrase that follows the name (``must be
    positive, got '0'``); with ``value``, the name and the value as typed come first
    (``discount_interval=0: ...``). Library code raises it with the field; the command layer
    shows it with the flag the user typed (:meth:`shown`: ``-o prune_threshold``, ``--checkpoint``)."""

    def __init__(self, field: str, message: str, value: str | None = None):
        self.field = field
        self.message = message
        self.value = value
        super().__init__(self.shown(field))

    def shown(self, name: str) -> str:
        """The one-line message with the option called ``name`` (a flag, or the bare field)."""
        return f"{name} {self.message}" if self.value is None else f"{name}={self.value}: {self.message}"


class StoreError(UserError):
    """A store is missing, foreign, damaged, locked by another writer, or cannot be written."""


class StoreDamagedError(StoreError):
    """A store's files do not match its manifest (missing, truncated, altered, unlisted)."""


class StoreLockedError(StoreError):
    """Another process is writing the store."""


class DiskFullError(StoreError):
    """The disk (or the process's file-size limit) ran out while writing a store."""


class InputError(click.ClickException):
    """Bad input in a click command: one line on stderr and exit status 2."""

    exit_code = EXIT_STATUS


# errno values that mean "no room to write": a full disk, a quota, a file-size limit
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def is_no_space(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it wraps) is an :class:`OSError` for lack of space."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in NO_SPACE:
            return True
        if isinstance(exc, BaseExceptionGroup):
            return any(is_no_space(e) for e in exc.exceptions)
        exc = exc.__cause__ or exc.__context__
    return False
