"""The MQTT edge: the broker, the connection, the hub and who is at the table."""
