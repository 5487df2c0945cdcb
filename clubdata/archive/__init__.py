"""The club archive: its sections (:mod:`.sections`), the file (:mod:`.format`), writing
one (:mod:`.export`) and reading one into a new club (:mod:`.restore`).

The format is documented in ``docs/club-archive.md``; a change to it that an older
file cannot be read under is a new ``format.VERSION``.
"""
