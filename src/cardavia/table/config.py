"""Who sits at a table and what it plays: the configuration a table's log is replayed with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cardavia.ai.difficulty import AI_LEVELS, STRONGEST
from cardavia.rules.games import Game, GameName, UnknownGame, find_game

PERSON: Literal["person"] = "person"
AI: Literal["ai"] = "ai"

SeatKind = Literal["person", "ai"]


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """Who sits in a seat: a person, or an AI at a difficulty."""

    seat: int
    kind: SeatKind
    difficulty: str | None = None
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "difficulty": self.difficulty,
            "name": self.name,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> SeatConfig:
        kind = str(data["kind"])
        if kind not in (PERSON, AI):
            raise ValueError(f"seat kind {kind!r} is neither 'person' nor 'ai'")
        difficulty = data.get("difficulty")
        seat_kind: SeatKind = PERSON if kind == PERSON else AI
        return SeatConfig(
            seat=int(data["seat"]),
            kind=seat_kind,
            difficulty=None if difficulty is None else str(difficulty),
            name=str(data.get("name", "")),
        )


def _known_game(name: str) -> Game:
    try:
        return find_game(name)
    except UnknownGame as err:
        raise ValueError(str(err)) from None


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The game, its seed and the seats: everything needed to replay the log."""

    game: GameName
    seed: int
    seats: tuple[SeatConfig, ...]

    def __post_init__(self) -> None:
        game = _known_game(self.game)
        if len(self.seats) != game.seats:
            raise ValueError(f"{self.game} needs {game.seats} seats, got {len(self.seats)}")
        for index, seat in enumerate(self.seats):
            if seat.seat != index:
                raise ValueError(f"seat {index} is configured as seat {seat.seat}")
            if seat.kind == AI and seat.difficulty not in AI_LEVELS:
                names = ", ".join(AI_LEVELS)
                raise ValueError(f"unknown difficulty {seat.difficulty!r}; choose one of {names}")

    @property
    def rules(self) -> Game:
        """The game's entry in the registry."""
        return find_game(self.game)

    @classmethod
    def preset(
        cls,
        game: str,
        seed: int,
        difficulty: str = "normal",
        partner: str = STRONGEST,
    ) -> TableConfig:
        """The product's presets: the person in seat 0; in a partnership game the partner
        (the seat opposite) plays at ``partner``, every other AI at ``difficulty``."""
        rules = _known_game(game)
        mate = rules.seats // 2 if rules.partnerships else None
        seats = [SeatConfig(0, PERSON, None, "You")]
        for s in range(1, rules.seats):
            if s == mate:
                seats.append(SeatConfig(s, AI, partner, "Partner"))
            else:
                seats.append(SeatConfig(s, AI, difficulty, f"AI {s}"))
        return cls(rules.name, seed, tuple(seats))

    @property
    def person_seats(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.kind == PERSON)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "seats": [s.to_json() for s in self.seats]}

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableConfig:
        return TableConfig(
            game=_known_game(str(data["game"])).name,
            seed=int(data["seed"]),
            seats=tuple(SeatConfig.from_json(s) for s in data["seats"]),
        )
