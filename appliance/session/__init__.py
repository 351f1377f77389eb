"""The session: runs one game at a time between the hub and the rules engines."""
