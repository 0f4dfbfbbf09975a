"""The revisions, oldest first: ``0001`` is the schema ``store.py`` created before migrations."""
