"""The release a page belongs to, for the offline web app (``games.pages.offline_app``).

``base.html`` writes it on ``<html data-release>``: the page compares it with the
worker's release and reloads onto the new shell when a new release took over.
"""

from __future__ import annotations

from django import template

from games.pages.offline_app import release

register = template.Library()


@register.simple_tag
def offline_release() -> str:
    return release()
