"""A server process's garbage collector (core/collector.py): start-up objects frozen, young collections rarer."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from core.collector import YOUNG, tune_collector


@pytest.fixture
def collector_restored() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_start_up_objects_are_frozen_and_young_collections_come_every_YOUNG_allocations(
    collector_restored: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GC_DEFAULT", raising=False)
    _, middle, old = gc.get_threshold()
    tune_collector()
    assert gc.get_freeze_count() > 10_000  # Django and the apps, loaded by the test run
    assert gc.get_threshold() == (YOUNG, middle, old)


def test_gc_default_leaves_pythons_settings(collector_restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GC_DEFAULT", "1")
    before = gc.get_threshold()
    tune_collector()
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
