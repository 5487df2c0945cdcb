"""A club's data out and back in: the club archive (export, import) and the spreadsheets.

The one app that reads every other app's models (``games``, ``tournaments``,
``chouette``, ``money``): nothing imports it (an import-linter contract), so it sits
above them all, as ``money`` sits above ``tournaments``.
"""
