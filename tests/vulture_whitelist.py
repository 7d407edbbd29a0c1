"""Names vulture cannot see used: read or called only dynamically. tests/test_quality.py passes this
file to vulture with the package; it is never imported or run. One comment per entry says who uses it.

Check functions (`@check_function`) and click commands (`@cli.command`, `@cache.command`) are left
out with vulture's --ignore-decorators instead: the rules' YAML and click call them by name.
"""

# ruff: noqa: B018

from mcp_lint import cli
from mcp_lint.commands.output import Echo
from mcp_lint.config_tables import _Table
from mcp_lint.fix.llm import RewriteAnswer
from mcp_lint.jury import prompt
from mcp_lint.jury.cache import CacheStats
from mcp_lint.jury.llm import import_litellm
from mcp_lint.jury.prompt import ComponentAnswer, JudgeAnswer

# click passes every option callback (ctx, param, value); `_finite_seconds` reads only the value.
cli._finite_seconds.param

# A Protocol for click.echo's signature: the keyword parameters are its shape, not read by us.
Echo.__call__
Echo.nl
Echo.err

# pydantic reads `model_config`, and fills and validates the fields of the models the LLM answers in.
_Table.model_config
RewriteAnswer.model_config
RewriteAnswer.purpose
RewriteAnswer.guidelines
RewriteAnswer.limitations
RewriteAnswer.examples
ComponentAnswer.model_config
JudgeAnswer.model_config
JudgeAnswer.purpose
JudgeAnswer.guidelines
JudgeAnswer.limitations
JudgeAnswer.examples

# Python calls a module's `__getattr__` for a name it lacks: `prompt.JudgeAnswer` still resolves.
prompt.__getattr__

# litellm reads these module globals (set on the module to quiet it and keep it offline).
import_litellm.suppress_debug_info
import_litellm.telemetry
import_litellm.disable_hf_tokenizer_download
import_litellm.set_verbose

# `mcp-lint cache stats --format json` writes `dataclasses.asdict(stats)`: every field is output.
CacheStats.size_bytes

# Category members are made from the rule files' `category` (Category(value)), never named in code.
from mcp_lint.model import Category  # noqa: E402

Category.NAMING
Category.OVERLAP
Category.ANNOTATIONS
Category.BUDGET

# server.json fields the entry validator checks and keeps on the record as the registry defines them;
# the launcher does not need them yet.
from mcp_lint.registry.entry import Argument, Package  # noqa: E402

Argument.is_repeated
Package.file_sha256

# The lab keeps each fold's predictions beside the labels for whoever inspects a CV result.
from lab.calibration import CVResult  # noqa: E402

CVResult.predictions
