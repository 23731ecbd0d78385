"""Leases kept alive by each instance's heartbeat, not by a write to every room it runs

Revision ID: 0006_instance_heartbeats
Revises: 0005_fair_rounds
Create Date: 2026-12-05 23:40:00.000000

- ``instances``: each instance's heartbeat (``alive_until``, Unix seconds by the database's clock).
  A room's lease (``rooms.lease_owner``, ``lease_epoch``) holds while its owner's heartbeat does.
- ``rooms.lease_until`` is dropped: renewing it rewrote, and locked, the row of every room an
  instance ran once a second, and a batch of moves waited for those locks.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006_instance_heartbeats'
down_revision: str | None = '0005_fair_rounds'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'instances',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('alive_until', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('lease_until')


def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('lease_until', sa.Float(), nullable=True))
    op.drop_table('instances')
