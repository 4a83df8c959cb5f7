"""Where a command writes its file: checked before any work, so a typo in ``--out`` costs
a second, not the minutes of making a booklet first."""

from __future__ import annotations

import os


def output_problem(path: str) -> str | None:
    """Why a file cannot be written at ``path`` (one line), or None when it can (``-``:
    standard output).  What can be seen without writing: the folder exists and may be
    written in, and the path is not a folder or a file that may not be written."""
    if path == "-":
        return None
    if not path:
        return "cannot write to an empty file name"
    if os.path.isdir(path):
        return f"cannot write {path}: it is a directory"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        return f"cannot write {path}: there is no directory {folder}"
    if not os.path.isdir(folder):
        return f"cannot write {path}: {folder} is not a directory"
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            return f"cannot write {path}: permission denied"
    elif not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write {path}: the directory {folder} may not be written in"
    return None
