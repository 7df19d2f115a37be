"""A player's own view (`--as NAME`, issue 22): what that player may see at the table — the public
view and his own private information — and nothing of anyone else's. The games whose state holds
hidden information: Solarius Mission hides each hand from the other players (and the deck, the
hubs not yet built from all); Solar Solitaire hides the stock from its one player, who sees no more
than the table. (Solari and SOLI2 draw their chance when it is needed: their state hides nothing.)"""

from __future__ import annotations

import pytest

# (game, players, options) of each game with hidden information, seeded
HIDDEN = {
    "solarius-mission": (("Marion", "Tom"), ()),
    "solar-solitaire": (("Ann",), ()),
}


def new(cli, game: str) -> tuple[str, ...]:
    players, options = HIDDEN[game]
    cli.run("new", game, "--seed", "5", *(x for p in players for x in ("-p", p)), *options, "--id", "g")
    return players


def hidden_keys(revealed: object, public: object, path: str = "") -> set[str]:
    """The paths of the plain state that only the referee's view (--reveal) holds."""
    if isinstance(revealed, dict) and isinstance(public, dict):
        out = set()
        for k, v in revealed.items():
            if k not in public:
                out.add(f"{path}.{k}")
            else:
                out |= hidden_keys(v, public[k], f"{path}.{k}")
        return out
    if isinstance(revealed, list) and isinstance(public, list) and len(revealed) == len(public):
        return {p for i, (a, b) in enumerate(zip(revealed, public)) for p in hidden_keys(a, b, f"{path}[{i}]")}
    return set()


def at(state: object, path: str) -> bool:
    """Whether ``path`` (``.mats[1].hand``) exists in ``state``."""
    node = state
    for part in path.strip(".").replace("[", ".[").split("."):
        if part.startswith("["):
            i = int(part[1:-1])
            if not isinstance(node, list) or i >= len(node):
                return False
            node = node[i]
        else:
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
    return True


@pytest.mark.parametrize("game", sorted(HIDDEN))
def test_as_a_player_shows_nothing_hidden_from_that_player(cli, game):
    players = new(cli, game)
    revealed = cli.json("show", "g", "--reveal")["state"]
    public = cli.json("show", "g")["state"]
    hidden = hidden_keys(revealed, public)
    assert hidden  # the game hides something while it runs
    for player in players:
        mine = cli.json("show", "g", "--as", player)
        assert mine["as"] == player
        own = {f".mats[{players.index(player)}].hand"} if game == "solarius-mission" else set()
        assert {p for p in hidden if at(mine["state"], p)} == own


def test_as_a_solarius_mission_player_shows_his_hand_with_each_cards_sides_and_no_other(cli):
    players = new(cli, "solarius-mission")
    revealed = cli.json("show", "g", "--reveal")["state"]
    hands = {p: revealed["mats"][i]["hand"] for i, p in enumerate(players)}
    for i, player in enumerate(players):
        other = players[1 - i]
        view = cli.json("show", "g", "--as", player)
        assert view["state"]["mats"][i]["hand"] == hands[player]
        assert "hand" not in view["state"]["mats"][1 - i] and "deck" not in view["state"]
        text = cli.run("show", "g", "--as", player).stdout
        assert f"hand: (yours) {' '.join(map(str, hands[player]))}" in text
        for card in hands[player]:
            assert f"    card {card}: mission: " in text
        for card in set(hands[other]) - set(hands[player]):
            assert f"card {card}:" not in text
        svg = cli.run("svg", "g", "--as", player).stdout
        assert f"hand (yours): {' '.join(map(str, hands[player]))}" in svg and "revealed" not in svg
        html = cli.run("html", "g", "--as", player).stdout
        assert "hand (yours)" in html and "hand (revealed)" not in html


def test_as_refuses_a_stranger_and_reveal_together_and_legal_for_another_player(cli):
    new(cli, "solarius-mission")
    assert "not a player of this game" in cli.run("show", "g", "--as", "Zed", expect=2).stderr
    assert "give one of them" in cli.run("show", "g", "--as", "Tom", "--reveal", expect=2).stderr
    to_act = cli.json("legal", "g")["to_act"]
    other = "Tom" if to_act == "Marion" else "Marion"
    assert cli.json("legal", "g", "--as", to_act)["commands"] == cli.json("legal", "g")["commands"]
    assert "is not to act" in cli.run("legal", "g", "--as", other, expect=2).stderr


@pytest.mark.parametrize("game", ["solari", "soli2", "solo-dice"])
def test_as_a_player_of_a_game_whose_state_hides_nothing_is_the_table_view(cli, game):
    players = {"solari": ("Ann", "Bob"), "soli2": ("Ann", "Bob"), "solo-dice": ("Ann",)}[game]
    cli.run("new", game, "--seed", "5", *(x for p in players for x in ("-p", p)), "--id", "g")
    assert cli.json("show", "g", "--reveal")["state"] == cli.json("show", "g")["state"]
    for player in players:
        mine = cli.json("show", "g", "--as", player)
        assert mine["state"] == cli.json("show", "g")["state"] and mine["text"] == cli.json("show", "g")["text"]


def test_a_running_games_log_names_no_card_a_player_received(cli):
    """003's hands are hidden: the log's event data, like its commands, hides the start cards, the
    progress cards drawn and the cards kept, while the game runs (``--reveal`` shows them)."""
    new(cli, "solarius-mission")
    hidden = {"sm-start-card-dealt", "sm-card-drawn", "sm-start-chosen"}
    events = [e for e in cli.json("log", "g")["events"] if e["type"] in hidden]
    assert events  # the start cards were dealt
    for e in events:
        assert all(e["data"][k] == "hidden" for k in ("card", "keep", "discard") if k in e["data"])
    revealed = [e for e in cli.json("log", "g", "--reveal")["events"] if e["type"] in hidden]
    assert all(isinstance(e["data"].get("card", e["data"].get("keep")), int | list) for e in revealed)


@pytest.mark.parametrize("game", list(HIDDEN))
def test_a_players_log_holds_no_seed_and_no_hash(cli, game):
    # issue 29: every hash is chained from the header, seed included: whoever tries seeds against one
    # finds the seed, and with it every draw to come
    players = new(cli, game)
    data = cli.json("log", "g", "--as", players[0])
    assert "seed" not in data["header"] and all("hash" not in e for e in data["events"])
    text = cli.run("log", "g", "--as", players[0]).stdout
    referee = cli.json("log", "g", "--reveal")
    assert "HASH" not in text and "5" not in [str(v) for v in data["header"].values()]
    assert referee["header"]["seed"] == 5 and not any(e["hash"][:12] in text for e in referee["events"])


def test_a_players_log_hides_the_cards_another_player_drew(cli):
    players = new(cli, "solarius-mission")
    data = cli.json("log", "g", "--as", players[0])
    drawn = [e["data"] for e in data["events"] if e["type"] in ("sm-card-drawn", "sm-start-card-dealt")]
    assert drawn and all(d["card"] == "hidden" for d in drawn)
    cli.run("log", "g", "--as", players[0], "--reveal", expect=2)
