"""Feature extraction for the offline jury, shared by the runtime scorer and the fit script.

Design rule (anti-gaming, by construction): every feature is a function of

* the *set* of informative text units (sentences / lines) after exact de-duplication, where a unit
  that carries no content word outside a vocabulary of generic filler ("powerful", "versatile",
  "useful", "tool", "situations", ...) is dropped before anything is counted;
* the *set* of distinct content tokens, cue phrases, code spans, quoted values and parameter names
  found in those units;
* counts of units that contribute at least one content token not seen in an earlier unit
  ("novel units"), so repeating a description's own sentences - even glued together differently -
  adds nothing.

Nothing depends on raw character length or on how often something is said. Repeating a
description or appending boilerplate therefore leaves every feature unchanged, so no model fitted
on these features can reward it. The schema is read only to learn parameter names (to find them in
the prose) and, separately, to build schema-side parameter evidence (see `schema_as_prose`).

One job per module, each using only the ones before it:

* `lexicon`: the word lists and cue patterns (`data/lexicon.yaml`) and the regexes built from them;
* `tokens`: word tokens, content tokens and stems;
* `schema`: what is read from the input schema (property names, schema texts, its docs as prose);
* `specificity`: which units say something about *this* tool (`Anchors`, `specific_units`);
* `cues`: explicit, specific cues that floor a component;
* `units`: sentence analysis (split, de-repeat, drop filler and restatements);
* `segment`: what a run of kept units contributes (one scan, merged with appended prose);
* `vector`: the analysis of a tool, its feature vector and `FEATURE_NAMES`.
"""

from __future__ import annotations

from mcp_lint.jury.features.schema import schema_as_prose, schema_properties
from mcp_lint.jury.features.units import Units, informative_units, split_units
from mcp_lint.jury.features.vector import FEATURE_NAMES, Analysis, Extracted, ToolContext, analyze, extract

__all__ = [
    "FEATURE_NAMES",
    "Analysis",
    "Extracted",
    "ToolContext",
    "Units",
    "analyze",
    "extract",
    "informative_units",
    "schema_as_prose",
    "schema_properties",
    "split_units",
]
