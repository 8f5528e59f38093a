"""virtual hands without trump: noted as none

Revision ID: 5c1d0e7a9b21
Revises: 17fa8991fcdd
Create Date: 2026-12-05 18:10:00.000000

A hand's stored trump tells "noted as having none" ('-', R12: a Bluke was turned, or the
all-cards hand) apart from "not noted" (null) since the trump marker came in; hands stored before
it wrote null for both. A virtual game always knows its trump, so each of its hands stored with
null had none: they are noted so. A table game's null stays "not noted": the scorer may simply
not have chosen one, and nothing stored tells which.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "5c1d0e7a9b21"
down_revision = "17fa8991fcdd"
branch_labels = None
depends_on = None


def upgrade():
    op.execute(
        "UPDATE hands SET trump = '-' WHERE trump IS NULL AND game_id IN (SELECT id FROM games WHERE mode = 'virtual')"
    )


def downgrade():
    pass  # nothing to undo: '-' is what these hands hold when stored since the marker came in
