"""The board tests' states: appliance.board.samples (shared with bench/board.py)."""

from appliance.board.samples import JSON, PLAYERS, Play, board_states, buzzer_views, envelope, snapshot_cases

__all__ = ["JSON", "PLAYERS", "Play", "board_states", "buzzer_views", "envelope", "snapshot_cases"]
