"""The classes that moved out of the deal modules stay importable from their old paths
(programs written against the earlier layout keep working)."""

from __future__ import annotations

import importlib

import pytest

from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.runfast.session import RunFastSession


@pytest.mark.parametrize(
    ("module", "name", "moved"),
    [
        ("cardavia.rules.guandan.deal", "GuandanMatch", GuandanMatch),
        ("cardavia.rules.runfast.deal", "RunFastSession", RunFastSession),
    ],
)
def test_the_old_path_gives_the_same_class(module: str, name: str, moved: type) -> None:
    assert getattr(importlib.import_module(module), name) is moved


@pytest.mark.parametrize("module", ["cardavia.rules.guandan.deal", "cardavia.rules.runfast.deal"])
def test_an_unknown_name_is_still_an_attribute_error(module: str) -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = importlib.import_module(module).no_such_name
