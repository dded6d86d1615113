"""How hard the fuzz tests try: hundreds of cases each in ``make test``,
ten times as many in ``make fuzz`` (``COMPANION_FUZZ=thorough``).  Every fuzz
test is marked ``fuzz`` so that ``pytest -m fuzz`` runs them alone."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

THOROUGH = os.environ.get("COMPANION_FUZZ", "") == "thorough"
#: how many times more cases ``make fuzz`` tries than ``make test``
THOROUGH_FACTOR = 10


def cases(n: int) -> int:
    return n * THOROUGH_FACTOR if THOROUGH else n


def fuzz_settings(n: int, **extra: Any) -> settings:
    """``n`` cases in ``make test`` (``n`` x 10 in ``make fuzz``), no deadline
    (a shared 2-core machine), fixtures shared across the cases."""
    return settings(max_examples=cases(n), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much], **extra)
