"""Alembic migrations of the server's database (``cardavia db upgrade``; :mod:`..schema`)."""
