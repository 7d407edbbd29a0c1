"""The JSON report's structured proposal: what a tool's rewrite is, clears and rests on, as data."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from rooms_support import SERVER, TOOLS

from mcp_lint.fix.propose import add_proposals
from mcp_lint.jury.aggregate import aggregate_verdicts
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Category, Finding, RunResult, ServerReport, Severity
from mcp_lint.report.json_report import document

SCHEMA = Path(__file__).resolve().parents[2] / "mcp_lint" / "data" / "report.schema.json"


def test_a_tool_with_a_rewrite_has_a_structured_proposal_beside_the_suggestion() -> None:
    verdict = OfflineJury().judge(TOOLS[0], ["book_meeting_room", "cancel_booking"])
    finding = Finding(
        "MCP702",
        "missing-usage-guidelines",
        Severity.LOW,
        "smell",
        "rooms",
        "book_room",
        path="description",
        category=Category.RUBRIC,
        component="guidelines",
    )
    scores = {"book_room": aggregate_verdicts([verdict])}
    report = ServerReport("rooms", SERVER, (finding,), tool_scores=scores)
    result = add_proposals(RunResult(servers=(report,)))
    doc = json.loads(json.dumps(document(result)))
    jsonschema.validate(doc, json.loads(SCHEMA.read_text(encoding="utf-8")))
    [entry] = [tool for tool in doc["servers"][0]["tools"] if tool["name"] == "book_room"]
    proposal = entry["proposal"]
    assert proposal["description"] == (
        "Books a room. To book a room for a team, with a video link, use `book_meeting_room`."
    )
    assert proposal["adds"] == ["guidelines"]
    assert proposal["groundedIn"] == {"guidelines": "`book_meeting_room`: descriptions and schemas"}
    # What it clears is what the scores show: every cleared rule's component went over the threshold.
    assert proposal["clears"] and set(proposal["clears"]).isdisjoint(proposal["notCleared"])
    assert proposal["scores"]["after"]["guidelines"] >= proposal["scores"]["before"]["guidelines"]
    # The suggestion string every rubric finding shows is kept for compatibility.
    assert proposal["description"] in entry["findings"][0]["suggestion"]
    # A tool without a rubric finding or a mechanical fix has no proposal.
    assert all("proposal" not in tool for tool in doc["servers"][0]["tools"] if tool["name"] != "book_room")
