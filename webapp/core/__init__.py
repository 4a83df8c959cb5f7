"""The site's own ideas in pure Python, below every other layer: what may be asked for
(``options``), a puzzle as the site keeps it (``stored``), one player's game (``game``),
the messages several layers give (``messages``) and a puzzle's rating in words
(``ratings``).  No Flask, no database here."""
