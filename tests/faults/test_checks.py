"""The fault tests' own verdicts can fail: a lost acked input, an input applied twice and an entry no
handset of that player sent are each caught; look-alike inputs (two folds) do not confuse them."""

from __future__ import annotations

from pathlib import Path

from appliance.edge.mqtt import Connection
from appliance.games.dealt import DealtCard
from appliance.session.flow import GameSetup
from tests.faults.checks import entry_of, fresh_flow, match_player
from tests.faults.harness import Player, Sent, cards

SPIDER = DealtCard("c1", {"question": "Legs on a spider?", "answer": "8"})
SETUP = GameSetup("confident", ["Ann", "Bob", "Cat"], {}, [SPIDER])
FLOW = fresh_flow(SETUP)


def _player(*sent: Sent) -> Player:
    player = Player("box", "fh1", Connection("127.0.0.1", 1), "Ann", 1)  # never started: no connection
    player.sent = list(sent)
    return player


def _range(seq: int, low: str, acked: bool = True) -> Sent:
    return Sent(seq, f"t-p{seq}", "range", {"bottom": low, "top": "10"}, acked=acked)


def _log(player: Player, *sent: Sent, who: str = "Ann") -> list[dict[str, object]]:
    entries = []
    for s in sent:
        entry = entry_of(FLOW, who, player.id, s)
        assert entry is not None
        entries.append(entry)
    return entries


def test_every_acked_input_once_and_an_unacked_one_applied_are_accepted() -> None:
    a, b, c = _range(1, "1"), _range(2, "2", acked=False), _range(3, "3")
    player = _player(a, b, c)
    match = match_player(SETUP, _log(player, a, b, c), player)
    assert match.problems == [] and (match.acked, match.applied, match.applied_unacked) == (2, 3, 1)


def test_a_lost_acked_input_is_caught() -> None:
    a, b = _range(1, "1"), _range(2, "2")
    player = _player(a, b)
    assert match_player(SETUP, _log(player, a), player).problems


def test_an_input_applied_twice_is_caught() -> None:
    a, b = _range(1, "1"), _range(2, "2")
    player = _player(a, b)
    assert match_player(SETUP, _log(player, a, a, b), player).problems


def test_an_entry_from_another_player_or_out_of_order_is_caught() -> None:
    a, b = _range(1, "1"), _range(2, "2")
    player = _player(a, b)
    bob = _log(player, a, who="Bob")
    assert match_player(SETUP, _log(player, a, b) + bob, player).problems == []  # Bob's entry is not Ann's
    assert match_player(SETUP, _log(player, b, a), player).problems


def test_look_alike_inputs_line_up_by_search() -> None:
    lost = Sent(1, "t-p1", "range", {"bottom": "5", "top": "10"}, acked=False)  # never arrived
    later = Sent(2, "t-p2", "range", {"bottom": "5", "top": "10"}, acked=True)  # the same values, acked
    player = _player(lost, later)
    match = match_player(SETUP, _log(player, later), player)
    assert match.problems == [] and match.applied_unacked == 0


def test_what_the_host_does_for_a_player_is_no_input_of_theirs(tmp_path: Path) -> None:
    """Poker: the quizmaster's *next* makes the player to act check or fold (a handset gone dark); that
    entry carries the player's name, and only there, in that state, is it not a lost or foreign input."""
    names = ["Ann", "Bob", "Cat"]
    setup = GameSetup("poker", names, {}, [DealtCard(str(c["id"]), c) for c in cards("poker", 1, tmp_path)])
    flow = fresh_flow(setup)
    players = {n: Player("box", f"fh{i}", Connection("127.0.0.1", 1), n, i) for i, n in enumerate(names)}
    for name, player in players.items():
        entered = Sent(1, "t-p1", "range", {"bottom": "1", "top": "100000"}, acked=True)
        player.sent = [entered]
        flow.handle(name, "range", entered.data, 0.0)
    actor = flow.board()["to_act"]
    assert actor in players
    flow.advance(1.0)  # the quizmaster stops waiting for the actor
    log = flow.log()
    assert log[-1]["player"] == actor and log[-1]["kind"] in ("check", "fold")
    match = match_player(setup, log, players[actor])
    assert match.problems == [] and match.host_made == 1
    moved = [*log[:-1], {**log[-1], "kind": "fold" if log[-1]["kind"] == "check" else "check"}]
    assert match_player(setup, moved, players[actor]).problems  # not what the host does there
