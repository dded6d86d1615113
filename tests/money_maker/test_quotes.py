"""Every quote Money Maker shows (rule citations, rules options' readings) is
verbatim in the seed it names, so a dispute screen never puts words in a text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games.money_maker import MoneyMaker, citations
from companion.rules import Citation, seed_file

# the rule texts sit beside the checkout: <repo>/../shared/seeds
SHARED = Path(__file__).resolve().parents[3] / "shared"
SEEDS = SHARED / "seeds"


def text_of(seed: str) -> tuple[str, str]:
    """The seed's text with whitespace flattened, as printed and with words hyphenated at a
    line end joined again ("outstand-\\ning" -> "outstanding": the seed is a PDF's text)."""
    name = seed_file(seed)
    path = SHARED / name if "/" in name else SEEDS / name
    raw = path.read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", raw), re.sub(r"\s+", " ", re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", raw))


@pytest.mark.skipif(not SEEDS.exists(), reason="the rule texts are not on this machine")
def test_every_quote_is_verbatim_in_its_seed() -> None:
    quotes = [q for option in MoneyMaker.options for reading in option.readings for q in reading.quotes]
    quotes += [c for c in vars(citations).values() if isinstance(c, Citation)]
    quotes = [q for q in quotes if q.quote and q.seed in ("002", "notes")]
    assert len(quotes) > 20
    missing = [(q.seed, q.section, q.quote) for q in quotes if not any(re.sub(r"\s+", " ", q.quote) in text for text in text_of(q.seed))]
    assert not missing
