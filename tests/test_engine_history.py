"""The per-round history of a game record: a casebook per column (Winter Is Coming draws, the
Messenger Raven's use, star orders, battles by attacker and defender, castles lost in battle and
in any way) and a random-play harness that checks the history against the game's own totals and
``rounds_frame`` against the records.

Cases use ``tests/enginecase.py`` (6 players, round 1, the setup's tracks: King's Court
Lannister, Stark, Martell, Baratheon, Tyrell, Greyjoy, so Lannister holds the Messenger Raven).
"""

from __future__ import annotations

import numpy as np
import pytest
from enginecase import Case, area

from gotsim.engine import machine as mc
from gotsim.engine.board_state import castles_held, controller
from gotsim.engine.state import (
    H_RAVEN_CARD,
    H_RAVEN_HOLDER,
    H_RAVEN_USE,
    H_WESTEROS,
    H_WINTER,
    RavenUse,
)
from gotsim.engine.tables import WesterosCard, WildlingCard
from gotsim.play.simulate import play_games, rounds_frame
from gotsim.rules.ids import House

BAR, LAN, STARK, MAR, GREY, TYR = (
    int(House.BARATHEON),
    int(House.LANNISTER),
    int(House.STARK),
    int(House.MARTELL),
    int(House.GREYJOY),
    int(House.TYRELL),
)
WINTER = int(WesterosCard.WINTER_IS_COMING)


def on_top(c: Case, deck: int, card: int) -> None:
    """Swap a card of kind ``card`` from inside deck ``deck`` to its top (composition kept)."""
    cards = c.g.westeros[deck]
    i = int(np.flatnonzero(cards == card)[0])
    cards[0], cards[i] = cards[i], cards[0]
    c.g.westeros_next[deck] = 0


# =================================================================================================
# 1. Winter Is Coming
# =================================================================================================


@pytest.mark.parametrize("deck", [0, 1])
def test_history_winter_is_coming_is_counted_in_its_deck(deck: int) -> None:
    """Round 2's Westeros phase draws Winter Is Coming from deck I (or II): the deck is shuffled
    and a replacement drawn. The round's line counts the Winter Is Coming draws of that deck
    (1, or more when a reshuffle brings it back on top) and keeps the replacement as the card
    resolved; the other decks, without it on top, count 0. Over 60 games some replacement is
    Winter Is Coming again (about 1 in 10), so the column is a count, not a flag."""
    counts = []
    for seed in range(60):
        c = Case(empty=False, seed=seed).phase("westeros", 2)
        for d in range(3):
            on_top(
                c, d, WINTER if d == deck else int(c.g.westeros[d][c.g.westeros[d] != WINTER][0])
            )
        c.advance()
        line = c.g.history[1]
        counts.append(int(line[H_WINTER + deck]))
        assert [int(line[H_WINTER + d]) for d in range(3) if d != deck] == [0, 0]
        assert int(c.g.westeros_drawn[deck]) != WINTER
    assert min(counts) >= 1
    assert 2 in counts


def test_history_no_winter_is_coming_counts_zero() -> None:
    """A Westeros phase whose three top cards are not Winter Is Coming counts 0 in every deck."""
    c = Case(empty=False, seed=3).phase("westeros", 2)
    c.westeros("supply", "game_of_thrones", "web_of_lies")
    c.advance()
    assert [int(c.g.history[1, H_WINTER + d]) for d in range(3)] == [0, 0, 0]


# =================================================================================================
# 2. The Messenger Raven
# =================================================================================================


def raven() -> Case:
    """Orders on the board, the Messenger Raven's step next (Lannister holds it)."""
    return (
        Case()
        .place("""
            lannisport  lannister  F  raid
            stoney_sept lannister  F  march+0
            winterfell  stark      F  defense+2
        """)
        .phase("raven")
    )


def raven_line(c: Case) -> tuple[int, RavenUse, int]:
    line = c.g.history[0]
    return int(line[H_RAVEN_HOLDER]), RavenUse(int(line[H_RAVEN_USE])), int(line[H_RAVEN_CARD])


def test_history_raven_kept_its_orders() -> None:
    """Lannister keeps its orders and does not look: holder Lannister, use NOTHING, no card."""
    c = raven().play("lannister RAVEN keep")
    assert raven_line(c) == (LAN, RavenUse.NOTHING, -1)


def test_history_raven_replaced_an_order() -> None:
    """Lannister swaps its raid in Lannisport for a consolidate power order: use
    REPLACED_ORDER. Round 1's line shows it; round 2's line is untouched (UNSEEN)."""
    c = raven().play("""
        lannister RAVEN replace
        lannister RAVEN_AREA lannisport
        lannister RAVEN_ORDER consolidate_power
    """)
    assert c.order_at("lannisport") == "consolidate_power"
    assert raven_line(c) == (LAN, RavenUse.REPLACED_ORDER, -1)
    assert RavenUse(int(c.g.history[1, H_RAVEN_USE])) == RavenUse.UNSEEN


@pytest.mark.parametrize(
    ("answer", "use", "top_after"),
    [
        ("top", RavenUse.KEPT_WILDLING_CARD, "crow_killers"),
        ("bottom", RavenUse.BURIED_WILDLING_CARD, "mammoth_riders"),
    ],
)
def test_history_raven_looked_at_the_wildling_card(
    answer: str, use: RavenUse, top_after: str
) -> None:
    """Lannister looks at the top wildling card (Crow Killers, Mammoth Riders below it) and
    leaves it on top or buries it: the use says which and the card seen is Crow Killers."""
    c = raven()
    c.wildlings("crow_killers", "mammoth_riders")
    c.play(f"""
        lannister RAVEN look
        lannister RAVEN_BURY {answer}
    """)
    assert raven_line(c) == (LAN, use, int(WildlingCard.CROW_KILLERS))
    assert int(c.g.wildlings[0]) == int(WildlingCard[top_after.upper()])


def test_history_raven_holder_is_the_kings_court_leader() -> None:
    """With Stark on top of King's Court, Stark is asked and recorded as the holder."""
    c = raven().track("kings_court", "stark lannister martell baratheon tyrell greyjoy")
    c.play("stark RAVEN keep")
    assert raven_line(c) == (STARK, RavenUse.NOTHING, -1)


# =================================================================================================
# 3. Star orders
# =================================================================================================


def test_history_stars_count_the_orders_once_the_raven_has_acted() -> None:
    """Lannister (King's Court 1st, 3 stars) has march+1 and consolidate_power* on the board and
    uses the raven to turn its raid into raid*; Stark (2nd) has defense+2. Counted after the
    raven: Lannister 3, Stark 1, the others 0."""
    c = (
        Case()
        .place("""
            lannisport      lannister  F  raid
            stoney_sept     lannister  F  march+1
            the_golden_sound lannister S  consolidate_power*
            winterfell      stark      F  defense+2
            kingswood       baratheon  F  march+0
        """)
        .phase("raven")
    )
    c.play("""
        lannister RAVEN replace
        lannister RAVEN_AREA lannisport
        lannister RAVEN_ORDER raid*
    """)
    assert c.g.history_stars[0].tolist() == [0, 3, 1, 0, 0, 0, 0, 0]
    assert c.g.history_stars[1].tolist() == [0] * 8


# =================================================================================================
# 4. Battles by attacker and defender
# =================================================================================================


def test_history_battles_by_attacker_and_defender() -> None:
    """Baratheon marches 2 footmen from Kingswood into The Reach (1 Lannister footman) and
    wins; then Stark marches from Winterfell into the empty Castle Black. One battle is
    recorded, at [Baratheon, Lannister]; the march into an empty area is none."""
    c = (
        Case()
        .place("""
            kingswood   baratheon 2F march+0
            the_reach   lannister F
            winterfell  stark     F march+0
        """)
        .phase("marches")
    )
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon MARCH_UNIT F the_reach
        baratheon HOUSE_CARD renly_baratheon
        lannister HOUSE_CARD cersei_lannister
        baratheon RENLY none
        lannister RETREAT blackwater
        stark MARCH_FROM winterfell
        stark MARCH_UNIT F castle_black
    """)
    assert c.at("castle_black") == "stark F"
    battles = c.g.history_battles[0]
    assert battles[BAR, LAN] == 1
    assert int(battles.sum()) == 1
    assert int(c.g.history_battles.sum()) == 1


def test_history_an_attack_on_a_neutral_force_is_no_battle() -> None:
    """Baratheon marches 3 knights (strength 6) from Kingswood into King's Landing (neutral
    force 5): the token falls and the knights move in, but no battle is recorded."""
    c = Case().place("kingswood baratheon 3K march+0").phase("marches")
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K kings_landing
        baratheon MARCH_UNIT K kings_landing
        baratheon MARCH_UNIT K kings_landing
    """)
    assert c.at("kings_landing") == "baratheon 3K"
    assert int(c.g.history_battles.sum()) == 0


# =================================================================================================
# 5. Castles lost
# =================================================================================================


def round_end(c: Case) -> Case:
    """Run the round's clean-up, which writes the round's line."""
    c.phase("cleanup").advance()
    assert c.g.game_round == 2
    return c


def test_history_castle_holders_are_noted_when_round_one_begins() -> None:
    """From the 6-player start, the first planning step notes who holds each castle and
    stronghold: Lannisport Lannister, Winterfell Stark, Harrenhal nobody (0)."""
    c = Case(empty=False)
    assert not c.g.castle_holder.any()
    c.advance()
    assert c.g.castle_holder[area("lannisport")] == 1 + LAN
    assert c.g.castle_holder[area("winterfell")] == 1 + STARK
    assert c.g.castle_holder[area("harrenhal")] == 0
    for a in range(c.t.n_areas):
        expected = 1 + controller(c.g, c.t, a) if (c.t.castle[a] or c.t.stronghold[a]) else 0
        assert c.g.castle_holder[a] == expected


def test_history_castle_taken_in_battle() -> None:
    """Baratheon takes The Reach (a castle) from Lannister in battle: Lannister has lost one
    castle in battle this round, and at the round's end one castle in all."""
    c = (
        Case()
        .place("""
            kingswood   baratheon 2F march+0
            the_reach   lannister F
        """)
        .phase("marches")
    )
    mc.note_castle_holders(c.g, c.t)  # the round began with this board
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon MARCH_UNIT F the_reach
        baratheon HOUSE_CARD renly_baratheon
        lannister HOUSE_CARD cersei_lannister
        baratheon RENLY none
        lannister RETREAT blackwater
    """)
    assert c.controller("the_reach") == "baratheon"
    assert c.g.history_castles_lost_in_battle[0].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]
    round_end(c)
    assert c.g.history_castles_lost[0].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]
    assert c.g.history_castles[0, BAR] == castles_held(c.g, c.t, BAR)
    assert c.g.castle_holder[area("the_reach")] == 1 + BAR


def test_history_castle_defended_is_not_lost() -> None:
    """Baratheon attacks The Reach with 1 footman and Stannis (5) against Lannister's 2 footmen
    and Tywin (6) and loses: nothing is lost, in battle or at the round's end, by either
    house."""
    c = (
        Case()
        .place("""
            kingswood   baratheon F march+0
            the_reach   lannister 2F
        """)
        .phase("marches")
    )
    mc.note_castle_holders(c.g, c.t)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon HOUSE_CARD stannis_baratheon
        lannister HOUSE_CARD tywin_lannister
    """)
    assert c.at("the_reach") == "lannister 2F"
    assert int(c.g.history_castles_lost_in_battle.sum()) == 0
    round_end(c)
    assert int(c.g.history_castles_lost.sum()) == 0


def test_history_castle_left_empty_is_lost_otherwise() -> None:
    """Lannister marches its only footman out of Harrenhal (a castle, no home) into the empty
    Stoney Sept without leaving a power token: at the round's end Harrenhal is nobody's, so
    Lannister has lost a castle, none in battle."""
    c = Case().place("harrenhal lannister F march+0").phase("marches")
    mc.note_castle_holders(c.g, c.t)
    assert c.g.castle_holder[area("harrenhal")] == 1 + LAN
    c.play("""
        lannister MARCH_FROM harrenhal
        lannister MARCH_UNIT F stoney_sept
    """)
    round_end(c)
    assert c.g.history_castles_lost[0].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]
    assert int(c.g.history_castles_lost_in_battle.sum()) == 0
    assert c.g.castle_holder[area("harrenhal")] == 0


def test_history_home_castle_left_empty_is_kept() -> None:
    """Lannister marches out of Lannisport, its home stronghold: it still controls the area
    (home areas stay their house's until another takes them), so nothing is lost."""
    c = Case().place("lannisport lannister F march+0").phase("marches")
    mc.note_castle_holders(c.g, c.t)
    c.play("""
        lannister MARCH_FROM lannisport
        lannister MARCH_UNIT F stoney_sept
    """)
    round_end(c)
    assert c.controller("lannisport") == "lannister"
    assert int(c.g.history_castles_lost.sum()) == 0


# =================================================================================================
# 6. Random play: the history agrees with the game's totals and with rounds_frame
# =================================================================================================


@pytest.mark.parametrize(("players", "tides"), [(3, False), (5, True), (6, False)])
def test_history_agrees_with_totals_in_random_games(players: int, tides: bool) -> None:
    """Over random games: battles per round, summed, are each house's battle count; every
    round played has a raven use by a house in play; star orders never exceed 3; Winter Is
    Coming appears only in decks I and II and never as the card resolved; castles held at a
    round's end are at least those held before minus those lost; and ``rounds_frame`` carries
    exactly these numbers."""
    games = play_games(60, players=players, seed=9, variants={"tides_of_battle": tides})
    frame = rounds_frame(games)
    in_play = [h for h in House if games.in_play[0, h]]
    for i, g in enumerate(games):
        rounds = int(g.game_round)
        hb = g.history_battles.astype(int)
        assert (hb.sum(axis=(0, 2)) + hb.sum(axis=(0, 1))).tolist() == g.battles.tolist()
        assert hb[rounds:].sum() == 0 and np.trace(hb.sum(axis=0)) == 0
        uses = g.history[:rounds, H_RAVEN_USE]
        assert (uses != RavenUse.UNSEEN).all()
        assert all(g.in_play[h] for h in g.history[:rounds, H_RAVEN_HOLDER])
        assert g.history_stars.max() <= 3
        assert g.history[:, H_WINTER + 2].sum() == 0
        assert (g.history[1:rounds, H_WESTEROS : H_WESTEROS + 3] != WINTER).all()
        held_before = g.history_castles[: rounds - 1].astype(int)
        lost = g.history_castles_lost[1:rounds].astype(int)
        assert (g.history_castles[1:rounds] >= held_before - lost).all()
        assert (lost <= held_before).all()
        mine = frame[frame.game == i]
        assert len(mine) == rounds
        for h in in_play:
            assert (
                mine[f"castles_lost_{h.id}"].tolist() == g.history_castles_lost[:rounds, h].tolist()
            )
            assert mine[f"stars_{h.id}"].tolist() == g.history_stars[:rounds, h].tolist()
            lost_in_battle = g.history_castles_lost_in_battle[:rounds, h].tolist()
            assert mine[f"castles_lost_in_battle_{h.id}"].tolist() == lost_in_battle
            for d in in_play:
                if d != h:
                    column = mine[f"attacks_{h.id}_on_{d.id}"].tolist()
                    assert column == hb[:rounds, h, d].tolist()
        assert mine.winter_1.tolist() == g.history[:rounds, H_WINTER].tolist()
        assert mine.winter_2.tolist() == g.history[:rounds, H_WINTER + 1].tolist()
        names = {1: "nothing", 2: "replace_order", 3: "look_keep", 4: "look_bury"}
        assert mine.raven_use.tolist() == [names[int(u)] for u in uses]
        looked = mine.raven_use.isin(["look_keep", "look_bury"])
        assert mine.raven_card[looked].notna().all() and mine.raven_card[~looked].isna().all()
    assert games.history_battles.sum() > 0
    assert (games.history[:, :, H_WINTER : H_WINTER + 2] > 0).any()
    assert frame.raven_use.nunique() == 4
    assert frame.filter(like="castles_lost_in_battle_").to_numpy().sum() > 0
