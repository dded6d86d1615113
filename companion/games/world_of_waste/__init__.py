"""World of Waste (seed 001): draft, secret bonus-pile auction, Recyclers, scoring."""

from companion.games.world_of_waste.game import WorldOfWaste

__all__ = ["WorldOfWaste"]
