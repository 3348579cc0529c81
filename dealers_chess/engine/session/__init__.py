"""One game played at the board: the session, its choices, clock, events, state and record, and the commands
every interface shares."""
