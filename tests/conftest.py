"""Test-run order: the longest tests start first, so that on every core the run ends together."""

from __future__ import annotations

import pytest

LONGEST_FIRST = ("test_readme.py", "test_kit_writes_everything_and_a_note")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the few tests of tens of seconds to the front (pytest-xdist hands tests out in this order)."""
    items.sort(key=lambda item: not any(name in item.nodeid for name in LONGEST_FIRST))
