"""All In at the table: the reader's handset offers the three statements, True/False and the exclusion
card; every bettor's handset offers a split of all their chips; the reveal follows the last split and the
host's *next* deals the next card to the next reader.

While splits are open, the host's *next* (a quizmaster who stops waiting, e.g. for a handset gone for
good) and the ``answer_seconds`` time limit close them: the bettors still missing sit the question out
keeping all their chips (the product's decision, appliance.games.allin.actions.Close)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.allin.actions import Close, CloseReason, EndGame, Read, Split
from appliance.games.allin.actions import StartQuestion as Deal
from appliance.games.allin.engine import AllInEngine
from appliance.games.allin.state import Phase
from appliance.games.base import JSON, Action, Engine
from appliance.games.dealt import DealtCard
from appliance.session.engine_flow import NAMES_LISTED, EngineFlow
from appliance.session.flow import game_over, info
from firmware import protocol

TRUE, FALSE = "true", "false"

NOBODY = "-"


class AllInFlow(EngineFlow):
    game = "allin"
    engine: AllInEngine

    def make_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return AllInEngine(tuple(players), options)

    def deal(self, card: DealtCard) -> list[Action]:
        statements = card.fields.get("statements")
        if not isinstance(statements, list | tuple):
            raise MalformedInput(f"card {card.id} is not an All In card")
        return [Deal.deal(list(statements))]

    def is_deal(self, action: Action) -> bool:
        return isinstance(action, Deal)

    def ready_for_card(self) -> bool:
        return self.engine.phase == Phase.CARD

    def end_of_deck(self) -> Action | None:
        return EndGame.deck_out()  # rules.md All In 6: the deck ran out, most chips wins

    # -- the host and the clock ------------------------------------------------------------------------

    def host_step(self) -> Action | None:
        """While the read or the splits are open, *next* closes them (the quizmaster stops waiting: a
        reader who never reads passes the card on, bettors who never split sit it out); otherwise None:
        the reveal follows the last split by itself and *next* deals the next card."""
        return Close.by(CloseReason.HOST) if self.waiting_for_players() else None

    def waiting_for_players(self) -> bool:
        """The reader is reading or the bettors are splitting (both timed by ``answer_seconds``)."""
        return self.engine.phase in (Phase.READING, Phase.BETTING)

    def timeout(self) -> Action | None:
        return Close.by(CloseReason.TIMEOUT) if self.waiting_for_players() else None

    # -- handsets --------------------------------------------------------------------------------------

    def parse(self, player: str, kind: str, data: Mapping[str, Any]) -> Action:
        if kind == protocol.CHOICE:
            choices = data["choices"]
            pick, answer = choices.get("pick"), choices.get("answer")
            if pick not in ("0", "1", "2") or answer not in (TRUE, FALSE):
                raise MalformedInput("pick a statement and answer True or False")
            exclude = choices.get("exclude") or _seat_of_digits(choices) or None  # rules.md The room 2
            return Read(player, int(pick), answer == TRUE, None if exclude is None else self.engine.player_at(exclude))
        if kind == protocol.SPLIT:
            split = data["split"]
            unknown = sorted(set(split) - {TRUE, FALSE})
            if unknown:
                raise MalformedInput(f"split chips on true and false, not {', '.join(unknown)}")
            return Split(player, split.get(TRUE, 0), split.get(FALSE, 0))
        raise MalformedInput(f"All In takes a choice or a split, not a {kind}")

    def ack(self, action: Action) -> str:
        if isinstance(action, Split):
            return f"{action.on_true} true / {action.on_false} false"
        assert isinstance(action, Read)
        return f"statement {action.pick + 1}: {'TRUE' if action.answer else 'FALSE'}"

    def touches(self, action: Action) -> set[str] | None:
        # a split shows only on its bettor's handset until the reveal (which follows the last split as a
        # phase change: everyone's); the reader's read opens the splits (a phase change too)
        return {action.player} if isinstance(action, Split) else None

    def prompt(self, player: str) -> JSON:
        engine = self.engine
        chips = engine.chips[player]
        private = {"chips": chips, "exclusion_card": player not in engine.exclusion_used}
        question = engine.current
        if engine.finished:
            return game_over(player, engine.winners(), f"You have {chips} chips.", private)
        if question is None:
            return {**info("All In", "Get ready: the first reader is coming.", wait=True), "private": private}
        legal = engine.legal_inputs(player)
        if legal is not None and legal["input"] == Read.kind:
            return {**self._reader_prompt(legal), "private": private}
        if legal is not None and legal["input"] == Split.kind:
            assert question.pick is not None
            return {
                "kind": protocol.SPLIT,
                "title": f"All in! {question.reader} says...",
                "text": question.statements[question.pick][: protocol.MAX_TEXT],
                "total": legal["total"],
                "sides": [{"id": TRUE, "label": "True"}, {"id": FALSE, "label": "False"}],
                "private": private,
            }
        return {**self._waiting(player), "private": private}

    def _reader_prompt(self, legal: JSON) -> JSON:
        # whole statements: a phone shows them in full; a prompt over 1 KB is cut by the hub's fit()
        # (the text that repeats them first), and a hardware handset scrolls its own line
        statements = [{"id": str(i), "label": f"{i + 1}. {text}"[: protocol.MAX_TEXT]}
                      for i, text in enumerate(legal["statements"])]
        fields: list[JSON] = [
            {"name": "pick", "label": "Read which?", "options": statements, "required": True},
            {"name": "answer", "label": "Your true answer",
             "options": [{"id": TRUE, "label": "True"}, {"id": FALSE, "label": "False"}], "required": True},
        ]
        if legal["exclude"] and len(self.engine.players) > NAMES_LISTED:
            fields += self._exclude_by_digits()
        elif legal["exclude"]:
            fields.append({"name": "exclude", "label": "Exclude (once a game)", "required": False,
                           "options": [{"id": name, "label": name} for name in legal["exclude"]]})
        text = " / ".join(f"{i + 1}. {s}" for i, s in enumerate(legal["statements"]))
        return {"kind": protocol.CHOICE, "title": "You read", "text": text[: protocol.MAX_TEXT], "fields": fields}

    def _exclude_by_digits(self) -> list[JSON]:
        """The room's exclusion (rules.md The room 2): 39 names are more than a handset's 1 KB prompt holds,
        so the reader gives the seat number as its tens and its units, two short closed choices any
        protocol-v1 handset shows (the TV shows every seat number beside its name)."""
        tens = [{"id": NOBODY, "label": "Nobody"}] + [
            {"id": str(t), "label": f"{t}-"} for t in range(len(self.engine.players) // 10 + 1)]
        units = [{"id": str(u), "label": str(u)} for u in range(10)]
        # "last" (revision 1.4): the highest seat, so a handset may offer one list of seat numbers instead
        return [{"name": "exclude_tens", "label": "Exclude seat: tens", "options": tens, "required": False,
                 "last": len(self.engine.players)},
                {"name": "exclude_units", "label": "Exclude seat: units", "options": units, "required": False}]

    def _waiting(self, player: str) -> JSON:
        question = self.engine.current
        assert question is not None
        if question.revealed:
            truth = "TRUE" if question.answer else "FALSE"
            lost = question.lost.get(player)
            kept = "" if lost is None else f" You lost {lost}."
            if player in question.sat_out:
                kept = " Time was up: you sat it out and kept your chips."
            return info(f"It was {truth}", f"{question.reader} answered {truth}.{kept}", wait=True)
        if player == question.reader:
            return info("Locked in", "Wait for the splits.", wait=True)
        if player == question.excluded:
            return info("Excluded", f"{question.reader} excluded you this round.", wait=True)
        if question.pick is None:
            return info("Listen", f"{question.reader} is choosing a statement.", wait=True)
        if player in question.splits:
            split = question.splits[player]
            return info("Locked in", f"{split.on_true} true / {split.on_false} false", wait=True)
        return info("Out of chips", "You sit this one out, but you will still read.", wait=True)


def _seat_of_digits(choices: Mapping[str, Any]) -> str | None:
    """A seat number given as its tens and units (the room's exclusion prompt); None for nobody."""
    tens, units = choices.get("exclude_tens"), choices.get("exclude_units")
    if tens in (None, "", NOBODY):
        return None
    if not (isinstance(tens, str) and tens.isdigit() and isinstance(units, str) and units.isdigit()):
        raise MalformedInput("to exclude a seat, choose its tens and its units")
    return str(int(tens) * 10 + int(units))
