"""Content-addressed cache of judge verdicts, meant to be committed next to the project it lints.

The file is deterministic (sorted keys, indent 2, trailing newline, no timestamps) so it diffs cleanly.
A key is the sha256 of everything that decides a verdict: rubric version, prompt version, model id,
sampling settings and the tool payload the judge sees. Credentials and endpoints are deliberately not
part of it: the same model behind another gateway gives a reusable verdict, and a committed file must not
leak where (or with what) it was produced.

Several runs may share the file (parallel CI jobs, a monorepo's servers linted side by side). `save()`
takes an exclusive lock on a sidecar `<file>.lock`, re-reads the file, merges the entries this process
added into what is on disk, and replaces the file atomically, so neither run loses the other's entries.
On platforms without `fcntl` the lock is skipped; the write stays atomic, the merge best-effort.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_lint.files import InputFileError, read_input_bytes, write_text_atomic
from mcp_lint.jury.base import COMPONENTS

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

CACHE_VERSION = 1
DEFAULT_CACHE_PATH = Path(".mcp-lint/jury-cache.json")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def cache_key(
    *,
    rubric_version: int,
    prompt_version: int,
    model: str,
    sampling: Mapping[str, Any],
    payload: Mapping[str, Any],
) -> str:
    material = {
        "rubric_version": rubric_version,
        "prompt_version": prompt_version,
        "model": model,
        "sampling": dict(sampling),
        "tool": dict(payload),
    }
    return hashlib.sha256(canonical_json(material).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CacheEntry:
    model: str
    tool: str
    scores: Mapping[str, float]
    reasons: Mapping[str, str] = field(default_factory=dict)
    rewrite: str | None = None

    def to_json(self) -> dict[str, Any]:
        # Integral scores stay ints in the file so it reads naturally and round-trips byte for byte.
        return {
            "model": self.model,
            "tool": self.tool,
            "scores": {k: int(v) if float(v).is_integer() else v for k, v in self.scores.items()},
            "reasons": dict(self.reasons),
            "rewrite": self.rewrite,
        }

    @staticmethod
    def from_json(raw: Any) -> CacheEntry | None:
        """Parse one entry; None when it is not a well-formed verdict (it is then dropped)."""
        if not isinstance(raw, Mapping):
            return None
        model, tool, scores = raw.get("model"), raw.get("tool"), raw.get("scores")
        reasons, rewrite = raw.get("reasons", {}), raw.get("rewrite")
        if not isinstance(model, str) or not isinstance(tool, str) or not isinstance(scores, Mapping):
            return None
        if set(scores) != set(COMPONENTS):
            return None
        clean: dict[str, float] = {}
        for name, value in scores.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not 1 <= value <= 5:
                return None
            clean[name] = value
        if not isinstance(reasons, Mapping) or not all(isinstance(v, str) for v in reasons.values()):
            return None
        if rewrite is not None and not isinstance(rewrite, str):
            return None
        return CacheEntry(model=model, tool=tool, scores=clean, reasons=dict(reasons), rewrite=rewrite)


@dataclass(frozen=True, eq=False, repr=False)
class CacheStats:
    path: str  # a string, so `dataclasses.asdict(stats)` goes straight to JSON
    exists: bool
    entries: int
    size_bytes: int
    models: Mapping[str, int]


class JuryCache:
    """In-memory view of the cache file plus the entries this process added since loading."""

    def __init__(self, path: Path = DEFAULT_CACHE_PATH, *, read_only: bool = False) -> None:
        self.path = Path(path)
        # a reader (`cache stats`) never writes, so a damaged file is not rebuilt by it
        self._repair = "a check with LLM judges rebuilds it" if read_only else "rebuilding it"
        self._entries: dict[str, CacheEntry] = {}
        self._added: dict[str, CacheEntry] = {}
        self.warnings: list[str] = []
        self._rebuild = False  # the file on disk is damaged: rewrite it on save even with nothing new
        self.load()

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def load(self) -> None:
        self._entries = self._read_file()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def keys(self) -> Collection[str]:
        return self._entries.keys()

    def get(self, key: str) -> CacheEntry | None:
        return self._entries.get(key)

    def put(self, key: str, entry: CacheEntry) -> None:
        self._entries[key] = entry
        self._added[key] = entry

    @property
    def dirty(self) -> bool:
        return bool(self._added) or self._rebuild

    def save(self) -> None:
        """Merge this process's new entries into the file on disk, under the lock.

        A no-op when nothing was added and the file was sound; a damaged file is rewritten from
        what survived of it.
        """
        if not self.dirty:
            return
        with self._locked():
            merged = self._read_file()
            merged.update(self._added)
            self._write(merged)
        self._entries = merged
        self._added = {}
        self._rebuild = False

    def prune(
        self, keep_keys: Collection[str], models: Collection[str] | None = None, *, dry_run: bool = False
    ) -> dict[str, CacheEntry]:
        """Drop every entry whose key is not in `keep_keys`; returns the entries removed.

        With `models`, only entries of those models are candidates: a verdict of another judge is
        never touched. With `dry_run`, returns what would be removed and writes nothing.
        """
        keep = set(keep_keys)

        def stale(current: Mapping[str, CacheEntry]) -> dict[str, CacheEntry]:
            return {
                k: v for k, v in current.items() if k not in keep and (models is None or v.model in models)
            }

        if not self.path.exists():
            # Nothing to prune; the lock and an empty file would only be litter.
            if not dry_run:
                self._entries = {}
                self._added = {k: v for k, v in self._added.items() if k in keep}
            return {}
        if dry_run:
            # No lock either: a dry run creates nothing, and an atomic rename never shows half a file.
            return stale(self._read_file())
        with self._locked():
            current = self._read_file()
            removed = stale(current)
            kept = {k: v for k, v in current.items() if k not in removed}
            if removed or (self._rebuild and self.path.exists()):
                self._write(kept)
                self._rebuild = False
        self._entries = kept
        self._added = {k: v for k, v in self._added.items() if k not in removed}
        return removed

    def stats(self) -> CacheStats:
        models: dict[str, int] = {}
        for entry in self._entries.values():
            models[entry.model] = models.get(entry.model, 0) + 1
        try:
            size = self.path.stat().st_size
            exists = True
        except OSError:
            size, exists = 0, False
        return CacheStats(
            path=str(self.path),
            exists=exists,
            entries=len(self._entries),
            size_bytes=size,
            models=dict(sorted(models.items())),
        )

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _read_file(self) -> dict[str, CacheEntry]:
        try:
            raw = read_input_bytes(self.path, "a jury cache", label=f"jury cache {self.path}")
        except InputFileError as exc:
            if exc.reason == "missing":
                return {}
            if exc.reason in ("special", "too-large"):
                # Rebuilding it would replace a device or a FIFO, or drop a huge file: the user must choose.
                raise
            reason = exc.detail.removeprefix("cannot read: ")
            self._warn(f"jury cache {self.path} could not be read ({reason}); starting empty")
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return self._corrupt("not UTF-8 text")
        except (ValueError, RecursionError) as exc:
            # RecursionError: absurdly deep nesting is corruption too, not a crash.
            return self._corrupt(f"not valid JSON: {_first_line(exc)}")
        if not isinstance(data, Mapping) or not isinstance(data.get("entries"), Mapping):
            return self._corrupt('not a {"version": 1, "entries": {...}} document')
        if data.get("version") != CACHE_VERSION:
            self._warn(
                f"jury cache {self.path} has version {data.get('version')!r}, expected {CACHE_VERSION}; "
                f"{self._repair}"
            )
            return {}
        entries: dict[str, CacheEntry] = {}
        dropped = 0
        for key, raw_entry in data["entries"].items():
            entry = CacheEntry.from_json(raw_entry)
            if entry is None or not isinstance(key, str):
                dropped += 1
                continue
            entries[key] = entry
        if dropped:
            self._corrupt(f"dropped {dropped} malformed entr{'y' if dropped == 1 else 'ies'}")
        return entries

    def _corrupt(self, detail: str) -> dict[str, CacheEntry]:
        # Every kind of damage gets the same treatment: one warning, and the next save rewrites the file
        # from what survived, so the warning does not come back on every run.
        self._warn(f"jury cache {self.path} is corrupt ({detail}); {self._repair}")
        self._rebuild = True
        return {}

    def _write(self, entries: Mapping[str, CacheEntry]) -> None:
        write_text_atomic(self.path, render(entries))

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        if fcntl is None:
            yield
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.lock_path, "a+b") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def render(entries: Mapping[str, CacheEntry]) -> str:
    document = {"version": CACHE_VERSION, "entries": {k: entries[k].to_json() for k in sorted(entries)}}
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
