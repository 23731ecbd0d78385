"""The example game, High card: a whole game in one folder, registered for the tests only.

It is what docs/adding-a-game.md describes, written out: the rules (``game.py``, rule ids E1–E3 of
``rules.md``), its form layout, bot (``bot.py``) and table (``static/table.js``, ``static/table.css``),
its cases for the registry-driven suites (``cases.py``) and its own tests. ``tests/plugins/games.py``
registers it (``HOUSERULES_GAMES``) because its folder holds a ``game.py``; nothing outside this
folder names it.
"""
