"""The event money API under ``/api/v1/tournaments/{slug}/money/``.

Thin views: parse with a serializer, resolve the actor, call one service (or the
selector), render. Directors of the event's club manage everything and read the whole
ledger; a signed-in player reads their own lines; everyone reads the payouts and the
Calcutta's lots, prices and owners when the club publishes them. Writes answer with
the event money's version as ``ETag`` and honour ``If-Match`` (412 when stale); POSTs
accept an ``Idempotency-Key``. Amounts are decimal strings ("12.50"), never floats.

The package: :mod:`.common` (view base, fields, headers, actor), :mod:`.answers` (what
is read), :mod:`.writing` (the one write shape and its ``endpoint`` declaration),
:mod:`.serializers` (inputs) and one module of views per use-case family:
:mod:`.event`, :mod:`.pools`, :mod:`.calcutta`, :mod:`.master_points`.
"""
