"""Plain-English descriptions of events and actions, for logs and the ``splendor-play`` client.

>>> from splendor_client import actions, connect
>>> with connect("127.0.0.1:50051") as client:
...     describer = Describer(client.get_catalog())  # or Describer(None): cards named by id only
...     game = client.new_game(num_players=2, seed=7)
>>> describer.event(game.events[0])
'A 2-player game is dealt; Player 2 plays first'
>>> describer.event(game.events[1])
'Card 30 (level 1, red bonus, 0 points) is revealed in the level 1 row, slot 0'
>>> describer.action(actions.purchase(26))
'buy card 26 (level 1, red bonus, 0 points)'

People are numbered from 1, as on the web page: seat 0 of the protocol is "Player 1", and
trading post 0 "trading post 1". Decks and market slots are numbered from 0 as in the protocol; decks and
market rows are named by their level ("the level 1 row" is deck 0, "the Orient
level 1 row" deck 3). Without a catalog, cards, nobles, cities and trading posts
are named by id only. ``Describer.module_states`` describes the Cities of Splendor
module states of a game (state or view) in a few lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

from splendor.v1 import actions_pb2, catalog_pb2, cities_pb2, events_pb2, state_pb2, trading_posts_pb2, view_pb2

from .actions import ActionLike, as_action
from .colors import color_name, format_counts

Game: TypeAlias = state_pb2.GameState | view_pb2.GameView


def player_name(seat: int) -> str:
    """How a person reads a seat: ``"Player 1"`` for seat 0, as the web page says."""
    return f"Player {seat + 1}"


"""A game as the engine sends it: the full state, or a seat's view."""

BASE_DECK_COUNT = 3
"""Decks 0-2 are the base levels 1-3; the Orient decks follow."""

SHORT_LIST = 3
"""Longer lists of cards are named by id only."""

POWERS: dict[int, str] = {
    trading_posts_pb2.TRADING_POST_POWER_GEM_AFTER_PURCHASE: "a gem after each purchase",
    trading_posts_pb2.TRADING_POST_POWER_EXTRA_GEM_WITH_TWO: "an extra gem with two of a colour",
    trading_posts_pb2.TRADING_POST_POWER_GOLD_WORTH_TWO: "gold worth two gems",
    trading_posts_pb2.TRADING_POST_POWER_FIVE_PRESTIGE: "5 prestige once",
    trading_posts_pb2.TRADING_POST_POWER_PRESTIGE_PER_SHIELD: "1 prestige per shield",
}
"""Short names of the trading-post powers."""

# What an Orient card does, after its bonus (``None``: nothing to add).
_ABILITIES: dict[int, str | None] = {
    catalog_pb2.CARD_KIND_STANDARD: None,
    catalog_pb2.CARD_KIND_GOLD_X2: "worth 2 gold once",
    catalog_pb2.CARD_KIND_PAIRED: "paired",
    catalog_pb2.CARD_KIND_PAIRED_TAKE_LEVEL1: "paired, then a free level 1 card",
    catalog_pb2.CARD_KIND_DOUBLE_BONUS: None,
    catalog_pb2.CARD_KIND_RESERVE_NOBLE: "reserves a noble",
    catalog_pb2.CARD_KIND_TAKE_LEVEL2: "a free level 2 card",
    catalog_pb2.CARD_KIND_SACRIFICE: None,  # says which bonuses it takes: see ``Describer.card``
}

END_REASONS: dict[int, str] = {
    state_pb2.END_REASON_FINAL_ROUND_COMPLETED: "a player reached the goal and the final round was completed",
    state_pb2.END_REASON_ALL_PLAYERS_PASSED: "every player passed for a whole round",
    state_pb2.END_REASON_TURN_LIMIT_REACHED: "the turn limit was reached",
}


def plural(count: int, word: str) -> str:
    """``"1 point"``, ``"2 points"``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def deck_name(deck: int) -> str:
    """``"level 1"`` for deck 0, ..., ``"Orient level 1"`` for deck 3, ..."""
    if deck < BASE_DECK_COUNT:
        return f"level {deck + 1}"
    return f"Orient level {deck - BASE_DECK_COUNT + 1}"


class Describer:
    """Describes events and actions, naming cards and nobles from a catalog when it has one."""

    def __init__(self, catalog: catalog_pb2.Catalog | None = None) -> None:
        """Index the catalog's cards and nobles by id (``None``: describe by id only)."""
        self.cards: dict[int, catalog_pb2.CardInfo] = {}
        self.nobles: dict[int, catalog_pb2.NobleInfo] = {}
        self.cities: dict[int, cities_pb2.CityInfo] = {}
        self.posts: dict[int, trading_posts_pb2.TradingPostInfo] = {}
        if catalog is not None:
            self.cards = {card.id: card for card in catalog.cards}
            self.nobles = {noble.id: noble for noble in catalog.nobles}
            self.cities = {city.id: city for city in catalog.cities}
            self.posts = {post.id: post for post in catalog.trading_posts}

    # Components.

    def card(self, card_id: int) -> str:
        """``"card 57 (level 2, red bonus, 2 points)"``; just ``"card 57"`` if the catalog lacks it.

        Orient cards name their deck and ability: ``"card 90 (Orient level 1, worth 2 gold once, 0 points)"``.
        """
        info = self.cards.get(card_id)
        if info is None:
            return f"card {card_id}"
        parts = [deck_name(info.deck)]
        if info.bonus_count > 1:
            parts.append(f"{info.bonus_count} {color_name(info.bonus)} bonuses")
        elif info.bonus_count == 1 or info.kind in (catalog_pb2.CARD_KIND_UNSPECIFIED, catalog_pb2.CARD_KIND_STANDARD):
            parts.append(f"{color_name(info.bonus)} bonus")
        if info.kind == catalog_pb2.CARD_KIND_SACRIFICE:
            bonuses = "bonus" if info.sacrifice_count == 1 else "bonuses"
            parts.append(f"discards {info.sacrifice_count} {color_name(info.sacrifice_color)} {bonuses}")
        elif _ABILITIES.get(info.kind):
            parts.append(str(_ABILITIES[info.kind]))
        parts.append(plural(info.points, "point"))
        return f"card {card_id} ({', '.join(parts)})"

    def cards_text(self, card_ids: Iterable[int]) -> str:
        """Several cards, ``"card 12 (...), card 14 (...)"``; ``"no card"`` when there are none.

        More than three are named by id only (``"cards 3, 12, 14 and 57"``), which keeps a
        Strongholds decision to one readable line: the board shows the cards themselves.
        """
        ids = list(card_ids)
        if len(ids) > SHORT_LIST:
            return "cards " + ", ".join(str(card_id) for card_id in ids[:-1]) + f" and {ids[-1]}"
        return ", ".join(self.card(card_id) for card_id in ids) or "no card"

    def card_line(self, card_id: int) -> str:
        """A card with its cost, for the board: ``"card 57 (level 2, red bonus, 2 points): costs 3 white, 2 blue"``."""
        info = self.cards.get(card_id)
        cost = f": costs {format_counts(info.cost, empty='nothing')}" if info is not None else ""
        return f"{self.card(card_id)}{cost}"

    def noble_requirement(self, noble_id: int) -> str:
        """``"noble 3 (3 points) needs 4 red, 4 green"``."""
        info = self.nobles.get(noble_id)
        needs = f" needs {format_counts(info.requirement, empty='nothing')}" if info is not None else ""
        return f"{self.noble(noble_id)}{needs}"

    def city_requirement(self, city_id: int) -> str:
        """``"city 11 (13 prestige) needs 4 red, and 3 of one colour"``."""
        info = self.cities.get(city_id)
        if info is None:
            return self.city(city_id)
        needs = [format_counts(info.requirement, empty="")] if format_counts(info.requirement, empty="") else []
        if info.same_color_count:
            other = "other " if info.same_color_excludes_listed else ""
            needs.append(f"{info.same_color_count} of one {other}colour")
        return f"{self.city(city_id)} needs " + (", and ".join(needs) or "only its prestige")

    def noble(self, noble_id: int) -> str:
        """``"noble 3 (3 points)"``; just ``"noble 3"`` if the catalog lacks it."""
        info = self.nobles.get(noble_id)
        if info is None:
            return f"noble {noble_id}"
        return f"noble {noble_id} ({plural(info.points, 'point')})"

    def city(self, city_id: int) -> str:
        """``"city 11 (13 prestige)"``; just ``"city 11"`` if the catalog lacks it."""
        info = self.cities.get(city_id)
        if info is None:
            return f"city {city_id}"
        return f"city {city_id} ({info.prestige} prestige)"

    def post(self, post_id: int) -> str:
        """``"trading post 3 (5 prestige once)"`` for post 2; just ``"trading post 3"`` if the catalog lacks it."""
        info = self.posts.get(post_id)
        if info is None or info.power not in POWERS:
            return f"trading post {post_id + 1}"
        return f"trading post {post_id + 1} ({POWERS[info.power]})"

    # Events.

    def event(self, event: events_pb2.Event) -> str:
        """One event as a sentence (a ``GameEnded`` adds one line per ranked seat)."""
        kind = event.WhichOneof("kind")
        if kind is None:
            return "(empty event)"
        describe = getattr(self, f"_{kind}", None)
        if describe is None:  # an event kind newer than this client
            return f"({kind.replace('_', ' ')})"
        text: str = describe(getattr(event, kind))
        return text

    def events(self, events: Iterable[events_pb2.Event], *, skip_turn_ended: bool = False) -> list[str]:
        """Every event described, optionally without the ``TurnEnded`` bookkeeping."""
        return [
            self.event(event) for event in events if not (skip_turn_ended and event.WhichOneof("kind") == "turn_ended")
        ]

    def _game_started(self, event: events_pb2.GameStarted) -> str:
        return f"A {event.num_players}-player game is dealt; {player_name(event.first_seat)} plays first"

    def _gems_taken(self, event: events_pb2.GemsTaken) -> str:
        return f"{player_name(event.seat)} takes {format_counts(event.tokens)}"

    def _gems_returned(self, event: events_pb2.GemsReturned) -> str:
        return f"{player_name(event.seat)} returns {format_counts(event.tokens)} to the bank"

    def _card_reserved(self, event: events_pb2.CardReserved) -> str:
        if event.blind:
            text = f"{player_name(event.seat)} reserves the top card of the {deck_name(event.deck)} deck"
            return text + (f": {self.card(event.card_id)}" if event.HasField("card_id") else " (unseen)")
        card = self.card(event.card_id) if event.HasField("card_id") else "a card"
        where = f"the {deck_name(event.deck)} row"
        if event.HasField("slot"):
            where += f", slot {event.slot}"
        return f"{player_name(event.seat)} reserves {card} from {where}"

    def _gold_received(self, event: events_pb2.GoldReceived) -> str:
        return f"{player_name(event.seat)} receives {event.amount} gold"

    def _card_purchased(self, event: events_pb2.CardPurchased) -> str:
        if event.source == events_pb2.CARD_SOURCE_RESERVE:
            source = "from their reserve"
        elif event.source == events_pb2.CARD_SOURCE_MARKET:
            source = "from the market"
        else:
            source = ""
        paying = format_counts(event.payment, empty="")
        price = f"paying {paying}" if paying else "for free (bonuses cover it)"
        return " ".join(
            part for part in (f"{player_name(event.seat)} buys {self.card(event.card_id)}", source, price) if part
        )

    def _card_revealed(self, event: events_pb2.CardRevealed) -> str:
        card = _capital(self.card(event.card_id))
        return f"{card} is revealed in the {deck_name(event.deck)} row, slot {event.slot}"

    def _market_slot_emptied(self, event: events_pb2.MarketSlotEmptied) -> str:
        return f"The {deck_name(event.deck)} deck is empty: slot {event.slot} of its row stays empty"

    def _noble_visited(self, event: events_pb2.NobleVisited) -> str:
        return f"{_capital(self.noble(event.noble_id))} visits {player_name(event.seat)}"

    def _city_claimed(self, event: events_pb2.CityClaimed) -> str:
        return f"{player_name(event.seat)} takes {self.city(event.city_id)}: the final round begins if it has not"

    def _power_gem_taken(self, event: events_pb2.PowerGemTaken) -> str:
        return (
            f"{player_name(event.seat)} takes 1 {color_name(event.color)} with the power of {self.post(event.post_id)}"
        )

    def _shield_placed(self, event: events_pb2.ShieldPlaced) -> str:
        text = f"{player_name(event.seat)} places a shield on {self.post(event.post_id)}"
        if event.prestige_gained:
            text += f", gaining {plural(event.prestige_gained, 'prestige point')}"
        return text

    def _stronghold_placed(self, event: events_pb2.StrongholdPlaced) -> str:
        if event.HasField("from_card_id"):
            return (
                f"{player_name(event.seat)} moves a stronghold from {self.card(event.from_card_id)} "
                f"to {self.card(event.card_id)}"
            )
        return f"{player_name(event.seat)} places a stronghold on {self.card(event.card_id)}"

    def _stronghold_removed(self, event: events_pb2.StrongholdRemoved) -> str:
        owner = player_name(event.owner)
        return f"{player_name(event.seat)} gives {owner}'s stronghold on {self.card(event.card_id)} back"

    def _strongholds_returned(self, event: events_pb2.StrongholdsReturned) -> str:
        return (
            f"{player_name(event.owner)} gets back {plural(event.count, 'stronghold')} "
            f"from {self.card(event.card_id)}, which left the market"
        )

    def _card_conquered(self, event: events_pb2.CardConquered) -> str:
        return f"{player_name(event.seat)} conquers {self.card(event.card_id)}, where its three strongholds stood"

    def _card_paired(self, event: events_pb2.CardPaired) -> str:
        return (
            f"{player_name(event.seat)} pairs {self.card(event.card_id)} with {self.card(event.partner_card_id)}: "
            f"one more {color_name(event.color)} bonus"
        )

    def _free_card_taken(self, event: events_pb2.FreeCardTaken) -> str:
        return (
            f"{player_name(event.seat)} takes {self.card(event.card_id)} for free from the "
            f"{deck_name(event.deck)} row, slot {event.slot}"
        )

    def _noble_reserved(self, event: events_pb2.NobleReserved) -> str:
        return f"{player_name(event.seat)} reserves {self.noble(event.noble_id)}: only that player can be visited by it"

    def _cards_discarded(self, event: events_pb2.CardsDiscarded) -> str:
        return f"{player_name(event.seat)} gives up {self.cards_text(event.card_ids)}, back to the box"

    def _decision_required(self, event: events_pb2.DecisionRequired) -> str:
        if event.kind == state_pb2.DECISION_KIND_RETURN_TOKENS:
            return f"{player_name(event.seat)} holds more than 10 tokens and must return {event.amount}"
        if event.kind == state_pb2.DECISION_KIND_CHOOSE_NOBLE:
            options = ", ".join(self.noble(noble_id) for noble_id in event.options)
            return f"{player_name(event.seat)} qualifies for several nobles and must choose one: {options}"
        if event.kind == state_pb2.DECISION_KIND_CHOOSE_CITY:
            options = ", ".join(self.city(city_id) for city_id in event.options)
            return f"{player_name(event.seat)} qualifies for several cities and must choose one: {options}"
        if event.kind == state_pb2.DECISION_KIND_TAKE_GEM:
            colors = ", ".join(color_name(value) for value in event.colors)
            return f"{player_name(event.seat)} must choose the colour of the gem a trading post grants: {colors}"
        if event.kind == state_pb2.DECISION_KIND_PLACE_STRONGHOLD:
            return (
                f"{player_name(event.seat)} must place or move a stronghold, or give an opponent's back; "
                f"a stronghold may go to {self.cards_text(event.options)}"
            )
        if event.kind == state_pb2.DECISION_KIND_CONQUER:
            return f"{player_name(event.seat)} may conquer (buy) {self.cards_text(event.options)}, or decline"
        if event.kind == state_pb2.DECISION_KIND_PAIR_CARD:
            return f"{player_name(event.seat)} must choose the card to pair with: {self.cards_text(event.options)}"
        if event.kind == state_pb2.DECISION_KIND_TAKE_FREE_CARD:
            return f"{player_name(event.seat)} must choose a card to take for free: {self.cards_text(event.options)}"
        if event.kind == state_pb2.DECISION_KIND_RESERVE_NOBLE:
            options = ", ".join(self.noble(noble_id) for noble_id in event.options)
            return f"{player_name(event.seat)} must choose a noble to reserve: {options}"
        return f"{player_name(event.seat)} must decide"

    def _passed(self, event: events_pb2.Passed) -> str:
        return f"{player_name(event.seat)} cannot move and passes"

    def _final_round_triggered(self, event: events_pb2.FinalRoundTriggered) -> str:
        return f"Final round! {player_name(event.seat)} reached {plural(event.prestige, 'prestige point')}"

    def _turn_ended(self, event: events_pb2.TurnEnded) -> str:
        return f"Turn {event.turn} is over; {player_name(event.next_seat)} plays next"

    def _game_ended(self, event: events_pb2.GameEnded) -> str:
        lines = [f"Game over: {END_REASONS.get(event.reason, 'the game ended')}. {winners_text(event.winners)}"]
        lines += ranking_lines(event.ranking, event.winners)
        return "\n".join(lines)

    # Actions.

    def action(self, action: ActionLike) -> str:
        """An action as an imperative phrase: ``"take 1 red, 1 blue, 1 green"``, ``"buy card 57 (...)"``."""
        message = as_action(action)
        kind = message.WhichOneof("kind")
        if kind == "take_gems":
            names = [color_name(value) for value in message.take_gems.colors]
            return "take " + (", ".join(f"1 {name}" for name in names) if names else "no gems")
        if kind == "take_two_gems":
            return f"take 2 {color_name(message.take_two_gems.color)}"
        if kind == "reserve_card":
            return f"reserve {self.card(message.reserve_card.card_id)}"
        if kind == "reserve_from_deck":
            return f"reserve the top card of the {deck_name(message.reserve_from_deck.deck)} deck"
        if kind == "purchase_card":
            return self._purchase_action(message.purchase_card)
        if kind == "pass":
            return "pass"
        if kind == "return_tokens":
            return f"return {format_counts(message.return_tokens.tokens)}"
        if kind == "choose_noble":
            return f"choose {self.noble(message.choose_noble.noble_id)}"
        if kind == "choose_city":
            return f"choose {self.city(message.choose_city.city_id)}"
        if kind == "take_gem":
            return f"take 1 {color_name(message.take_gem.color)}"
        if kind == "place_stronghold":
            place = message.place_stronghold
            if place.HasField("from_card_id"):
                return f"move a stronghold from {self.card(place.from_card_id)} to {self.card(place.card_id)}"
            return f"place a stronghold on {self.card(place.card_id)}"
        if kind == "remove_stronghold":
            return f"give back the opponent's stronghold on {self.card(message.remove_stronghold.card_id)}"
        if kind == "decline":
            return "decline"
        if kind == "pair_card":
            return f"pair with {self.card(message.pair_card.card_id)}"
        if kind == "take_free_card":
            return f"take {self.card(message.take_free_card.card_id)} for free"
        if kind == "reserve_noble":
            return f"reserve {self.noble(message.reserve_noble.noble_id)}"
        if kind == "action_id":
            return f"action #{message.action_id}"
        return "(empty action)"

    def _purchase_action(self, purchase: actions_pb2.PurchaseCard) -> str:
        text = f"buy {self.card(purchase.card_id)}"
        if purchase.HasField("payment"):
            text += f" paying {format_counts(purchase.payment)}"
        if purchase.HasField("cards_spent"):
            text += f" giving up {self.cards_text(purchase.cards_spent.card_ids)}"
        return text

    # Module states.

    def module_states(self, game: Game) -> list[str]:
        """One line per fact of the game's Cities of Splendor module state (none for the base game)."""
        lines: list[str] = []
        if game.HasField("cities"):
            cities = game.cities
            available = ", ".join(self.city(city_id) for city_id in cities.available_city_ids) or "none"
            lines.append(f"Cities on the table: {available}")
            for seat, held in enumerate(cities.held):
                if held.city_ids:
                    lines.append(
                        f"{player_name(seat)} holds {', '.join(self.city(city_id) for city_id in held.city_ids)}"
                    )
        if game.HasField("trading_posts"):
            for seat, shields in enumerate(game.trading_posts.shields):
                posts = ", ".join(self.post(post_id) for post_id in shields.post_ids) or "none yet"
                lines.append(f"{player_name(seat)} has shields on: {posts}")
        if game.HasField("strongholds"):
            for seat, placed in enumerate(game.strongholds.placed):
                lines.append(f"{player_name(seat)} {_strongholds_text(self, list(placed.card_ids))}")
        if game.HasField("orient"):
            orient = game.orient
            for seat, pairs in enumerate(orient.pairs):
                for pair in pairs.pairs:
                    lines.append(
                        f"{player_name(seat)} has {self.card(pair.card_id)} "
                        f"paired with {self.card(pair.partner_card_id)}"
                    )
            for seat, nobles in enumerate(orient.reserved_nobles):
                if nobles.noble_ids:
                    reserved = ", ".join(self.noble(noble_id) for noble_id in nobles.noble_ids)
                    lines.append(f"{player_name(seat)} has reserved {reserved}")
            for seat, discarded in enumerate(orient.discarded):
                if discarded.card_ids:
                    lines.append(f"{player_name(seat)} gave up {self.cards_text(discarded.card_ids)}")
        return lines


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _strongholds_text(describer: Describer, card_ids: list[int]) -> str:
    """``"has 2 strongholds on card 12 (...), 1 in supply"``: stacked ones counted per card, three in all."""
    if not card_ids:
        return "has all 3 strongholds in supply"
    stacks = ", ".join(
        f"{plural(card_ids.count(card_id), 'stronghold')} on {describer.card(card_id)}"
        for card_id in dict.fromkeys(card_ids)
    )
    return f"has {stacks}, {max(0, 3 - len(card_ids))} in supply"


def winners_text(winners: Sequence[int]) -> str:
    """``"Player 2 wins."`` or ``"Players 1 and 3 share the victory."`` (for seats 1, and 0 and 2)."""
    seats = list(winners)
    if not seats:
        return "Nobody wins."
    if len(seats) == 1:
        return f"{player_name(seats[0])} wins."
    listed = ", ".join(str(seat + 1) for seat in seats[:-1]) + f" and {seats[-1] + 1}"
    return f"Players {listed} share the victory."


def ranking_lines(ranking: Iterable[state_pb2.Standing], winners: Sequence[int] = ()) -> list[str]:
    """One line per standing: ``"  1. Player 3: 16 prestige, 11 cards (winner)"``."""
    winning = set(winners)
    return [
        f"  {standing.place}. {player_name(standing.seat)}: {standing.prestige} prestige, "
        f"{plural(standing.purchased_cards, 'card')}" + (" (winner)" if standing.seat in winning else "")
        for standing in ranking
    ]


def describe_event(event: events_pb2.Event, catalog: catalog_pb2.Catalog | None = None) -> str:
    """One event as a sentence; see ``Describer`` to describe many with the same catalog."""
    return Describer(catalog).event(event)


def describe_action(action: ActionLike, catalog: catalog_pb2.Catalog | None = None) -> str:
    """One action as an imperative phrase; see ``Describer``."""
    return Describer(catalog).action(action)
