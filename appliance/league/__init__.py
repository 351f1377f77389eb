"""A league of pubs (rules.md The league 1-5, docs/league.md): the pure season table, the result a box
sends and the plans it receives, the topics and rights on the league's broker, join codes, and the two
programs that move messages: a member box's link and the league box's service."""
