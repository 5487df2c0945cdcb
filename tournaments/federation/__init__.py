"""Federation exports: an event's results as each ranking body asks for them.

A finished event's director sends, in one step, what the WBGF (finishing order and the
qualification checks), the USBGF's ABT (points by skill division), the UKBGF (completed
rated matches) and BMAB/WBIF (a bundle of ``.mat`` files with a manifest) want
(docs/federations.md). ``rules/`` computes them without Django; ``selectors`` reads an
event into the rules' plain inputs; ``services`` builds the files and emails them to the
address the club set; ``api`` and ``pages`` are the doors.
"""
