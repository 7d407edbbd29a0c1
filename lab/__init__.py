"""The offline jury's lab: the calibration corpus, the fitting code and the sweeps that measure it.

Nothing here ships in the wheel and nothing in `mcp_lint` imports it: lint only reads the fitted
weights, `mcp_lint/jury/data/offline-weights.json`. Pure Python, like the runtime (no numpy), so
a fit is bit-for-bit reproducible; `pip install -e '.[lab]'` pulls in nothing extra today.

Run from the repository root:

    python -m lab.fit_offline_jury           # grouped-CV table, then rewrite offline-weights.json
    python -m lab.fit_offline_jury --no-cv   # just rewrite the weights (about 15 s)
    python -m lab.agreement [--repeats N] [--holdout]   # agreement with the LLM jury, and speed
    python -m lab.padding                    # padding the defence catches (must be 0) and its edges
    python -m lab.yardsticks                 # the anchors against people (tuning part) and the judges

`benchmarks/offline_jury_agreement.py` and `benchmarks/offline_jury_padding.py` run the same two
sweeps. A refit must reproduce the shipped weights byte for byte unless the features or the model
changed: `tests/lab/test_fit.py` checks it.

Modules: `corpus` (the 408 judged tools, `data/jury-calibration.jsonl`, see `data/NOTICE.md`),
`calibration` (the model, its fit, QWK, grouped k-fold, holdout), `fit_offline_jury`,
`agreement`, `padding`, `yardsticks` (the offline jury against people and the research judges).
"""
