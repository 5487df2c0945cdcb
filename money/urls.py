"""Pages of event money (mounted under /tournaments/<slug>/)."""

from django.urls import path

from . import pages

urlpatterns = [
    path("<slug:slug>/money/", pages.public_money, name="money-public"),
    path("<slug:slug>/director/money/", pages.director_money, name="money-director"),
    path("<slug:slug>/director/money/auction/", pages.auction, name="money-auction"),
    path("<slug:slug>/director/money/payout-sheet/", pages.payout_sheet, name="money-payout-sheet"),
    path("<slug:slug>/director/money/ledger.csv", pages.ledger_csv_page, name="money-ledger-csv"),
    path(
        "<slug:slug>/director/money/master-points/",
        pages.event_master_points,
        name="money-master-points",
    ),
    path("<slug:slug>/director/money/award/", pages.award_order, name="money-award"),
    path("<slug:slug>/director/money/history/", pages.money_history, name="money-history"),
    path("<slug:slug>/director/money/do/<slug:action>/", pages.director_money, name="money-action"),
]

club_urlpatterns = [
    path(
        "clubs/<slug:slug>/master-points/",
        pages.club_master_points,
        name="money-club-master-points",
    ),
    path(
        "clubs/<slug:slug>/master-points/table/",
        pages.club_points_table,
        name="money-club-points-table",
    ),
]
