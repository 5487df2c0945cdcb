"""Tournament formats in pure Python (no Django): ``docs/rules.md``, "Tournaments".

``seeding`` (order, byes), ``bracket_graph`` (an event as a graph of matches),
``bracket_engine`` (derive/play a bracket from results), ``elimination`` (main,
progressive consolation, last chance), ``double_elimination``, ``drop_maps`` (where
losers go, possible rematches), ``swiss`` (minimum-cost matching pairing),
``round_robin`` (Berger tables, groups, playoff), ``standings`` (tie-breaks).
See ``docs/club-formats.md`` for how clubs run events.
"""
