"""The package's own YAML data (rule files, the rubric, the jury's lexicon) read through a JSON copy.

Every lint reads about 40 YAML files; importing PyYAML and parsing them costs ~20 ms of CPU, where
`json` (already imported) reads the same data in well under one. Each folder of such files carries
`parsed-yaml.json`, written by `python -m mcp_lint.parsed_yaml` (a test fails when it is stale): per
file name, the SHA-256 of the YAML text and the parsed document as JSON text. `load_yaml` returns the
copy only when the text it was given hashes the same and the file was one whose document JSON holds
exactly (same types, same key order, same floats); otherwise, and for any file the copy does not
name (a user's rule folder, a hand-edited rule), it parses the text with PyYAML as before. So what a
caller gets never depends on whether the copy is fresh, only how fast it comes.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

PARSED_FILE = "parsed-yaml.json"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=8)
def _copies(parsed_file: Path) -> Mapping[str, tuple[str, str]]:
    """File name -> (SHA-256 of its YAML text, its document as JSON text); empty when there is no copy."""
    try:
        data = json.loads(parsed_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        str(name): (entry["sha256"], entry["json"])
        for name, entry in data.items()
        if isinstance(entry, dict)
        and isinstance(entry.get("sha256"), str)
        and isinstance(entry.get("json"), str)
    }


def parse_yaml(text: str) -> Any:
    """PyYAML's safe loader (libyaml's when PyYAML was built with it: the same data, faster)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load_yaml(path: Path, text: str) -> Any:
    """The YAML document `text` (read from `path`), from the folder's JSON copy when it holds it.

    Raises what `parse_yaml` raises (`yaml.YAMLError`) for a text that is not valid YAML.
    """
    copy = _copies(path.parent / PARSED_FILE).get(path.name)
    if copy is not None and copy[0] == _digest(text):
        try:
            return json.loads(copy[1])
        except ValueError:
            pass  # a damaged copy: the YAML text decides
    return parse_yaml(text)


def yaml_error() -> type[Exception]:
    """`yaml.YAMLError`, imported only when a caller has to catch it (a text the copy did not hold)."""
    import yaml

    return yaml.YAMLError


def _same(one: Any, other: Any) -> bool:
    """Equal with the same types all the way down and dicts in the same key order (`1 != 1.0 != True`)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, dict):
        return list(one) == list(other) and all(_same(one[key], other[key]) for key in one)
    if isinstance(one, list):
        return len(one) == len(other) and all(_same(a, b) for a, b in zip(one, other, strict=True))
    if isinstance(one, float):
        return one.hex() == float(other).hex()
    equal: bool = one == other
    return equal


def render_copies(paths: Iterable[Path]) -> str:
    """The text of a folder's `parsed-yaml.json` for these YAML files: a file is left out when it is
    not valid YAML or when its document does not survive JSON unchanged (dates, non-string keys,
    NaN...), so `load_yaml` parses it with PyYAML."""
    entries: dict[str, dict[str, str]] = {}
    for path in sorted(paths):
        text = path.read_text(encoding="utf-8")
        try:
            document = parse_yaml(text)
            encoded = json.dumps(document, ensure_ascii=False, allow_nan=False)
        except (ValueError, TypeError, yaml_error()):
            continue
        if _same(json.loads(encoded), document):
            entries[path.name] = {"sha256": _digest(text), "json": encoded}
    return json.dumps(entries, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def package_yaml_folders() -> dict[Path, list[Path]]:
    """Each folder of the package's YAML data -> its YAML files, as the loaders read them."""
    from mcp_lint.resources import PACKAGE_DIR, rules_dir

    rules = rules_dir()
    return {
        rules: sorted([*rules.glob("MCP*.yaml"), rules / "rubric.yaml"]),
        PACKAGE_DIR / "jury" / "data": [PACKAGE_DIR / "jury" / "data" / "lexicon.yaml"],
    }


def main() -> int:
    """Rewrite every `parsed-yaml.json` of the package from its YAML files."""
    for folder, paths in package_yaml_folders().items():
        (folder / PARSED_FILE).write_text(render_copies(paths), encoding="utf-8")
        print(f"wrote {folder / PARSED_FILE} ({len(paths)} YAML files)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
