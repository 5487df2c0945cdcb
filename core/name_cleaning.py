"""The data migrations' cleaning of names stored before they were checked (``core.text``).

Each app's migration runs :func:`clean_names` over its own name fields: a row whose
name holds a control character gets :func:`core.text.one_line` of it (each such
character a space, whitespace runs single), so the rows the rule now refuses no longer
exist. Only the rows that need it are read (a ``__regex`` filter) and each is written
with one ``UPDATE``; the audit history keeps what was stored then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from core.text import CONTROL_PATTERN, one_line

#: What a name made only of control characters becomes (a name is never blank).
NO_NAME = "(no name)"


def clean_names(
    app_label: str, fields: Iterable[tuple[str, str, bool]]
) -> Callable[[Any, Any], None]:
    """A ``RunPython`` function cleaning ``(model, field, may_be_blank)`` of ``app_label``."""
    fields = tuple(fields)

    def clean(apps: Any, schema_editor: Any) -> None:
        for model_name, field, may_be_blank in fields:
            model = apps.get_model(app_label, model_name)
            dirty = model.objects.filter(**{f"{field}__regex": CONTROL_PATTERN})
            for pk, value in dirty.values_list("pk", field).iterator():
                cleaned = one_line(value) or ("" if may_be_blank else NO_NAME)
                model.objects.filter(pk=pk).update(**{field: cleaned})

    return clean
