"""The event money API under ``/api/v1/tournaments/{slug}/money/``.

Thin views: parse with a serializer, resolve the actor, call one service (or the
selector), render. Directors of the event's club manage everything and read the whole
ledger; a signed-in player reads their own lines; everyone reads the payouts and the
Calcutta's lots, prices and owners when the club publishes them. Writes answer with
the event money's version as ``ETag`` and honour ``If-Match`` (412 when stale); POSTs
accept an ``Idempotency-Key``. Amounts are decimal strings ("12.50"), never floats.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Hashable
from decimal import Decimal
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import access
from core.actors import Actor
from core.idempotency import idempotent
from core.locking import expected_version
from games.models import Club, Player
from games.services.actors import actor_for_user
from money import master_points, rules, selectors, services
from money.models import PaidBy, PaymentMethod, Remainder
from money.rules.master_points import FORMULAS
from tournaments.models import Tournament

LIST_OF_OBJECTS = {"type": "array", "items": {"type": "object", "additionalProperties": {}}}
"""The schema of an answer that is a JSON array of objects."""
WRITE_PARAMS = [
    OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False),
    OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False),
]
AMOUNT: dict[str, Any] = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal(0)}
PERCENT: dict[str, Any] = {
    "max_digits": 6,
    "decimal_places": 3,
    "min_value": Decimal(0),
    "max_value": Decimal(100),
}


def money(cents: int) -> str:
    return str(rules.from_cents(cents))


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _actor(request: Request) -> Actor:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return actor_for_user(request.user)


def is_director(request: Request, tournament: Tournament) -> bool:
    user = request.user
    return bool(
        user.is_authenticated
        and (access.is_site_admin(user) or access.is_director(user, tournament.club))
    )


def payouts_data(view: selectors.MoneyView) -> list[dict[str, Any]]:
    """Each pool's money in, rake, payouts by place and rounding remainder."""
    rows = []
    for pool in view.pool_summary():
        if pool["key"] == "registration":
            continue
        distribution = pool["distribution"]
        payments = [
            {"position": p["position"], "name": p["name"], "amount": money(p["amount"])}
            for p in pool["payouts"]
        ]
        rows.append(
            {
                "pool": pool["key"],
                "name": pool["name"],
                "money_in": money(pool["money_in"]),
                "rake": money(pool["rake"]),
                "paid_out": money(pool["paid_out"]),
                "rounding_remainder": money(distribution.remainder if distribution else 0),
                "remainder_kept_by_club": money(pool["remainder"]),
                "held": money(pool["held"]),
                "payouts": payments,
            }
        )
    return rows


def person_data(person: selectors.PersonMoney, view: selectors.MoneyView) -> dict[str, Any]:
    return {
        "player": person.player.pk if person.player else None,
        "name": person.name,
        "net": money(person.net),
        "paid": money(person.paid),
        "balance": money(person.balance),
        "marked_owing": person.owing_marked,
        "lines": [
            {
                "pool": line.pool,
                "pool_name": view.pool_name(line.pool),
                "kind": line.kind,
                "amount": money(line.amount),
                "note": line.note,
            }
            for line in person.lines
        ],
    }


def calcutta_data(view: selectors.MoneyView) -> dict[str, Any] | None:
    if view.calcutta is None:
        return None
    calcutta = view.calcutta
    lots = []
    for lot in calcutta.lots.all():
        shares = list(lot.shares.all())
        owners = (
            rules.Sale(
                lot=str(lot.pk),
                price=rules.to_cents(lot.price or Decimal(0), field="price"),
                buyers=tuple(
                    (s.player_id, rules.to_percent(s.percent, field="percent") / 100)
                    for s in shares
                    if not s.buy_back
                ),
                buy_backs=tuple(
                    (s.player_id, rules.to_percent(s.percent, field="percent") / 100)
                    for s in shares
                    if s.buy_back
                ),
            ).owners
            if lot.price is not None
            else ()
        )
        names: dict[Hashable, str] = {s.player_id: s.player.display_name for s in shares}
        lots.append(
            {
                "id": lot.pk,
                "label": lot.label,
                "players": [e.player.display_name for e in lot.entries.all()],
                "price": str(lot.price) if lot.price is not None else None,
                "owners": [
                    {"name": names[p], "percent": f"{float(share * 100):.2f}"}
                    for p, share in owners
                ],
            }
        )
    return {
        "set_up": True,
        "table": calcutta.table,
        "rake_percent": str(calcutta.rake_percent),
        "rake_fixed": str(calcutta.rake_fixed),
        "buy_back_limit": str(calcutta.buy_back_limit),
        "pool": money(
            sum(
                rules.to_cents(lot.price, field="price")
                for lot in calcutta.lots.all()
                if lot.price is not None
            )
        ),
        "lots": lots,
    }


def pool_config(pool: Any) -> dict[str, Any]:
    return {
        "key": pool.key,
        "name": pool.name,
        "side": pool.side,
        "paid_by": pool.paid_by,
        "fee": str(pool.fee),
        "added": str(pool.added),
        "rake_percent": str(pool.rake_percent),
        "rake_fixed": str(pool.rake_fixed),
        "table": pool.table,
        "remainder": pool.remainder,
        "buy_back_fee": None if pool.buy_back_fee is None else str(pool.buy_back_fee),
        "buy_back_until_round": pool.buy_back_until_round,
        "entrants": [e.pk for e in pool.entrants.all()] if pool.side else None,
        "award_order": pool.award_order,
    }


def money_data(request: Request, tournament: Tournament) -> tuple[dict[str, Any], str]:
    """What this reader may see of the event's money, and the ETag."""
    view = selectors.money_view(tournament)
    etag = view.event.etag if view.event else '"0"'
    director = is_director(request, tournament)
    data: dict[str, Any] = {
        "currency": view.currency,
        "payout_unit": str(view.club.payout_unit),
        "finished": view.finished,
        "version": view.event.version if view.event else 0,
    }
    if director or view.club.publish_payouts:
        data["registration_fee"] = str(view.event.registration_fee) if view.event else "0.00"
        data["pools"] = [pool_config(p) for p in view.pools]
        data["payouts"] = payouts_data(view)
    if director or view.club.publish_calcutta:
        data["calcutta"] = calcutta_data(view)
    if director:
        data["people"] = [person_data(p, view) for p in view.people]
        data["settlement"] = [
            {"payer": payer, "payee": payee, "amount": money(amount)}
            for payer, payee, amount in view.transfers
        ]
        data["splits"] = view.event.splits if view.event else []
    elif request.user.is_authenticated:
        mine = [p for p in view.people if p.player and p.player.user_id == request.user.pk]
        data["mine"] = person_data(mine[0], view) if mine else None
    return data, etag


class MoneyView(APIView):
    """GET: the event's money (as much as the reader may see); PATCH: registration fee."""

    permission_classes = [AllowAny]

    class Input(serializers.Serializer):
        registration_fee = serializers.DecimalField(**AMOUNT)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        data, etag = money_data(request, _tournament(slug))
        response = Response(data)
        response["ETag"] = etag
        return response

    @extend_schema(request=Input, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def patch(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            self.Input,
            lambda actor, t, d, v: services.set_registration_fee(
                actor=actor, tournament=t, expected_version=v, **d
            ),
        )


def write(
    request: Request,
    slug: str,
    serializer: type[serializers.Serializer] | None,
    call: Callable[[Actor, Tournament, dict[str, Any], int | None], Any],
    code: int = status.HTTP_200_OK,
) -> Response:
    """Parse, resolve the actor, call the service, answer with the fresh money."""
    tournament = _tournament(slug)
    actor = _actor(request)
    data: dict[str, Any] = {}
    if serializer is not None:
        parsed = serializer(data=request.data)
        parsed.is_valid(raise_exception=True)
        data = dict(parsed.validated_data)
    call(actor, tournament, data, expected_version(request, noun="event money"))
    body, etag = money_data(request, tournament)
    response = Response(body, status=code)
    response["ETag"] = etag
    return response


class PoolInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    side = serializers.BooleanField(default=False)
    paid_by = serializers.ChoiceField(choices=PaidBy.choices, default=PaidBy.EVENT)
    fee = serializers.DecimalField(**AMOUNT, default=Decimal(0))
    added = serializers.DecimalField(**AMOUNT, default=Decimal(0))
    rake_percent = serializers.DecimalField(**PERCENT, default=Decimal(0))
    rake_fixed = serializers.DecimalField(**AMOUNT, default=Decimal(0))
    preset = serializers.ChoiceField(choices=list(rules.PRESETS), required=False)
    table = serializers.ListField(
        child=serializers.DecimalField(**PERCENT), required=False, max_length=256
    )
    remainder = serializers.ChoiceField(choices=Remainder.choices, default=Remainder.FIRST)
    buy_back_fee = serializers.DecimalField(**AMOUNT, required=False, allow_null=True, default=None)
    buy_back_until_round = serializers.IntegerField(
        min_value=1, max_value=64, required=False, allow_null=True, default=None
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        preset = attrs.pop("preset", None)
        table = attrs.pop("table", None)
        if (preset is None) == (table is None):
            raise serializers.ValidationError({"table": "Give either a preset or a table."})
        attrs["table"] = preset if preset is not None else table
        return attrs


class PoolView(APIView):
    """PUT: create or change the pool ``key``; DELETE: remove it."""

    permission_classes = [AllowAny]

    @extend_schema(request=PoolInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def put(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            PoolInput,
            lambda actor, t, d, v: services.save_pool(
                actor=actor, tournament=t, key=key, expected_version=v, **d
            ),
        )

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def delete(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            None,
            lambda actor, t, d, v: services.delete_pool(
                actor=actor, tournament=t, key=key, expected_version=v
            ),
        )


class EntrantsInput(serializers.Serializer):
    entries = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=1024)


class PoolEntrantsView(APIView):
    """PUT: a side pool's entrants (entry ids)."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=EntrantsInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1]
    )
    def put(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            EntrantsInput,
            lambda actor, t, d, v: services.set_side_pool_entrants(
                actor=actor, tournament=t, key=key, entry_ids=d["entries"], expected_version=v
            ),
        )


class AwardInput(serializers.Serializer):
    groups = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=64),
        allow_null=True,
        max_length=256,
    )


class PoolAwardView(APIView):
    """PUT: the director's decision on who a pool pays, best first (null: by places)."""

    permission_classes = [AllowAny]

    @extend_schema(request=AwardInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def put(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            AwardInput,
            lambda actor, t, d, v: services.set_award_order(
                actor=actor, tournament=t, key=key, groups=d["groups"], expected_version=v
            ),
        )


class MoneyEntryInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1)


class BuyBackView(APIView):
    """POST: a knocked-out player buys into the pool (201)."""

    permission_classes = [AllowAny]

    @extend_schema(request=MoneyEntryInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            MoneyEntryInput,
            lambda actor, t, d, v: services.record_buy_back(
                actor=actor, tournament=t, key=key, entry_id=d["entry"], expected_version=v
            ),
            status.HTTP_201_CREATED,
        )


class PaymentInput(serializers.Serializer):
    player = serializers.IntegerField(min_value=1)
    amount = serializers.DecimalField(**AMOUNT)
    method = serializers.ChoiceField(choices=PaymentMethod.choices)
    note = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)


class PaymentsView(APIView):
    """POST: record who paid what and how (cash, transfer) or mark them owing (201)."""

    permission_classes = [AllowAny]

    @extend_schema(request=PaymentInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            PaymentInput,
            lambda actor, t, d, v: services.record_payment(
                actor=actor,
                tournament=t,
                player_id=d["player"],
                amount=d["amount"],
                method=d["method"],
                note=d["note"],
                expected_version=v,
            ),
            status.HTTP_201_CREATED,
        )


class SplitsView(APIView):
    """POST: players who agreed to split (entry ids); DELETE: clear every split."""

    permission_classes = [AllowAny]

    @extend_schema(request=EntrantsInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            EntrantsInput,
            lambda actor, t, d, v: services.record_split(
                actor=actor, tournament=t, entry_ids=d["entries"], expected_version=v
            ),
            status.HTTP_201_CREATED,
        )

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def delete(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            None,
            lambda actor, t, d, v: services.clear_splits(
                actor=actor, tournament=t, expected_version=v
            ),
        )


class CalcuttaInput(serializers.Serializer):
    preset = serializers.ChoiceField(choices=list(rules.PRESETS), required=False)
    table = serializers.ListField(
        child=serializers.DecimalField(**PERCENT), required=False, max_length=256
    )
    rake_percent = serializers.DecimalField(**PERCENT, default=Decimal(0))
    rake_fixed = serializers.DecimalField(**AMOUNT, default=Decimal(0))
    buy_back_limit = serializers.DecimalField(**PERCENT, default=Decimal(50))
    remainder = serializers.ChoiceField(choices=Remainder.choices, default=Remainder.FIRST)

    validate = PoolInput.validate


class CalcuttaView(APIView):
    """GET: the lots, prices and owners (public if the club publishes them); PUT: set up."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        data, _ = money_data(request, _tournament(slug))
        if "calcutta" not in data:
            return Response(
                {
                    "code": "not_published",
                    "detail": "The club does not publish its Calcutta.",
                    "field": None,
                },
                status=status.HTTP_403_FORBIDDEN,
            )
        return Response(data["calcutta"] or {"set_up": False, "lots": []})

    @extend_schema(
        request=CalcuttaInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1]
    )
    def put(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            CalcuttaInput,
            lambda actor, t, d, v: services.configure_calcutta(
                actor=actor, tournament=t, expected_version=v, **d
            ),
        )


class LotInput(serializers.Serializer):
    label = serializers.CharField(max_length=80, required=False, default="", allow_blank=True)  # type: ignore[assignment]  # DRF Field has a label
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=1024
    )


class LotsView(APIView):
    """POST: a lot (one entry, or a group such as "the field") (201)."""

    permission_classes = [AllowAny]

    @extend_schema(request=LotInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            LotInput,
            lambda actor, t, d, v: services.add_lot(
                actor=actor,
                tournament=t,
                label=d["label"],
                entry_ids=d["entries"],
                expected_version=v,
            ),
            status.HTTP_201_CREATED,
        )


class ShareInput(serializers.Serializer):
    player = serializers.IntegerField(min_value=1)
    percent = serializers.DecimalField(**PERCENT)


class SaleInput(serializers.Serializer):
    price = serializers.DecimalField(**AMOUNT)
    buyers = ShareInput(many=True)


class SaleView(APIView):
    """PUT: the winning bid of a lot: its price and buyer (or syndicate shares, in %)."""

    permission_classes = [AllowAny]

    @extend_schema(request=SaleInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def put(self, request: Request, slug: str, lot: int) -> Response:
        return write(
            request,
            slug,
            SaleInput,
            lambda actor, t, d, v: services.sell_lot(
                actor=actor,
                tournament=t,
                lot_id=lot,
                price=d["price"],
                buyers=[(b["player"], b["percent"]) for b in d["buyers"]],
                expected_version=v,
            ),
        )


class LotBuyBackInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1)
    percent = serializers.DecimalField(**PERCENT)


class LotBuyBackView(APIView):
    """PUT: a player of the lot buys back a share of themselves."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=LotBuyBackInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1]
    )
    def put(self, request: Request, slug: str, lot: int) -> Response:
        return write(
            request,
            slug,
            LotBuyBackInput,
            lambda actor, t, d, v: services.buy_back_lot(
                actor=actor,
                tournament=t,
                lot_id=lot,
                entry_id=d["entry"],
                percent=d["percent"],
                expected_version=v,
            ),
        )


class ClubMoneyInput(serializers.Serializer):
    currency = serializers.CharField(min_length=3, max_length=3)
    payout_unit = serializers.DecimalField(**AMOUNT)
    publish_payouts = serializers.BooleanField()
    publish_calcutta = serializers.BooleanField()


class ClubMoneyView(APIView):
    """PUT: the club's currency, payout unit and what it publishes (via one of its events)."""

    permission_classes = [AllowAny]

    @extend_schema(request=ClubMoneyInput, responses=OpenApiTypes.OBJECT)
    def put(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            ClubMoneyInput,
            lambda actor, t, d, v: services.save_club_money(actor=actor, tournament=t, **d),
        )


def ledger_csv(view: selectors.MoneyView) -> str:
    """Every line of the ledger, one row each, with each person's totals after."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["person", "pool", "kind", "amount", "note", "currency"])
    for person in view.people:
        for line in person.lines:
            writer.writerow(
                [
                    person.name,
                    view.pool_name(line.pool),
                    line.kind,
                    money(line.amount),
                    line.note,
                    view.currency,
                ]
            )
    writer.writerow([])
    writer.writerow(["person", "net", "paid", "balance"])
    for person in view.people:
        writer.writerow([person.name, money(person.net), money(person.paid), money(person.balance)])
    writer.writerow([])
    writer.writerow(["payer", "payee", "amount"])
    for payer, payee, amount in view.transfers:
        writer.writerow([payer, payee, money(amount)])
    return out.getvalue()


class LedgerCsvView(APIView):
    """GET: the ledger as CSV (directors)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        services.require_director(_actor(request), tournament)
        response = HttpResponse(
            ledger_csv(selectors.money_view(tournament)), content_type="text/csv"
        )
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-ledger.csv"'
        return response


class MasterPointsInput(serializers.Serializer):
    formula = serializers.ChoiceField(choices=sorted(FORMULAS))
    event_weight = serializers.DecimalField(max_digits=6, decimal_places=3, min_value=Decimal(0))
    division_weight = serializers.DecimalField(
        max_digits=6, decimal_places=3, min_value=Decimal(0), default=Decimal(1)
    )


class EventMasterPointsView(APIView):
    """GET: each player's master points in the event; PUT: its formula and weights."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: LIST_OF_OBJECTS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug)
        points = master_points.event_points(tournament)
        names = dict(Player.objects.filter(pk__in=points).values_list("pk", "display_name"))
        return Response(
            [
                {"player": pk, "name": names[pk], "points": str(value)}
                for pk, value in sorted(points.items(), key=lambda item: -item[1])
            ]
        )

    @extend_schema(request=MasterPointsInput, responses={200: LIST_OF_OBJECTS})
    def put(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug)
        actor = _actor(request)
        data = MasterPointsInput(data=request.data)
        data.is_valid(raise_exception=True)
        master_points.set_master_points(actor=actor, tournament=tournament, **data.validated_data)
        return self.get(request, slug)


class ClubMasterPointsView(APIView):
    """GET: the club's master-point table (public)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: LIST_OF_OBJECTS})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        return Response(
            [
                {
                    "rank": rank,
                    "player": row.player.pk,
                    "name": row.player.display_name,
                    "points": str(row.points),
                    "events": [{"tournament": t.slug, "points": str(v)} for t, v in row.events],
                }
                for rank, row in enumerate(master_points.club_table(club), start=1)
            ]
        )
