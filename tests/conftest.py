"""Test-run order (the longest tests start first, so that on every core the run ends together), and what tests
share: the README's `dealer kit` and `dealer pieces`, run once per test run."""

from __future__ import annotations

import pytest

from tests.built_once import Ran, dealer_env, run_once
from tests.readme_tour import tour_line

LONGEST_FIRST = ("test_kit_writes_everything_and_a_note", "cards-01-dealer-kit")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the tests that share a long build (an xdist_group: the README's kit, every piece built) to the front,
    the kit's first (pytest-xdist hands tests out in this order; `--dist loadgroup` keeps a group on one worker);
    and mark each test's group in its id for `--dist loadgroup`."""
    items.sort(key=lambda item: (not any(name in item.nodeid for name in LONGEST_FIRST),
                                 item.get_closest_marker("xdist_group") is None))
    if getattr(config.option, "loadgroup", False):  # set on the workers of a --dist loadgroup run
        _mark_groups_in_ids(items)


def _mark_groups_in_ids(items: list[pytest.Item]) -> None:
    """pytest-xdist (3.8) marks a test's group by appending `@group` to its id through an attribute pytest 9.2
    no longer reads (`_nodeid`), so every group would be spread over the workers: do it through the id pytest
    now keeps (a no-op where pytest-xdist's own mark took, as before pytest 9.2)."""
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # pytest before 9.2: pytest-xdist's own suffix works
        return
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        if mark is not None and not item.nodeid.endswith(f"@{mark.args[0]}") and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}@{mark.args[0]}")


@pytest.fixture(scope="session")
def readme_kit(tmp_path_factory) -> Ran:
    """`dealer kit` as the README's tour writes it, run once per test run in a fresh folder (kit in build/)."""
    return run_once(tmp_path_factory, "readme-kit", tour_line("dealer kit"), dealer_env())


@pytest.fixture(scope="session")
def readme_pieces(tmp_path_factory) -> Ran:
    """`dealer pieces` (every catalogue piece, 50 mm squares) as the README's tour writes it, once per test run."""
    return run_once(tmp_path_factory, "readme-pieces", tour_line("dealer pieces"), dealer_env())


@pytest.fixture(scope="session")
def every_piece_built() -> None:
    """build_piece's cache holds every catalogue piece at the default options (50 mm squares), built once in this
    test process (about 10 s): the tests that use it are in the xdist group "catalogue-models" (tests/built_once.py:
    shares_every_built_piece), and the build pools `dealer pieces` and `dealer plate` fork from this process
    inherit the cache. Their 40 mm builds go to the same cache as the group's first 40 mm test makes them."""
    from dealers_chess.pieces.catalogue import load_catalogue
    from dealers_chess.pieces.model3d.model import build_piece

    for piece in load_catalogue():
        build_piece(piece)
