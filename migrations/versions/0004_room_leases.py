"""Room leases: one instance owns a room's actor at a time

Revision ID: 0004_room_leases
Revises: 0003
Create Date: 2026-12-01 04:40:00.000000

- ``rooms.lease_owner``: the instance that runs the room (null: none).
- ``rooms.lease_epoch``: raised by every new owner; a commit names the epoch it was made under,
  so a stale owner's write is refused.
- ``rooms.lease_until``: when the lease ends unless renewed (Unix seconds by the database's clock).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004_room_leases'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('lease_owner', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('lease_epoch', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('lease_until', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('lease_until')
        batch_op.drop_column('lease_epoch')
        batch_op.drop_column('lease_owner')
