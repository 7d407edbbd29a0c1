"""How far padding moves the embedded offline jury: the defended kinds and the known edges.

    python benchmarks/offline_jury_padding.py    (the same as `python -m lab.padding`)

The sweep lives in `lab/padding.py`, beside the calibration corpus it runs over; see its docstring.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lab.padding import main

if __name__ == "__main__":
    raise SystemExit(main())
