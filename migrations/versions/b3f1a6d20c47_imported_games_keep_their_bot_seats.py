"""imported games keep the seats a bot played

Revision ID: b3f1a6d20c47
Revises: 9e4b7c2d1f30
Create Date: 2026-12-06 11:40:00.000000

An export file marks the seats a bot played (``players[].bot``); an import counted them for nobody
in a group but did not keep them, so the imported game's own export no longer said so, and imported
again into a group its bots joined the roster. Games imported before this kept nothing to restore.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b3f1a6d20c47"
down_revision = "9e4b7c2d1f30"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bots", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("bots")
