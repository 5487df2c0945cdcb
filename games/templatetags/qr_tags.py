"""QR codes drawn on the server as inline SVG (segno): no JavaScript, no image
requests, sharp on paper, readable by any phone camera."""

from __future__ import annotations

import segno
from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def qr_svg(text: str, label: str = "") -> SafeString:
    """``text`` as an inline ``<svg class="qr">`` (error correction M survives a crease).

    segno writes only numbers and the path into the SVG; the title is escaped here, so
    the markup is safe to insert as is.
    """
    code = segno.make(str(text), error="m", micro=False)
    svg = code.svg_inline(
        scale=1, border=2, svgclass="qr", lineclass=None, omitsize=True, dark="#000", light="#fff"
    )
    title = escape(label or "QR code of the link")
    return mark_safe(svg.replace(">", f' role="img"><title>{title}</title>', 1))
