"""group aliases: merged names stay with the player

Revision ID: 17fa8991fcdd
Revises: 06a1ffa63148
Create Date: 2026-12-04 05:25:52.116668

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "17fa8991fcdd"
down_revision = "06a1ffa63148"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "group_aliases",
        sa.Column("group_id", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_group_aliases_group_id_groups"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["group_players.id"],
            name=op.f("fk_group_aliases_player_id_group_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("group_id", "key", name=op.f("pk_group_aliases")),
    )
    with op.batch_alter_table("group_aliases", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_group_aliases_player_id"), ["player_id"], unique=False)


def downgrade():
    with op.batch_alter_table("group_aliases", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_group_aliases_player_id"))

    op.drop_table("group_aliases")
