"""The games: pure rules, no I/O. Nothing here imports anything outside ``app.games``.

Each game is a package here (``palace``, ``holdem``, ``thousand``) behind the contract of ``base``
(``Game``). Which games there are is not written here: each is registered by an entry point of the
group ``houserules.games`` (``pyproject.toml``), and ``app.registry`` finds them.
"""
