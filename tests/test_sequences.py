"""rulecraft.sequences: what a game's candidates may hand the uniform draw behaves as the list it stands for."""

from __future__ import annotations

import random

import pytest

from rulecraft.sequences import Joined


@pytest.mark.parametrize("parts", [((1, 2), (), (3,)), ((), ()), ((4,),), ([5, 6], (7, 8, 9))])
def test_joined_is_the_list_of_its_parts(parts: tuple[tuple[int, ...], ...]) -> None:
    listed = [item for part in parts for item in part]
    joined = Joined(parts)
    assert len(joined) == len(listed) and list(joined) == listed
    for index in range(-len(listed), len(listed)):
        assert joined[index] == listed[index]
    for bad in (len(listed), -len(listed) - 1):
        with pytest.raises(IndexError):
            joined[bad]
    assert joined[1:] == listed[1:] and joined[::-1] == listed[::-1]
    if listed:  # the draw: the same item from the same generator as the list's
        assert random.Random(7).choice(joined) == random.Random(7).choice(listed)


def test_joined_repr_is_valid_python() -> None:
    joined = Joined(((1, 2), (3,)))
    assert list(eval(repr(joined))) == [1, 2, 3]
