"""Houserules: card games among friends, each room with its own house rules."""
