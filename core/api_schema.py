"""The OpenAPI schema's view inspector: a write declares ``Idempotency-Key`` when it reads it.

Which operations honour the key is decided once, by :func:`core.idempotency.idempotent`
wrapping the handler; the schema reads that mark instead of a hand-kept list, so the
documented header and the behaviour cannot drift apart (issue #25: 31 of 56 POST
operations honoured a key the schema did not declare, or declared one nobody read).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

from core import api_headers, idempotency


class BoxcarsAutoSchema(AutoSchema):
    """drf-spectacular's inspector, adding ``Idempotency-Key`` where the handler reads it."""

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self.method in ("POST", "PUT", "PATCH", "DELETE") and idempotency.honours_key(
            self._handler()
        ):
            names = {getattr(p, "name", None) for p in parameters}
            if idempotency.HEADER not in names:
                parameters.append(api_headers.IDEMPOTENCY_KEY)
        return parameters

    def _handler(self) -> Any:
        action = getattr(self.view, "action", None)
        if action:
            return getattr(self.view, action, None)
        return getattr(self.view, self.method.lower(), None)
