"""Named registries filled through the ``gamesolve_register_*`` hooks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class RegistryError(LookupError):
    """Unknown name or name clash; the message is fit to show a user."""


class Registry(Generic[T]):
    """Maps names to registered specs and remembers which plugin gave each."""

    def __init__(self, kind: str):
        self.kind = kind
        self._items: dict[str, T] = {}
        self._owners: dict[str, str] = {}

    def register(self, item: T, owner: str = "?") -> None:
        name = getattr(item, "name")
        if name in self._items:
            raise RegistryError(
                f"{self.kind} {name!r} registered twice: by {self._owners[name]} and by {owner}"
            )
        self._items[name] = item
        self._owners[name] = owner

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            choices = ", ".join(sorted(self._items)) or "none registered"
            raise RegistryError(f"unknown {self.kind} {name!r} (choose from: {choices})") from None

    def owner(self, name: str) -> str:
        return self._owners[name]

    def names(self) -> list[str]:
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[T]:
        return iter(self._items[n] for n in self.names())

    def __len__(self) -> int:
        return len(self._items)
