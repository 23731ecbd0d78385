"""Fair rounds that survive a restart, and the server's signing key

Revision ID: 0005_fair_rounds
Revises: 0004_room_leases
Create Date: 2026-12-01 20:20:00.000000

- ``rooms.fair_pending``: the next deal's round (server seed, nonce, commitment, contributions),
  so a restart keeps it instead of drawing a new one (docs/fairness.md).
- ``server_keys``: the Ed25519 key that signs commitments and sealed rounds (one row).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005_fair_rounds'
down_revision: str | None = '0004_room_leases'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fair_pending', sa.JSON(), nullable=True))
    op.create_table(
        'server_keys',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('private_key', sa.String(length=64), nullable=False),
        sa.Column('public_key', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )


def downgrade() -> None:
    op.drop_table('server_keys')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('fair_pending')
