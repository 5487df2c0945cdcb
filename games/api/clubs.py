"""Clubs and players: list, detail, create, update."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from core import access
from core.club_zones import validate_time_zone
from core.idempotency import idempotent
from core.languages import validate_language
from games.met_tables import CHOOSABLE_TABLES, DEFAULT_TABLE
from games.models import Club, Player
from games.models.clubs import RatingBoost
from games.rules import limits, variants
from games.services import clubs as club_services
from games.services import player_addresses, tenancy
from games.services.actors import actor_for_user

from .inputs import ID_PATTERN, SLUG_PATTERN, ClubRef
from .permissions import ClubDirectorOrReadOnly, PlayerEditorOrReadOnly, ReadOnlyOrAuthenticated


def rated_variants_field(**kwargs: Any) -> serializers.ListField:
    """The variants (and rotations) a club rates: variant keys, not "anything" (a JSON
    column), in the read and in the change body alike."""
    return serializers.ListField(
        child=serializers.ChoiceField(choices=variants.match_choices()),
        max_length=len(variants.match_choices()),
        help_text="The variants (and tavli) the club rates, each on a list of its own; the "
        "others are unrated. The English game is always rated.",
        **kwargs,
    )


class ClubSerializer(serializers.ModelSerializer):
    player_count = serializers.IntegerField(read_only=True)
    rated_variants = rated_variants_field(read_only=True)

    class Meta:
        model = Club
        fields = [
            "id",
            "name",
            "slug",
            "description",
            "rating_initial",
            "rating_boost",
            "match_equity_table",
            "time_zone",
            "language",
            "rated_variants",
            "player_count",
            "created_at",
        ]
        read_only_fields = fields


class ClubInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=limits.MAX_CLUB_NAME)
    slug = serializers.SlugField(max_length=limits.MAX_CLUB_SLUG, required=False, allow_blank=True)
    description = serializers.CharField(
        max_length=limits.MAX_DESCRIPTION, required=False, allow_blank=True, default=""
    )
    rating_initial = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_RATING, default=1500
    )
    rating_boost = serializers.ChoiceField(choices=RatingBoost.choices, default=RatingBoost.FIBS)
    match_equity_table = serializers.ChoiceField(
        choices=list(CHOOSABLE_TABLES.items()),
        default=DEFAULT_TABLE,
        help_text="The match equity table of the club's winning chances (docs/chances.md).",
    )
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        validators=[validate_time_zone],
        help_text="IANA time zone of the club's pages (Europe/Copenhagen); server default.",
    )
    language = serializers.CharField(
        max_length=8,
        required=False,
        validators=[validate_language],
        help_text="Language of the club's emails and pushes (one of the site's languages: "
        "en, de, fr, da); the site's default.",
    )


class ClubUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=limits.MAX_CLUB_NAME, required=False)
    description = serializers.CharField(
        max_length=limits.MAX_DESCRIPTION, required=False, allow_blank=True
    )
    rating_initial = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_RATING, required=False
    )
    rating_boost = serializers.ChoiceField(choices=RatingBoost.choices, required=False)
    match_equity_table = serializers.ChoiceField(
        choices=list(CHOOSABLE_TABLES.items()), required=False
    )
    time_zone = serializers.CharField(
        max_length=64, required=False, validators=[validate_time_zone]
    )
    language = serializers.CharField(max_length=8, required=False, validators=[validate_language])
    rated_variants = rated_variants_field(required=False)


class PlayerSerializer(serializers.ModelSerializer):
    # many=True makes a ManyRelatedField; the stubs' __new__ says "either", whatever many is
    clubs: serializers.ManyRelatedField = serializers.SlugRelatedField(  # type: ignore[assignment]
        slug_field="slug", many=True, read_only=True
    )

    class Meta:
        model = Player
        fields = ["id", "display_name", "slug", "clubs", "created_at"]
        read_only_fields = fields


class PlayerPrivateSerializer(PlayerSerializer):
    """A player as their editors see them: with the e-mail address and declared rating
    (answers to the writes only; the public reads leave both out)."""

    email = serializers.CharField(read_only=True, help_text="The e-mail address ('' if none).")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "email", "declared_rating"]
        read_only_fields = fields


#: What became of an address's link (the schema's ``AddressLinkStateEnum``).
ADDRESS_LINK_STATES = ["sent", "cap_reached", "mail_failed", "confirmed", "none"]


class AddressLinkSerializer(serializers.Serializer):
    """What became of the link asking the owner of a player's new address to agree that
    the club may mail it (docs/directors.md, "Addresses and invitations")."""

    state = serializers.ChoiceField(
        choices=ADDRESS_LINK_STATES,
        help_text="sent: the link went out, nothing else is mailed to the address until its "
        "owner follows it; cap_reached: the address is saved but the mail cap held the link "
        "back (send it later: POST .../players/{id}/address-link/); mail_failed: the mail "
        "server refused it; confirmed: the address is confirmed already; none: no address.",
    )
    detail = serializers.CharField()
    retry_after = serializers.IntegerField(help_text="For cap_reached: seconds until it opens.")


class PlayerSavedSerializer(PlayerPrivateSerializer):
    """A player just written, with what became of their address's link."""

    address_link = AddressLinkSerializer(read_only=True)

    class Meta(PlayerPrivateSerializer.Meta):
        fields = [*PlayerPrivateSerializer.Meta.fields, "address_link"]
        read_only_fields = fields


def saved_answer(saved: player_addresses.Saved, status_code: int = 200) -> Response:
    player = Player.objects.prefetch_related("clubs").get(pk=saved.player.pk)
    body = {**PlayerPrivateSerializer(player).data, "address_link": saved.link.as_dict()}
    return Response(body, status=status_code)


class WalkInInputSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=limits.MAX_PLAYER_NAME)
    email = serializers.EmailField(
        max_length=limits.MAX_EMAIL, required=False, allow_blank=True, default=""
    )
    rating = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_RATING,
        required=False,
        allow_null=True,
        default=None,
        help_text="A starting rating the player declares; seeding uses it until they "
        "are rated on the club's list.",
    )


class ClubViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Clubs. Any signed-in user may found a club and becomes its director."""

    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    serializer_class = ClubSerializer
    permission_classes = [ClubDirectorOrReadOnly]

    def get_queryset(self) -> QuerySet[Club]:
        return Club.objects.annotate(player_count=Count("memberships")).order_by("name")

    @extend_schema(request=ClubInputSerializer, responses={201: ClubSerializer})
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = ClubInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        assert request.user.is_authenticated  # ReadOnlyOrAuthenticated: writes need an account
        club = club_services.create_club(created_by=request.user, **data.validated_data)
        club = self.get_queryset().get(pk=club.pk)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ClubUpdateSerializer, responses={200: ClubSerializer})
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = self.get_object()
        data = ClubUpdateSerializer(data=request.data, partial=kwargs.get("partial", False))
        data.is_valid(raise_exception=True)
        club_services.update_club(club=club, **data.validated_data)
        return Response(ClubSerializer(self.get_queryset().get(pk=club.pk)).data)

    @extend_schema(request=WalkInInputSerializer, responses={201: PlayerSavedSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def players(self, request: Request, slug: str) -> Response:
        """A walk-in: a new player and their membership of this club, in one step. An
        address given gets one link asking its owner to agree (``address_link``)."""
        club = self.get_object()
        data = WalkInInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        saved = player_addresses.add_walk_in(
            club=club,
            by=actor_for_user(request.user),
            site=request.build_absolute_uri("/"),
            **data.validated_data,
        )
        return saved_answer(saved, status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={200: AddressLinkSerializer},
        description="Mail the club's link to a member's unconfirmed address again (a mail "
        "action: 429 mail_cap_reached once a cap is spent). 400 player_has_no_email, 409 "
        "address_confirmed_already, 403 player_not_in_club.",
    )
    @action(
        detail=True, methods=["post"], url_path=r"players/(?P<player_id>[0-9]{1,18})/address-link"
    )
    @idempotent
    def address_link(self, request: Request, slug: str, player_id: str) -> Response:
        club = self.get_object()
        asked = player_addresses.resend_link(
            actor=actor_for_user(request.user),
            club=club,
            player_id=int(player_id),
            site=request.build_absolute_uri("/"),
        )
        return Response(asked.as_dict())

    @extend_schema(
        request=None,
        responses={200: PlayerPrivateSerializer, 201: PlayerPrivateSerializer},
        description="The signed-in person joins this club themself (their consent, the "
        "only way into a club other than as its own walk-in): 201, or 200 if already a "
        "member. 403 player_account_required for an account with no player. Once a "
        "member, the club's directors may enter them in its events.",
    )
    @action(detail=True, methods=["post"], permission_classes=[ReadOnlyOrAuthenticated])
    def join(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        membership, created = tenancy.join_club(actor=actor_for_user(request.user), club=club)
        player = Player.objects.prefetch_related("clubs").get(pk=membership.player_id)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(PlayerPrivateSerializer(player).data, status=code)


class PlayerInputSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=limits.MAX_PLAYER_NAME)
    slug = serializers.SlugField(
        max_length=limits.MAX_PLAYER_SLUG, required=False, allow_blank=True
    )
    email = serializers.EmailField(
        max_length=limits.MAX_EMAIL, required=False, allow_blank=True, default=""
    )
    clubs = ClubRef(
        many=True,
        allow_empty=False,
        help_text="The player's clubs, each listed once (a club listed twice: 400 "
        "club_listed_twice).",
    )


class PlayerUpdateSerializer(serializers.Serializer):
    """A change to a player. The name and the e-mail are the person's: a director may
    change them only for a walk-in of their own club with no account of their own
    (403 person_not_yours otherwise; docs/api.md, "Tenancy")."""

    display_name = serializers.CharField(max_length=limits.MAX_PLAYER_NAME, required=False)
    email = serializers.EmailField(max_length=limits.MAX_EMAIL, required=False, allow_blank=True)
    clubs = ClubRef(
        many=True,
        required=False,
        help_text="The clubs, among those you direct, the player belongs to (memberships "
        "of other clubs are kept). Adding a club the player is not in needs their "
        "consent: 403 consent_required unless you are the person (or keep the record of "
        "a walk-in of yours).",
    )


class PlayerFilter(filters.FilterSet):
    club = filters.CharFilter(field_name="clubs__slug")
    name = filters.CharFilter(field_name="display_name", lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["club", "name"]


class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Players. A club's directors register players in their club."""

    serializer_class = PlayerSerializer
    permission_classes = [PlayerEditorOrReadOnly]
    lookup_value_regex = ID_PATTERN
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[Player]:
        return Player.objects.prefetch_related("clubs").order_by("display_name", "id").distinct()

    @extend_schema(request=PlayerInputSerializer, responses={201: PlayerSavedSerializer})
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = PlayerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        clubs = data.validated_data["clubs"]
        for club in clubs:
            if not access.is_director(request.user, club):
                raise PermissionDenied(f"Only the directors of {club.slug} register its players.")
        saved = player_addresses.create_player(
            actor=actor_for_user(request.user),
            display_name=data.validated_data["display_name"],
            slug=data.validated_data.get("slug", ""),
            clubs=clubs,
            email=data.validated_data["email"],
            site=request.build_absolute_uri("/"),
        )
        return saved_answer(saved, status.HTTP_201_CREATED)

    @extend_schema(request=PlayerUpdateSerializer, responses={200: PlayerSavedSerializer})
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        data = PlayerUpdateSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        saved = player_addresses.update_player(
            player=player,
            by=actor_for_user(request.user),
            site=request.build_absolute_uri("/"),
            **data.validated_data,
        )
        return saved_answer(saved)
