"""solrec.workflows: what the CLI and the server do with a store (start, play, import, fork, take
back, simulate, validate), with no printing and no argument parsing; the server imports it without
the CLI. ``games`` (start, play, import, fork, simulate, validate), ``undo`` (take-backs, move ends),
``errors`` (their refusals)."""
