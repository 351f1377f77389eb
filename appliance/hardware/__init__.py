"""The appliance's own hardware: host buttons and status LED (gpiozero) and sound effects (pygame.mixer)."""
