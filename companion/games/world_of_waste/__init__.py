"""World of Waste (seed 001): draft, secret bonus-pile auction, Recyclers, scoring."""

from companion.games.world_of_waste.game import (
    WorldOfWaste,
    bonus_command,
    deal_command,
    draw_command,
    reveal_command,
)

__all__ = ["WorldOfWaste", "bonus_command", "deal_command", "draw_command", "reveal_command"]
