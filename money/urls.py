"""Pages of event money (mounted under /tournaments/<slug>/)."""

from django.urls import path

from .pages import awards, director, door, master_points, public

urlpatterns = [
    path("<slug:slug>/money/", public.public_money, name="money-public"),
    path("<slug:slug>/director/money/", director.director_money, name="money-director"),
    path("<slug:slug>/director/money/auction/", director.auction, name="money-auction"),
    path(
        "<slug:slug>/director/money/payout-sheet/", director.payout_sheet, name="money-payout-sheet"
    ),
    path(
        "<slug:slug>/director/money/ledger.csv", director.ledger_csv_page, name="money-ledger-csv"
    ),
    path(
        "<slug:slug>/director/money/master-points/",
        master_points.event_master_points,
        name="money-master-points",
    ),
    path("<slug:slug>/director/money/award/", awards.award_order, name="money-award"),
    path("<slug:slug>/director/money/door/", door.door, name="money-door"),
    path("<slug:slug>/director/money/door/pay/", door.door_pay, name="money-door-pay"),
    path("<slug:slug>/director/money/door/undo/", door.door_undo, name="money-door-undo"),
    path("<slug:slug>/director/money/history/", director.money_history, name="money-history"),
    path(
        "<slug:slug>/director/money/do/<slug:action>/", director.director_money, name="money-action"
    ),
]

club_urlpatterns = [
    path(
        "clubs/<slug:slug>/master-points/",
        master_points.club_master_points,
        name="money-club-master-points",
    ),
    path(
        "clubs/<slug:slug>/master-points/table/",
        master_points.club_points_table,
        name="money-club-points-table",
    ),
]
