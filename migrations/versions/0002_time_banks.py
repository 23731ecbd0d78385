"""Rooms keep the turn's start and each seat's time bank

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 12:55:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Both nullable: rooms from before keep playing, their seats start with a full bank.
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('turn_start', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('banks', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('banks')
        batch_op.drop_column('turn_start')
