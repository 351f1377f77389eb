"""Quizbox appliance: the Raspberry Pi side (rules engines, hub, session, board, hardware)."""

__version__ = "0.1.0"
