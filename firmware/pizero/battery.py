"""Battery level on a Pi (no ADC of its own): an MCP3008 channel on SPI reads the divider."""

from __future__ import annotations

from typing import Any

from firmware.core.battery import percent

VREF_MV = 3300


class Battery:
    """``adc``: an object whose ``value`` is 0..1 of VREF (gpiozero's MCP3008); ``divider`` as on the ESP32."""

    def __init__(self, adc: Any, divider: float = 2.0) -> None:
        self.adc = adc
        self.divider = divider

    @classmethod
    def mcp3008(cls, channel: int = 0, divider: float = 2.0, pin_factory: Any = None) -> Battery:
        from gpiozero import MCP3008

        return cls(MCP3008(channel=channel, pin_factory=pin_factory), divider)

    def millivolts(self) -> int:
        return int(self.adc.value * VREF_MV * self.divider)

    def percent(self) -> int:
        return percent(self.millivolts())
