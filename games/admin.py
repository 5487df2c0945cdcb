from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Club, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(SimpleHistoryAdmin):
    list_display = ["name", "slug", "rating_initial", "rating_boost", "match_equity_table"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["display_name", "slug", "user"]
    search_fields = ["display_name", "slug"]
    prepopulated_fields = {"slug": ["display_name"]}
