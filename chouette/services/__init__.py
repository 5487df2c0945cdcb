"""Chouette use cases: open a session, record, correct and undo games, join, leave, close.

Each function is one transaction. It locks the session row (``select_for_update``), so
two games posted at once are numbered one after the other; checks the caller's
``expected_version`` (``If-Match``); validates with the pure rules before writing
anything; writes; stores what the rules derived (lineups, payouts) on every game; and
bumps the version. Recording the next game scores it against the stored lineup (one
game's work, whatever the session's length); joins, leaves, corrections and undo
validate by replaying the whole session (``chouette.rules.replay_session``).

A correction or an undo never patches the ledger: it replays the session from its
records and stores the result, so the ledger and the rotation after the corrected
game follow from the records alone (``docs/rules.md``, "The chouette"). Rows inserted in
bulk (seats, member rows) go through ``bulk_create_with_history``, so the audit trail
(``chouette.audit``) sees every row from its creation, with who wrote it.

One module per family of use cases: ``sessions`` (open, close), ``seats`` (join,
leave), ``recording`` (the next game), ``corrections`` (correct a game, undo the
last); ``common`` holds the guards (lock, version, who may act) and ``replays`` the
replay-and-store steps they share.
"""
