"""roster names trimmed of invisible ends

Revision ID: 9e4b7c2d1f30
Revises: 5c1d0e7a9b21
Create Date: 2026-12-05 18:40:00.000000

A name's joiners at either end, and the Hangul fillers (blank letters), now mean nothing: "Ann"
followed by a zero-width joiner is Ann (games.trimmed). Roster players and merged names stored
before keep their old key, which no name typed now matches: each is trimmed the same way here.
A key that another row of the group already holds after trimming stays as it is (one person
entered twice: the group merges them, as for any two names of one person); so does a name that
trimming would leave empty. The rules are copied, not imported: a migration keeps meaning what
it meant when it was written.
"""

import unicodedata

import sqlalchemy as sa
from alembic import context
from alembic import op

# revision identifiers, used by Alembic.
revision = "9e4b7c2d1f30"
down_revision = "5c1d0e7a9b21"
branch_labels = None
depends_on = None

EDGES = "\u200c\u200d\u034f"
FILLERS = str.maketrans(dict.fromkeys("\u115f\u1160\u3164\uffa0", " "))


def trimmed(text):
    name = unicodedata.normalize("NFC", text.translate(FILLERS))
    while (shorter := " ".join(name.split()).strip(EDGES)) != name:
        name = shorter
    return name


def sql_trimmed(column):
    """:func:`trimmed` in PostgreSQL's words for a script (``db upgrade --sql``): the fillers made
    spaces, a run of spaces made one, the ends trimmed (names were stored whitespace-collapsed and
    NFC-normalised already)."""
    spaced = f"regexp_replace(translate({column}, E'\\u115f\\u1160\\u3164\\uffa0', '    '), ' {{2,}}', ' ', 'g')"
    return f"btrim({spaced}, E' \\u200c\\u200d\\u034f')"


def upgrade():
    if context.is_offline_mode():
        # As below, row by row in the order of the ids (of the keys for merged names): a trimmed key
        # that an earlier row of the group also trims to stays with that earlier row.
        key = sql_trimmed("p.key")
        op.execute(
            f"UPDATE group_players AS p SET name = {sql_trimmed('p.name')}, key = {key} WHERE {key} NOT IN ('', p.key)"
            f" AND NOT EXISTS (SELECT 1 FROM group_players AS q WHERE q.group_id = p.group_id"
            f" AND (q.key = {key} OR (q.id < p.id AND {sql_trimmed('q.key')} = {key})))"
        )
        key = sql_trimmed("a.key")
        op.execute(
            f"UPDATE group_aliases AS a SET key = {key} WHERE {key} NOT IN ('', a.key)"
            f" AND NOT EXISTS (SELECT 1 FROM group_aliases AS b WHERE b.group_id = a.group_id"
            f" AND (b.key = {key} OR (b.key < a.key AND {sql_trimmed('b.key')} = {key})))"
        )
        return
    bind = op.get_bind()
    players = bind.execute(sa.text("SELECT id, group_id, name, key FROM group_players ORDER BY id")).all()
    held = {(group, key) for _, group, _, key in players}
    for player_id, group, name, key in players:
        new_name = trimmed(name)
        new_key = new_name.casefold()
        if not new_name or (new_name, new_key) == (name, key):
            continue
        if new_key != key and (group, new_key) in held:
            continue
        bind.execute(
            sa.text("UPDATE group_players SET name = :name, key = :key WHERE id = :id"),
            {"name": new_name, "key": new_key, "id": player_id},
        )
        held = (held - {(group, key)}) | {(group, new_key)}
    aliases = bind.execute(sa.text("SELECT group_id, key FROM group_aliases ORDER BY group_id, key")).all()
    held = set(map(tuple, aliases))
    for group, key in aliases:
        new_key = trimmed(key)
        if not new_key or new_key == key or (group, new_key) in held:
            continue
        bind.execute(
            sa.text("UPDATE group_aliases SET key = :new WHERE group_id = :group AND key = :key"),
            {"new": new_key, "group": group, "key": key},
        )
        held = (held - {(group, key)}) | {(group, new_key)}


def downgrade():
    pass  # the trimmed names are the names as typed; nothing to undo
