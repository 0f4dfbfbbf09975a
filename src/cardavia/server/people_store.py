"""What a table with friends stores besides its log: invite links, spectator tokens and
changed seats.

An invite code is kept only as its hash (like the seat tokens), in the ``invites`` table:
one row per link, with the table and the seat it opens (``seat`` NULL: the table's
spectator link) and its state (``open``, ``used``, ``revoked``). Each spectator who opens
the spectator link gets a token of their own, kept the same way (a row with ``seat``
NULL and the state ``watcher``; ``ended`` once the creator ends the watching): it opens
nothing but a spectator's connection to that table, and outlives the link. Who sits where — the
seat kinds and names of the config, the token hashes — is the ``tables`` row itself, updated
when a seat is claimed, handed to the AI or offered to a new invitee.

Every method is synchronous and commits before it returns; the server calls them from its
database thread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from cardavia.server.store import Store, metadata, tables_table

OPEN = "open"
USED = "used"
REVOKED = "revoked"
#: A spectator's own token (not a link): watching, or ended by the creator.
WATCHER = "watcher"
ENDED = "ended"
TOKEN_STATES = frozenset({WATCHER, ENDED})

invites_table = sa.Table(
    "invites",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=True),  # NULL: the spectator link
    sa.Column("state", sa.String(8), nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
)


@dataclass(frozen=True, slots=True)
class Invite:
    """One stored invite link (its code is never stored)."""

    table_id: str
    seat: int | None
    state: str


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class PeopleStore:
    """The invite links and seat updates of tables with friends, in a :class:`Store`'s
    database (the ``invites`` table comes with the schema, migration 0003)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add_invite(self, code_hash: str, table_id: str, seat: int | None) -> None:
        """A new open link; earlier open links of the same seat (or spectator link) are
        revoked in the same transaction."""
        with self.store.engine.begin() as conn:
            conn.execute(self._revoke_statement(table_id, seat))
            conn.execute(
                invites_table.insert(),
                {"code_hash": code_hash, "table_id": table_id, "seat": seat, "state": OPEN,
                 "created_at": _now()},
            )

    @staticmethod
    def _revoke_statement(table_id: str, seat: int | None) -> Any:
        where = invites_table.c.seat.is_(None) if seat is None else invites_table.c.seat == seat
        return (
            invites_table.update()
            .where(invites_table.c.table_id == table_id, where, invites_table.c.state == OPEN)
            .values(state=REVOKED)
        )

    def revoke(self, table_id: str, seat: int | None) -> int:
        """Revoke the open link of a seat (or the spectator link); how many were open."""
        with self.store.engine.begin() as conn:
            return int(conn.execute(self._revoke_statement(table_id, seat)).rowcount or 0)

    def add_watcher(self, token_hash: str, table_id: str) -> None:
        """A spectator's own token (its hash) for ``table_id``."""
        with self.store.engine.begin() as conn:
            conn.execute(
                invites_table.insert(),
                {"code_hash": token_hash, "table_id": table_id, "seat": None, "state": WATCHER,
                 "created_at": _now()},
            )

    def is_watcher(self, token_hash: str, table_id: str) -> bool:
        """Whether the hash is a spectator token of ``table_id`` that still watches."""
        invite = self.find(token_hash)
        return invite is not None and invite.table_id == table_id and invite.state == WATCHER

    def end_watchers(self, table_id: str) -> int:
        """End every spectator token of the table; how many were watching."""
        with self.store.engine.begin() as conn:
            return int(conn.execute(
                invites_table.update()
                .where(invites_table.c.table_id == table_id, invites_table.c.state == WATCHER)
                .values(state=ENDED)
            ).rowcount or 0)

    def find(self, code_hash: str) -> Invite | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(invites_table.c.table_id, invites_table.c.seat, invites_table.c.state)
                .where(invites_table.c.code_hash == code_hash)
            ).first()
        if row is None:
            return None
        return Invite(str(row[0]), None if row[1] is None else int(row[1]), str(row[2]))

    def claim(
        self, code_hash: str, table_id: str, config: dict[str, Any], token_hashes: dict[int, str]
    ) -> bool:
        """Use an open seat link and store the table's new seats, in one transaction;
        False (nothing changed) when the link is no longer open."""
        with self.store.engine.begin() as conn:
            used = conn.execute(
                invites_table.update()
                .where(invites_table.c.code_hash == code_hash, invites_table.c.state == OPEN)
                .values(state=USED)
            ).rowcount
            if used != 1:
                return False
            self._save(conn, table_id, config, token_hashes)
        return True

    def save_seats(
        self, table_id: str, config: dict[str, Any], token_hashes: dict[int, str],
        revoke_seats: tuple[int, ...] = (),
    ) -> None:
        """Store the table's seats (config and token hashes); revoke the open links of
        ``revoke_seats`` with it."""
        with self.store.engine.begin() as conn:
            for seat in revoke_seats:
                conn.execute(self._revoke_statement(table_id, seat))
            self._save(conn, table_id, config, token_hashes)

    @staticmethod
    def _save(
        conn: sa.Connection, table_id: str, config: dict[str, Any], token_hashes: dict[int, str]
    ) -> None:
        conn.execute(
            tables_table.update()
            .where(tables_table.c.id == table_id)
            .values(
                config=json.dumps(config),
                token_hashes=json.dumps({str(k): v for k, v in token_hashes.items()}),
                updated_at=_now(),
            )
        )


def stored_seats(store: Store, table_id: str) -> tuple[dict[str, Any], dict[int, str]] | None:
    """The stored config and token hashes of a table (None: no such table)."""
    with store.engine.connect() as conn:
        row = conn.execute(
            sa.select(tables_table.c.config, tables_table.c.token_hashes)
            .where(tables_table.c.id == table_id)
        ).first()
    if row is None:
        return None
    config = json.loads(row[0])
    hashes = {int(k): str(v) for k, v in json.loads(row[1]).items()}
    return (config if isinstance(config, dict) else {}), hashes
