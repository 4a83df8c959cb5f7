"""The site's own ideas in pure Python, below every other layer: what may be asked for
(``options``), a puzzle as the site keeps it (``stored``), one player's game (``game``)
and the messages several layers give (``messages``).  No Flask, no database here."""
