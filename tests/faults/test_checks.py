"""The fault tests' own verdicts can fail: a lost acked input, an input applied twice and an entry no
handset of that player sent are each caught; look-alike inputs (two folds) do not confuse them."""

from __future__ import annotations

from appliance.mqtt import Connection
from appliance.session.flow import Card, GameSetup
from tests.faults.checks import entry_of, fresh_flow, match_player
from tests.faults.harness import Player, Sent

SPIDER = Card("c1", {"question": "Legs on a spider?", "answer": "8"})
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
    match = match_player(FLOW, _log(player, a, b, c), player)
    assert match.problems == [] and (match.acked, match.applied, match.applied_unacked) == (2, 3, 1)


def test_a_lost_acked_input_is_caught() -> None:
    a, b = _range(1, "1"), _range(2, "2")
    player = _player(a, b)
    assert match_player(FLOW, _log(player, a), player).problems


def test_an_input_applied_twice_is_caught() -> None:
    a, b = _range(1, "1"), _range(2, "2")
    player = _player(a, b)
    assert match_player(FLOW, _log(player, a, a, b), player).problems


def test_an_entry_from_another_player_or_out_of_order_is_caught() -> None:
    a, b = _range(1, "1"), _range(2, "2")
    player = _player(a, b)
    bob = _log(player, a, who="Bob")
    assert match_player(FLOW, _log(player, a, b) + bob, player).problems == []  # Bob's entry is not Ann's
    assert match_player(FLOW, _log(player, b, a), player).problems


def test_look_alike_inputs_line_up_by_search() -> None:
    lost = Sent(1, "t-p1", "range", {"bottom": "5", "top": "10"}, acked=False)  # never arrived
    later = Sent(2, "t-p2", "range", {"bottom": "5", "top": "10"}, acked=True)  # the same values, acked
    player = _player(lost, later)
    match = match_player(FLOW, _log(player, later), player)
    assert match.problems == [] and match.applied_unacked == 0
