"""Every federation export, declared once (``tournaments.federation.bodies`` says what
each part is); ``tournaments/wiring.py`` registers :data:`BODIES`. The order is the
director's page's and the API's (``FederationExport``).
"""

from __future__ import annotations

from . import services as s
from .bodies import FederationBody
from .models import FederationExport as E

BODIES = (
    FederationBody(E.WBGF.value, s.build_wbgf, mail_lines=s.wbgf_mail_lines),
    FederationBody(E.ABT.value, s.build_abt, check_options=s.check_abt_options),
    FederationBody(E.UKBGF.value, s.build_ukbgf),
    FederationBody(E.BMAB.value, s.build_bmab),
    FederationBody(E.WBIF.value, s.build_wbif),
)
