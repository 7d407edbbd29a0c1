"""Three calls the reflection makes on purpose, each pinned by a test (issue 11):

* a line past the 32 MiB cap is refused as "a message larger than 32 MiB", whether or not a newline
  would have ended it: mcp-lint stops reading before it could know;
* notifications do not extend --timeout (no progress token was asked for), and the timeout says how
  many came instead of the answer;
* a response id "1" for request id 1 is accepted, as the SDKs (Python and TypeScript) correlate them.
"""

from __future__ import annotations

import sys
import textwrap

from reflect_support import Spawner

from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import reflect_all

LEGACY_SERVER = textwrap.dedent(
    """
    import json, sys
    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n")
        sys.stdout.flush()
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        answer_id = {answer_id}
        if method == "initialize":
            result = {{"protocolVersion": "2025-11-25", "capabilities": {{"tools": {{}}}},
                       "serverInfo": {{"name": "raw", "version": "0"}}}}
        elif method == "tools/list":
            {on_list}
            result = {{"tools": [{{"name": "echo", "description": "Echoes its text argument back unchanged.",
                                   "inputSchema": {{"type": "object"}}}}]}}
        else:
            send({{"jsonrpc": "2.0", "id": request_id, "error": {{"code": -32601, "message": "no"}}}})
            continue
        send({{"jsonrpc": "2.0", "id": answer_id, "result": result}})
    """
)


def _raw(name: str, answer_id: str = "request_id", on_list: str = "pass") -> StdioTarget:
    return StdioTarget(
        name, sys.executable, ("-c", LEGACY_SERVER.format(answer_id=answer_id, on_list=on_list))
    )


def test_a_line_over_the_cap_that_ends_in_a_newline_is_called_a_large_message() -> None:
    huge = 'sys.stdout.write("{" + " " * (40 * 1024 * 1024) + "}\\n"); sys.stdout.flush()'
    [result] = reflect_all([_raw("huge", on_list=huge)], 10)
    assert result.snapshot is None and result.error is not None  # a failed reflection: exit 3
    assert "a message larger than 32 MiB on stdout" in result.error
    assert "without a newline" not in result.error


def test_notifications_do_not_extend_the_timeout_and_are_counted(spawner: Spawner) -> None:
    target = spawner.target("chatty", "hang_server.py", "--hang-on", "tools/list", "--notify")
    [result] = reflect_all([target], 2)
    assert result.snapshot is None and result.error is not None  # a failed reflection: exit 3
    assert "timed out" in result.error.lower()
    assert "notification(s) meanwhile, which do not extend --timeout" in result.error
    spawner.assert_gone()


def test_a_string_id_echoing_an_integer_request_id_is_accepted() -> None:
    [result] = reflect_all([_raw("stringly", answer_id="str(request_id)")], 10)
    assert result.error is None and result.snapshot is not None
    assert [tool.name for tool in result.snapshot.tools] == ["echo"]
