"""The order in which statements lock rooms' rows.

A statement that changes several rooms' rows first locks them in the order of their ids, in a
``k`` common table expression, so two of them at once (a batch of moves, a lease's take or release,
a listing of a listening session) wait for each other instead of deadlocking.
"""

from __future__ import annotations


def rooms_locked_in_order(ids: str, condition: str | None = None) -> str:
    """``k``: the rooms whose ids are in the SQL array ``ids`` (and meet ``condition``), locked in
    the order of their ids. Rooms are found by their ids as an array (``= ANY``), which the planner
    reads as a few rows by the primary key."""
    where = f"id = ANY({ids})" + (f" AND {condition}" if condition else "")
    return f"k AS MATERIALIZED (SELECT id FROM rooms WHERE {where} ORDER BY id FOR UPDATE)"
