"""The store in parts (issue 41, item 3): one schema record per table (events/schema.py), opening and
transactions apart (events/database.py), the games (events/store.py), seals beside their HMAC
(events/seal.py); what other modules need is public, and the file format is unchanged, byte for byte."""

from __future__ import annotations

import ast
import inspect

import sqlite_utils

from solrec.events import database, schema, store

from .test_imports import ROOT

# Every CREATE TABLE solrec has written since schema 3 (as sqlite-utils writes it): a file made now
# holds exactly these, or older files and older solrecs would read it otherwise.
PINNED = {
    "solrec_meta": 'CREATE TABLE "solrec_meta" (\n   "key" TEXT PRIMARY KEY,\n   "value" TEXT\n)',
    "games": (
        'CREATE TABLE "games" (\n   "id" TEXT PRIMARY KEY,\n   "game" TEXT NOT NULL,\n   "rules" TEXT NOT NULL,\n'
        '   "options" TEXT NOT NULL,\n   "chance" TEXT NOT NULL,\n   "seed" INTEGER,\n   "players" TEXT NOT NULL,\n'
        '   "created" TEXT NOT NULL,\n   "genesis" TEXT NOT NULL,\n   "events" INTEGER NOT NULL,\n'
        '   "head" TEXT NOT NULL,\n   "scores" TEXT,\n   "outcome" TEXT\n)'
    ),
    "events": (
        'CREATE TABLE "events" (\n   "game_id" TEXT REFERENCES "games"("id"),\n   "seq" INTEGER,\n'
        '   "step" INTEGER NOT NULL,\n   "actor" TEXT NOT NULL,\n   "command" TEXT NOT NULL,\n   "type" TEXT NOT NULL,\n'
        '   "version" INTEGER NOT NULL,\n   "payload" BLOB NOT NULL,\n   "hash" TEXT NOT NULL,\n   "time" TEXT NOT NULL,\n'
        '   "data" TEXT,\n   "head" BLOB NOT NULL,\n   PRIMARY KEY ("game_id", "seq")\n)'
    ),
    "seals": (
        'CREATE TABLE "seals" (\n   "game_id" TEXT PRIMARY KEY,\n   "events" INTEGER,\n   "head" TEXT,\n'
        '   "mac" TEXT,\n   "sealed" TEXT\n)'
    ),
    "notes": (
        'CREATE TABLE "notes" (\n   "game_id" TEXT NOT NULL,\n   "n" INTEGER NOT NULL,\n   "position" INTEGER NOT NULL,\n'
        '   "by" TEXT NOT NULL,\n   "time" TEXT NOT NULL,\n   "mark" TEXT NOT NULL,\n   "text" TEXT NOT NULL,\n'
        '   "hash" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "n")\n)'
    ),
    "note_heads": (
        'CREATE TABLE "note_heads" (\n   "game_id" TEXT PRIMARY KEY,\n   "notes" INTEGER,\n   "head" TEXT,\n'
        '   "sealed_notes" INTEGER,\n   "sealed_head" TEXT\n)'
    ),
    "forks": (
        'CREATE TABLE "forks" (\n   "game_id" TEXT PRIMARY KEY NOT NULL,\n   "parent" TEXT NOT NULL,\n'
        '   "position" INTEGER NOT NULL\n)'
    ),
    "seats": (
        'CREATE TABLE "seats" (\n   "game_id" TEXT NOT NULL,\n   "player" TEXT NOT NULL,\n   "token_hash" TEXT NOT NULL,\n'
        '   "created" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "player")\n)'
    ),
    "bots": (
        'CREATE TABLE "bots" (\n   "game_id" TEXT NOT NULL,\n   "player" TEXT NOT NULL,\n   "bot" TEXT NOT NULL,\n'
        '   "seed" INTEGER NOT NULL,\n   "created" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "player")\n)'
    ),
    "table_settings": (
        'CREATE TABLE "table_settings" (\n   "game_id" TEXT NOT NULL,\n   "key" TEXT NOT NULL,\n'
        '   "value" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "key")\n)'
    ),
    "header_bots": (
        'CREATE TABLE "header_bots" (\n   "game_id" TEXT NOT NULL,\n   "player" TEXT NOT NULL,\n   "bot" TEXT NOT NULL,\n'
        '   PRIMARY KEY ("game_id", "player")\n)'
    ),
}


def test_every_table_is_made_from_its_schema_record_as_the_file_format_pins_it():
    db = sqlite_utils.Database(memory=True)
    for table in schema.TABLES.values():
        schema.create(db, table)
    made = {name: sql for name, sql in db.execute("select name, sql from sqlite_master where type = 'table'")}
    assert made == PINNED


def test_a_file_of_an_older_schema_has_the_columns_its_migrations_had_not_yet_added():
    events = schema.TABLES["events"]
    assert list(events.columns_in(1)) == [c for c in events.columns if c not in ("data", "head")]
    assert list(events.columns_in(2)) == [c for c in events.columns if c != "head"]
    assert events.columns_in(schema.SCHEMA_VERSION) == dict(events.columns)


def test_a_store_made_file_is_the_pinned_schema(tmp_path):
    made = store.Store(tmp_path / "new.db")
    with made.transaction():
        for table in schema.TABLES.values():
            if table.optional:
                made.create_table(table.name)
    assert {n: s for n, s in made.query("select name, sql from sqlite_master where type = 'table'")} == PINNED
    assert all(made.has_table(name) for name in PINNED)
    made.close()


def _private_names() -> set[str]:
    """The names of ``Store`` (and ``Database``) that start with one underscore."""
    return {name for cls in (store.Store, database.Database) for name, _ in inspect.getmembers(cls)
            if name.startswith("_") and not name.startswith("__")}


def test_no_module_outside_events_calls_a_private_name_of_the_store():
    private = _private_names()
    found = []
    for folder in ("cli", "server", "workflows", "replay", "ai", "core"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Attribute) and node.attr in private
                        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("solrec.events"):
                    found += [f"{path.relative_to(ROOT)}:{node.lineno} import {a.name}" for a in node.names
                              if a.name.startswith("_")]
    assert found == []
