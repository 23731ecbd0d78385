"""Persistence: SQLAlchemy models, the database engine and the few queries the rooms need."""
