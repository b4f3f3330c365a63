"""Database backend: PostgreSQL, started or attached on first connection when embedded."""
