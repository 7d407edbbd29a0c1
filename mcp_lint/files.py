"""Reading and writing the user's files: one-line errors on the way in, no half-written file out."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from mcp_lint.errors import UsageError


def read_text(path: Path, missing: str = "no such file") -> str:
    """The file's text, or a UsageError that names the file and what to do."""
    try:
        # utf-8-sig: editors on Windows often save configs with a byte-order mark.
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"{path}: {missing}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text; save it as UTF-8") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None


def write_text_atomic(path: Path, text: str) -> None:
    """Write so a reader never sees half a file: temp file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
