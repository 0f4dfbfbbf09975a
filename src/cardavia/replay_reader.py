"""Reading a game-record file (JSONL, docs/cli.md) for ``cardavia replay``: one record per
line, streamed (memory stays flat however long the file), each checked for its shape before
the rules see it. A line that cannot be a record is a :class:`RecordFileError` naming it.

>>> import io
>>> list(read_records(io.StringIO('{"game": "runfast", "hands": [["3s"]]}\\n\\n'), "f"))
[{'game': 'runfast', 'hands': [['3s']]}]
>>> try:
...     list(read_records(io.StringIO('{"game": "runfast", "hands": 5}\\n'), "f"))
... except RecordFileError as err:
...     print(err)
line 1 of f is not a game record: hands: Input should be a valid list
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

#: Longest line read (a Guandan record is ~10 KB).
MAX_LINE_CHARS = 4 * 1024 * 1024


class RecordFileError(Exception):
    """A line of the file is not a record: one sentence naming the line."""


class _Shape(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class _Combo(_Shape):
    type: StrictStr
    rank: StrictStr | None = None


class _Action(_Shape):
    seat: StrictInt
    cards: list[StrictStr] | None = None
    combo: _Combo | None = None
    pass_: StrictBool | None = Field(default=None, alias="pass")


class _Tribute(_Shape):
    from_: StrictInt = Field(alias="from")
    to: StrictInt
    card: StrictStr


class _Return(_Shape):
    from_: StrictInt = Field(alias="from")
    card: StrictStr


class _TributeBlock(_Shape):
    cancelled: StrictBool = False
    tributes: list[_Tribute] = []
    returned: list[_Return] = []


Level = StrictStr | StrictInt


class _Record(_Shape):
    game: StrictStr
    hands: list[list[StrictStr]]
    seed: StrictInt | None = None
    deal: StrictInt | None = None
    leader: StrictInt | None = None
    actions: list[_Action] = []
    places: list[StrictInt] | None = None
    level: Level | None = None
    levels_before: list[Level] | None = None
    levels_after: list[Level] | None = None
    tribute: _TributeBlock | None = None
    winner: StrictInt | None = None
    scores: list[StrictInt] | None = None
    bomb_bonuses: list[Annotated[Any, Field()]] | None = None


def _parse(line: str, where: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        raise RecordFileError(f"{where} is not valid JSON ({err.msg})") from None
    except RecursionError:
        raise RecordFileError(f"{where} is nested too deeply to be a game record") from None
    except ValueError as err:  # an integer beyond Python's digit limit
        raise RecordFileError(f"{where} has a number too long to read ({err})") from None


def read_records(fh: IO[str], name: str) -> Iterator[dict[str, Any]]:
    """The records of an open JSONL file, one line at a time (blank lines skipped)."""
    number = 0
    while True:
        line = fh.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        number += 1
        where = f"line {number} of {name}"
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            raise RecordFileError(f"{where} is longer than {MAX_LINE_CHARS} characters")
        if not line.strip():
            continue
        item = _parse(line, where)
        if not isinstance(item, dict):
            raise RecordFileError(f"{where} is not a JSON object")
        try:
            _Record.model_validate(item)
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "record"
            raise RecordFileError(f"{where} is not a game record: {field}: {first['msg']}") from None
        yield item
