"""The one loader of Solarius Mission component sets: TOML texts parsed within bounds, the built-in
sets (their parsed TOML kept as bytecode is), a recorded set by its content or digest, the options
that record a set."""

from __future__ import annotations

import functools
import hashlib
import json
import marshal
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import json_reason
from ..words import quoted
from .check import check_set, shown_value
from .components import BUILTIN, BUILTINS, DATA_DIR, FAMILIES, ComponentSet, InvalidComponents
from .schema import HUGE, MAX_BYTES, MAX_CONTENT, MAX_DEPTH, MAX_DIGITS, MAX_NAME

# -- loading ---------------------------------------------------------------------------------------


def _string_end(text: str, start: int, quote: str) -> int:
    """Where a TOML string that opens at ``start`` ends (just past its closing quote); one pass, no
    regular expression (which backtracks quadratically on a long unclosed string)."""
    delim = quote * 3 if text.startswith(quote * 3, start) else quote
    k, n = start + len(delim), len(text)
    while k < n:
        ch = text[k]
        if ch == "\\" and quote == '"':
            k += 2
        elif text.startswith(delim, k):
            return k + len(delim)
        elif ch == "\n" and len(delim) == 1:
            return k  # a one-line string is not closed: tomllib says so
        else:
            k += 1
    return n


def _nesting(text: str) -> int:
    """How deep a TOML text nests, read before it is parsed: tomllib recurses into nested arrays and
    inline tables, and a dotted key of n parts costs it time and memory quadratic in n (a 100,000-part
    key ran out of memory after 26 s). Brackets and dots inside strings and comments are text."""
    depth = deepest = 0
    parts = longest = 1  # parts of the dotted key being read, and of the longest
    word = False  # the last character read (blanks aside) ends a key part
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch in "\"'":
            i, word = _string_end(text, i, ch), True
            continue
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
        if ch == "." and word:
            parts += 1
            longest = max(longest, parts)
            word = False
        elif ch.isalnum() or ch in "_-":
            word = True
        elif ch not in " \t.":
            parts, word = 1, False
        i += 1
    return max(deepest, longest)


def _toml(label: str, text: str) -> dict[str, Any]:
    if _nesting(text) > MAX_DEPTH:
        raise InvalidComponents(f"{label} nests tables, arrays or dotted keys more than {MAX_DEPTH} deep")
    import tomllib  # here: a process that finds the parsed set kept (``_parsed``) parses no TOML

    try:
        raw = tomllib.loads(text)
    except ValueError as err:  # TOMLDecodeError, and a decimal number over Python's 4,300 digits
        raise InvalidComponents(f"{label} is not valid TOML: {err}") from None
    except RecursionError:
        raise InvalidComponents(f"{label} nests tables or arrays more than {MAX_DEPTH} deep") from None
    if _has_huge_number(raw):  # 0x, 0o or 0b followed by thousands of digits
        raise InvalidComponents(f"{label} is not valid TOML: a number of more than {MAX_DIGITS} digits")
    return raw


def _has_huge_number(raw: Any) -> bool:
    """Whether the parsed tree holds a whole number of more than ``MAX_DIGITS`` decimal digits (its
    depth is bounded already: ``_nesting``)."""
    stack = [raw]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif type(node) is int and (node >= HUGE or node <= -HUGE):
            return True
    return False


def parse_texts(name: str, texts: Mapping[str, str]) -> dict[str, Any]:
    """The plain data of a set from TOML texts: one text per family (keyed by family), or one text
    whose top-level tables are the families (keyed by anything else)."""
    size = sum(len(body.encode("utf-8", "surrogatepass")) for body in texts.values())
    if size > MAX_BYTES:
        raise InvalidComponents(f"a component set is at most {MAX_BYTES // 1024} KiB of TOML, not {size:,} bytes")
    if len(texts) == 1 and next(iter(texts)) not in FAMILIES:
        (label, body), = texts.items()
        raw = _toml(label, body)
        raw.setdefault("name", name)
        return raw
    raw = {"name": name}
    for label, body in sorted(texts.items()):
        if label not in FAMILIES:
            raise InvalidComponents(f"{label}.toml: unknown family (families: {', '.join(FAMILIES)})")
        raw[label] = _toml(f"{label}.toml", body)
    return raw


def from_texts(name: str, texts: Mapping[str, str]) -> ComponentSet:
    return _from_raw(parse_texts(name, texts))


def _from_raw(raw: dict[str, Any]) -> ComponentSet:
    set_name = raw.get("name")
    if not isinstance(set_name, str) or not 0 < len(set_name) <= MAX_NAME or not set_name.isprintable():
        raise InvalidComponents(f"name: is the set's name, a text of 1..{MAX_NAME} printable characters, not {shown_value(set_name)}")
    return _remember(check_set(set_name, {k: v for k, v in raw.items() if k != "name"}))


_SETS: dict[str, ComponentSet] = {}


def _remember(cset: ComponentSet) -> ComponentSet:
    # A memo by digest: equal content is the same set, so replays parse a set once per process.
    _SETS.setdefault(cset.digest, cset)
    return _SETS[cset.digest]


@functools.cache
def builtin(name: str = BUILTIN) -> ComponentSet:
    # The built-in sets ship inside the package (package data), read like a module is imported.
    if name not in BUILTINS:
        raise InvalidComponents(f"no built-in component set {quoted(name)} (built in: {', '.join(BUILTINS)})")
    folder = DATA_DIR / name
    raw = _parsed(folder, name, {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.toml"))})
    cset = check_set(name, {k: v for k, v in raw.items() if k != "name"})
    # The built-in set is itself, by its own name, even when a file of equal content (written out
    # from it, under any name) was read first: such a file is then recorded as this set (``options_for``).
    _SETS[cset.digest] = cset
    return cset


def _parsed(folder: Path, name: str, texts: Mapping[str, str]) -> dict[str, Any]:
    """``parse_texts(name, texts)``, kept beside the texts as Python keeps a module's bytecode (in
    ``__pycache__``, not written under PYTHONDONTWRITEBYTECODE), under the digest of the texts: a CLI
    call (one per move) then reads plain data, not TOML. Only the parsing is kept: the schema check
    (``check_set``) runs on every load, whatever was kept."""
    digest = hashlib.sha256()
    for label, body in sorted(texts.items()):
        digest.update(f"{len(label)}:{label}{len(body)}:{body}".encode("utf-8", "surrogatepass"))
    key = (name, digest.hexdigest())
    kept = folder / "__pycache__" / f"{name}.{sys.implementation.cache_tag}.marshal"
    try:
        kept_key, raw = marshal.loads(kept.read_bytes())
        if kept_key == key and isinstance(raw, dict):
            return raw
    except (OSError, ValueError, EOFError, TypeError):  # none kept yet, or unreadable: parsed again
        pass
    raw = parse_texts(name, texts)
    if not sys.dont_write_bytecode:
        try:
            kept.parent.mkdir(exist_ok=True)
            part = kept.with_name(f"{kept.name}.{os.getpid()}")
            part.write_bytes(marshal.dumps((key, raw)))
            part.replace(kept)  # whole or not at all, as another process may be reading it
        except (OSError, ValueError):  # a read-only install, or a value marshal does not keep
            pass
    return raw


def builtin_by_digest(digest: str) -> ComponentSet | None:
    for name in BUILTINS:
        if builtin(name).digest == digest:
            return builtin(name)
    return None


@functools.lru_cache(maxsize=64)
def from_canonical(name: str, canonical: str) -> ComponentSet:
    if len(canonical) > MAX_CONTENT:
        raise InvalidComponents(f"the recorded component data is {len(canonical):,} characters, over the bound of {MAX_CONTENT:,}")
    try:
        raw = json.loads(canonical)
    except (ValueError, RecursionError) as err:  # not JSON, too deep, a number over 4300 digits
        raise InvalidComponents(f"the recorded component data is not JSON: {json_reason(err)}") from None
    return _remember(check_set(name, raw))


def by_digest(digest: str) -> ComponentSet:
    if digest not in _SETS:
        known = builtin_by_digest(digest)
        if known is not None:
            return known
        raise InvalidComponents(f"component set {digest} is not loaded")
    return _SETS[digest]


def resolve(name: str, digest: str, data: str) -> ComponentSet:
    """The set a game's options name: the built-in set by name and digest, or the recorded content."""
    if data:
        cset = from_canonical(name, data)
    elif name in BUILTINS:
        cset = builtin(name)
    else:
        raise InvalidComponents(f"component set {quoted(name)} is not built in and the game records no content for it")
    if digest and cset.digest != digest:
        raise InvalidComponents(
            f"the game was recorded with component set {quoted(name)} digest {digest}; the data at hand has digest "
            f"{cset.digest} (the set changed since)"
        )
    return cset


def options_for(cset: ComponentSet) -> dict[str, str]:
    """The setup options that record a set: the built-in one by name and digest, others with content."""
    known = builtin_by_digest(cset.digest)
    if known is not None:
        return {"components": known.name, "components_digest": cset.digest, "components_data": ""}
    return {"components": cset.name, "components_digest": cset.digest, "components_data": cset.canonical}
