"""Reads on the move path with their SQL compiled once, not at every request.

Django builds a queryset and compiles it to SQL anew each time it runs: for
an API token with its user that is 280 of the 330 us the read costs (the
database and the making of the two models: 40 us), measured here. The few
reads every move makes (the token, the match, its players) are always the
same SQL with another value, so a ``Prepared`` read compiles its queryset
once per thread and database, remembers where its values sit among the
SQL's parameters, and after that only runs the SQL and makes the models
the way Django's own iteration does (converters, select_related).

A read is declared with the queryset it stands for, built from sample
values that mark the places of the real ones::

    TOKEN = Prepared(lambda key: ApiToken.objects.select_related("user").filter(key=key), "\\x00key")
    TOKEN.first("3f9a...")

Each sample must be distinctive (it must appear among the compiled
parameters, as Django sends it to the database, and no other parameter may
equal it); the queryset must not depend on anything but them. A read with
``select_for_update`` compiles, as Django's would, only inside a transaction.
A ``values_list`` queryset is read with ``rows()`` (tuples, through Django's
converters).

The writes a socket makes at every connect and close (its row, the presence
beat) are the same statements with another value too: ``PreparedChange`` is
an UPDATE or DELETE of the rows a single-table queryset picks, compiled once
in the same way; ``PreparedWrite`` an INSERT of a row, or an UPDATE of a row
by its key.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.constants import OnConflict
from django.db.models.query import ModelIterable, get_related_populators

M = TypeVar("M", bound=Model)


def _as_sent(connection: Any, value: Any) -> Any:
    """``value`` as Django hands it to the database driver in a lookup (SQLite takes times as text)."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


def _places(connection: Any, samples: tuple[Any, ...], params: list[Any] | tuple[Any, ...], sql: str) -> list[list[int]]:
    """Where each sample sits among ``params``: one place or more (a value a query uses twice)."""
    places = []
    for sample in samples:
        sent = _as_sent(connection, sample)
        found = [i for i, value in enumerate(params) if type(value) is type(sent) and value == sent]
        if not found:
            raise ValueError(f"sample {sample!r} is not among the parameters of {sql}")
        places.append(found)
    return places


def _filled(params: tuple[Any, ...], places: list[list[int]], values: tuple[Any, ...], connection: Any) -> list[Any]:
    filled = list(params)
    for where, value in zip(places, values, strict=True):
        sent = _as_sent(connection, value)
        for place in where:
            filled[place] = sent
    return filled


@dataclass
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: list[list[int]]
    compiler: Any
    # None for a values_list queryset (read with rows()).
    model: type[Model] | None
    fields: tuple[int, int]
    init_list: list[str]
    related: list[Any]
    annotations: dict[str, int]


P = TypeVar("P")


class _CompiledOnce(Generic[P]):
    """A statement built from a queryset with sample values, compiled once per thread and database."""

    def __init__(self, build: Callable[..., QuerySet[Any]], *samples: Any) -> None:
        self.build = build
        self.samples = samples
        self._local = threading.local()

    def _compile(self, using: str) -> P:
        raise NotImplementedError

    def _plan(self, using: str) -> P:
        compiled: dict[str, P] = self._local.__dict__.setdefault("compiled", {})
        plan = compiled.get(using)
        if plan is None:
            plan = compiled[using] = self._compile(using)
        return plan


class Prepared(_CompiledOnce[_Compiled], Generic[M]):
    def _compile(self, using: str) -> _Compiled:
        queryset = self.build(*self.samples)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = _places(connections[using], self.samples, params, sql)
        klass_info = compiler.klass_info
        if queryset._iterable_class is not ModelIterable:  # values_list: rows, no models
            return _Compiled(sql, tuple(params), slots, compiler, None, (0, 0), [], [], {})
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots=slots,
            compiler=compiler,
            model=klass_info["model"],
            fields=(start, end),
            init_list=[column[0].target.attname for column in compiler.select[start:end]],
            related=get_related_populators(klass_info, compiler.select, using),
            annotations=dict(compiler.annotation_col_map or {}),
        )

    def _run(self, values: tuple[Any, ...], using: str) -> tuple[_Compiled, list[Any]]:
        """The compiled read and its rows, through Django's converters (times, JSON)."""
        plan = self._plan(using)
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, _filled(plan.params, plan.slots, values, connection))
            rows = cursor.fetchall()
        return plan, list(plan.compiler.results_iter(results=[rows]))

    def all(self, *values: Any, using: str = "default") -> list[M]:
        plan, rows = self._run(values, using)
        if plan.model is None:
            raise TypeError("a values_list read gives rows(), not models")
        start, end = plan.fields
        found = []
        for row in rows:
            obj = plan.model.from_db(using, plan.init_list, row[start:end])
            for populator in plan.related:
                populator.populate(row, obj)
            for name, position in plan.annotations.items():
                setattr(obj, name, row[position])
            found.append(obj)
        return found  # type: ignore[return-value]

    def first(self, *values: Any, using: str = "default") -> M | None:
        found = self.all(*values, using=using)
        return found[0] if found else None

    def rows(self, *values: Any, using: str = "default") -> list[tuple[Any, ...]]:
        """The rows of a ``values_list`` read, as tuples."""
        return [tuple(row) for row in self._run(values, using)[1]]


_Change = tuple[str, tuple[Any, ...], list[list[int]], list[Any]]


class PreparedChange(_CompiledOnce[_Change]):
    """An UPDATE of some fields, or a DELETE, of the rows a single-table queryset picks.

    Compiled once per thread and database like a ``Prepared`` read: the
    queryset's WHERE with its samples, the new values (an UPDATE's) each
    through its field as Django's ``update()`` sends it. ``run`` returns the
    number of rows changed. Like ``update()`` and a fast ``delete()``, it
    sends no signals and cascades nothing: keep it to models without either
    (a test holds the ones used to that).
    """

    def __init__(self, build: Callable[..., QuerySet[Any]], *samples: Any, update: list[str] | None = None) -> None:
        super().__init__(build, *samples)
        self.update = update

    def _compile(self, using: str) -> _Change:
        connection = connections[using]
        query = self.build(*self.samples).query
        if len([alias for alias, count in query.alias_refcount.items() if count]) > 1:
            raise ValueError(f"{self.build}: a change by one table's own columns only (no joins)")
        compiler = query.get_compiler(using=using)
        where, params = compiler.compile(query.where)
        table = connection.ops.quote_name(query.model._meta.db_table)
        fields = [query.model._meta.get_field(name) for name in self.update or []]
        if self.update is None:
            sql = f"DELETE FROM {table} WHERE {where}"
        else:
            columns = ", ".join(f"{connection.ops.quote_name(field.column)} = %s" for field in fields)  # type: ignore[union-attr]
            sql = f"UPDATE {table} SET {columns} WHERE {where}"
        places = _places(connection, self.samples, params, sql)
        return sql, tuple(params), places, fields

    def run(self, *values: Any, new: tuple[Any, ...] = (), using: str = "default") -> int:
        """Change the rows the samples' ``values`` pick; ``new``: an UPDATE's values, in its fields' order."""
        sql, params, places, fields = self._plan(using)
        connection = connections[using]
        sets = [field.get_db_prep_save(value, connection=connection) for field, value in zip(fields, new, strict=True)]
        with connection.cursor() as cursor:
            cursor.execute(sql, [*sets, *_filled(params, places, values, connection)])
            return int(cursor.rowcount)


class PreparedWrite:
    """An INSERT of a new row, or an UPDATE of the same fields of a row by its key,
    with its SQL written once per database instead of compiled at every save.

    Each value goes through its field as Django's save sends it (``pre_save``:
    the auto_now times; ``get_db_prep_save``: JSON, times). No signals are
    sent: the models written this way have no receivers (a test holds them to
    that), and their own ``save`` is not called.

    ``ignore_conflicts`` (an INSERT): a row that would break a unique
    constraint is left out, as ``bulk_create(..., ignore_conflicts=True)``
    does; the object's key is then not read back.
    """

    def __init__(self, model: type[Model], fields: list[str] | None = None, *, ignore_conflicts: bool = False) -> None:
        self.model = model
        meta = model._meta
        # fields=None: an INSERT of every concrete field but the automatic key.
        self.inserting = fields is None
        if ignore_conflicts and not self.inserting:
            raise ValueError("ignore_conflicts is for an INSERT")
        self.ignoring = ignore_conflicts
        names = [f.name for f in meta.concrete_fields if f is not meta.auto_field] if fields is None else fields
        self.fields = [meta.get_field(name) for name in names]
        for field in self.fields:
            if hasattr(field, "get_placeholder"):
                raise ValueError(f"{field} needs a placeholder of its own; save it the ORM's way")
        self._sql: dict[str, str] = {}

    def _statement(self, using: str) -> str:
        sql = self._sql.get(using)
        if sql is None:
            connection = connections[using]
            quote = connection.ops.quote_name
            table, key = quote(self.model._meta.db_table), quote(self.model._meta.pk.column)
            columns = [quote(field.column) for field in self.fields]  # type: ignore[union-attr]
            if self.ignoring:
                sql = (
                    f"{connection.ops.insert_statement(on_conflict=OnConflict.IGNORE)} {table} ({', '.join(columns)}) "
                    f"VALUES ({', '.join(['%s'] * len(columns))}) "
                    + connection.ops.on_conflict_suffix_sql(self.fields, OnConflict.IGNORE, None, None)
                ).rstrip()
            elif self.inserting:
                sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
                if connection.features.can_return_columns_from_insert:
                    sql += f" RETURNING {key}"
            else:
                sql = f"UPDATE {table} SET {', '.join(f'{column} = %s' for column in columns)} WHERE {key} = %s"
            self._sql[using] = sql
        return sql

    def save(self, obj: Model, using: str = "default") -> bool:
        """Write ``obj``; False when ``ignore_conflicts`` left it out."""
        connection = connections[using]
        params = [
            field.get_db_prep_save(field.pre_save(obj, self.inserting), connection=connection)  # type: ignore[union-attr]
            for field in self.fields
        ]
        with connection.cursor() as cursor:
            if self.ignoring:
                cursor.execute(self._statement(using), params)
                return bool(cursor.rowcount == 1)
            if self.inserting:
                cursor.execute(self._statement(using), params)
                if connection.features.can_return_columns_from_insert:
                    obj.pk = cursor.fetchone()[0]
                else:
                    obj.pk = connection.ops.last_insert_id(cursor, self.model._meta.db_table, self.model._meta.pk.column)
                obj._state.adding = False
                obj._state.db = using
            else:
                cursor.execute(self._statement(using), [*params, obj.pk])
                if cursor.rowcount != 1:
                    raise self.model.DoesNotExist(f"no {self.model.__name__} {obj.pk} to update")
        return True
