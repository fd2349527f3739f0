"""YAML for rulecraft's files: safe, and a key given twice is an error.

PyYAML keeps the last of two equal keys silently, so a second ``expect:``
in a scenario step would quietly drop the first; here it is refused with
the line of the repeated key.
"""

from __future__ import annotations

from typing import Any

import yaml


class DuplicateKeyError(yaml.YAMLError):
    pass


class _UniqueKeyLoader(yaml.SafeLoader):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                line = key_node.start_mark.line + 1
                raise DuplicateKeyError(f"the key {key!r} is given twice (line {line})")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load(text: str) -> Any:
    """Parse YAML text; raises yaml.YAMLError (DuplicateKeyError included) on bad input."""
    return yaml.load(text, Loader=_UniqueKeyLoader)
