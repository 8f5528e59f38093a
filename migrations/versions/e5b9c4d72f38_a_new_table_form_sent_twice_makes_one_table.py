"""a new-table form sent twice makes one table

Revision ID: e5b9c4d72f38
Revises: d4a8f3b61e27
Create Date: 2026-12-07 21:40:00.000000

A new-table form derives its table's host and seat links from a one-time mark, so the form sent
again (its first answer lost) finds the table it made by its host token's hash instead of making a
second one. The hash is unique (tokens are random, so every stored table already has its own) and
looked up.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "e5b9c4d72f38"
down_revision = "d4a8f3b61e27"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_tables_host_hash", ["host_hash"])


def downgrade():
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_constraint("uq_tables_host_hash", type_="unique")
