"""Which pictures the test set holds: per category, the boards, how each is drawn and how
it is photographed, drawn from the set's seed.

Every category mixes clean renderings with photos, and within photos covers what the
issue names (quarter turns, odd angles, EXIF tags, perspective, curl, shadow, glare,
newsprint, JPEG 40-90): the choices go round fixed lists by the picture's index, the
amounts within each are random.  Categories: ``square`` (Hidato), ``numbrix``, ``hex``,
``holes`` (ragged outlines and holes), ``screenshots``, ``pdf`` (our PDF pages),
``newsprint`` (photos of newspaper puzzles), ``entries`` (a player's numbers too).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .camera import Shot
from .own_style import ENTRY_FONTS, GIVEN_FONTS, SERIF_FONTS, Theme
from .puzzles import BoardSpec

CATEGORIES = ("square", "numbrix", "hex", "holes", "screenshots", "pdf", "newsprint", "entries")


@dataclass(frozen=True)
class Booklet:
    """A booklet made by ``hidato print`` (one puzzle to a page)."""

    shape: str
    size: int | None
    adjacency: str
    difficulty: str
    count: int
    seed: int
    qr: bool = False


@dataclass(frozen=True)
class Spec:
    """One picture of the set."""

    name: str  # the file's stem: category, number, how it was made
    category: str
    kind: str  # own (Pillow), ours (the site's SVG), booklet, print (/p/<id>/print), play, solver
    board: BoardSpec | None = None  # None: the booklet's page's puzzle
    theme: Theme | None = None
    layout: str = "plain"  # plain, book, news, news+solution, app, app+pad
    cell: int = 48  # own drawings: pixels a cell on the flat sheet
    dpi: int = 150  # ours, booklet and print: pdftoppm's resolution
    shot: Shot | None = None  # None: the flat picture itself
    fmt: str = "png"  # a flat picture's format: png, jpg, webp
    quality: int = 90  # a flat jpg or webp picture's quality
    entries: float = 0.0  # share of the empty cells a player has filled (0: none)
    booklet: Booklet | None = None
    page: int = 1
    viewport: tuple[int, int] = (390, 844)  # play and solver pages: the window (CSS px)
    scale: float = 3.0  # play and solver pages: device pixels per CSS pixel

    @property
    def hex_turns(self) -> bool:
        """Drawn with flat-top hexagons: the reader may give the board in any of its six
        turns (a flat-top lattice has no upright; the digits are, the rows are not)."""
        return self.theme is not None and self.theme.hex_turn != 0 and self.board is not None \
            and self.board.adjacency == "hex"


GIVEN_FILLS = ((232, 232, 232), (255, 236, 179), (200, 228, 255), (214, 240, 214), (255, 218, 218), (230, 220, 255),
               (210, 210, 210))
ENTRY_INKS = ((30, 80, 200), (25, 100, 230), (0, 90, 160), (60, 60, 200), (20, 120, 200), (80, 80, 80))
CIRCLES = ((200, 40, 40), (0, 0, 0), (40, 120, 40), (30, 80, 200))
# Photo sizes as shown (width, height): 1.5 to 3 MP, as a phone's picture scaled for sending
# (the benchmark makes 12-MP ones on the fly).
PHOTO_SIZES = ((1600, 1200), (1200, 1600), (1440, 1080), (1080, 1440), (1440, 1080), (1600, 1200), (1080, 1440),
               (1440, 1080), (1200, 1600), (1440, 1080), (1080, 1440), (2048, 1536))
# Turns of the sheet in the frame, gone round in order: upright, slightly off, quarter turns,
# upside down, and odd angles.
TURNS = (0.0, 4.0, -7.0, 90.0, 12.0, 180.0, -90.0, 33.0, -3.0, 270.0, 150.0, -20.0, 61.0, 8.0)
HEX_TURNS = (0.0, 30.0, -30.0, 5.0, 90.0, 60.0, -35.0, 180.0, 150.0, -90.0, 27.0, -60.0)
ORIENTATIONS = (1, 6, 1, 1, 8, 1, 3, 1, 1)


def theme_for(rng: random.Random, look: str) -> Theme:
    """A random theme of a look: print (black on white), app (colours), dark (dark mode),
    news (serif, thin lines), pen (a player's numbers written in)."""
    if look == "dark":
        return Theme(paper=(18, 18, 20), cell=rng.choice(((30, 30, 34), (18, 18, 20))), line=(120, 120, 128),
                     outline=rng.choice((0.0, 0.06)), outline_colour=(200, 200, 200),
                     given_fill=rng.choice(((60, 60, 70), (40, 70, 110), None)), given_ink=(235, 235, 235),
                     given_font=rng.choice(GIVEN_FONTS), digits=rng.uniform(0.45, 0.6),
                     circles=rng.choice((None, (230, 120, 60))), entry_ink=(110, 170, 255),
                     entry_font=rng.choice(ENTRY_FONTS), thin=0.03)
    if look == "app":
        tiles = rng.random() < 0.35
        plain = (((255, 255, 255), None), ((248, 246, 240), None), ((240, 244, 250), None))
        tiled = (((255, 255, 255), (222, 228, 238)), ((236, 238, 242), (255, 255, 255)),
                 ((250, 247, 240), (230, 222, 205)))
        paper, cell = rng.choice(tiled if tiles else plain)
        return Theme(paper=paper, cell=cell,
                     line=rng.choice(((60, 60, 60), (150, 150, 160), (70, 90, 140))),
                     thin=0.0 if tiles and rng.random() < 0.6 else rng.uniform(0.02, 0.05),
                     outline=0.0 if tiles else rng.choice((0.0, 0.05, 0.09)),
                     given_fill=rng.choice(GIVEN_FILLS[1:]), given_ink=rng.choice(((0, 0, 0), (20, 30, 80))),
                     given_font=rng.choice(GIVEN_FONTS), digits=rng.uniform(0.42, 0.62),
                     circles=rng.choice(CIRCLES) if rng.random() < 0.6 else None,
                     tiles=rng.uniform(0.06, 0.14) if tiles else 0.0,
                     entry_ink=rng.choice(ENTRY_INKS), entry_font=rng.choice(ENTRY_FONTS))
    if look == "news":
        return Theme(paper=(255, 255, 255), line=(0, 0, 0), thin=rng.uniform(0.02, 0.04),
                     outline=rng.choice((0.04, 0.07, 0.1)), given_fill=rng.choice((None, None, (215, 215, 215))),
                     given_font=rng.choice(SERIF_FONTS + ("LiberationSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf")),
                     digits=rng.uniform(0.42, 0.58), circles=(0, 0, 0) if rng.random() < 0.3 else None,
                     holes=rng.choice(("blank", "blank", "shaded")))
    base = Theme(paper=(255, 255, 255), line=rng.choice(((0, 0, 0), (60, 60, 60), (120, 120, 120))),
                 thin=rng.uniform(0.02, 0.05), outline=rng.choice((0.0, 0.06, 0.1, 0.14)),
                 given_fill=rng.choice((None, None, *GIVEN_FILLS)), given_font=rng.choice(GIVEN_FONTS),
                 digits=rng.uniform(0.4, 0.62), circles=rng.choice(CIRCLES) if rng.random() < 0.3 else None,
                 holes=rng.choice(("blank", "blank", "blank", "shaded")))
    if look == "pen":  # a printed sheet a player has written on in pen
        return replace(base, entry_ink=rng.choice(ENTRY_INKS[:5]), entry_font=rng.choice(ENTRY_FONTS),
                       entry_jitter=rng.uniform(0.3, 1.0))
    return base


def shot_for(rng: random.Random, index: int, turns: tuple[float, ...] = TURNS, newsprint: bool = False,
             hard: bool = False) -> Shot:
    """A phone photo: the turn from ``turns`` by index (plus a little), the rest random."""
    turn = turns[index % len(turns)] + rng.uniform(-2.5, 2.5)
    width, height = rng.choice(PHOTO_SIZES)
    return Shot(
        width=width, height=height,
        fill=rng.uniform(0.55, 0.9),
        turn=round(turn, 2),
        tilt=round(rng.uniform(0.02, 0.22 if hard else 0.14), 3),
        curl=round(rng.choice((0.0, rng.uniform(0.005, 0.025 if hard else 0.015))), 4),
        newsprint=newsprint,
        background=rng.choice(("wood", "desk", "cloth", "dark")),
        gradient=round(rng.uniform(0.05, 0.45), 3),
        shadow=round(rng.choice((0.0, 0.0, rng.uniform(0.2, 0.5))), 3),
        glare=round(rng.choice((0.0, 0.0, 0.0, rng.uniform(0.1, 0.3))), 3),
        warmth=round(rng.uniform(-0.08, 0.15), 3),
        blur=round(rng.uniform(0.5, 1.5), 2),
        shake=rng.choice((0, 0, 0, 3, 5)),
        noise=round(rng.uniform(0.5, 1.8), 2),
        quality=round(rng.triangular(40, 90, 50)),  # most photos are sent recompressed
        orientation=ORIENTATIONS[index % len(ORIENTATIONS)],
    )


def _square_boards(rng: random.Random, adjacency: str, count: int) -> list[BoardSpec]:
    sides = [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20]
    boards = []
    for i in range(count):
        if i % 4 == 3:  # a rectangle
            rows, cols = rng.choice(((6, 9), (8, 12), (10, 7), (12, 16), (9, 14), (15, 11), (16, 20), (7, 5)))
            boards.append(BoardSpec("rectangle", rows, adjacency, rng.choice(("easy", "medium")), rng.randint(0, 999),
                                    cols=cols))
        else:
            side = sides[(i * 5 + rng.randrange(2)) % len(sides)]
            boards.append(BoardSpec("square", side, adjacency, rng.choice(("easy", "easy", "medium")),
                                    rng.randint(0, 999)))
    return boards


def _looks(rng: random.Random, i: int, name: str, category: str, board: BoardSpec, hex_board: bool = False,
           turns: tuple[float, ...] = TURNS) -> Spec:
    """The i-th picture of a board category: round the kinds (ours clean, own clean, own
    photo, ours photo, own screenshot) with random details."""
    which = i % 6
    if which == 0:  # ours, rasterised clean
        dpi = rng.choice((72, 96, 100, 120, 150, 200))
        return Spec(f"{name}-ours-{dpi}dpi", category, "ours", board, dpi=dpi,
                    fmt=rng.choice(("png", "png", "jpg")), quality=rng.randint(70, 95))
    if which == 1:  # own drawing, clean (a scan, a picture saved from a site)
        theme = theme_for(rng, rng.choice(("print", "print", "app")))
        if hex_board and rng.random() < 0.5:
            theme = theme.turned(rng.choice((30, -30, 90, -90)))
        layout = rng.choice(("plain", "plain", "book"))
        return Spec(f"{name}-own-{layout}", category, "own", board, theme, layout, cell=rng.randint(28, 64),
                    fmt=rng.choice(("png", "jpg", "webp")), quality=rng.randint(60, 95))
    if which in (2, 4):  # own drawing photographed
        theme = theme_for(rng, rng.choice(("print", "print", "news", "app")))
        if hex_board and rng.random() < 0.5:
            theme = theme.turned(rng.choice((30, -30, 90, -90)))
        layout = rng.choice(("plain", "book", "book"))
        return Spec(f"{name}-own-photo", category, "own", board, theme, layout, cell=rng.randint(40, 70),
                    shot=shot_for(rng, i // 2, turns, hard=which == 4))
    if which == 3:  # our sheet printed and photographed
        return Spec(f"{name}-ours-photo", category, "ours", board, dpi=rng.choice((150, 200)),
                    shot=shot_for(rng, i // 2 + 3, turns))
    theme = theme_for(rng, rng.choice(("app", "app", "dark")))  # another app's screenshot
    if hex_board and rng.random() < 0.5:
        theme = theme.turned(rng.choice((30, -30, 90, -90)))
    return Spec(f"{name}-app-screen", category, "own", board, theme, rng.choice(("app", "app+pad")),
                cell=rng.randint(40, 90), fmt=rng.choice(("png", "jpg", "jpg")), quality=rng.randint(70, 92))


def plan(seed: int = 27) -> list[Spec]:
    """Every picture of the set, in order."""
    specs: list[Spec] = []
    specs += _board_category(seed, "square", _square_boards(random.Random(f"{seed}/square/boards"), "king", 28))
    specs += _board_category(seed, "numbrix", _square_boards(random.Random(f"{seed}/numbrix/boards"), "rook", 20))
    specs += _board_category(seed, "hex", _hex_boards(random.Random(f"{seed}/hex/boards"), 24), hex_board=True,
                             turns=HEX_TURNS)
    specs += _board_category(seed, "holes", _holed_boards(random.Random(f"{seed}/holes/boards"), 24))
    specs += _newsprint(seed, 18)
    specs += _entries(seed, 16)
    specs += _pdf(seed)
    specs += _screenshots(seed)
    specs += _dark_tiles(seed)
    specs += _screen_photos(seed)
    names = [spec.name for spec in specs]
    assert len(names) == len(set(names)), "picture names must be unique"
    return specs


def _board_category(seed: int, category: str, boards: list[BoardSpec], hex_board: bool = False,
                    turns: tuple[float, ...] = TURNS) -> list[Spec]:
    rng = random.Random(f"{seed}/{category}")
    out = []
    for i, board in enumerate(boards):
        spec = _looks(rng, i, f"{category}-{i + 1:02d}", category, board, hex_board, turns)
        if hex_board and spec.kind == "own" and spec.theme and spec.theme.hex_turn:
            spec = replace(spec, name=spec.name.replace("-own-", "-own-flat-").replace("-app-", "-app-flat-"))
        out.append(spec)
    return out


def _hex_boards(rng: random.Random, count: int) -> list[BoardSpec]:
    shapes = [("hexagon", 3), ("hexagon", 4), ("hexagon", 5), ("hexagon", 6), ("rectangle", 7), ("hexagon", 7),
              ("hexagon", 8), ("heart", 10), ("triangle", 8), ("rectangle", 10), ("hexagon", 5), ("star", 14)]
    boards = []
    for i in range(count):
        shape, size = shapes[i % len(shapes)]
        cols = rng.choice((9, 12, 14)) if shape == "rectangle" else None
        boards.append(BoardSpec(shape, size, "hex", rng.choice(("easy", "medium")), rng.randint(0, 999), cols=cols))
    return boards


def _holed_boards(rng: random.Random, count: int) -> list[BoardSpec]:
    kinds = [("diamond", 5, "king"), ("cross", 5, "king"), ("heart", 12, "king"), ("ring", 10, "rook"),
             ("triangle", 8, "king"), ("star", 16, "king"), ("skull", 14, "king"), ("arrow", 16, "king"),
             ("ragged", 9, "king"), ("ring", 12, "king"), ("cross", 6, "rook"), ("diamond", 6, "rook"),
             ("ragged", 10, "rook"), ("skull", 12, "hex"), ("ring", 9, "hex"), ("ragged", 8, "hex"),
             ("hexagon", 5, "king"), ("heart", 16, "king"), ("ragged", 14, "king"), ("star", 13, "king")]
    boards = []
    for i in range(count):
        shape, size, adjacency = kinds[i % len(kinds)]
        cols = rng.randint(size - 2, size + 4) if shape == "ragged" else None
        boards.append(BoardSpec(shape, size, adjacency, rng.choice(("easy", "medium")), rng.randint(0, 999),
                                cols=cols))
    return boards


def _newsprint(seed: int, count: int) -> list[Spec]:
    """Newspaper puzzles photographed: serif numbers, greyish paper, text around."""
    rng = random.Random(f"{seed}/newsprint")
    shapes = [("square", 7, "king"), ("square", 9, "king"), ("square", 10, "rook"), ("diamond", 6, "king"),
              ("square", 8, "king"), ("hexagon", 5, "hex"), ("rectangle", 9, "king"), ("square", 12, "king"),
              ("heart", 12, "king"), ("square", 6, "rook")]
    out = []
    for i in range(count):
        shape, size, adjacency = shapes[i % len(shapes)]
        board = BoardSpec(shape, size, adjacency, rng.choice(("easy", "medium")), rng.randint(0, 999),
                          cols=rng.choice((12, 13)) if shape == "rectangle" else None)
        layout = "news+solution" if i in (4, 13) else rng.choice(("news", "news", "book"))
        theme = theme_for(rng, "news")
        out.append(Spec(f"newsprint-{i + 1:02d}-{layout.replace('+', '-')}", "newsprint", "own", board, theme, layout,
                        cell=rng.randint(44, 64),
                        shot=shot_for(rng, i, HEX_TURNS if adjacency == "hex" else TURNS, newsprint=True,
                                      hard=i % 3 == 2)))
    return out


def _entries(seed: int, count: int) -> list[Spec]:
    """A player's numbers beside the givens: typed in an app (another colour, lighter) or
    written on a printed sheet in pen, clean and photographed."""
    rng = random.Random(f"{seed}/entries")
    shapes = [("square", 8, "king"), ("square", 6, "rook"), ("hexagon", 4, "hex"), ("square", 10, "king"),
              ("heart", 12, "king"), ("rectangle", 9, "rook")]
    out = []
    for i in range(count):
        shape, size, adjacency = shapes[i % len(shapes)]
        board = BoardSpec(shape, size, adjacency, "easy", rng.randint(0, 999),
                          cols=12 if shape == "rectangle" else None)
        share = rng.uniform(0.15, 0.7)
        if i % 4 == 0:
            spec = Spec(f"entries-{i + 1:02d}-app-screen", "entries", "own", board, theme_for(rng, "app"),
                        rng.choice(("app", "app+pad")), cell=rng.randint(50, 90), entries=share)
        elif i % 4 == 1:
            spec = Spec(f"entries-{i + 1:02d}-pen-photo", "entries", "own", board, theme_for(rng, "pen"),
                        rng.choice(("plain", "book")), cell=rng.randint(48, 70), entries=share,
                        shot=shot_for(rng, i, HEX_TURNS if adjacency == "hex" else TURNS))
        elif i % 4 == 2:
            spec = Spec(f"entries-{i + 1:02d}-dark-screen", "entries", "own", board, theme_for(rng, "dark"), "app",
                        cell=rng.randint(50, 90), entries=share, fmt=rng.choice(("png", "jpg")))
        else:
            spec = Spec(f"entries-{i + 1:02d}-app-photo", "entries", "own", board, theme_for(rng, "app"), "plain",
                        cell=rng.randint(50, 70), entries=share,
                        shot=shot_for(rng, i, HEX_TURNS if adjacency == "hex" else TURNS))
        out.append(spec)
    return out


def _pdf(seed: int) -> list[Spec]:
    """Pages of ``hidato print`` booklets rasterised at several resolutions, and a few
    printed and photographed."""
    rng = random.Random(f"{seed}/pdf")
    booklets = [Booklet("square", 8, "king", "medium", 2, 101), Booklet("hexagon", 5, "hex", "easy", 2, 102, qr=True),
                Booklet("star", None, "king", "easy", 1, 103), Booklet("square", 10, "rook", "medium", 2, 104),
                Booklet("heart", None, "hex", "easy", 1, 105, qr=True), Booklet("mixed", None, "king", "easy", 3, 106),
                Booklet("square", 16, "king", "easy", 1, 107)]
    dpis = (72, 100, 150, 200, 120, 96, 150, 300)
    out = []
    n = 0
    for booklet in booklets:
        for page in range(1, booklet.count + 1):
            n += 1
            dpi = dpis[n % len(dpis)]
            photo = n % 4 == 0
            name = f"pdf-{n:02d}-{booklet.shape}-{booklet.adjacency}-" + ("photo" if photo else f"{dpi}dpi")
            out.append(Spec(name, "pdf", "booklet", None, dpi=150 if photo else dpi, booklet=booklet, page=page,
                            shot=shot_for(rng, n) if photo else None, fmt="png"))
    return out


def _screenshots(seed: int) -> list[Spec]:
    """Our play page at phone size (givens, and a player's numbers), at a desk's size, the
    solver page with a puzzle typed in, and the print sheet as Chromium prints it."""
    rng = random.Random(f"{seed}/screenshots")
    boards = [BoardSpec("square", 7, "king", "easy", 1), BoardSpec("square", 10, "rook", "easy", 2),
              BoardSpec("hexagon", 5, "hex", "easy", 3), BoardSpec("heart", 12, "king", "easy", 4),
              BoardSpec("square", 12, "king", "medium", 5), BoardSpec("diamond", 6, "king", "easy", 6),
              BoardSpec("square", 6, "king", "easy", 7), BoardSpec("hexagon", 4, "hex", "easy", 8),
              BoardSpec("cross", 6, "rook", "easy", 9), BoardSpec("square", 9, "king", "easy", 10),
              BoardSpec("triangle", 8, "king", "easy", 11), BoardSpec("square", 8, "rook", "easy", 12),
              BoardSpec("square", 15, "king", "easy", 13), BoardSpec("hexagon", 6, "hex", "easy", 14)]
    out = []
    for i, board in enumerate(boards):
        n = i + 1
        if i % 7 == 5:
            out.append(Spec(f"screenshots-{n:02d}-solver-desk", "screenshots", "solver", board, viewport=(1280, 800),
                            scale=1.0 if n < 10 else 2.0))
        elif i % 7 == 6:
            out.append(Spec(f"pdf-{n + 50:02d}-print-sheet", "pdf", "print", board, dpi=rng.choice((100, 150))))
        elif i % 7 == 3:
            out.append(Spec(f"screenshots-{n:02d}-play-desk", "screenshots", "play", board, viewport=(1280, 800),
                            scale=1.0))
        else:
            entries = 0.3 if i % 7 == 2 else 0.0
            category = "entries" if entries else "screenshots"
            out.append(Spec(f"{category}-{n + 50:02d}-play-phone", category, "play", board, viewport=(390, 844),
                            scale=3.0 if n == 10 else 2.0, entries=entries,
                            fmt=rng.choice(("png", "png", "jpg")), quality=rng.randint(75, 92)))
    return out


def _dark_tiles(seed: int) -> list[Spec]:
    """Other apps' dark themes: rounded tiles set apart by gaps of the page's near-black,
    no lines, a serif font, rings around 1 and N; a whole phone screen and a board cut
    close (its commonest colour then the tiles', not the page's), JPEG (the tiles' colour
    bleeds into the gaps)."""
    rng = random.Random(f"{seed}/dark-tiles")
    boards = [(BoardSpec("square", 9, "king", "easy", 71), "plain", "jpg"),
              (BoardSpec("hexagon", 5, "hex", "easy", 72), "app", "jpg")]
    out = []
    for i, (board, layout, fmt) in enumerate(boards):
        amber = rng.choice(((242, 200, 70), (250, 190, 60), (236, 206, 96)))
        empty = amber if i == 0 else (44, 44, 50)  # all tiles amber, or dark tiles with amber givens
        theme = Theme(paper=(22, 22, 26), cell=empty, line=(0, 0, 0), thin=0.0, outline=0.0, given_fill=amber,
                      given_ink=(24, 20, 16), given_font=rng.choice(SERIF_FONTS), digits=rng.uniform(0.45, 0.55),
                      circles=(24, 20, 16), tiles=rng.uniform(0.06, 0.12))
        out.append(Spec(f"screenshots-{71 + i}-dark-tiles-{layout}", "screenshots", "own", board, theme, layout,
                        cell=rng.randint(60, 90), fmt=fmt, quality=rng.randint(75, 90)))
    return out


def _screen_photos(seed: int) -> list[Spec]:
    """Photos of a screen or a page showing a board of separate tiles, no grid lines, a third
    of the frame wide: perspective, a light gradient, blur, noise, JPEG 70.  Three looks:
    pale round cells on a cream page (serif), near-white square tiles parted by gaps barely
    darker than them (monospace), dark tiles with a thin lighter border on a darker page."""
    rng = random.Random(f"{seed}/screen-photos")
    mono = ("DejaVuSansMono-Bold.ttf", "LiberationMono-Bold.ttf", "DejaVuSansMono.ttf")

    def pale_round() -> Theme:
        return Theme(paper=rng.choice(((246, 240, 222), (250, 244, 230), (242, 236, 216))),
                     cell=rng.choice(((196, 222, 236), (206, 230, 214), (226, 214, 240))), line=(0, 0, 0), thin=0.0,
                     outline=0.0, given_ink=(30, 34, 50), given_font=rng.choice(SERIF_FONTS),
                     digits=rng.uniform(0.42, 0.5), tiles=rng.uniform(0.06, 0.1), tile_round=0.5)

    def faint_squares() -> Theme:
        grey = rng.randint(226, 236)
        return Theme(paper=(grey, grey, grey + 2), cell=rng.choice(((248, 248, 248), (252, 251, 249))),
                     line=(0, 0, 0), thin=0.0, outline=0.0, given_ink=rng.choice(((40, 40, 40), (20, 30, 60))),
                     given_font=rng.choice(mono), digits=rng.uniform(0.42, 0.52), tiles=rng.uniform(0.02, 0.04),
                     tile_round=0.05)

    def dark_bordered() -> Theme:
        return Theme(paper=rng.choice(((16, 24, 40), (20, 20, 34), (12, 28, 30))),
                     cell=rng.choice(((34, 46, 68), (38, 40, 62), (28, 52, 56))),
                     line=rng.choice(((78, 100, 130), (90, 96, 140), (70, 118, 120))), thin=0.02, outline=0.0,
                     given_ink=rng.choice(((224, 225, 221), (240, 236, 210))), given_font=rng.choice(GIVEN_FONTS),
                     digits=rng.uniform(0.42, 0.52), tiles=rng.uniform(0.06, 0.1), tile_round=0.12)

    looks = (("round", pale_round, BoardSpec("square", 7, "king", "easy", 81)),
             ("faint", faint_squares, BoardSpec("square", 8, "king", "easy", 82)),
             ("dark", dark_bordered, BoardSpec("square", 7, "rook", "easy", 83)),
             ("round", pale_round, BoardSpec("square", 9, "king", "easy", 84)),
             ("faint", faint_squares, BoardSpec("rectangle", 6, "king", "easy", 85, cols=8)),
             ("dark", dark_bordered, BoardSpec("square", 6, "king", "easy", 86)))
    out = []
    for i, (look, theme, board) in enumerate(looks):
        width, height = rng.choice(((1600, 1200), (1200, 1600), (1600, 1200)))
        shot = Shot(width=width, height=height, fill=round(rng.uniform(0.4, 0.48), 3),
                    turn=round(rng.uniform(-6, 6), 2), tilt=round(rng.uniform(0.1, 0.2), 3), curl=0.0,
                    background=rng.choice(("desk", "wood", "dark")), gradient=round(rng.uniform(0.25, 0.45), 3),
                    warmth=round(rng.uniform(-0.05, 0.1), 3), blur=round(rng.uniform(0.8, 1.4), 2),
                    noise=round(rng.uniform(1.0, 2.0), 2), quality=70, orientation=1)
        out.append(Spec(f"screenshots-{81 + i}-{look}-tiles-photo", "screenshots", "own", board, theme(), "page",
                        cell=rng.randint(40, 60), shot=shot))
    return out


def big_photos(seed: int = 27, count: int = 4) -> list[Spec]:
    """Full 12-MP phone photos (4000 x 3000 as shown, JPEG with EXIF), for the benchmark's
    speed and memory: made on the fly, never committed."""
    rng = random.Random(f"{seed}/big")
    boards = [BoardSpec("square", 12, "king", "easy", 1), BoardSpec("hexagon", 6, "hex", "easy", 2),
              BoardSpec("square", 10, "rook", "easy", 3), BoardSpec("heart", 14, "king", "easy", 4),
              BoardSpec("square", 16, "king", "easy", 5), BoardSpec("hexagon", 5, "hex", "easy", 6)]
    out = []
    for i in range(count):
        board = boards[i % len(boards)]
        shot = replace(shot_for(rng, i, HEX_TURNS if board.adjacency == "hex" else TURNS, newsprint=i % 3 == 2),
                       width=4000 if i % 2 == 0 else 3000, height=3000 if i % 2 == 0 else 4000,
                       orientation=(6, 1, 8, 3)[i % 4], quality=rng.randint(80, 92),
                       blur=round(rng.uniform(1.0, 2.2), 2))
        theme = theme_for(rng, "news" if shot.newsprint else "print")
        out.append(Spec(f"big-{i + 1:02d}-{board.shape}-{board.adjacency}", "12-MP photos", "own", board, theme,
                        "news" if shot.newsprint else "book", cell=90, shot=shot))
    return out
