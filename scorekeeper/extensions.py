"""Unbound extensions and the database set-up (SQLite pragmas, IMMEDIATE write transactions)."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask
from flask import request
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from flask_wtf.form import _Auto
from sqlalchemy import event
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
compress = Compress()


class PageForm(FlaskForm):  # type: ignore[misc]
    """A page's form, filled from the posted fields only. Flask-WTF fills a form from a JSON body
    when nothing was posted as a form, where a list or a number is a TypeError (500) and an object's
    values need not be text; sent so to a page, a form is empty and refused as out of date (400)."""

    class Meta(FlaskForm.Meta):  # type: ignore[misc]
        def wrap_formdata(self, form: FlaskForm, formdata: Any) -> Any:
            if formdata is _Auto and request.is_json:
                formdata = request.form if form.is_submitted() else None
            return super().wrap_formdata(form, formdata)


#: Execution option a service sets on a session's connection to take the write lock at BEGIN.
WRITE = {"scorekeeper_write": True}


def create_private(path: str | None) -> None:
    """Create a new SQLite file readable by its owner only (0600): it holds the hidden hands.

    SQLite gives the ``-wal`` and ``-shm`` files the database file's permissions.
    """
    if not path or path == ":memory:" or path.startswith("file:") or os.path.exists(path):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # another process created it at the same moment


#: How long a write waits for another to finish on SQLite before it gives up (a 503, errors.py).
BUSY_TIMEOUT_MS = 5000


def setup_database(app: Flask) -> None:
    """On SQLite: WAL, a 5 s busy timeout, foreign keys, and ``BEGIN IMMEDIATE`` for writes.

    pysqlite's own transaction handling is switched off so that a write transaction takes the
    lock when it begins; two phones writing at once then queue instead of failing with
    "database is locked" half-way (SQLAlchemy docs, "Serializable isolation / Savepoints").
    """
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    with app.app_context():
        engine = db.engine
    create_private(engine.url.database)  # a relative path as Flask-SQLAlchemy read it: in the instance folder

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # The timeout first: switching a new file to WAL itself needs the lock for a moment.
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        write = connection.get_execution_options().get("scorekeeper_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
