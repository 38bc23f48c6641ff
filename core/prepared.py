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

Each sample must be distinctive (it must appear exactly once among the
compiled parameters); the queryset must not depend on anything but them.
A read with ``select_for_update`` compiles, as Django's would, only inside
a transaction.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)


@dataclass
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: list[int]
    compiler: Any
    model: type[Model]
    fields: tuple[int, int]
    init_list: list[str]
    related: list[Any]
    annotations: dict[str, int]


class Prepared(Generic[M]):
    def __init__(self, build: Callable[..., QuerySet[M]], *samples: Any) -> None:
        self.build = build
        self.samples = samples
        self._local = threading.local()

    def _compile(self, using: str) -> _Compiled:
        queryset = self.build(*self.samples)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = []
        for sample in self.samples:
            places = [i for i, value in enumerate(params) if type(value) is type(sample) and value == sample]
            if len(places) != 1:
                raise ValueError(f"sample {sample!r} is {len(places)} times among the parameters of {sql}")
            slots.append(places[0])
        klass_info = compiler.klass_info
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

    def all(self, *values: Any, using: str = "default") -> list[M]:
        compiled: dict[str, _Compiled] = self._local.__dict__.setdefault("compiled", {})
        plan = compiled.get(using)
        if plan is None:
            plan = compiled[using] = self._compile(using)
        params = list(plan.params)
        for slot, value in zip(plan.slots, values, strict=True):
            params[slot] = value
        with connections[using].cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        start, end = plan.fields
        found = []
        for row in plan.compiler.results_iter(results=[rows]):
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


class PreparedWrite:
    """An INSERT of a new row, or an UPDATE of the same fields of a row by its key,
    with its SQL written once per database instead of compiled at every save.

    Each value goes through its field as Django's save sends it (``pre_save``:
    the auto_now times; ``get_db_prep_save``: JSON, times). No signals are
    sent: the models written this way have no receivers (a test holds them to
    that), and their own ``save`` is not called.
    """

    def __init__(self, model: type[Model], fields: list[str] | None = None) -> None:
        self.model = model
        meta = model._meta
        # fields=None: an INSERT of every concrete field but the automatic key.
        self.inserting = fields is None
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
            if self.inserting:
                sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
                if connection.features.can_return_columns_from_insert:
                    sql += f" RETURNING {key}"
            else:
                sql = f"UPDATE {table} SET {', '.join(f'{column} = %s' for column in columns)} WHERE {key} = %s"
            self._sql[using] = sql
        return sql

    def save(self, obj: Model, using: str = "default") -> None:
        connection = connections[using]
        params = [
            field.get_db_prep_save(field.pre_save(obj, self.inserting), connection=connection)  # type: ignore[union-attr]
            for field in self.fields
        ]
        with connection.cursor() as cursor:
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
