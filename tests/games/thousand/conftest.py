"""Fixtures for Thousand scenarios: fixed decks built from hands, so a test reads like the table."""
