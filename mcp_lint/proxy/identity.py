"""Which server the proxy fronts, by the name overrides and traces are filed under."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_lint.proxy.relay import PendingRequest

# Where a 2026-07-28 server/discover result carries what an initialize result calls serverInfo.
SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo"


@dataclass
class ServerIdentity:
    """--server-name, else the name the server reports when the session starts, else the command's.

    A response hook: it reads the name from the initialize result (or the server/discover result of
    the stateless era) as it passes, and changes nothing.
    """

    fallback: str
    explicit: str | None = None
    reported: str | None = None

    @property
    def name(self) -> str:
        return self.explicit or self.reported or self.fallback

    @property
    def names(self) -> tuple[str, ...]:
        """Every name an overrides file may file this server under, the preferred first: `check`
        names a server by its command (`notes_server` of `python notes_server.py`) where the proxy
        prefers the name it reports (`notes-server`), and --fix writes overrides under the former."""
        if self.explicit:
            return (self.explicit,)
        return tuple(dict.fromkeys(name for name in (self.reported, self.fallback) if name))

    def on_response(self, request: PendingRequest, response: dict[str, Any]) -> None:
        result = response.get("result")
        if not isinstance(result, dict):
            return None
        info: Any = None
        if request.method == "initialize":
            info = result.get("serverInfo")
        elif request.method == "server/discover":
            meta = result.get("_meta")
            info = meta.get(SERVER_INFO_META_KEY) if isinstance(meta, dict) else None
        name = info.get("name") if isinstance(info, dict) else None
        if isinstance(name, str) and name.strip() and len(name) <= 100:
            self.reported = " ".join(name.split())
        return None
