"""The site's own ideas in pure Python, below every other layer: what may be asked for
(``options``), a puzzle as the site keeps it (``stored``), one player's game (``game``),
the messages several layers give (``messages``), a puzzle's rating in words
(``ratings``) and which day it is for the site (``days``).  No Flask, no database here."""
