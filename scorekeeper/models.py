"""Database rows. Thin: no rules and no commits here (the service layer commits)."""

from __future__ import annotations

from datetime import datetime
from datetime import UTC
from typing import Any

from sqlalchemy import ForeignKey
from sqlalchemy import JSON
from sqlalchemy import String
from sqlalchemy import UniqueConstraint
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column
from sqlalchemy.orm import relationship

from .extensions import db

#: The stored trump of a hand noted as having none (R12): apart from ``None``, "not noted".
NO_TRUMP = "-"


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """A scored game: its set-up, access token hashes and a version bumped by every write."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    variant: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, bool]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[int]
    #: Unique: a new-game form sent twice derives the same tokens (``tokens.tokens_of_form``).
    scorer_hash: Mapped[str] = mapped_column(String(64), unique=True)
    watch_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=1)
    mode: Mapped[str] = mapped_column(String(8), default="table")  # "table" or "virtual"
    group_id: Mapped[str | None] = mapped_column(ForeignKey("groups.id", ondelete="SET NULL"), index=True)
    #: The engine's scorecard of this version in brief (``games.summary_of``), for group statistics.
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The seats a bot played in an imported game ({"1": "strong"}: the seat as text, the level), as
    #: its file said; a virtual game's are its table's (``games.bot_seats``).
    bots: Mapped[dict[str, str] | None] = mapped_column(JSON)
    #: For a game imported into a group, the game it copies: the imported file's ``origin`` (a group
    #: export gives a copy's), else its ``id``. That game imported into the group again is refused
    #: (``groups.service.seat_players``), as it would count twice.
    origin: Mapped[str | None] = mapped_column(String(64))

    hands: Mapped[list[HandEntry]] = relationship(
        back_populates="game", order_by="HandEntry.number", cascade="all, delete-orphan"
    )
    corrections: Mapped[list[Correction]] = relationship(
        back_populates="game", order_by="Correction.id", cascade="all, delete-orphan"
    )


class HandEntry(db.Model):  # type: ignore[name-defined,misc]
    """What the scorer recorded for one hand: bids (with trump), then tricks (R25)."""

    __tablename__ = "hands"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    bids: Mapped[list[int] | None] = mapped_column(JSON)
    tricks: Mapped[list[int] | None] = mapped_column(JSON)
    #: "S", "H", "D", "C"; :data:`NO_TRUMP` when the scorer noted that a Bluke was turned (R12);
    #: ``None`` while the trump is not noted.
    trump: Mapped[str | None] = mapped_column(String(1))

    game: Mapped[Game] = relationship(back_populates="hands")


class Correction(db.Model):  # type: ignore[name-defined,misc]
    """One change to already-recorded entries: when, which hand, old → new. Never deleted."""

    __tablename__ = "corrections"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    hand: Mapped[int]
    field: Mapped[str] = mapped_column(String(8))  # "bids", "tricks", "trump" or "undo"
    old: Mapped[Any] = mapped_column(JSON)
    new: Mapped[Any] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="corrections")


class VirtualTable(db.Model):  # type: ignore[name-defined,misc]
    """A virtual table: its seats (humans and bots) and the engine's state, saved after every action."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Unique: a new-table form sent twice derives the same tokens (``tokens.tokens_of_form``).
    host_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # [{"name": …, "bot": None | "random" | "basic" | "strong", "token_hash": …, "joined": bool}]
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    phase: Mapped[str] = mapped_column(String(10), default="lobby")
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # engine Game.to_dict(); hidden cards
    seed: Mapped[int | None]  # only with SCOREKEEPER_ALLOW_SEED=1
    version: Mapped[int] = mapped_column(default=1)

    game: Mapped[Game] = relationship()


class Group(db.Model):  # type: ignore[name-defined,misc]
    """Friends who play together: a roster and the games they played, opened by one token (API.md, "Groups")."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    players: Mapped[list[GroupPlayer]] = relationship(
        back_populates="group", order_by="GroupPlayer.key", cascade="all, delete-orphan"
    )


class GroupPlayer(db.Model):  # type: ignore[name-defined,misc]
    """One person on a group's roster; ``key`` is the trimmed, case-folded name that names match."""

    __tablename__ = "group_players"
    __table_args__ = (UniqueConstraint("group_id", "key"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(160))

    group: Mapped[Group] = relationship(back_populates="players")


class GroupAlias(db.Model):  # type: ignore[name-defined,misc]
    """Another name of a roster player: the name of a player merged into them, so a game that names
    them so again seats them, not a new player (``key`` as :class:`GroupPlayer`'s)."""

    __tablename__ = "group_aliases"

    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("group_players.id", ondelete="CASCADE"), index=True)


class GroupSeat(db.Model):  # type: ignore[name-defined,misc]
    """Who sat in a seat of a group's game: a person (roster player) sits at most once per game."""

    __tablename__ = "group_seats"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("group_players.id", ondelete="CASCADE"), index=True)
