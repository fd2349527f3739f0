"""Sequences a game's ``candidates`` may hand the uniform draw instead of a list (issue 18): the draw
reads a length and one item (``random.choice``), so a list of fifty actions built to be drawn from once
can be a sequence that makes only the action drawn."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class Joined(Sequence[T]):
    """Sequences one after the other, as ``[*a, *b, ...]`` lists them, without the list: the length
    added up once, an item found by walking the parts (a handful)."""

    __slots__ = ("_length", "_parts")

    def __init__(self, parts: tuple[Sequence[T], ...]) -> None:
        self._parts = parts
        self._length = sum(map(len, parts))

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._length
        if index >= 0:
            for part in self._parts:
                if index < len(part):
                    return part[index]
                index -= len(part)
        raise IndexError("sequence index out of range")

    def __iter__(self) -> Iterator[T]:
        for part in self._parts:
            yield from part

    def __repr__(self) -> str:
        return f"Joined({self._parts!r})"


__all__ = ["Joined"]
