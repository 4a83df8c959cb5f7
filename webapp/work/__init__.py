"""Heavy work in child processes under a time budget, a few at a time per machine
(``budget``), and what those children run (``tasks``).  No Flask, no database: the
children are forked from a process that holds only the engine and these modules."""
