"""imported games keep the file's id

Revision ID: c7d2e9a41b58
Revises: b3f1a6d20c47
Create Date: 2026-12-06 18:00:00.000000

A game imported into a group keeps the ``id`` its file gave: the same file imported into the group
again (an import sent twice, its first answer lost) is refused instead of counting twice. Games
imported before this kept nothing to compare.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c7d2e9a41b58"
down_revision = "b3f1a6d20c47"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("origin", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("origin")
