"""The photo reader's test set (issue 27): puzzles from our generator, drawn in several
styles, "photographed", and written with their ground truth.

``tools/scan_testset.py`` is the command; the modules here each hold one step:

- ``plan``: which pictures the set holds (category, board, style, camera), all from a seed;
- ``puzzles``: the boards and puzzles (``engine.generate_shape``), a player's entries;
- ``own_style``: a second drawing of our own with Pillow (fonts, colours, circles, hexes);
- ``our_style``: our drawing (``webapp/paper/drawing.py``'s SVG) through WeasyPrint and pdftoppm,
  and the booklet pages of ``hidato print``;
- ``site_shots``: screenshots of our play and solver pages (Playwright, Debian's Chromium)
  and the print sheet ``/p/<id>/print`` as Chromium prints it;
- ``camera``: a flat picture "photographed": perspective, rotation, curl, light, shadow,
  blur, noise, newsprint, JPEG and EXIF orientation;
- ``truth``: what the reader must return for each picture, and the manifest.

Everything random comes from ``random.Random`` / ``numpy.random.default_rng`` seeded
from the picture's name and the set's seed, so the same command makes the same bytes
(with the same libraries and fonts: see tests/data/scan/README.md).
"""
