"""The database layer: the tables (``models``) and their migrations (``schema``,
``migrations/``), the ``Store`` every other layer goes through, puzzles by id and the
puzzle of the day (``catalog``), and the pool of pre-generated puzzles (``pool``).
SQLAlchemy is imported here and nowhere above."""
