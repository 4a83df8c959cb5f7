"""The Hidato site and the ``hidato`` command line, in layers that import only downward:

- ``web``: the Flask app (app factory, blueprints, security, limits, jobs);
- ``store`` (the database, migrations, the pool) and ``paper`` (drawings, booklets);
- ``work``: heavy work in child processes under a time budget;
- ``core``: the site's own ideas in pure Python (options, stored puzzles, a game);
- and below them all the ``engine`` package.

``cli`` is the command line: its engine commands load nothing of the web stack.
Nothing is imported here, so ``import webapp.cli`` stays light.
"""
