"""Routes of the event money API under /api/v1/tournaments/{slug}/money/."""

from django.urls import path

from .api import calcutta, event, master_points, pools

urlpatterns = [
    path(
        "clubs/<slug:slug>/master-points/table/",
        master_points.ClubPointsTableView.as_view(),
        name="money-api-club-points-table",
    ),
    path(
        "clubs/<slug:slug>/master-points/season/",
        master_points.ClubSeasonView.as_view(),
        name="money-api-club-season",
    ),
    path(
        "clubs/<slug:slug>/master-points/",
        master_points.ClubMasterPointsView.as_view(),
        name="money-api-club-points",
    ),
    path(
        "tournaments/<slug:slug>/money/master-points/",
        master_points.EventMasterPointsView.as_view(),
        name="money-api-master-points",
    ),
    path("tournaments/<slug:slug>/money/", event.MoneyView.as_view(), name="money-api"),
    path(
        "tournaments/<slug:slug>/money/club/", event.ClubMoneyView.as_view(), name="money-api-club"
    ),
    path(
        "tournaments/<slug:slug>/money/ledger.csv",
        event.LedgerCsvView.as_view(),
        name="money-api-csv",
    ),
    path(
        "tournaments/<slug:slug>/money/payments/",
        event.PaymentsView.as_view(),
        name="money-api-payments",
    ),
    path(
        "tournaments/<slug:slug>/money/payments/<int:payment>/",
        event.PaymentView.as_view(),
        name="money-api-payment",
    ),
    path(
        "tournaments/<slug:slug>/money/prize-order/",
        event.PrizeOrderView.as_view(),
        name="money-api-prize-order",
    ),
    path(
        "tournaments/<slug:slug>/money/splits/", event.SplitsView.as_view(), name="money-api-splits"
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/",
        pools.PoolView.as_view(),
        name="money-api-pool",
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/entrants/",
        pools.PoolEntrantsView.as_view(),
        name="money-api-pool-entrants",
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/award/",
        pools.PoolAwardView.as_view(),
        name="money-api-pool-award",
    ),
    path(
        "tournaments/<slug:slug>/money/pools/<slug:key>/buy-backs/",
        pools.BuyBackView.as_view(),
        name="money-api-buy-backs",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/",
        calcutta.CalcuttaView.as_view(),
        name="money-api-calcutta",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/lots/",
        calcutta.LotsView.as_view(),
        name="money-api-lots",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/lots/<int:lot>/sale/",
        calcutta.SaleView.as_view(),
        name="money-api-sale",
    ),
    path(
        "tournaments/<slug:slug>/money/calcutta/lots/<int:lot>/buy-back/",
        calcutta.LotBuyBackView.as_view(),
        name="money-api-lot-buy-back",
    ),
]
