"""``{% panels "slot" arg ... %}``: render what other apps registered for a slot of this
page (see :mod:`core.panels`). ``{% panels "slot" arg as html %}`` stores it instead,
so the page can show something else when no panel had anything to say."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from core.panels import panels_of

register = template.Library()


@register.simple_tag(takes_context=True)
def panels(context: template.Context, slot: str, *args: Any) -> SafeString:
    request = context.get("request")
    parts = []
    for panel in panels_of(slot):
        values = panel.provider(request, *args)
        if values is None:
            continue
        # rendered as an inclusion tag renders: the page's engine, a fresh context
        # (context processors are not run again), the CSRF token passed on
        panel_context = context.new(dict(values))
        csrf_token = context.get("csrf_token")
        if csrf_token is not None:
            panel_context["csrf_token"] = csrf_token
        assert context.template is not None  # a tag renders inside a template
        parts.append(context.template.engine.get_template(panel.template).render(panel_context))
    return mark_safe("".join(parts))
