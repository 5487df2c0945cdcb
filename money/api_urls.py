"""Routes of the event money API under /api/v1/tournaments/{slug}/money/."""

from django.urls import path

from . import api

urlpatterns = [
    path(
        "clubs/<slug:slug>/master-points/",
        api.ClubMasterPointsView.as_view(),
        name="money-api-club-points",
    ),
    path(
        "tournaments/<slug:slug>/money/master-points/",
        api.EventMasterPointsView.as_view(),
        name="money-api-master-points",
    ),
    path("tournaments/<slug:slug>/money/", api.MoneyView.as_view(), name="money-api"),
    path("tournaments/<slug:slug>/money/club/", api.ClubMoneyView.as_view(), name="money-api-club"),
    path(
        "tournaments/<slug:slug>/money/ledger.csv",
        api.LedgerCsvView.as_view(),
        name="money-api-csv",
    ),
    path(
        "tournaments/<slug:slug>/money/payments/",
        api.PaymentsView.as_view(),
        name="money-api-payments",
    ),
    path(
        "tournaments/<slug:slug>/money/splits/", api.SplitsView.as_view(), name="money-api-splits"
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/",
        api.PoolView.as_view(),
        name="money-api-pool",
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/entrants/",
        api.PoolEntrantsView.as_view(),
        name="money-api-pool-entrants",
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/award/",
        api.PoolAwardView.as_view(),
        name="money-api-pool-award",
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/buy-backs/",
        api.BuyBackView.as_view(),
        name="money-api-buy-backs",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/",
        api.CalcuttaView.as_view(),
        name="money-api-calcutta",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/lots/",
        api.LotsView.as_view(),
        name="money-api-lots",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/lots/<int:lot>/sale/",
        api.SaleView.as_view(),
        name="money-api-sale",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/lots/<int:lot>/buy-back/",
        api.LotBuyBackView.as_view(),
        name="money-api-lot-buy-back",
    ),
]
