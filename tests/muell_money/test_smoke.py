from tests.muell_money.player import GAME, random_game


def test_a_few_random_games_end() -> None:
    for seed in range(6):
        last = None
        for _before, _command, after, _lines in random_game(seed, 2 + seed % 3, software=seed % 2 == 0):
            last = after
        assert last is not None and GAME.is_over(last)
