"""Each room lists the listening sessions that hear of its changes

Revision ID: 0007_room_listeners
Revises: 0006_instance_heartbeats
Create Date: 2026-12-06 04:20:00.000000

- ``rooms.listeners`` (PostgreSQL: an array of backend pids; SQLite: JSON, never written): the
  listening sessions of the instances holding a copy of the room. A commit notifies the room's
  channel only when another instance's session is listed; before, every commit notified, and
  PostgreSQL woke every listening session of the database for each of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0007_room_listeners'
down_revision: str | None = '0006_instance_heartbeats'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    listeners = (postgresql.ARRAY(sa.Integer()) if op.get_bind().dialect.name == "postgresql"
                 else sa.JSON())
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('listeners', listeners, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('listeners')
