"""Paper: the one drawing of a board (``drawing``) and printable sheets and PDF booklets
(``booklet``).  No Flask and no database: ``hidato print`` uses it without a server."""
