"""Variations (``solrec fork``): which stored game a fork came from, and at which position.

A fork is an ordinary game: its own header (the parent's), its own events, its own chain, which is
the parent's up to the fork's position because the same commands were decided again from the same
header. The ``forks`` table only records the relation (``schema.TABLES["forks"]``, events/schema.py): deleting a parent
leaves its forks as games of their own, renaming either keeps the link.
"""

from __future__ import annotations

from typing import Any

from solrec.core.errors import CorruptLog
from solrec.core.words import quoted

from .store import Store


def _has_table(store: Store) -> bool:
    return store.has_table("forks")


def link(store: Store, game_id: str, parent: str, position: int) -> None:
    with store.transaction() as conn:
        store.create_table("forks")
        conn.execute("insert or replace into forks (game_id, parent, position) values (?,?,?)", [game_id, parent, position])


def all_links(store: Store) -> dict[str, tuple[str, int]]:
    """fork id -> (parent id, position), for every recorded fork whose parent still exists."""
    if not _has_table(store):
        return {}
    out: dict[str, tuple[str, int]] = {}
    for gid, parent, position in store.query(
        "select game_id, parent, position from forks where parent in (select id from games)"
    ):
        if not (isinstance(gid, str) and isinstance(parent, str) and type(position) is int):
            raise CorruptLog(f"fork {quoted(str(gid)[:80])}: its forks row is not of its type")
        out[gid] = (parent, position)
    return out


def children(store: Store, game_id: str) -> list[tuple[str, int]]:
    """The direct forks of a game: (id, position), by position then id."""
    return sorted(((g, p) for g, (parent, p) in all_links(store).items() if parent == game_id), key=lambda x: (x[1], x[0]))


def descendants(store: Store, game_id: str) -> list[tuple[str, str, int]]:
    """Every fork below a game, depth first: (id, parent id, position). The links are read once."""
    links = all_links(store)

    def below(parent: str) -> list[tuple[str, str, int]]:
        out: list[tuple[str, str, int]] = []
        for child, position in sorted(((g, p) for g, (par, p) in links.items() if par == parent), key=lambda x: (x[1], x[0])):
            out.append((child, parent, position))
            out.extend(below(child))
        return out

    return below(game_id)


def common_prefix(store: Store, a: str, b: str) -> dict[str, Any] | None:
    """When one game is a fork of the other: {"parent", "fork", "position"} (the events they share)."""
    links = all_links(store)
    for fork, parent in ((a, b), (b, a)):
        link_ = links.get(fork)
        if link_ is not None and link_[0] == parent:
            return {"parent": parent, "fork": fork, "position": link_[1]}
    return None
