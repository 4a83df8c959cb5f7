"""A list of puzzles as a person writes one (webapp/core/puzzle_list.py): which lines name
a puzzle (ids, /p/ and /s/ links, as copied or as printed), blocks of them beside boards,
and the place and line of each puzzle."""

from __future__ import annotations

import pytest

from webapp.core.puzzle_list import Reference, board_of, reference_of, split_list

ID = "5x5:a18A11a17aAa10_1AbBa5aB4a6a"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (ID, Reference("id", ID)),
        (f"  {ID}  ", Reference("id", ID)),
        (f"https://hidato.example.org/p/{ID}", Reference("id", ID, "hidato.example.org")),
        (f"https://hidato.example.org/p/{ID}?lang=es#top", Reference("id", ID, "hidato.example.org")),
        (f"http://localhost:5000/p/{ID}/print", Reference("id", ID, "localhost:5000")),
        (f"hidato.example.org/p/{ID}.txt", Reference("id", ID, "hidato.example.org")),
        (f"/p/{ID}", Reference("id", ID)),
        ("https://hidato.example.org/p/nonsense", Reference("id", "nonsense", "hidato.example.org")),
        ("hidato.example.org/s/2f", Reference("short", "2f", "hidato.example.org")),
        ("HTTPS://Hidato.Example.org/s/2F", Reference("short", "2F", "hidato.example.org")),
        ("/s/2f", Reference("short", "2f")),
        ("127.0.0.1:8000/s/zz", Reference("short", "zz", "127.0.0.1:8000")),
        # Not a puzzle's name: rows, comments, files, other pages.
        ("1 . 3", None),
        ("17", None),
        ("# adjacency: rook", None),
        ("data/p/puzzle.txt", None),
        ("hidato.example.org/mine", None),
        ("hidato.example.org/s/not-a-code", None),
        ("hidato.example.org/p/nonsense", None),
    ],
)
def test_which_lines_name_a_puzzle(line: str, expected: Reference | None) -> None:
    assert reference_of(line) == expected


def test_a_list_numbers_its_puzzles_and_keeps_their_lines() -> None:
    text = (f"{ID}\r\nhidato.example.org/s/2f\r\n\r\n# adjacency: rook\r\n1 . .\r\n. . 6\r\n\r\n\r\n"
            "# a comment alone is no puzzle\r\n\r\n1 . 3\r\n" + ID + "\r\n")
    entries = split_list(text)
    assert [(e.number, e.line, e.last_line) for e in entries] == [(1, 1, 1), (2, 2, 2), (3, 4, 6), (4, 11, 12)]
    assert entries[0].reference == Reference("id", ID) and entries[1].reference == Reference("short", "2f",
                                                                                               "hidato.example.org")
    assert board_of(entries[2]).board.adjacency == "rook"  # its own line wins over the default
    assert board_of(entries[2], "hex").board.adjacency == "rook"
    assert entries[3].problem is not None
    assert str(entries[3].problem) == ("lines 11 to 12 mix puzzle ids or links with the rows of a board: put a "
                                       "blank line between them")


def test_a_board_without_its_line_takes_the_rule_asked_for() -> None:
    (entry,) = split_list("1 . .\n. . 6\n")
    assert board_of(entry).board.adjacency == "king"
    assert board_of(entry, "rook").board.adjacency == "rook"
