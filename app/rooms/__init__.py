"""A room's life: seats and tokens, host approval, spectators, the per-room actor and its timers.

``web`` calls in; ``rooms`` calls ``games`` (only the ``Game`` surface) and ``store``.
"""
