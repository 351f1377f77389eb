"""Each game's flow: the pure engine wrapped with what the table sees (prompts, the board's view, the
host's *next*, time limits). See appliance.session.flow for the contract and
appliance.session.engine_flow for what the four games share."""
