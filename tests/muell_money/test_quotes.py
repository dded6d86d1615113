"""Every quote the game shows (rules options, rule citations) is verbatim in
the seed file it names, so a dispute screen never puts words in a text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games.muell_money import citations
from companion.games.muell_money.options import OPTIONS
from companion.rules import Citation, seed_file

# the rule texts sit beside the checkout: <repo>/../shared/seeds
SHARED = Path(__file__).resolve().parents[3] / "shared"
SEEDS = SHARED / "seeds"


def text_of(seed: str) -> str:
    name = seed_file(seed)
    path = SHARED / name if "/" in name else SEEDS / name
    return re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def all_quotes() -> list[Citation]:
    quotes = [q for option in OPTIONS for reading in option.readings for q in reading.quotes]
    quotes += [c for c in vars(citations).values() if isinstance(c, Citation)]
    return [q for q in quotes if q.quote and q.seed in ("000", "003", "004", "notes")]


@pytest.mark.skipif(not SEEDS.exists(), reason="the rule texts are not on this machine")
def test_every_quote_is_verbatim_in_its_seed() -> None:
    quotes = all_quotes()
    assert len(quotes) > 20
    for q in quotes:
        assert re.sub(r"\s+", " ", q.quote) in text_of(q.seed), (q.seed, q.section, q.quote)


def test_every_option_reading_has_a_quote_and_a_reason() -> None:
    for option in OPTIONS:
        assert option.why_default
        assert option.default in [r.key for r in option.readings]
        for reading in option.readings:
            assert reading.quotes, (option.key, reading.key)
