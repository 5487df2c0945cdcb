"""``makemessages`` that also extracts the domain errors' ``N_("...")`` messages.

The pure rule modules cannot import Django's ``gettext``; they mark their messages with
``core.errors.N_`` instead, and this command tells xgettext to look for that name too.
New entries come in empty (no fuzzy guesses from similar ones): a translator fills them,
and the catalog check (tests/test_catalogs.py) shows what is left.
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
