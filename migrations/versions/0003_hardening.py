"""Seat tenure, sheet owners and room activity

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 00:00:00.000000

- ``members.seat_since``: the version from which a member holds their seat; private events from
  before it belonged to someone else (or to another deal's numbering) and are never shown to them.
- ``sheets.edit_hash``: SHA-256 of the edit token returned when a sheet was saved; changing the
  sheet needs the token. Sheets saved before have none and can no longer be changed (only copied).
- ``rooms.active_at``: when the room last changed status or membership (Unix seconds), for the
  retention of abandoned lobbies and finished rooms.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('members', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat_since', sa.Integer(), nullable=True))
    with op.batch_alter_table('sheets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('edit_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('active_at', sa.Float(), nullable=True))
        batch_op.create_index('ix_rooms_status_active', ['status', 'active_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_index('ix_rooms_status_active')
        batch_op.drop_column('active_at')
    with op.batch_alter_table('sheets', schema=None) as batch_op:
        batch_op.drop_column('edit_hash')
    with op.batch_alter_table('members', schema=None) as batch_op:
        batch_op.drop_column('seat_since')
