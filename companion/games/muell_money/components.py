"""The component data in force for one table, read from the data file
(``components.json``) overlaid by the owner's edition file."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.muell_money.words import comma_list, says

#: the numbers of seats the game is for (the game's seat bounds; the data file's blocks by number of seats)
MIN_SEATS = 2
MAX_SEATS = 4

MAT_ROWS: tuple[str, ...] = ("workers", "raw_materials", "waste")


class _Said(Mapping[str, str]):
    """Codes and the sentence that names each, said when read (in the
    language spoken then, not the one spoken when the module was imported)."""

    def __init__(self, saying: Mapping[str, Callable[[], str]]) -> None:
        self._saying = dict(saying)

    def __getitem__(self, code: str) -> str:
        return self._saying[code]()

    def __iter__(self) -> Iterator[str]:
        return iter(self._saying)

    def __len__(self) -> int:
        return len(self._saying)


#: the mat rows' names
MAT_ROW_LABELS: Mapping[str, str] = _Said({
    "workers": lambda: says("row_workers"),
    "raw_materials": lambda: says("row_raw_materials"),
    "waste": lambda: says("row_waste"),
})
#: what the number above a mat marker means, for explanation lines
MAT_ROW_MEANING: Mapping[str, str] = _Said({
    "workers": lambda: says("meaning_workers"),
    "raw_materials": lambda: says("meaning_raw_materials"),
    "waste": lambda: says("meaning_waste"),
})
ZONES: tuple[str, ...] = ("green", "yellow", "red")

# the card kinds the rules name (their names in the data file)
ORDER = "Order"
RAW = "Raw Materials"
GROWTH = "Growth"
INNOVATE = "Innovate"
DISPOSAL = "Waste Disposal"
ADVISER = "Adviser"
HIRE_FIRE = "Hire/Fire"
INSPECTION = "Waste Inspection"
BRIBERY = "Bribery"
POLLUTION = "Pollution Check"


@dataclass(frozen=True)
class Hole:
    value: int
    points: int


@dataclass(frozen=True)
class Kind:
    name: str
    code: str
    copies: int
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class Penalty:
    fine: int
    steps_left: int


@dataclass(frozen=True)
class CommonTrack:
    """The simulation variant's common waste board for one number of seats:
    spaces 0 (bottom left, where the marker starts) to ``max``, and its zones."""

    max: int
    zones: Mapping[str, tuple[int, int]]

    def zone_of(self, level: int) -> str:
        for zone in ZONES:
            low, high = self.zones[zone]
            if low <= level <= high:
                return zone
        return "green"


@dataclass(frozen=True)
class VariantValues:
    """The simulation variant's numbers, as 003 writes them."""

    waste_disposal_steps: int
    negotiation_back_steps: int
    negotiation_back_cost: int
    votes_below_10: int
    votes_10_to_20: int
    votes_above_20: int
    bribery_extra_votes: int
    bribery_vote_cost: int


@dataclass(frozen=True)
class Components:
    holes: tuple[Hole, ...]
    start_hole: int  # index 0-based
    columns: tuple[int, ...]
    rows: tuple[int, ...]
    start_column: int
    start_row: int
    end_column: int
    waste_max: int
    zones: Mapping[str, Mapping[str, tuple[int, int]]]
    penalties: Mapping[str, Mapping[str, Penalty]]
    bribery_cost: int
    kinds: tuple[Kind, ...]
    loan_amount: int
    loan_markers: Mapping[str, int]
    start_cash: int
    start_raw: int
    start_waste: int
    supply_total: int
    innovate_cost: int
    adviser_order_bonus: int
    repay_amount: int
    waste_disposal_steps: int
    waste_inspection_steps: int
    growth_steps: int
    hire_fire_steps: int
    adviser_factor: int
    unverified: tuple[str, ...] = ()
    #: the simulation variant's common waste board, by number of seats (absent: no variant)
    common_tracks: Mapping[int, CommonTrack] = field(default_factory=dict)
    common_start: int = 0
    variant: VariantValues | None = None

    @property
    def deck_size(self) -> int:
        return sum(k.copies for k in self.kinds)

    def kind(self, name: str) -> Kind:
        for k in self.kinds:
            if k.name == name:
                return k
        raise KeyError(name)

    def zone_of(self, zones_key: str, waste: int) -> str:
        for zone in ZONES:
            low, high = self.zones[zones_key][zone]
            if low <= waste <= high:
                return zone
        return "green"


def fold_name(text: str) -> str:
    """Lower case, no accents, no spaces/dashes/slashes: for matching card names."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return "".join(c for c in plain.lower() if c.isalnum())


def _int(raw: Any, where: str, problems: list[str]) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        problems.append(says("ed_must_be_a_whole", where=where, raw=raw))
        return 0
    return raw


def _block(data: Mapping[str, Any], key: str, problems: list[str]) -> Mapping[str, Any]:
    raw = data.get(key)
    if not isinstance(raw, Mapping):
        problems.append(says("ed_is_missing_or_not", key=key))
        return {}
    return raw


def read_components(data: Mapping[str, Any]) -> tuple[Components | None, list[str]]:
    """The components, or ``None`` and every problem found."""
    problems: list[str] = []
    unverified = tuple(
        k for k, v in data.items() if isinstance(v, Mapping) and v.get("verified") is False
    )
    mat = _block(data, "mat", problems)
    holes: list[Hole] = []
    raw_holes = mat.get("holes")
    if not isinstance(raw_holes, list) or len(raw_holes) < 2:
        problems.append(says("ed_mat_holes_must_be"))
    else:
        for i, h in enumerate(raw_holes):
            if not isinstance(h, Mapping):
                problems.append(says("ed_mat_holes_must_be_2", i=i))
                continue
            holes.append(
                Hole(_int(h.get("value"), f"mat.holes[{i}].value", problems),
                     _int(h.get("points"), f"mat.holes[{i}].points", problems))
            )
    start_hole = _int(mat.get("start_hole", 1), "mat.start_hole", problems) - 1
    if holes and not 0 <= start_hole < len(holes):
        problems.append(says("ed_mat_start_hole_must"))

    board = _block(data, "board", problems)
    columns = board.get("columns")
    rows = board.get("rows")
    cols_t: tuple[int, ...] = ()
    rows_t: tuple[int, ...] = ()
    if not isinstance(columns, list) or not columns:
        problems.append(says("ed_board_columns_must_be"))
    else:
        cols_t = tuple(_int(c, "board.columns[]", problems) for c in columns)
        if list(cols_t) != list(range(cols_t[0], cols_t[0] + len(cols_t))):
            problems.append(says("ed_board_columns_must_be_2"))
    if not isinstance(rows, list) or not rows:
        problems.append(says("ed_board_rows_must_be"))
    else:
        rows_t = tuple(_int(r, "board.rows[]", problems) for r in rows)
        if sorted(rows_t) != list(range(min(rows_t), min(rows_t) + len(rows_t))):
            problems.append(says("ed_board_rows_must_be_2"))
    start_column = _int(board.get("start_column"), "board.start_column", problems)
    start_row = _int(board.get("start_row"), "board.start_row", problems)
    end_column = _int(board.get("end_column"), "board.end_column", problems)
    if cols_t and (start_column not in cols_t or end_column not in cols_t):
        problems.append(says("ed_board_start_column_and"))
    if rows_t and start_row not in rows_t:
        problems.append(says("ed_board_start_row_must"))

    storage = _block(data, "waste_storage", problems)
    waste_max = _int(storage.get("max"), "waste_storage.max", problems)
    zones: dict[str, dict[str, tuple[int, int]]] = {}
    raw_zones = storage.get("zones")
    if not isinstance(raw_zones, Mapping) or not raw_zones:
        problems.append(says("ed_waste_storage_zones_must"))
    else:
        for set_key, zone_set in raw_zones.items():
            if not isinstance(zone_set, Mapping):
                problems.append(says("ed_waste_storage_zones_must_3", set_key=set_key))
                continue
            limits: dict[str, tuple[int, int]] = {}
            for zone in ZONES:
                pair = zone_set.get(zone)
                if not (isinstance(pair, list) and len(pair) == 2):
                    problems.append(says("ed_waste_storage_zones_must_4", set_key=set_key, zone=zone))
                    continue
                limits[zone] = (_int(pair[0], says("ed_zone_low"), problems), _int(pair[1], says("ed_zone_high"), problems))
            if len(limits) == 3:
                covered = sorted(v for lo, hi in limits.values() for v in range(lo, hi + 1))
                if covered != list(range(0, waste_max + 1)):
                    problems.append(
                        says("ed_waste_storage_zones_must_5", set_key=set_key, waste_max=waste_max)
                    )
            zones[str(set_key)] = limits

    check = _block(data, "pollution_check", problems)
    penalties: dict[str, dict[str, Penalty]] = {}
    for set_key in ("normal", "french_end"):
        raw_set = check.get(set_key)
        if not isinstance(raw_set, Mapping):
            problems.append(says("ed_pollution_check_must_be", set_key=set_key))
            continue
        penalties[set_key] = {}
        for zone in ("yellow", "red"):
            p = raw_set.get(zone)
            if not isinstance(p, Mapping):
                problems.append(says("ed_pollution_check_must_be_2", set_key=set_key, zone=zone))
                continue
            penalties[set_key][zone] = Penalty(
                _int(p.get("fine"), f"pollution_check.{set_key}.{zone}.fine", problems),
                _int(p.get("steps_left"), f"pollution_check.{set_key}.{zone}.steps_left", problems),
            )
        penalties[set_key]["green"] = Penalty(0, 0)
    bribery_cost = _int(check.get("bribery_cost"), "pollution_check.bribery_cost", problems)

    deck = _block(data, "deck", problems)
    kinds: list[Kind] = []
    raw_kinds = deck.get("kinds")
    required = {
        "Order", "Raw Materials", "Growth", "Innovate", "Waste Disposal", "Adviser",
        "Hire/Fire", "Waste Inspection", "Bribery", "Pollution Check",
    }
    if not isinstance(raw_kinds, list):
        problems.append(says("ed_deck_kinds_must_be"))
    else:
        for i, k in enumerate(raw_kinds):
            if not isinstance(k, Mapping) or not isinstance(k.get("name"), str):
                problems.append(says("ed_deck_kinds_must_be_2", i=i))
                continue
            code = k.get("code")
            if not isinstance(code, str) or not code.isalnum() or code.upper() != code:
                problems.append(says("ed_deck_kinds_code_must", i=i))
                code = "?"
            aliases = k.get("aliases", [])
            if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
                problems.append(says("ed_deck_kinds_aliases_must", i=i))
                aliases = []
            copies = _int(k.get("copies"), f"deck.kinds[{i}].copies", problems)
            if copies < 0:
                problems.append(says("ed_deck_kinds_copies_must", i=i))
            kinds.append(Kind(k["name"], code, copies, tuple(aliases)))
        names = {k.name for k in kinds}
        if names != required:
            problems.append(says("ed_deck_kinds_exactly", kinds=comma_list(sorted(required))))
        if len({k.code for k in kinds}) != len(kinds):
            problems.append(says("ed_deck_kinds_codes_must"))
        if any(k.name == "Pollution Check" and k.copies != 1 for k in kinds):
            problems.append(says("ed_the_deck_holds_exactly"))

    loans = _block(data, "loans", problems)
    markers_raw = loans.get("markers", {})
    markers = (
        {str(k): _int(v, f"loans.markers.{k}", problems) for k, v in markers_raw.items()}
        if isinstance(markers_raw, Mapping) else {}
    )
    start = _block(data, "start", problems)
    supply = _block(data, "raw_material_supply", problems)
    cards = _block(data, "cards", problems)

    def card(key: str) -> int:
        return _int(cards.get(key), f"cards.{key}", problems)

    common_tracks, common_start = _common_board(data, problems)
    variant = _variant_values(data, problems)

    comp = Components(
        holes=tuple(holes),
        start_hole=start_hole,
        columns=cols_t,
        rows=rows_t,
        start_column=start_column,
        start_row=start_row,
        end_column=end_column,
        waste_max=waste_max,
        zones=zones,
        penalties=penalties,
        bribery_cost=bribery_cost,
        kinds=tuple(kinds),
        loan_amount=_int(loans.get("amount"), "loans.amount", problems),
        loan_markers=markers,
        start_cash=_int(start.get("cash"), "start.cash", problems),
        start_raw=_int(start.get("raw_materials"), "start.raw_materials", problems),
        start_waste=_int(start.get("waste"), "start.waste", problems),
        supply_total=_int(supply.get("total"), "raw_material_supply.total", problems),
        innovate_cost=card("innovate_cost"),
        adviser_order_bonus=card("adviser_order_bonus"),
        repay_amount=card("repay_amount"),
        waste_disposal_steps=card("waste_disposal_steps"),
        waste_inspection_steps=card("waste_inspection_steps"),
        growth_steps=card("growth_steps"),
        hire_fire_steps=card("hire_fire_steps"),
        adviser_factor=card("adviser_factor"),
        unverified=unverified,
        common_tracks=common_tracks,
        common_start=common_start,
        variant=variant,
    )
    if not problems:
        if comp.loan_amount <= 0:
            problems.append(says("ed_loans_amount_must_be"))
        if comp.start_waste < 0 or comp.start_waste > comp.waste_max:
            problems.append(says("ed_start_waste_must_lie"))
        if comp.start_cash < 0 or comp.start_raw < 0:
            problems.append(says("ed_start_cash_and_start"))
        if comp.supply_total < MAX_SEATS * comp.start_raw:
            problems.append(says("ed_raw_material_supply_total", seats=MAX_SEATS))
        if "printed" not in zones:
            problems.append(says("ed_waste_storage_zones_must_2"))
    return (None if problems else comp), problems


def _zone_limits(raw: Any, where: str, top: int, problems: list[str]) -> dict[str, tuple[int, int]]:
    """Green, yellow and red ``[low, high]`` covering ``0..top`` once."""
    if not isinstance(raw, Mapping):
        problems.append(says("ed_must_be_an_object", where=where))
        return {}
    limits: dict[str, tuple[int, int]] = {}
    for zone in ZONES:
        pair = raw.get(zone)
        if not (isinstance(pair, list) and len(pair) == 2):
            problems.append(says("ed_must_be_low_high", where=where, zone=zone))
            continue
        limits[zone] = (_int(pair[0], says("ed_zone_low"), problems), _int(pair[1], says("ed_zone_high"), problems))
    if len(limits) == 3:
        covered = sorted(v for lo, hi in limits.values() for v in range(lo, hi + 1))
        if covered != list(range(0, top + 1)):
            problems.append(says("ed_must_cover_once_without", where=where, top=top))
    return limits


def _common_board(data: Mapping[str, Any], problems: list[str]) -> tuple[dict[int, CommonTrack], int]:
    """The simulation variant's common waste board (optional block)."""
    board = data.get("common_waste_board")
    if board is None:
        return {}, 0
    if not isinstance(board, Mapping):
        problems.append(says("ed_common_waste_board_must"))
        return {}, 0
    tracks: dict[int, CommonTrack] = {}
    raw_tracks = board.get("tracks")
    if not isinstance(raw_tracks, Mapping) or not raw_tracks:
        problems.append(says("ed_common_waste_board_tracks"))
        return {}, 0
    for key, raw in raw_tracks.items():
        where = f"common_waste_board.tracks.{key}"
        if not str(key).isdigit() or not MIN_SEATS <= int(key) <= MAX_SEATS:
            problems.append(says("ed_the_key_must_be", where=where, low=MIN_SEATS, high=MAX_SEATS))
            continue
        if not isinstance(raw, Mapping):
            problems.append(says("ed_must_be_an_object_2", where=where))
            continue
        top = _int(raw.get("max"), f"{where}.max", problems)
        if top < 1:
            problems.append(says("ed_max_must_be_at", where=where))
            continue
        limits = _zone_limits(raw.get("zones"), f"{where}.zones", top, problems)
        if len(limits) == 3:
            tracks[int(key)] = CommonTrack(top, limits)
    start = _int(board.get("start", 0), "common_waste_board.start", problems)
    if any(not 0 <= start <= t.max for t in tracks.values()):
        problems.append(says("ed_common_waste_board_start"))
    return tracks, start


def _variant_values(data: Mapping[str, Any], problems: list[str]) -> VariantValues | None:
    """The simulation variant's numbers (optional block)."""
    raw = data.get("simulation_variant")
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        problems.append(says("ed_simulation_variant_must_be"))
        return None
    names = [f for f in VariantValues.__dataclass_fields__]
    values = {f: _int(raw.get(f), f"simulation_variant.{f}", problems) for f in names}
    if any(v < 0 for v in values.values()):
        problems.append(says("ed_simulation_variant_values_must"))
    return VariantValues(**values)
