"""The measurement of issue 10: a new user from "that's not allowed!" (a
refused bid on a phone) to the rule's passage and to a sandbox's answer, in
a real headless Chromium.  The flow is benchmarks/dispute.py's (every step
waits for the words it expects, and the real table must be unchanged); here
it runs once and its numbers go to test-artifacts/dispute.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.dispute import ARGS, CHROMIUM, run_once

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("BROWSER TESTS SKIPPED: /usr/bin/chromium is missing (make test installs Debian's chromium)",
                allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_from_a_refusal_to_the_rule_and_to_the_sandbox_answer(tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser: Any = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            run = run_once(browser, tmp_path, shots=ARTIFACTS)
        finally:
            browser.close()
    assert run.rule_taps == 1, "the rule is one tap away from the refusal"
    assert run.sandbox_taps <= 9 and run.typed < 40, "close the rule, open, confirm, set a position, deal, use Bribery, confirm"
    assert 0 < run.to_rule < run.to_sandbox
    assert "uses Bribery" in run.result
    (ARTIFACTS / "dispute.json").write_text(json.dumps({
        "to_rule_ms": round(run.to_rule * 1000), "to_sandbox_ms": round(run.to_sandbox * 1000),
        "taps": run.rule_taps + run.sandbox_taps, "typed": run.typed,
        "person_to_rule_s": round(run.person_to_rule, 1), "person_to_sandbox_s": round(run.person_to_sandbox, 1),
    }, indent=1))
