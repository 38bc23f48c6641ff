"""The translation catalogues are complete and compiled.

- Every message the Python sources mark (gettext and friends, the games'
  ``words(...)`` and ``term(context, ...)``) has a Korean entry in the
  catalogue of the app the file belongs to, with the same placeholders.
- Every committed ``.mo`` says exactly what its ``.po`` says (compile with
  ``make messages``, or ``compilemessages`` in the app's folder).
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]
# Where the site's Python lives (tests, benchmarks and migrations mark nothing for people).
SOURCES = ("accounts", "config", "core", "frontend", "games", "matchmaking", "ratings")
LANGUAGES = ("ko",)

# Marking functions: the argument that is the message (and the one that is the context).
MESSAGE_AT = {
    "_": 0, "gettext": 0, "gettext_lazy": 0, "gettext_noop": 0, "ngettext": 0, "ngettext_lazy": 0,
    "words": 0, "pgettext": 1, "pgettext_lazy": 1, "npgettext": 1, "npgettext_lazy": 1, "term": 1,
}
CONTEXT_AT = {"pgettext": 0, "pgettext_lazy": 0, "npgettext": 0, "npgettext_lazy": 0, "term": 0}


def python_files() -> list[Path]:
    return sorted(
        path
        for folder in SOURCES
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    )


def marked_messages(path: Path) -> list[tuple[int, str | None, str]]:
    """``(line, context, message)`` for each literal message marked in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if name not in MESSAGE_AT or len(node.args) <= MESSAGE_AT[name]:
            continue
        message = node.args[MESSAGE_AT[name]]
        if not (isinstance(message, ast.Constant) and isinstance(message.value, str)):
            continue  # a variable: its values are marked where they are written
        context = None
        if name in CONTEXT_AT:
            given = node.args[CONTEXT_AT[name]]
            context = given.value if isinstance(given, ast.Constant) else None
        found.append((node.lineno, context, message.value))
    return found


def catalogue_for(path: Path, language: str) -> Path | None:
    """The catalogue makemessages puts a file's messages in: the nearest ``locale`` folder above it."""
    for folder in path.parents:
        if folder == ROOT:
            return None
        if (folder / "locale").is_dir():
            return folder / "locale" / language / "LC_MESSAGES" / "django.po"
    return None


_catalogues: dict[Path, dict[tuple[str | None, str], polib.POEntry]] = {}


def entries_of(po_path: Path) -> dict[tuple[str | None, str], polib.POEntry]:
    if po_path not in _catalogues:
        po = polib.pofile(str(po_path))
        _catalogues[po_path] = {(entry.msgctxt, entry.msgid): entry for entry in po if not entry.obsolete}
    return _catalogues[po_path]


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message: %(name)s (Python) and {name} (DRF's str.format)."""
    return {f"%({name}){kind}" for name, kind in re.findall(r"%\((\w+)\)([sdr])", text)} | set(
        re.findall(r"\{\w*\}", text)
    )


def test_the_sources_mark_messages_where_this_test_looks() -> None:
    marked = {path.relative_to(ROOT).as_posix() for path in python_files() if marked_messages(path)}
    assert {"games/engines/connect_four.py", "games/services.py", "accounts/services.py", "core/api.py"} <= marked


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_message_has_a_translation(language: str) -> None:
    problems = []
    for path in python_files():
        for line, context, message in marked_messages(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            po_path = catalogue_for(path, language)
            if po_path is None or not po_path.exists():
                problems.append(f"{where}: no {language} catalogue for {message!r}")
                continue
            entry = entries_of(po_path).get((context, message))
            if entry is None:
                problems.append(f"{where}: {message!r} is not in {po_path.relative_to(ROOT)} (run make messages)")
            elif "fuzzy" in entry.flags or not (entry.msgstr or all(entry.msgstr_plural.values())):
                problems.append(f"{where}: {message!r} has no {language} translation yet")
    assert problems == [], "\n".join(problems)


def po_files() -> list[Path]:
    return sorted(
        path for folder in SOURCES for path in (ROOT / folder).rglob("locale/*/LC_MESSAGES/*.po")
    )


def test_the_catalogues_exist_where_this_test_looks() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in po_files()}
    assert {f"{app}/locale/ko/LC_MESSAGES/django.po" for app in ("games", "accounts", "core")} <= names


@pytest.mark.parametrize("po_path", po_files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_a_translation_keeps_the_placeholders_of_its_message(po_path: Path) -> None:
    problems = []
    for entry in polib.pofile(str(po_path)).translated_entries():
        if entry.msgid_plural:
            # A plural form may leave out the count its message spells out ("One person ...").
            wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural)
            problems += [
                f"{entry.msgid!r}: {translated!r}"
                for translated in entry.msgstr_plural.values()
                if not placeholders(translated) <= wanted
            ]
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            problems.append(f"{entry.msgid!r}: {entry.msgstr!r}")
    assert problems == [], "\n".join(problems)


def compiled(entries: object) -> dict[tuple[str | None, str], object]:
    found = {}
    for entry in entries:  # type: ignore[attr-defined]
        if entry.msgid == "" or entry.obsolete:
            continue
        found[(entry.msgctxt, entry.msgid)] = dict(entry.msgstr_plural) if entry.msgid_plural else entry.msgstr
    return found


@pytest.mark.parametrize("po_path", po_files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_each_compiled_catalogue_matches_its_source(po_path: Path) -> None:
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path.relative_to(ROOT)} is missing: compile the catalogue (make messages)"
    po = polib.pofile(str(po_path))
    # msgfmt leaves out what is fuzzy or untranslated, so the .mo holds the translated entries only.
    expected = compiled(entry for entry in po if entry.translated())
    assert compiled(polib.mofile(str(mo_path))) == expected, (
        f"{mo_path.relative_to(ROOT)} differs from its .po: compile it again (make messages)"
    )


@pytest.mark.parametrize("po_path", po_files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_msgfmt_accepts_each_catalogue(po_path: Path, tmp_path: Path) -> None:
    # What compilemessages runs: --check-format compares each translation's
    # placeholders with its message's, as Python and the scripts will read them.
    done = subprocess.run(
        ["msgfmt", "--check-format", "-o", str(tmp_path / "out.mo"), str(po_path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
