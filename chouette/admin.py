"""Admin views of chouette sessions: read the sheet and its history; write through the API."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import ChouetteGame, MemberResult, Seat, Session


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["player", "join_order", "joined_at", "left_at"]
    can_delete = False


@admin.register(Session)
class SessionAdmin(SimpleHistoryAdmin):
    list_display = ["id", "club", "played_on", "stake", "currency", "status", "version"]
    list_filter = ["status", "profile", "cubes"]
    inlines = [SeatInline]


class MemberResultInline(admin.TabularInline):
    model = MemberResult
    extra = 0
    readonly_fields = ["player", "cube", "action", "owner", "stake", "taken_over", "points"]
    can_delete = False


@admin.register(ChouetteGame)
class ChouetteGameAdmin(SimpleHistoryAdmin):
    list_display = ["session", "number", "box", "board_captain", "board_winner", "level"]
    inlines = [MemberResultInline]
