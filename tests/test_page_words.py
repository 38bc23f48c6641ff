"""Every word a page or a script shows a person is translatable, and has its Korean.

The pages are the templates of frontend/ and of the Sokoban level browser;
the scripts are their static JavaScript. A test here fails when:

- a template has text, or a title / placeholder / aria-label / alt, outside
  ``{% translate %}`` / ``{% blocktranslate %}``;
- a script puts a string literal on the page (an element's children, a
  textContent or title, an attribute people read, a confirm, an Error's
  message) without ``gettext`` (or ngettext / pgettext), or writes words
  anywhere else outside them;
- a stylesheet writes words with ``content: "..."``;
- a msgid of a template or a script has no Korean in the catalogue that
  serves it (the app's locale/ko/LC_MESSAGES/django.mo or djangojs.mo);
- a .mo is older than, or differs from, its .po.

Notation (squares, columns, LURD, ``5@3/2``), key names, CSS classes, ids,
URLs and keys of objects are not words; the few literals that look like
words but are not are in ALLOWED below, each with its reason.
"""

from __future__ import annotations

import gettext as gettext_module
import re
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.template import engines
from django.template.base import Lexer, TokenType
from django.templatetags.i18n import BlockTranslateNode, TranslateNode

ROOT = Path(__file__).resolve().parents[1]

# Each place pages and scripts live, and the app whose catalogue serves them.
APPS = {
    "frontend": ROOT / "frontend",
    "games/sokoban": ROOT / "games" / "sokoban",
}


def templates() -> list[tuple[str, Path]]:
    return [(app, path) for app, base in APPS.items() for path in sorted((base / "templates").rglob("*.html"))]


def scripts() -> list[tuple[str, Path]]:
    return [(app, path) for app, base in APPS.items() for path in sorted((base / "static").rglob("*.js"))]


def stylesheets() -> list[Path]:
    return [path for base in APPS.values() for path in sorted((base / "static").rglob("*.css"))]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def has_words(text: str) -> bool:
    return any(character.isalpha() for character in text)


# --- the catalogues ---------------------------------------------------------------


def catalogue(app: str, domain: str) -> dict[object, str]:
    """The compiled Korean catalogue of ``app`` for ``domain``: msgid (or "context\\x04msgid",
    or (msgid, n) for plurals) -> translation."""
    mo = APPS[app] / "locale" / "ko" / "LC_MESSAGES" / f"{domain}.mo"
    assert mo.exists(), f"{rel(mo)} is missing: compile the catalogue (django-admin compilemessages)"
    with mo.open("rb") as handle:
        found: dict[object, str] = gettext_module.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    return found


def translated(table: dict[object, str], msgid: str, context: str | None, plural: bool) -> bool:
    key = f"{context}\x04{msgid}" if context else msgid
    if plural:
        return bool(table.get((key, 0)))
    return bool(table.get(key))


# --- templates ---------------------------------------------------------------------

# Attributes whose values people read (or hear, from a screen reader).
READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "label", "aria-description"}
PLACEHOLDER = "\x00"  # where a tag or a variable stood


def visible_outside_translation(source: str) -> str:
    """The template's markup with every tag and variable blanked, and every
    translate / blocktranslate / comment block removed: what would be left
    untranslated on the page."""
    kept: list[str] = []
    skipping: str | None = None  # the end tag of the block being skipped
    for token in Lexer(source).tokenize():
        if skipping:
            if token.token_type == TokenType.BLOCK and token.contents.split()[0] == skipping:
                skipping = None
            kept.append(PLACEHOLDER)
            continue
        if token.token_type == TokenType.TEXT:
            kept.append(token.contents)
            continue
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            if name in ("blocktranslate", "blocktrans"):
                skipping = "end" + name
            elif name == "comment":
                skipping = "endcomment"
        kept.append(PLACEHOLDER)
    return "".join(kept)


class VisibleText(HTMLParser):
    """Text nodes and read attributes of a page, outside <script> and <style>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden_depth += 1
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (name == "value" and dict(attrs).get("type") in ("submit", "button"))):
                self.found.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.hidden_depth:
            self.hidden_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden_depth:
            self.found.append(data)


def untranslated_template_text(path: Path) -> list[str]:
    parser = VisibleText()
    parser.feed(visible_outside_translation(path.read_text(encoding="utf-8")))
    parser.close()
    return [text.replace(PLACEHOLDER, " ").strip() for text in parser.found if has_words(text.replace(PLACEHOLDER, ""))]


def template_messages(path: Path, base: Path) -> list[tuple[str, str | None, bool]]:
    """(msgid, context, plural) of every translate / blocktranslate with literal text."""
    name = path.relative_to(base / "templates").as_posix()
    template = engines["django"].engine.get_template(name)  # type: ignore[attr-defined]
    found: list[tuple[str, str | None, bool]] = []
    for node in template.nodelist.get_nodes_by_type(TranslateNode):
        literal = node.filter_expression.var.literal if hasattr(node.filter_expression.var, "literal") else None
        if isinstance(literal, str):
            found.append((literal, _context(node), False))
    for node in template.nodelist.get_nodes_by_type(BlockTranslateNode):
        msgid, _ = node.render_token_list(node.singular)
        found.append((msgid, _context(node), bool(node.plural)))
    return found


def _context(node: TranslateNode | BlockTranslateNode) -> str | None:
    if not node.message_context:
        return None
    value = node.message_context.var  # a constant's FilterExpression holds the string itself
    return str(getattr(value, "literal", value))


@pytest.mark.parametrize(("app", "path"), templates(), ids=[rel(p) for _, p in templates()])
def test_a_template_shows_no_text_outside_translate_tags(app: str, path: Path) -> None:
    assert untranslated_template_text(path) == []


@pytest.mark.parametrize(("app", "path"), templates(), ids=[rel(p) for _, p in templates()])
def test_every_words_of_a_template_have_their_korean(app: str, path: Path) -> None:
    table = catalogue(app, "django")
    messages = template_messages(path, APPS[app])
    missing = [msgid for msgid, context, plural in messages if not translated(table, msgid, context, plural)]
    assert missing == [], f"{rel(path)}: no Korean in {app}/locale/ko/LC_MESSAGES/django.po for these"


def test_the_template_check_sees_untranslated_text() -> None:
    # The check itself: text, a read attribute and a button are caught; translate tags, tags and variables are not.
    source = (
        '{% load i18n %}<p title="{% translate "Fine" %}">{{ name }} · 3 / 4</p>'
        '<p>Plain words</p><input placeholder="Say something">{# Lobby #}'
        "{% blocktranslate %}Room {{ room }}{% endblocktranslate %}<script>const x = 'not text';</script>"
    )
    parser = VisibleText()
    parser.feed(visible_outside_translation(source))
    assert [text.strip() for text in parser.found if has_words(text.replace(PLACEHOLDER, ""))] == ["Plain words", "Say something"]


# --- scripts -----------------------------------------------------------------------

GETTEXT = {"gettext": (1, False), "ngettext": (1, True), "pgettext": (2, False), "npgettext": (2, True), "gettext_noop": (1, False)}


@dataclass
class Token:
    kind: str  # "string", "template", "name", "number", "regex", "punct"
    text: str  # a string's value; a template literal's text parts joined by PLACEHOLDER
    line: int
    parts: list[list[Token]] = field(default_factory=list)  # a template literal's ${...} expressions


PUNCTUATORS = sorted(
    "=== !== ** *= /= %= += -= &&= ||= ??= <<= >>= => == != <= >= && || ?? ?. ++ -- << >> ... "
    "{ } ( ) [ ] ; , < > + - * / % & | ^ ! ~ ? : = . @ #".split(),
    key=len,
    reverse=True,
)
# After these a "/" starts a regular expression, not a division.
REGEX_AFTER = {"(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "&&", "||", "??", "=>", "return", "typeof", "+", "-", "*", "%", "<", ">", "==", "===", "!=", "!==", "case"}
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "v": "\v"}


def tokenize(source: str) -> list[Token]:
    """The tokens of a script: enough JavaScript to find its string literals and their places."""
    tokens: list[Token] = []
    position, line, end = 0, 1, len(source)

    def read_string(quote: str, start: int) -> tuple[str, int]:
        out, i = [], start
        while source[i] != quote:
            if source[i] == "\\":
                following = source[i + 1]
                if following == "u":
                    if source[i + 2] == "{":
                        close = source.index("}", i)
                        out.append(chr(int(source[i + 3 : close], 16)))
                        i = close + 1
                    else:
                        out.append(chr(int(source[i + 2 : i + 6], 16)))
                        i += 6
                    continue
                out.append(ESCAPES.get(following, following))
                i += 2
                continue
            out.append(source[i])
            i += 1
        return "".join(out), i + 1

    def read_template(start: int, line: int) -> tuple[Token, int]:
        text, parts, i = [], [], start
        while source[i] != "`":
            if source[i] == "\\" and source[i + 1] == "u":
                value, _ = read_string("`", i)  # the escape alone, read as in a string
                text.append(value[:1])
                i += 6 if source[i + 2] != "{" else source.index("}", i) + 1 - i
            elif source[i] == "\\":
                text.append(ESCAPES.get(source[i + 1], source[i + 1]))
                i += 2
            elif source.startswith("${", i):
                depth, j = 1, i + 2
                inner_start = j
                # Find the matching brace, skipping strings and nested templates.
                while depth:
                    c = source[j]
                    if c in "'\"":
                        _, j = read_string(c, j + 1)
                        continue
                    if c == "`":
                        _, j = read_template(j + 1, line)
                        continue
                    depth += {"{": 1, "}": -1}.get(c, 0)
                    j += 1
                parts.append(tokenize(source[inner_start : j - 1]))
                text.append(PLACEHOLDER)
                i = j
            else:
                text.append(source[i])
                i += 1
        return Token("template", "".join(text), line, parts), i + 1

    while position < end:
        c = source[position]
        if c == "\n":
            line += 1
            position += 1
        elif c.isspace():
            position += 1
        elif source.startswith("//", position):
            position = source.find("\n", position) if "\n" in source[position:] else end
        elif source.startswith("/*", position):
            close = source.index("*/", position) + 2
            line += source.count("\n", position, close)
            position = close
        elif c in "'\"":
            value, after = read_string(c, position + 1)
            tokens.append(Token("string", value, line))
            position = after
        elif c == "`":
            token, after = read_template(position + 1, line)
            tokens.append(token)
            line += source.count("\n", position, after)
            position = after
        elif c == "/" and (not tokens or tokens[-1].text in REGEX_AFTER and tokens[-1].kind in ("punct", "name")):
            i, in_class = position + 1, False
            while True:
                ch = source[i]
                if ch == "\\":
                    i += 2
                    continue
                if ch == "[":
                    in_class = True
                elif ch == "]":
                    in_class = False
                elif ch == "/" and not in_class:
                    break
                i += 1
            i += 1
            while i < end and (source[i].isalnum()):
                i += 1
            tokens.append(Token("regex", source[position:i], line))
            position = i
        elif c.isalpha() or c in "_$":
            match = re.compile(r"[\w$]+").match(source, position)
            assert match
            tokens.append(Token("name", match.group(), line))
            position = match.end()
        elif c.isdigit():
            match = re.compile(r"[0-9][0-9a-fA-FxXoObBn_.eE]*").match(source, position)
            assert match
            tokens.append(Token("number", match.group(), line))
            position = match.end()
        else:
            punct = next(p for p in PUNCTUATORS if source.startswith(p, position))
            tokens.append(Token("punct", punct, line))
            position += len(punct)
    return tokens


# Calls whose string arguments are never shown: selectors, events, classes, keys, URLs, formats.
TECHNICAL_CALLS = {
    "addEventListener", "removeEventListener", "querySelector", "querySelectorAll", "getElementById", "$",
    "closest", "matches", "add", "remove", "toggle", "contains", "getAttribute", "removeAttribute",
    "hasAttribute", "setProperty", "getItem", "setItem", "removeItem", "api", "fetch", "WebSocket",
    "createElementNS", "createElement", "startsWith", "endsWith", "includes", "split", "join", "replace",
    "padStart", "padEnd", "test", "exec", "has", "get", "set", "delete", "indexOf", "find", "cookie",
    "connect", "socket", "status", "setPhase", "roomAction", "toLocaleString", "toLocaleDateString",
    "localeCompare", "Set", "Map", "RegExp", "Number", "String", "parse", "stringify", "encodeURIComponent",
    "postMessage", "send", "close", "assign", "replaceState", "pushState", "option", "choice", "perform",
    "key", "counter", "action", "keyAction", "play", "post", "bump", "require",
}
# Calls whose string arguments are shown as they are.
SHOWN_CALLS = {"confirm", "alert", "prompt", "Error", "append", "prepend", "replaceChildren", "createTextNode", "notice", "field"}
# el(tag, attrs, ...children) and svg(...): the tag is not shown, the children are.
ELEMENT_CALLS = {"el", "svg"}
# Object keys whose values are shown (el's attributes, options).
SHOWN_KEYS = {"text", "title", "aria-label", "placeholder", "alt", "label", "aria-description"}
# Object keys whose values are not words.
TECHNICAL_KEYS = {
    "class", "id", "role", "type", "name", "href", "src", "d", "viewBox", "transform", "points", "rx", "tabindex",
    "data-testid", "data-action", "aria-hidden", "aria-live", "aria-busy", "aria-pressed", "aria-disabled",
    "aria-selected", "aria-current", "aria-labelledby", "aria-describedby", "autocomplete", "spellcheck",
    "method", "credentials", "Accept", "text-anchor", "for", "value", "game", "status", "phase", "move",
    "kind", "left", "facing", "bump", "algorithm", "level", "code", "testid", "rated", "outcome", "solved",
    "solver", "toMove", "madeBy", "myTurn", "state", "direction", "empty", "you",
}
# Properties whose assignment shows the value.
SHOWN_PROPERTIES = {"textContent", "innerText", "title", "placeholder", "alt"}

# Literals that look like words but are not, each with its reason.
ALLOWED = {
    "use strict",  # the directive
    "Enter", "Esc", "Shift", "WASD", "H", "V", "Z", "R", "S", "N",  # key names, shown in <kbd> as the keys say
    "A*",  # the name of a search algorithm, the same in every language
    "North", "West", "East", "South",  # Manhattan's sides as its state names them (keys; shown through the games' catalogue)
    "Microban", "Microban II",  # Sokoban level collections' names, as their author titled them
    "Uploads",  # the uploaded levels' collection as the server names it (a key; shown through gettext)
}
# Notation inside a literal: a seat's label in Quoridor and Eskimo ("P1", written `P${seat + 1}`),
# the way the engines name seats.
NOTATION = [re.compile(r"\bP\x00")]


def without_notation(text: str) -> str:
    for pattern in NOTATION:
        text = pattern.sub(PLACEHOLDER, text)
    return text
# Arguments to gettext that are not literals: words whose msgids live in another catalogue.
DYNAMIC_MESSAGES = {
    # the games' words, from the server: {text, args}, game names, descriptions, Manhattan's directions and sites
    "value.text", "game.name", "level.description", "word", "name",
    # an AI level's name, marked with term("AI level", ...) in the engines
    "String(level)",
}


def looks_like_words(text: str) -> bool:
    """Whether a literal found where it is not known to be shown still reads as words."""
    bare = without_notation(text).replace(PLACEHOLDER, " ")
    if not has_words(bare) or text in ALLOWED:
        return False
    if any(ord(c) > 127 and c.isalpha() for c in bare):
        return True  # another language's letters never belong in a script
    if bare.startswith(("/", "http", "#", ".", "[", "input", "ws")) or "=" in bare:
        return False  # a URL or a selector
    words = re.findall(r"[^\s]+", bare)
    if len(words) == 1 and re.fullmatch(r"[a-z][\w.-]*|[\w-]*[-_0-9][\w-]*|[\w.-]*/[\w./-]*", words[0]):
        # An identifier, a key, a class, a MIME type or a path: one lowercase word
        # (where such a word is shown, it is judged there).
        return False
    if all("-" in word or "_" in word for word in words):
        return False  # a class list
    return True


def shown_words(text: str) -> bool:
    return has_words(without_notation(text).replace(PLACEHOLDER, "")) and text not in ALLOWED


@dataclass
class Frame:
    opener: str  # "(", "[", "{", "${"
    callee: str  # for "(": the called name (last part), "" when a grouping
    index: int = 0  # the argument (or element) being read
    key: str = ""  # in an object: the key whose value is being read
    context: str = "unknown"  # where the frame's own value goes: shown, technical, unknown


@dataclass
class Finding:
    line: int
    text: str
    why: str


def script_findings(tokens: list[Token]) -> tuple[list[Finding], list[tuple[str, str | None, bool, int]], list[Finding]]:
    """(untranslated literals, gettext msgids as (msgid, context, plural, line), gettext calls with non-literal text)."""
    untranslated: list[Finding] = []
    messages: list[tuple[str, str | None, bool, int]] = []
    dynamic: list[Finding] = []
    stack: list[Frame] = []

    def callee_before(i: int) -> str:
        # The name just before a "(": "el" for App.el(, "Error" for new Error(, "" for a grouping.
        if i > 0 and tokens[i - 1].kind == "name" and tokens[i - 1].text not in ("if", "for", "while", "switch", "return", "typeof", "catch", "function"):
            return tokens[i - 1].text
        return ""

    def context_at(i: int) -> str:
        """Where an expression starting at or including token i goes."""
        j = i - 1
        # Walk back over what only combines values: operators and ternary branches.
        depth = 0
        while j >= 0:
            t = tokens[j]
            if t.kind == "punct" and t.text in (")", "]", "}"):
                depth += 1
            elif t.kind == "punct" and t.text in ("(", "[", "{"):
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and t.kind == "punct" and t.text in (",", ";", "=", "=>", "+=", "return"):
                break
            elif depth == 0 and t.kind == "punct" and t.text == ":" and stack and stack[-1].opener == "{" and stack[-1].key:
                break
            elif depth == 0 and t.kind == "name" and t.text in ("return", "case", "throw"):
                break
            elif depth == 0 and t.kind == "punct" and t.text in ("===", "!==", "==", "!=", "<", ">", "<=", ">="):
                return "technical"
            j -= 1
        t = tokens[j] if j >= 0 else None
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if following and following.kind == "punct" and following.text in ("===", "!==", "==", "!="):
            return "technical"
        if t is None:
            return "unknown"
        if t.kind == "name" and t.text == "case":
            return "technical"
        if t.kind == "name" and t.text == "throw":
            return "shown"
        if t.text in ("=", "+="):
            target = tokens[j - 1] if j > 0 else None
            if target and target.kind == "name" and target.text in SHOWN_PROPERTIES and j > 1 and tokens[j - 2].text == ".":
                return "shown"
            return "unknown"
        if not stack:
            return "unknown"
        frame = stack[-1]
        if frame.opener == "(":
            if frame.callee in ELEMENT_CALLS:
                # el(tag, attributes, ...children): in the attributes, only the keys people read are shown.
                return "technical" if frame.index <= 1 else "shown"
            if frame.callee == "setAttribute":
                return "technical" if frame.index == 0 else frame.context
            if frame.callee in SHOWN_CALLS:
                return "shown"
            if frame.callee in TECHNICAL_CALLS:
                return "technical"
            return frame.context if frame.callee == "" else "unknown"
        if frame.opener == "{":
            if frame.key in SHOWN_KEYS:
                return "shown"
            if frame.key in TECHNICAL_KEYS:
                return "technical"
            return frame.context
        return frame.context  # an array's element, a ${...} part: where the whole goes

    def judge(token: Token, context: str) -> None:
        text = token.text
        if context == "technical":
            return
        if context == "shown" and shown_words(text):
            untranslated.append(Finding(token.line, text.replace(PLACEHOLDER, "${…}"), "shown on the page"))
        elif context == "unknown" and looks_like_words(text):
            untranslated.append(Finding(token.line, text.replace(PLACEHOLDER, "${…}"), "words outside gettext"))

    def walk(tokens_: list[Token]) -> None:
        nonlocal tokens
        saved, tokens = tokens, tokens_
        consumed: set[int] = set()
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t.kind == "name" and t.text in GETTEXT and i + 1 < len(tokens) and tokens[i + 1].text == "(":
                literals, plural = GETTEXT[t.text]
                args: list[str] = []
                j = i + 2
                dynamic_arg = False
                for _ in range(literals + (1 if plural else 0)):
                    pieces = []
                    while j < len(tokens) and tokens[j].kind == "string":
                        pieces.append(tokens[j].text)
                        j += 1
                        if j < len(tokens) and tokens[j].text == "+" and tokens[j + 1].kind == "string":
                            j += 1
                    if not pieces:
                        expression = []
                        depth = 0
                        while not (depth == 0 and tokens[j].text in (",", ")")):
                            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(tokens[j].text, 0)
                            expression.append(tokens[j].text)
                            j += 1
                        source = "".join(expression)
                        if source not in DYNAMIC_MESSAGES:
                            dynamic.append(Finding(t.line, source, f"{t.text}() of something that is not a literal"))
                        dynamic_arg = True
                        break
                    args.append("".join(pieces))
                    if tokens[j].text == ",":
                        j += 1
                if not dynamic_arg:
                    context = args[0] if t.text in ("pgettext", "npgettext") else None
                    msgid = args[1] if context is not None else args[0]
                    messages.append((msgid, context, plural, t.line))
                # The call's literal arguments are its msgids: translated, not judged.
                consumed.update(k for k in range(i + 2, j) if tokens[k].kind == "string")
            if t.kind == "punct" and t.text in ("(", "[", "{"):
                frame = Frame(t.text, callee_before(i) if t.text == "(" else "")
                frame.context = context_at(i) if t.text != "(" or frame.callee == "" else "unknown"
                stack.append(frame)
            elif t.kind == "punct" and t.text in (")", "]", "}"):
                if stack:
                    stack.pop()
            elif t.kind == "punct" and t.text == "," and stack:
                stack[-1].index += 1
                stack[-1].key = ""
            elif t.kind == "punct" and t.text == ":" and stack and stack[-1].opener == "{" and i > 0:
                before = tokens[i - 1]
                if before.kind in ("name", "string", "number") and tokens[i - 2].text in ("{", ","):
                    stack[-1].key = before.text
            elif t.kind in ("string", "template") and i not in consumed:
                following = tokens[i + 1] if i + 1 < len(tokens) else None
                is_key = following is not None and following.text == ":" and stack and stack[-1].opener == "{" and tokens[i - 1].text in ("{", ",")
                is_subscript = tokens[i - 1].text == "[" and i > 1 and (tokens[i - 2].kind == "name" or tokens[i - 2].text in (")", "]"))
                if not is_key and not is_subscript:
                    judge(t, context_at(i))
                for part in t.parts:
                    stack.append(Frame("${", "", context=context_at(i)))
                    walk(part)
                    stack.pop()
            i += 1
        tokens = saved

    walk(tokens)
    return untranslated, messages, dynamic


def script_ids() -> list[str]:
    return [rel(p) for _, p in scripts()]


@pytest.mark.parametrize(("app", "path"), scripts(), ids=script_ids())
def test_a_script_shows_no_words_outside_gettext(app: str, path: Path) -> None:
    untranslated, _, dynamic = script_findings(tokenize(path.read_text(encoding="utf-8")))
    assert [f"{rel(path)}:{f.line}: {f.text!r} ({f.why})" for f in untranslated + dynamic] == []


@pytest.mark.parametrize(("app", "path"), scripts(), ids=script_ids())
def test_every_words_of_a_script_have_their_korean(app: str, path: Path) -> None:
    table = catalogue(app, "djangojs")
    _, messages, _ = script_findings(tokenize(path.read_text(encoding="utf-8")))
    missing = [f"{rel(path)}:{line}: {msgid!r}" for msgid, context, plural, line in messages if not translated(table, msgid, context, plural)]
    assert missing == [], f"no Korean in {app}/locale/ko/LC_MESSAGES/djangojs.po"


def test_the_script_check_sees_words_put_on_the_page() -> None:
    # The check itself, on a made-up script: what it must catch, and what it must leave alone.
    source = """
    "use strict";
    const shown = el("p", { class: "muted hint", title: "A title" }, "Loading…", gettext("Fine"));
    node.textContent = `${count} watching`;
    node.title = ok ? "live" : gettext("Fine");
    if (state === "Closed room") return;
    confirm("Resign this game?");
    const label = "Some words here";
    button.addEventListener("click", () => go(`/rooms/${id}/`));
    const keys = { ArrowLeft: "l", Escape: "cancel" };
    el("kbd", {}, "Enter");
    list.replaceChildren(interpolate(gettext("%(n)s left"), { n: 3 }, true));
    gettext(someVariable);
    """
    untranslated, messages, dynamic = script_findings(tokenize(source))
    assert [f.text for f in untranslated] == ["A title", "Loading…", "${…} watching", "live", "Resign this game?", "Some words here"]
    assert [m[0] for m in messages] == ["Fine", "Fine", "%(n)s left"]
    assert [f.text for f in dynamic] == ["someVariable"]


# --- stylesheets -------------------------------------------------------------------


@pytest.mark.parametrize("path", stylesheets(), ids=[rel(p) for p in stylesheets()])
def test_a_stylesheet_writes_no_words(path: Path) -> None:
    # Words a stylesheet adds come from the page: content: attr(data-empty).
    written = re.findall(r"content:\s*(\"[^\"]*\"|'[^']*')", path.read_text(encoding="utf-8"))
    assert [text for text in written if has_words(text)] == []


# --- the compiled catalogues ---------------------------------------------------------


def catalogues() -> list[Path]:
    return [path for base in APPS.values() for path in sorted((base / "locale").rglob("*.po"))]


@pytest.mark.parametrize("po", catalogues(), ids=[rel(p) for p in catalogues()])
def test_each_compiled_catalogue_matches_its_po(po: Path, tmp_path: Path) -> None:
    mo = po.with_suffix(".mo")
    # Compared by content, not by date: a clone's files all have the checkout's date.
    assert mo.exists(), f"{rel(mo)} is missing: run compilemessages"
    assert _same(po, mo, tmp_path), f"{rel(mo)} is older than or differs from its .po: run compilemessages and commit the .mo"


def _same(po: Path, mo: Path, tmp_path: Path) -> bool:
    """Whether ``mo`` holds what ``po`` says: the same translated entries."""
    fresh = tmp_path / "fresh.mo"
    polib.pofile(str(po)).save_as_mofile(str(fresh))
    with fresh.open("rb") as a, mo.open("rb") as b:
        expected = gettext_module.GNUTranslations(a)._catalog  # type: ignore[attr-defined]
        committed = gettext_module.GNUTranslations(b)._catalog  # type: ignore[attr-defined]
    # The header ("" msgid) is written differently by msgfmt and polib; the messages are what count.
    expected.pop("", None)
    committed.pop("", None)
    return bool(expected == committed)


def test_every_catalogue_is_checked_by_msgfmt() -> None:
    # GNU msgfmt's own checks: placeholders in each translation match the English ones.
    problems = []
    for po in catalogues():
        done = subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(po)], capture_output=True, text=True)
        if done.returncode:
            problems.append(f"{rel(po)}: {done.stderr.strip()}")
    assert problems == []
