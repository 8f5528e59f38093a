"""Database rows. Thin: no rules and no commits here (the service layer commits)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


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
    scorer_hash: Mapped[str] = mapped_column(String(64))
    watch_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=1)
    mode: Mapped[str] = mapped_column(String(8), default="table")  # "table" or "virtual"

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
    host_hash: Mapped[str] = mapped_column(String(64))
    # [{"name": …, "bot": None | "random" | "basic" | "strong", "token_hash": …, "joined": bool}]
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    phase: Mapped[str] = mapped_column(String(10), default="lobby")
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # engine Game.to_dict(); hidden cards
    seed: Mapped[int | None]  # only with SCOREKEEPER_ALLOW_SEED=1
    version: Mapped[int] = mapped_column(default=1)

    game: Mapped[Game] = relationship()
