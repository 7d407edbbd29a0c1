"""How well the offline jury agrees with the real LLM jury, and how fast it is.

    python benchmarks/offline_jury_agreement.py    (the same as `python -m lab.agreement`)

The sweep lives in `lab/agreement.py`, beside the calibration corpus it runs over; see its docstring.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lab.agreement import main

if __name__ == "__main__":
    raise SystemExit(main())
