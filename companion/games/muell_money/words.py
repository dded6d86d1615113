"""How Müll + Money's messages write amounts and counts ("5 M", "2 raw
materials", "1 card"): the small words every topic module shares."""

from __future__ import annotations

from collections.abc import Mapping


def money(amount: int) -> str:
    """``5 M``."""
    return f"{amount} M"


def plural(count: int, one: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {one if count == 1 else one + 's'}"


def raw(count: int) -> str:
    """``1 raw material``, ``5 raw materials``."""
    return plural(count, "raw material")


def card_list(cards: list[str]) -> str:
    """``Order, Growth`` or ``no cards``."""
    return ", ".join(cards) if cards else "no cards"


def multiset(counts: Mapping[str, int]) -> str:
    """``2 Growth, 1 Order`` (sorted by name) or ``nothing``."""
    return ", ".join(f"{v} {k}" for k, v in sorted(counts.items()) if v) or "nothing"


#: the simulation variant's proposals (003, "Comment négocier ?", examples 1-4)
PROPOSAL_TITLES: Mapping[str, str] = {
    "negotiation-cost": "1) A Negotiation always moves the common waste marker back one space and costs 1 M",
    "red-zone-stop": "2) With the common marker in the red zone, a seat whose waste service is still far left may not fill Orders",
    "set-auction": "3) The sets are auctioned (payments to the bank) instead of chosen",
    "repeal": "4) A rule adopted earlier by vote is repealed",
}

#: a seat's vote
VOTE_CHOICES: Mapping[str, str] = {"for": "for", "against": "against", "abstain": "abstains"}

#: the rules the simulation variant always changes (003, "Quelles règles changent systématiquement ?")
VARIANT_CHANGE_TEXTS: tuple[str, ...] = (
    "One common waste board instead of each seat's storage: every Order moves its marker forward",
    "An Adviser can no longer be played with Growth",
    "Waste Disposal moves the common marker back only two spaces",
    "Waste Inspection becomes Negotiation: propose a rule; may move the marker back one space for 1 M",
    "Bribery still protects at a Pollution Check and gives one extra vote (1 M, then discarded)",
)
