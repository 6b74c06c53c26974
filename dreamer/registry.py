"""One registry mechanism for every pluggable component, chosen by name, never by if-chains.

Trajectory adapters, dreaming stages, agents and scorers each have a ``Registry``; a component
registers itself with ``@REGISTRY.register("name")`` and configs refer to it by that name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from dreamer.errors import ConfigError

T = TypeVar("T")


class Registry(Generic[T]):
    """Named components of one kind."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        def decorate(item: T) -> T:
            if name in self._items and self._items[name] is not item:
                raise ConfigError(f"{self.kind} {name!r} is registered twice")
            self._items[name] = item
            return item

        return decorate

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "none"
            raise ConfigError(f"unknown {self.kind} {name!r}; known: {known}") from None

    def names(self) -> list[str]:
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def items(self) -> list[tuple[str, T]]:
        return sorted(self._items.items())
