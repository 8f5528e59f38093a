"""a new-game form sent twice makes one game

Revision ID: d4a8f3b61e27
Revises: c7d2e9a41b58
Create Date: 2026-12-07 18:50:00.000000

A new-game form derives its game's tokens from a one-time mark, so the form sent again (its first
answer lost) finds the game it made by its scorer token's hash instead of making a second one. The
hash is unique (tokens are random, so every stored game already has its own) and looked up.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "d4a8f3b61e27"
down_revision = "c7d2e9a41b58"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_games_scorer_hash", ["scorer_hash"])


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_constraint("uq_games_scorer_hash", type_="unique")
