"""Dealing a new game from its configuration."""

from __future__ import annotations

from typing import Final

from .catalog import BASE_DECKS, CARDS_BY_DECK, NOBLES
from .colors import NO_BONUSES, NO_TOKENS
from .config import GameConfig, validate_config
from .events import CardRevealed, Event, GameStarted
from .market import MARKET_SLOTS
from .rng import Stream, shuffled, stream
from .ruleset import known_modules, ruleset_for
from .state import GameState, PlayerState

GEMS_PER_COLOR: Final = {2: 4, 3: 5, 4: 7}
GOLD_TOKENS: Final = 5
_DECK_STREAMS: Final = (Stream.DECK_LEVEL_1, Stream.DECK_LEVEL_2, Stream.DECK_LEVEL_3)

EMPTY_PLAYER: Final = PlayerState(
    tokens=NO_TOKENS, bonuses=NO_BONUSES, prestige=0, purchased=(), reserved=(), reserved_blind=(), nobles=()
)


def new_game(config: GameConfig) -> tuple[GameState, tuple[Event, ...]]:
    """The dealt game and the events of the deal. Raises ``RuleViolation`` for a bad config."""
    validate_config(config, known_modules())
    players = config.num_players
    seed = config.seed
    shuffled_decks = [shuffled(CARDS_BY_DECK[deck], stream(seed, _DECK_STREAMS[deck])) for deck in BASE_DECKS]
    market = tuple(pile[:MARKET_SLOTS] for pile in shuffled_decks)
    decks = tuple(pile[MARKET_SLOTS:] for pile in shuffled_decks)
    nobles = shuffled(tuple(noble.id for noble in NOBLES), stream(seed, Stream.NOBLES))[: players + 1]
    first_seat = config.first_seat
    if first_seat is None:
        first_seat = stream(seed, Stream.FIRST_SEAT).below(players)
    gems = GEMS_PER_COLOR[players]
    state = GameState(
        config=config,
        bank=(gems, gems, gems, gems, gems, GOLD_TOKENS),
        decks=decks,
        market=market,
        nobles=nobles,
        players=(EMPTY_PLAYER,) * players,
        first_seat=first_seat,
        seat=first_seat,
        turn=0,
        pending=None,
        final_round=False,
        passes_in_a_row=0,
        end_reason=None,
        ranking=(),
    )
    for module in ruleset_for(state).modules:
        if module.setup is not None:
            state = module.setup(state)
    events: list[Event] = [GameStarted(first_seat, players)]
    for deck, row in enumerate(state.market):
        events.extend(CardRevealed(deck, slot, card_id) for slot, card_id in enumerate(row) if card_id is not None)
    return state, tuple(events)
