"""``solrec seal ID...`` / ``solrec seal --all``: an HMAC of each game's head hash under the referee's key.

The key comes from ``--key-file``, ``SOLREC_KEY_FILE`` or ``SOLREC_KEY`` (docs/security.md). A game
is sealed only if it validates; the seal covers its events so far and is stored with the game, and
``validate`` verifies it whenever the key is present. Exit codes: 0 all sealed, 1 a game did not
validate (it is not sealed), 2 bad input (no key, unknown id).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from solrec.core.words import quoted

from .app import EXIT_PROBLEM, Db, Json, command, complete_game_id, emit, workflows
from .errors import UsageRefused


@command("seal")
def seal_cmd(
    ids: Annotated[list[str] | None, typer.Argument(metavar="ID...", help="Stored games' ids to seal (or --all).", autocompletion=complete_game_id)] = None,
    all_: Annotated[bool, typer.Option("--all", help="Seal every game in the database.")] = False,
    key_file: Annotated[Path | None, typer.Option("--key-file", help="File holding the key (else SOLREC_KEY_FILE or SOLREC_KEY).")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Seal games with an HMAC of their head hash, so that any later alteration shows in validate."""
    # imported here: every CLI call imports this module to register the command (start-up counts)
    from solrec.events import seal as seals
    from solrec.events.store import StoreError, UnknownGameId

    session = workflows()
    if all_ and ids:
        raise UsageRefused("name games or use --all, not both")
    if not all_ and not ids:
        raise UsageRefused("name the games to seal, or use --all")
    key = seals.key_from(key_file)
    if key is None:
        raise UsageRefused("no key: set SOLREC_KEY or SOLREC_KEY_FILE, or give --key-file")
    store = session.open_store(db)
    targets = store.game_ids() if all_ else list(ids or [])
    for gid in targets:
        if not store.has_game(gid):
            raise UnknownGameId(f"no game {quoted(gid)} in {store.path}")
    done: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    try:
        seal_each(store, targets, key, done, refused)
    except StoreError as err:  # stopped part-way (a full disk): what was sealed is said, as it stays
        if not done:
            raise
        reason = str(err).removeprefix(f"{store.path}: ").removesuffix("; nothing was written")
        raise type(err)(f"{store.path}: sealed {len(done)} of {len(targets)} games "
                        f"({', '.join(d['id'] for d in done)}); then {reason}: the others are not sealed") from None
    lines = [f"{d['id']}: sealed at {d['events']} events and {d['notes']} comments, seal {d['mac']}" for d in done]
    lines += [f"{r['id']}: {r['reason']}" for r in refused]
    lines.append(f"{len(done)} sealed, {len(refused)} not sealed")
    emit(as_json, {"sealed": done, "refused": refused}, "\n".join(lines))
    if refused:
        raise typer.Exit(EXIT_PROBLEM)


def seal_each(store: Any, targets: list[str], key: bytes, done: list[dict[str, Any]], refused: list[dict[str, Any]]) -> None:
    """Seal each game of ``targets`` that validates (in ``done``), the others not (in ``refused``),
    each in a transaction of its own: a game is sealed whole or not at all, and a table being played
    meanwhile (``serve``) waits for one seal, never for all of them."""
    from solrec.events import notes
    from solrec.events import seal as seals
    from solrec.events.envelope import genesis_hash
    from solrec.replay.log import load
    from solrec.replay.validate import validate

    session = workflows()
    for gid in targets:
        with store.snapshot():  # the log sealed is the log validated, whatever lands meanwhile
            verdict = session.validate_games(store, [gid])[0]
            log = load(store, gid) if verdict.ok else None
        if log is None:
            refused.append({"id": gid, "reason": f"not sealed: INVALID at {'position ' + str(verdict.position) if verdict.move is None else 'move ' + str(verdict.move)}: {verdict.reason}"})
            continue
        head = log.rows[-1].hash if log.rows else log.recorded["head"] if log.recorded else ""
        # the seal binds the comments too (their count and chain head): events/notes.py
        comments = log.notes.notes
        notes_head = notes.head_after(notes.genesis(genesis_hash(log.header)), comments, len(comments))
        mac = seals.notes_mac(key, gid, len(log.rows), head, len(comments), notes_head)
        with store.group():  # the comments' sealed head and the seal: both or neither
            notes.mark_sealed(store, gid, len(comments), notes_head)
            seals.put_seal(store, gid, len(log.rows), head, mac)
        sealed = seals.stored_seal(store, gid)
        assert sealed is not None and validate(load(store, gid), key).ok
        done.append({"id": gid, "events": len(log.rows), "head": head, "notes": len(comments), "mac": mac})
