"""The host's station scan: one photo of a seat's tagged cards, read into card
ids, checked by the host, then sent as the game's ``station`` command.

The photo comes either as an upload (a phone's camera, a file) or as one
still from the companion's own camera (``runtime.scan_spread()`` when the
hardware runtime is running and feeds this table).  Every tag in it is read
(``hardware.spread.scan_spread``); codes that are not this game's cards are
listed with their notice and left out.  The page shows each card (id, type),
for World of Waste the score the station would give beside the other
seats' recorded stations, and a confirm button that submits
``station {seat, cards}`` (actor host, source ``scanner``) for the state
number the page was made for.  A refusal shows the game's reason and changes
nothing.

A game without a host ``station`` command (Money Maker, Müll + Money) gets
the read cards for checking only: nothing is submitted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.commands import HOST, Command
from companion.errors import Refusal
from companion.games.base import HOST_SCREEN
from companion.table import Table
from companion.tags import CardRegistry, TagError
from web.common import Result, answer, csrf_matches, dash, submit
from web.forms import FormError, read_state_no
from web.host import host_only, is_host
from web.i18n import _, ngettext
from web.photo import UNREADABLE, read_header

bp = Blueprint("station", __name__, url_prefix="/host/t/<table_id>/station")

#: the largest photo the upload takes (a 12 MP JPEG is 3-8 MB)
MAX_PHOTO_BYTES = 20 * 1024 * 1024
#: the most pixels a photo may declare (a phone's 12 MP photo is 12.2 MP, the
#: Pi HQ camera's still 12.3 MP, Camera Module 3's 11.9 MP); read from the
#: header before decoding, so that no upload within the body limit takes the
#: server above +100 MB (measured by benchmarks/uploads.py)
MAX_PHOTO_PIXELS = 16_000_000
#: the most memory decoding one photo may take, output included (see
#: ``PhotoHeader.decode_bytes``)
MAX_DECODE_BYTES = 64 * 1024 * 1024
#: the most card ids a confirm form may carry
MAX_CARDS = 200
SOURCE = "scanner"


@bp.url_value_preprocessor
def _allow_photo(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """The app takes 64 KB per request; the photo upload takes up to
    ``MAX_PHOTO_BYTES``, but only from the host, with the form's CSRF token
    in the upload's address (``?csrf=``): both are checked here, before
    anything reads the body, so nobody else can make the companion read 20
    MB.  (This runs before the app's CSRF check, which reads the form.)"""
    if endpoint != "station.upload" or request.method != "POST":
        return
    if not is_host():
        abort(403, description=_("Only the host may do that: log in with the host PIN."))
    if not csrf_matches(request.args.get("csrf", "")):
        abort(400, description=_("This form is out of date (or came from another site). Reload the page and try again."))
    request.max_content_length = MAX_PHOTO_BYTES
    if request.content_length is not None and request.content_length > MAX_PHOTO_BYTES:
        abort(413, description=_("The photo is larger than {mb} MB: take it at a lower resolution or send a JPEG.",
                                 mb=MAX_PHOTO_BYTES // (1024 * 1024)))


@dataclass(frozen=True)
class ReadCard:
    card_id: str
    kind: str
    name: str


@dataclass
class Reading:
    """What one photo showed, for the page."""

    seat: int
    how: str  # "photo" or "camera"
    cards: list[ReadCard]
    notices: list[str]
    codes: int  # QR codes found in all, foreign ones included
    size: tuple[int, int] | None = None  # (w, h) of the image
    preview: dict[str, Any] | None = None
    check: dict[str, Any] | None = None  # check-only games: the read cards against the record
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def card_ids(self) -> list[str]:
        return [c.card_id for c in self.cards]


# pages --------------------------------------------------------------------------------
@bp.get("")
@host_only
def page(table_id: str) -> Response:
    table = dash().room.get(table_id)
    return _page(table, _seat_arg(table, request.args.get("seat"), default=0))


@bp.post("/photo")
@host_only
def upload(table_id: str) -> BaseResponse:
    table, seat, state_no = _posted(table_id)
    photo = request.files.get("photo")
    if photo is None or not photo.filename:
        abort(400, description=_("Choose a photo of the station's cards to upload."))
    data = photo.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        abort(413, description=_("The photo is larger than {mb} MB.", mb=MAX_PHOTO_BYTES // (1024 * 1024)))
    image = decode_photo(data)
    if isinstance(image, str):
        return _bad(table, seat, image)
    scan = _scan(table, image)
    h, w = image.shape[:2]
    reading = _reading(table, seat, "photo", scan, (int(w), int(h)))
    return _page(table, seat, reading=reading, state_no=state_no)


@bp.post("/camera")
@host_only
def camera(table_id: str) -> BaseResponse:
    table, seat, state_no = _posted(table_id)
    hw = dash().hardware
    scan_now = getattr(hw, "scan_spread", None) if hw is not None else None
    if scan_now is None:
        return _bad(table, seat, _("No camera is running: upload a photo instead."), status=422)
    feeds = getattr(hw, "table_id", None)
    if feeds != table.id:
        return _bad(table, seat, _("The camera feeds the table on the table screen, not this one: "
                                   "show this table on the table screen first, or upload a photo."), status=422)
    try:
        scan = scan_now()
    except TimeoutError as err:  # a hung camera: the runtime gave up waiting and says why
        return _bad(table, seat, _("No still: {why}.", why=err), status=422)
    except Exception as err:  # a camera failing must not take the page down
        return _bad(table, seat, _("The camera could not take a still: {why}", why=type(err).__name__ + ": " + str(err)), status=422)
    if scan is None:
        return _bad(table, seat, _("The camera gave no still (see the hardware notices): try again or upload a photo."),
                    status=422)
    return _page(table, seat, reading=_reading(table, seat, "camera", scan, None), state_no=state_no)


@bp.post("/confirm")
@host_only
def confirm(table_id: str) -> BaseResponse:
    table, seat, state_no = _posted(table_id)
    cards = [c.strip() for c in request.form.getlist("card") if c.strip()]
    if len(cards) > MAX_CARDS or any(len(c) > 20 for c in cards):
        abort(400, description=_("The confirm form carries too many or too long card ids."))
    back = url_for("station.page", table_id=table.id, seat=seat)
    if not offers_station(table, seat):
        return answer(422, _("{game} has no station command for {seat} now: the read cards are for checking only.",
                             game=table.game.title, seat=table.seat_names[seat]), "no-station", back)
    if dash().finished(table):
        return answer(409, _("The game is over: nothing more can be done at this table."), "over", back)
    command = Command(HOST, "station", {"seat": seat, "cards": cards}, state_no, SOURCE)
    result = submit(table, command)
    if result.status == 200:
        return answer(200, result.message, "ok", url_for("host.table_page", table_id=table.id),
                      extra={"state_no": result.state_no})
    return _refused(table, seat, cards, state_no, result)


# reading a photo ------------------------------------------------------------------------
def decode_photo(data: bytes) -> Any:
    """The photo as a grayscale image, or a message saying why it cannot be
    read (never raises for bad bytes).  The kind and the declared size come
    from the file's header first (:mod:`web.photo`): a photo declaring more
    pixels than are read, or more memory than decoding may take, is refused
    before OpenCV decodes anything."""
    import cv2
    import numpy as np

    if not data:
        return _("The uploaded file is empty.")
    header = read_header(data)
    if isinstance(header, str):
        return header
    w, h = header.width, header.height
    if header.pixels > MAX_PHOTO_PIXELS:
        return _("The photo has {w}x{h} pixels; at most {most} megapixels are read: take it at a lower resolution.",
                 w=w, h=h, most=format(MAX_PHOTO_PIXELS / 1_000_000, "g"))
    if header.decode_bytes > MAX_DECODE_BYTES:
        return _("This {kind} photo ({w}x{h}) takes too much memory to decode: "
                 "send it as an ordinary JPEG or at a lower resolution.", kind=header.kind, w=w, h=h)
    if min(w, h) < 21:
        return _("The image is only {w}x{h} pixels: too small to hold a card tag.", w=w, h=h)
    try:
        image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    except Exception:  # cv2.error on some malformed files
        image = None
    if image is None or image.size == 0:
        return UNREADABLE
    if image.shape[:2] != (h, w):  # the header lied about the picture that follows
        return UNREADABLE
    return image


def _registry(table: Table) -> CardRegistry:
    try:
        return CardRegistry(table.game.key, table.card_kinds())
    except (TagError, Refusal) as err:
        abort(422, description=_("{game} has no readable card tags: {why}", game=table.game.title, why=err))


def _scan(table: Table, image: Any) -> Any:
    from hardware.spread import scan_spread

    return scan_spread(image, _registry(table))


def _reading(table: Table, seat: int, how: str, scan: Any, size: tuple[int, int] | None) -> Reading:
    cards = [
        ReadCard(r.card.card_id, r.card.kind, r.card.name)
        for r in scan.cards
        if r.card is not None
    ]
    reading = Reading(seat, how, cards, list(scan.notices), len(scan.codes), size)
    reading.preview = score_preview(table, seat, reading.card_ids)
    reading.check = record_check(table, seat, reading.card_ids)
    return reading


def record_check(table: Table, seat: int, card_ids: Sequence[str]) -> dict[str, Any] | None:
    """Money Maker: the read cards against the investment cards the record
    gives this seat (public in the host's view).  ``None`` where the view has
    no such list."""
    view = table.view(HOST_SCREEN, log_limit=0)["game_view"]
    for entry in view.get("banks") or []:
        if isinstance(entry, dict) and entry.get("seat") == seat and isinstance(entry.get("investment_cards"), list):
            recorded = [str(c.get("id")) if isinstance(c, dict) else str(c) for c in entry["investment_cards"]]
            return {
                "what": "investment cards",
                "recorded": recorded,
                "unrecorded": [c for c in card_ids if c not in recorded],
                "unseen": [c for c in recorded if c not in card_ids],
            }
    return None


def score_preview(table: Table, seat: int, card_ids: Sequence[str]) -> dict[str, Any] | None:
    """World of Waste: the score this station would give, scored beside the
    other seats' recorded stations (electronics and plastic are majorities).
    ``None`` for other games."""
    from companion.games.world_of_waste.components import UnknownCard
    from companion.games.world_of_waste.game import WorldOfWaste
    from companion.games.world_of_waste.scoring import score_scanned_stations

    game = table.game
    if not isinstance(game, WorldOfWaste):
        return None
    view = table.view(HOST_SCREEN, log_limit=0)["game_view"]
    stations = [list(s.get("station") or []) for s in view["seats"]]
    stations[seat] = list(card_ids)
    taken = {c for s, ids in enumerate(stations) if s != seat for c in ids}
    clash = [c for c in card_ids if c in taken]
    note = ""
    if clash:  # the game will refuse these; score the rest so the host sees something
        note = ngettext("{cards} is recorded in another seat's station: the game will refuse this scan",
                        "{cards} are recorded in another seat's station: the game will refuse this scan",
                        len(clash)).format(cards=", ".join(clash))
        stations = [[c for c in ids if c not in clash] if s != seat else ids for s, ids in enumerate(stations)]
    try:
        sheet = score_scanned_stations(game.catalog(table.config.edition), stations, final=False)
    except (UnknownCard, Refusal) as err:
        return {"error": str(err)}
    mine = sheet.seats[seat]
    return {
        "error": None,
        "total": mine.total,
        "lines": [{"label": ln.label, "points": ln.points, "detail": ln.detail} for ln in mine.lines],
        "tiebreak": mine.tiebreak,
        "notes": list(sheet.notes),
        "clash": note,
    }


# helpers --------------------------------------------------------------------------------
def offers_station(table: Table, seat: int) -> bool:
    """Whether the game offers the host a ``station`` command for this seat now."""
    return any(h.get("command") == "station" and h.get("args", {}).get("seat") == seat
               for h in table.actions(HOST))


def _seat_arg(table: Table, raw: Any, default: int | None = None) -> int:
    if (raw is None or str(raw).strip() == "") and default is not None:
        return default
    try:
        seat = int(str(raw))
    except ValueError:
        abort(400, description=_("Pick one of the seats."))
    if not 0 <= seat < len(table.seat_names):
        abort(400, description=_("There is no such seat."))
    return seat


def _posted(table_id: str) -> tuple[Table, int, int]:
    """What every station form posts: the table, the seat, the state number."""
    table = dash().room.get(table_id)
    seat = _seat_arg(table, request.form.get("seat"))
    try:
        return table, seat, read_state_no(request.form)
    except FormError as err:
        abort(400, description=str(err))


def _camera_ready(table: Table) -> tuple[bool, str]:
    hw = dash().hardware
    if hw is None or getattr(hw, "scan_spread", None) is None:
        return False, "no camera is running (companion serve without hardware)"
    try:
        camera = hw.status().get("camera", {})
    except Exception:
        camera = {}
    if isinstance(camera, dict) and camera.get("online") is False:
        return False, "the camera is offline"
    if isinstance(camera, dict) and camera.get("state") == "stalled":
        return False, "the camera is stalled (no frames for a few seconds): check its cable, or upload a photo"
    if getattr(hw, "table_id", None) != table.id:
        return False, "the camera feeds the table on the table screen, not this one"
    return True, ""


def _page(table: Table, seat: int, *, reading: Reading | None = None, state_no: int | None = None,
          error: str = "", refusal: str = "", refusal_rule: Mapping[str, str] | None = None,
          status: int = 200) -> Response:
    camera_ok, camera_why = _camera_ready(table)
    html = render_template(
        "station.html",
        table=table,
        seat=seat,
        reading=reading,
        state_no=table.state_no if state_no is None else state_no,
        can_submit=offers_station(table, seat) and not dash().finished(table),
        has_station=any(h.get("command") == "station" for h in table.actions(HOST)),
        camera_ok=camera_ok,
        camera_why=camera_why,
        error=error,
        refusal=refusal,
        refusal_rule=refusal_rule,
        max_mb=MAX_PHOTO_BYTES // (1024 * 1024),
    )
    return Response(html, status=status, mimetype="text/html")


def _bad(table: Table, seat: int, message: str, status: int = 400) -> Response:
    return _page(table, seat, error=message, status=status)


def _refused(table: Table, seat: int, cards: list[str], state_no: int, result: Result) -> Response:
    """The scan again, with the game's reason for refusing it."""
    registry = _registry(table)
    read: list[ReadCard] = []
    for card_id in cards:
        card = registry.card(card_id)
        read.append(ReadCard(card_id, card.kind if card else "?", card.name if card else "not a card of this game"))
    reading = Reading(seat, "confirm", read, [], len(read))
    reading.preview = score_preview(table, seat, [c.card_id for c in read if c.kind != "?"])
    fresh = table.state_no if result.code == "stale" else state_no  # a stale scan may be confirmed again
    return _page(table, seat, reading=reading, state_no=fresh, refusal=result.reason or result.message,
                 refusal_rule=result.rule, status=result.status)
