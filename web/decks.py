"""Decks: list and search, create, edit info, add/edit/delete typed cards, delete, import and export.

An import reads the whole file through the deck format's validator: either every card is saved, or
nothing is and each problem is listed with its line (CSV) or card (JSON) and reason.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, send_file, url_for
from werkzeug.wrappers import Response as BaseResponse

from appliance.decks import (
    InvalidDeck,
    dump_bundle,
    dump_deck,
    has_media,
    is_zip,
    load_bundle,
    load_plain,
)
from appliance.decks.model import CATEGORIES, DECK_TYPES, DIFFICULTIES, Deck, DeckInfo, Problem
from appliance.infra.media import MediaError
from appliance.infra.store import StoreError
from web import deckdata
from web.media import media_store
from web.services import services

bp = Blueprint("decks", __name__, url_prefix="/decks")

Page = str | BaseResponse | tuple[str, int]


def _deck_or_404(deck_id: str) -> Deck:
    deck = deckdata.load(services().store, deck_id)
    if deck is None:
        abort(404)
    return deck


def _editable(deck: Deck) -> None:
    if deckdata.is_builtin(services().store, deck.id):
        abort(403, "built-in decks come with the box and cannot be changed; copy one to edit it")


@bp.get("/")
def index() -> str:
    store = services().store
    query = request.args.get("q", "").strip()
    wanted_type = request.args.get("type", "")
    decks = [d for d in store.decks() if not wanted_type or d["type"] == wanted_type]
    matches: dict[str, list[str]] = {}
    if query:
        needle = query.casefold()
        found = []
        for entry in decks:
            deck = deckdata.load(store, entry["id"])
            hits = [deckdata.card_text(c) for c in deck.cards if needle in deckdata.search_text(c)] if deck else []
            if needle in f"{entry['name']} {entry['id']}".casefold() or hits:
                found.append(entry)
                matches[entry["id"]] = hits[:3]
        decks = found
    return render_template("decks/index.html", decks=decks, query=query, wanted_type=wanted_type,
                           types=deckdata.TYPE_NAMES, matches=matches, unseen=deckdata.unseen(store))


@bp.post("/<deck_id>/reset-history")
def reset_history(deck_id: str) -> BaseResponse:
    """Forget which of the deck's cards this box has dealt: all of them are unseen again."""
    deck = _deck_or_404(deck_id)
    services().store.forget_used(f"{deck.id}/")
    flash(f"Deck {deck.info.name!r}: every card is unseen again.")
    return redirect(url_for("decks.index"))


@bp.route("/new", methods=["GET", "POST"])
def new() -> Page:
    errors: dict[str, str] = {}
    form = request.form if request.method == "POST" else {"language": "en", "type": "estimation"}
    if request.method == "POST":
        store = services().store
        values = {"name": form.get("name", ""), "type": form.get("type", ""),
                  "description": form.get("description", ""), "language": form.get("language", "en").strip()}
        values["id"] = deckdata.unique_deck_id(store, values["name"] or "deck")
        info, errors = deckdata.check_info(values)
        if info is not None:
            deckdata.save(store, Deck(info=info, cards=()))
            flash(f"Deck {info.name!r} created. Add its first card.")
            return redirect(url_for("decks.new_card", deck_id=info.id))
    return render_template("decks/info.html", deck=None, form=form, errors=errors,
                           types=deckdata.TYPE_NAMES), (400 if errors else 200)


@bp.get("/<deck_id>")
def show(deck_id: str) -> str:
    deck = _deck_or_404(deck_id)
    query = request.args.get("q", "").strip().casefold()
    cards = [c for c in deck.cards if not query or query in deckdata.search_text(c)]
    return render_template("decks/show.html", deck=deck, cards=cards, query=request.args.get("q", ""),
                           builtin=deckdata.is_builtin(services().store, deck_id), card_text=deckdata.card_text,
                           types=deckdata.TYPE_NAMES, with_media=has_media(deck))


@bp.route("/<deck_id>/edit", methods=["GET", "POST"])
def edit(deck_id: str) -> Page:
    deck = _deck_or_404(deck_id)
    _editable(deck)
    errors: dict[str, str] = {}
    form = request.form if request.method == "POST" else {
        "name": deck.info.name, "description": deck.info.description, "language": deck.info.language}
    if request.method == "POST":
        values = {"id": deck.id, "type": deck.type, "name": form.get("name", ""),
                  "description": form.get("description", ""), "language": form.get("language", "").strip()}
        info, errors = deckdata.check_info(values)
        if info is not None:
            deckdata.save(services().store, Deck(info=info, cards=deck.cards))
            flash("Deck saved.")
            return redirect(url_for("decks.show", deck_id=deck.id))
    return render_template("decks/info.html", deck=deck, form=form, errors=errors,
                           types=deckdata.TYPE_NAMES), (400 if errors else 200)


@bp.post("/<deck_id>/copy")
def copy(deck_id: str) -> BaseResponse:
    deck = _deck_or_404(deck_id)
    store = services().store
    new_id = deckdata.unique_deck_id(store, f"{deck.id}-copy")
    name = f"{deck.info.name} (copy)"[:80]
    deckdata.save(store, Deck(info=DeckInfo(new_id, name, deck.type, deck.info.description, deck.info.language),
                              cards=deck.cards))
    flash(f"Copied to {name!r}: this copy can be edited.")
    return redirect(url_for("decks.show", deck_id=new_id))


def _card_page(deck: Deck, card_id: str | None) -> Page:
    card = deck.card(card_id) if card_id is not None else None
    values = deckdata.form_values(card)
    if card is None:
        values["id"] = deckdata.next_card_id(deck)
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    if request.method == "POST":
        values = {key: request.form.get(key, "") for key in request.form}
        if card is not None:
            values["id"] = card.id
        try:
            updated = deckdata.with_card(deck, values, replacing=card_id)
            _media_on_box(updated)
        except deckdata.CardProblems as exc:
            errors, general = exc.fields, exc.general
        else:
            deckdata.save(services().store, updated)
            flash("Card saved." if card else "Card added.")
            if request.form.get("then") == "another":
                return redirect(url_for("decks.new_card", deck_id=deck.id))
            return redirect(url_for("decks.show", deck_id=deck.id))
    builtin = deckdata.is_builtin(services().store, deck.id)
    return render_template("decks/card.html", deck=deck, card=card, values=values, errors=errors,
                           general=general, fields=deckdata.FIELDS[deck.type], categories=CATEGORIES,
                           difficulties=DIFFICULTIES, builtin=builtin), (400 if errors or general else 200)


def _media_on_box(deck: Deck) -> None:
    """A card form may keep its card's picture and sound, never name a file the box does not have."""
    store = media_store()
    missing = {key: [f"{name!r} is not on this box"] for card in deck.cards for key in deckdata.MEDIA_KEYS
               if (name := getattr(card, key)) is not None and not store.has(name)}
    if missing:
        raise deckdata.CardProblems(missing, [])


@bp.get("/media/<ref>")
def media(ref: str) -> Response:
    """A picture or sound of the box's decks, by its reference (the deck editor shows and plays it)."""
    path = media_store().path(ref)
    if path is None:
        abort(404)
    return send_file(path, max_age=86400)  # a reference names its content: it never changes


@bp.route("/<deck_id>/cards/new", methods=["GET", "POST"])
def new_card(deck_id: str) -> Page:
    deck = _deck_or_404(deck_id)
    _editable(deck)
    return _card_page(deck, None)


@bp.route("/<deck_id>/cards/<card_id>", methods=["GET", "POST"])
def card(deck_id: str, card_id: str) -> Page:
    deck = _deck_or_404(deck_id)
    if card_id not in {c.id for c in deck.cards}:
        abort(404)
    if request.method == "POST":
        _editable(deck)
    return _card_page(deck, card_id)


@bp.route("/<deck_id>/cards/<card_id>/delete", methods=["GET", "POST"])
def delete_card(deck_id: str, card_id: str) -> Page:
    deck = _deck_or_404(deck_id)
    _editable(deck)
    card = deck.card(card_id) if card_id in {c.id for c in deck.cards} else None
    if card is None:
        abort(404)
    if request.method == "GET":  # a delete asks first
        return render_template("decks/delete_card.html", deck=deck, card=card, text=deckdata.card_text(card))
    deckdata.save(services().store, deckdata.without_card(deck, card_id))
    flash(f"Card {card_id} deleted.")
    return redirect(url_for("decks.show", deck_id=deck.id))


@bp.route("/<deck_id>/delete", methods=["GET", "POST"])
def delete(deck_id: str) -> Page:
    deck = _deck_or_404(deck_id)
    _editable(deck)
    if request.method == "POST":
        services().store.delete_deck(deck.id)
        flash(f"Deck {deck.info.name!r} deleted.")
        return redirect(url_for("decks.index"))
    return render_template("decks/delete.html", deck=deck)


@bp.get("/<deck_id>/export.<fmt>")
def export(deck_id: str, fmt: str) -> Response:
    if fmt not in ("csv", "json", "zip"):
        abort(404)
    deck = _deck_or_404(deck_id)
    if fmt == "zip":  # the deck and its pictures and sounds: what the import reads back
        try:
            body = dump_bundle(deck, media_store().read)
        except KeyError as exc:
            abort(409, f"cannot export the deck's media: {exc.args[0]}")
        return Response(body, mimetype="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{deck.id}.zip"'})
    text = dump_deck(deck, "csv" if fmt == "csv" else "json")
    mimetype = "text/csv" if fmt == "csv" else "application/json"
    return Response(text.encode("utf-8"), mimetype=mimetype,  # werkzeug adds text/csv's charset itself
                    headers={"Content-Disposition": f'attachment; filename="{deck.id}.{fmt}"'})


@bp.route("/import", methods=["GET", "POST"])
def import_deck() -> Page:
    problems: list[str] = []
    form = request.form  # a deck's zip may be bigger than other requests: web/media.py sets its limit
    if request.method == "POST":
        upload = request.files.get("file")
        if upload is None or not upload.filename:
            problems = ["Choose a file to import."]
        else:
            data = upload.read()
            zipped = is_zip(data)
            fmt = "json" if upload.filename.lower().endswith(".json") or data.lstrip()[:1] == b"{" else "csv"
            try:
                typed = form.get("name", "").strip()
                media: Mapping[str, bytes] = {}
                if zipped:
                    bundle = load_bundle(data)
                    deck, media = _rename(bundle.deck, typed or _stem(upload.filename), named=bool(typed)), \
                        bundle.media
                else:
                    deck = _read(data, fmt, typed or _stem(upload.filename), named=bool(typed))
                problems = _save_import(deck, form.get("replace") == "on", media)
            except InvalidDeck as exc:
                problems = [str(p) for p in exc.problems]
            except (StoreError, MediaError) as exc:
                problems = [f"Nothing was saved: {exc}"]
            if not problems:
                count = len(deck.cards)
                flash(f"Imported {count} card{'' if count == 1 else 's'} into {deck.info.name!r}.")
                return redirect(url_for("decks.show", deck_id=deck.id))
    store = media_store()
    used = f"{store.total() / 2**20:.1f} MB of {store.cap / 2**20:.0f} MB"
    return render_template("decks/import.html", problems=problems, form=form, media_used=used), \
        (400 if problems else 200)


def _stem(filename: str) -> str:
    return filename.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _read(data: bytes, fmt: str, name: str, named: bool = False) -> Deck:
    deck = load_plain(data, "json" if fmt == "json" else "csv", stored=media_store().has)
    # a CSV's header names the type and the deck is named from the form; a JSON file carries its name
    return _rename(deck, name, named=named or fmt != "json")


def _rename(deck: Deck, name: str, named: bool) -> Deck:
    """A name typed in the form imports the file as a deck of that name (and its own id): the same JSON deck
    can be imported again beside the first one."""
    if not named and deck.id != "imported-" + deck.type:
        return deck
    info, errors = deckdata.check_info({"id": deckdata.slug(name), "name": name, "type": deck.type,
                                        "description": deck.info.description, "language": deck.info.language})
    if info is None:
        raise InvalidDeck([Problem(f"deck {key}: {message}") for key, message in errors.items()])
    return Deck(info=info, cards=deck.cards)


def _save_import(deck: Deck, replace: bool, media: Mapping[str, bytes]) -> list[str]:
    """Save the deck, its media first (stored by reference; the files this import wrote are taken back when
    the deck cannot be saved: all or nothing)."""
    store = services().store
    if store.deck(deck.id) is not None:
        if deckdata.is_builtin(store, deck.id):
            return [f"A built-in deck already has the id {deck.id!r}; give the import another name or id."]
        if not replace:
            return [f"A deck with the id {deck.id!r} exists already. Tick 'replace' to overwrite it, or give "
                    "the import another name."]
    written = media_store().put_all(media)
    try:
        deckdata.save(store, deck)
    except StoreError:
        media_store().remove(written)
        raise
    return []


@bp.app_template_global()
def deck_types() -> tuple[str, ...]:
    return DECK_TYPES
