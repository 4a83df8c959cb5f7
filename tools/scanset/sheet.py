"""What lies around a drawn board: the page or screen a person photographs or captures.

- ``plain``: the board on paper with a margin;
- ``book``: a puzzle book's page (a title, the rule with N, a page number);
- ``news``: a newspaper's puzzle corner (a banner, the rule, columns of text beside it,
  sometimes yesterday's solution in small);
- ``app``: a phone app's screen (status bar, title, timer, buttons, sometimes a number pad).

Each returns the sheet and where the board lies on it (for the camera, which keeps the
board inside the frame).  The words around carry numbers (dates, times, puzzle numbers)
as real pages do: they are never inside the board.
"""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from engine import Generated

from .own_style import SERIF_FONTS, BoardPicture, Colour, Theme, draw, font, words

Box = tuple[float, float, float, float]


def plain(board: BoardPicture) -> tuple[Image.Image, Box]:
    """The drawn board as it is, on its own margin of paper."""
    return board.image, board.box


def _paste(sheet: Image.Image, board: BoardPicture, left: int, top: int) -> Box:
    sheet.paste(board.image, (left, top))
    bl, bt, br, bb = board.box
    return bl + left, bt + top, br + left, bb + top


def book(board: BoardPicture, made: Generated, rng: random.Random, theme: Theme) -> tuple[Image.Image, Box]:
    """A puzzle book's page: title and rule above the board, the page number below."""
    cell = board.cell
    bw, bh = board.image.size
    pad = round(cell * 1.2)
    title_font = font(rng.choice(("DejaVuSans-Bold.ttf", "LiberationSerif-Bold.ttf", "DejaVuSerif-Bold.ttf")),
                      round(cell * 0.7))
    body = font(rng.choice(("DejaVuSans.ttf", "LiberationSerif-Regular.ttf", "DejaVuSerif.ttf")), round(cell * 0.32))
    width = max(bw + 2 * pad, round(cell * 12))
    height = bh + round(cell * 4.6) + pad
    sheet = Image.new("RGB", (width, height), theme.paper)
    canvas = ImageDraw.Draw(sheet)
    ink = theme.given_ink
    number = rng.randint(1, 250)
    canvas.text((pad, pad * 0.6), f"{rng.choice(('Hidato', 'Hidoku', 'Number Snake', 'Hidato'))} {number}",
                fill=ink, font=title_font)
    n = made.puzzle.size
    rule = (f"Place the numbers 1 to {n} so that consecutive numbers touch "
            f"{'across a side' if made.adjacency == 'rook' else 'across a side or a corner'}.")
    y = pad * 0.6 + cell * 0.95
    for line in _wrapped(rule, body, width - 2 * pad)[:2]:
        canvas.text((pad, y), line, fill=ink, font=body)
        y += body.size * 1.3
    canvas.text((pad, y), rng.choice(("Difficulty: ★★☆☆", "Level: easy", "Time: 12 min", "Solution on page 118")),
                fill=ink, font=body)
    box = _paste(sheet, board, (width - bw) // 2, round(cell * 3.0))
    canvas.text((width / 2, height - pad * 0.5), str(rng.randint(2, 200)), fill=ink, font=body, anchor="mm")
    return sheet, box


def _wrapped(text: str, face: object, room: float) -> list[str]:
    """``text`` broken into lines no wider than ``room`` in ``face``."""
    lines: list[str] = []
    for word in text.split():
        if lines and face.getlength(lines[-1] + " " + word) <= room:  # type: ignore[attr-defined]
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def news(board: BoardPicture, made: Generated, rng: random.Random, theme: Theme,
         solution_beside: bool = False) -> tuple[Image.Image, Box]:
    """A newspaper's puzzle corner: a banner over the board, columns of text on both sides,
    and (``solution_beside``) yesterday's solution drawn small under the text."""
    cell = board.cell
    bw, bh = board.image.size
    column = round(cell * rng.uniform(4.5, 6.5))
    gutter = round(cell * 0.5)
    width = bw + 2 * (column + gutter) + 2 * gutter
    height = bh + round(cell * 3.2) + gutter
    sheet = Image.new("RGB", (width, height), theme.paper)
    canvas = ImageDraw.Draw(sheet)
    serif = rng.choice(SERIF_FONTS)
    text_font = font(rng.choice(("DejaVuSerif.ttf", "LiberationSerif-Regular.ttf")), max(9, round(cell * 0.22)))
    left_col = gutter
    board_left = left_col + column + gutter
    right_col = board_left + bw + gutter
    banner_top = gutter
    canvas.rectangle((board_left, banner_top, board_left + bw, banner_top + cell * 0.9), fill=(20, 20, 20))
    canvas.text((board_left + cell * 0.3, banner_top + cell * 0.45), "HIDATO", fill=(255, 255, 255),
                font=font(serif, round(cell * 0.6)), anchor="lm")
    canvas.text((board_left + bw - cell * 0.3, banner_top + cell * 0.45), f"No. {rng.randint(100, 4000)}",
                fill=(255, 255, 255), font=font("DejaVuSans.ttf", round(cell * 0.3)), anchor="rm")
    n = made.puzzle.size
    canvas.text((board_left, banner_top + cell * 1.15),
                f"Fill in the missing numbers 1-{n}; each touches the next.", fill=(20, 20, 20), font=text_font)
    box = _paste(sheet, board, board_left, round(banner_top + cell * 1.7))
    line_height = text_font.size * 1.35
    for x in (left_col, right_col):
        y = float(gutter)
        stop = height - gutter - (cell * 5 if solution_beside and x == right_col else 0)
        headline = font(serif, round(cell * 0.38))
        canvas.text((x, y), words(rng, 3).title(), fill=(10, 10, 10), font=headline)
        y += cell * 0.7
        while y < stop - line_height:
            line = words(rng, 14)
            while line and text_font.getlength(line) > column:
                line = line.rsplit(" ", 1)[0]
            canvas.text((x, y), line, fill=(25, 25, 25), font=text_font)
            y += line_height
    if solution_beside:
        _yesterday(sheet, made, right_col, height - gutter - cell * 4.6, column, cell, rng)
    return sheet, box


def _yesterday(sheet: Image.Image, made: Generated, left: float, top: float, room: int, cell: float,
               rng: random.Random) -> None:
    """Yesterday's solution in small, as newspapers print it: a full grid of small numbers."""
    from engine import generate_shape

    old = generate_shape("square", 5, "easy", "king", seed=rng.randint(0, 10**6))
    solved = old.puzzle.with_givens(old.solution)
    small = draw(solved, Theme(given_font="DejaVuSans.ttf", thin=0.04, outline=0.06), max(8, room / 6.5), margin=0.2)
    ImageDraw.Draw(sheet).text((left, top), "Yesterday's solution", fill=(20, 20, 20),
                               font=font("DejaVuSerif-Bold.ttf", max(8, round(cell * 0.25))))
    sheet.paste(small.image, (round(left), round(top + cell * 0.4)))


def app(board: BoardPicture, made: Generated, rng: random.Random, theme: Theme, pad: bool,
        size: tuple[int, int] = (1080, 2340)) -> tuple[Image.Image, Box]:
    """A phone app's screen: status bar, title and timer above the board, buttons (and
    ``pad``, a row of number keys) below."""
    width, height = size
    sheet = Image.new("RGB", size, theme.paper)
    canvas = ImageDraw.Draw(sheet)
    ink: Colour = theme.given_ink
    muted: Colour = tuple(round(0.5 * a + 0.5 * b) for a, b in zip(ink, theme.paper, strict=True))  # type: ignore[assignment]
    ui = font("DejaVuSans.ttf", 38)
    canvas.text((60, 50), f"{rng.randint(7, 22)}:{rng.randint(0, 59):02d}", fill=ink, font=ui)
    canvas.text((width - 60, 50), f"{rng.randint(12, 99)}%", fill=ink, font=ui, anchor="ra")
    canvas.text((width / 2, 190), rng.choice(("Hidato", "Hidoku", "Number Path", "Hidato Daily")), fill=ink,
                font=font("DejaVuSans-Bold.ttf", 64), anchor="mm")
    canvas.text((60, 290), f"Level {rng.randint(1, 400)}", fill=muted, font=ui)
    canvas.text((width - 60, 290), f"{rng.randint(0, 20):02d}:{rng.randint(0, 59):02d}", fill=muted, font=ui,
                anchor="ra")
    bw, bh = board.image.size
    scale = min((width - 40) / bw, (height - 900) / bh, 1.0)
    image = board.image if scale == 1.0 else board.image.resize((round(bw * scale), round(bh * scale)),
                                                                Image.Resampling.LANCZOS)
    left, top = (width - image.size[0]) // 2, 380
    sheet.paste(image, (left, top))
    bl, bt, br, bb = board.box
    box = (left + bl * scale, top + bt * scale, left + br * scale, top + bb * scale)
    y = top + image.size[1] + 80
    labels = ("Undo", "Hint", "Notes", "Check")
    for i, label in enumerate(labels):
        x0 = 60 + i * (width - 120) / len(labels)
        canvas.rounded_rectangle((x0 + 10, y, x0 + (width - 120) / len(labels) - 10, y + 110), 24, outline=muted,
                                 width=3)
        canvas.text((x0 + (width - 120) / len(labels) / 2, y + 55), label, fill=ink, font=ui, anchor="mm")
    if pad and y + 400 < height:
        key = (width - 120) / 5
        for i in range(10):
            r, c = divmod(i, 5)
            x0, y0 = 60 + c * key, y + 170 + r * 140
            canvas.rounded_rectangle((x0 + 8, y0, x0 + key - 8, y0 + 120), 20, fill=muted)
            canvas.text((x0 + key / 2, y0 + 60), str((i + 1) % 10), fill=theme.paper,
                        font=font("DejaVuSans-Bold.ttf", 56), anchor="mm")
    return sheet, box
