"""Money pages: the director's money page, the auction page, the payout sheet, the public
payouts page and the CSV.

Thin: each POST parses its form, calls one service and redirects back to the section it
came from; a refusal re-renders the page (400) with the rule in words next to the form
and the field it names. Reads go through :func:`money.selectors.money_view`.

One module a family of pages: :mod:`.director` (the director's page, its actions, the
auction, the payout sheet, the CSV, the history), :mod:`.public`, :mod:`.master_points`,
:mod:`.awards`, over :mod:`.common`.
"""
