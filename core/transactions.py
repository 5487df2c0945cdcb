"""All-or-nothing transactions: services join them without a savepoint.

A service is ``@transaction.atomic`` so that it is one transaction when called on its
own. Called inside another transaction, Django makes it a *savepoint*: two more round
trips (``SAVEPOINT``, ``RELEASE``) that only matter if the caller catches the
service's error and carries on in the same transaction. A caller that never does
(the API's idempotent writes: any error undoes the whole request, see
``core.idempotency``) opens :func:`all_or_nothing`; a service decorated with
:func:`joins_all_or_nothing` then joins that transaction as it is (``savepoint=False``:
its error marks the whole transaction for rollback) and is still its own transaction,
or a savepoint, everywhere else.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from django.db import transaction

_FLAG = "boxcars_all_or_nothing"

P = ParamSpec("P")
R = TypeVar("R")


_HOOKS = "boxcars_before_commit"


@contextmanager
def all_or_nothing() -> Iterator[None]:
    """A transaction any error undoes whole (never caught and carried on inside it).

    The outermost one runs the :func:`before_commit` hooks last, after everything
    else written inside it (the audit rows, the stored answer), right before COMMIT.
    """
    connection = transaction.get_connection()
    with transaction.atomic():
        previous = getattr(connection, _FLAG, False)
        setattr(connection, _FLAG, True)
        if not previous:
            setattr(connection, _HOOKS, [])
        try:
            yield
            if not previous:
                hooks = getattr(connection, _HOOKS)
                while hooks:
                    hooks.pop(0)()
        finally:
            setattr(connection, _FLAG, previous)
            if not previous:
                setattr(connection, _HOOKS, [])


def before_commit(hook: Callable[[], None]) -> None:
    """Run ``hook`` inside the current :func:`all_or_nothing` transaction as its very
    last work before COMMIT (outside one: now).

    For a write that must take a lock many requests share (an event's version) yet
    should hold it only for as long as the commit takes, not for the rest of the
    request's work; an error in it still undoes the whole transaction.
    """
    connection = transaction.get_connection()
    if getattr(connection, _FLAG, False):
        getattr(connection, _HOOKS).append(hook)
    else:
        hook()


def joins_all_or_nothing(func: Callable[P, R]) -> Callable[P, R]:
    """``@transaction.atomic``, minus the savepoint inside :func:`all_or_nothing`."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        joined = getattr(transaction.get_connection(), _FLAG, False)
        with transaction.atomic(savepoint=not joined):
            return func(*args, **kwargs)

    return wrapper
