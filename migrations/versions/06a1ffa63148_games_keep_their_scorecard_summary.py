"""games keep the engine's scorecard summary for group statistics

Revision ID: 06a1ffa63148
Revises: 234cc5f3cfb7
Create Date: 2026-11-30 19:40:00.000000

Every stored game gets its summary now, made by the engine's scorecard from its stored hands
(``scorekeeper.games.summary_of``); from then on every write stores it with the game. A SQL
script (``flask db upgrade --sql``) holds no Python, so it leaves the summaries out:
``flask summaries`` stores them afterwards (``games.fill_summaries``); until then a game without
one is summed up from its hands whenever its group's statistics are read (``groups.stats.load``).
"""

import sqlalchemy as sa
from alembic import context
from alembic import op

from scorekeeper.engine import build_scorecard
from scorekeeper.engine import Rules
from scorekeeper.games import records_from
from scorekeeper.games import summary_of

# revision identifiers, used by Alembic.
revision = "06a1ffa63148"
down_revision = "234cc5f3cfb7"
branch_labels = None
depends_on = None

games = sa.table(
    "games",
    sa.column("id", sa.String),
    sa.column("variant", sa.String),
    sa.column("options", sa.JSON),
    sa.column("players", sa.JSON),
    sa.column("first_dealer", sa.Integer),
    sa.column("version", sa.Integer),
    sa.column("summary", sa.JSON),
)
hands = sa.table(
    "hands",
    sa.column("game_id", sa.String),
    sa.column("number", sa.Integer),
    sa.column("bids", sa.JSON),
    sa.column("tricks", sa.JSON),
    sa.column("trump", sa.String),
)


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("summary", sa.JSON(), nullable=True))

    if context.is_offline_mode():
        return
    connection = op.get_bind()
    stored = connection.execute(
        sa.select(games.c.id, games.c.variant, games.c.options, games.c.players, games.c.first_dealer, games.c.version)
    ).all()
    for game in stored:
        rows = connection.execute(
            sa.select(hands.c.number, hands.c.bids, hands.c.tricks, hands.c.trump).where(hands.c.game_id == game.id)
        ).all()
        rules = Rules.build(len(game.players), game.variant, game.options)
        card = build_scorecard(rules, game.first_dealer, records_from(rows))
        connection.execute(games.update().where(games.c.id == game.id).values(summary=summary_of(card, game.version)))


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("summary")
