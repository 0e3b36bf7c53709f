"""From hand to hand: the deal, scoring, the settlement (`rummy.settlement`), and, where the spec
selects the elimination match (`rummy.match`), blowing, drops, re-entry, the next deal and the
winner.

Without a match the game is `rummy.hands` hands (one unless the spec says), the deal passing to
the next seat each hand: whoever goes out of the last one wins it. With one, hands are dealt
until one seat is left under the total that blows. Who may re-enter is the spec's `reenter`
rules, asked in advance: a blown seat is asked to decide exactly when its `reenter` would be
accepted. Chips move only by `transfer`, each an event, so balances plus pot never change in sum.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.cards import Card, codes
from referee.engine import chance
from referee.mechanics.rummy.config import RummyConfig
from referee.mechanics.rummy.deal import Dealt, deal_from_seed, deal_stacked
from referee.mechanics.rummy.parts import MatchRules
from referee.mechanics.rummy.state import TURNED, RummyState
from referee.model import Event


def transfer(
    state: RummyState, source: int | None, target: int | None, amount: int, reason: str
) -> Event:
    """Move chips between a seat's balance and the pot (None): the only way chips move."""
    if source is None:
        state.pot -= amount
    else:
        state.balances[source] -= amount
    if target is None:
        state.pot += amount
    else:
        state.balances[target] += amount
    return Event(
        "transfer",
        {
            "from": "pot" if source is None else source,
            "to": "pot" if target is None else target,
            "amount": amount,
            "reason": reason,
        },
    )


def pay_entry_stakes(state: RummyState, rules: MatchRules | None) -> list[Event]:
    stake = rules.stake(state.options) if rules is not None else 0
    return (
        [transfer(state, s, None, stake, "entry stake") for s in range(state.seats)]
        if stake
        else []
    )


def deal_hand(
    state: RummyState, config: RummyConfig, stacked: Mapping[str, Any] | None, pack: list[Card]
) -> list[Event]:
    """Deal the hand `state.hand_number` to the seats playing, the one after the dealer first."""
    order = [state.mao]
    while len(order) < len(state.playing):
        order.append(state.next_seat(order[-1]))
    if stacked is not None:
        dealt = deal_stacked(pack, state.seats, config.hand_size, stacked, config.turned_card)
    else:
        dealt = deal_from_seed(
            pack,
            state.seats,
            order,
            config.hand_size,
            config.packet(state.options),
            state.seed,
            state.hand_number,
            config.turned_card,
        )
    _lay_out(state, config, dealt)
    public = Event(
        "hand_dealt",
        {
            "hand_number": state.hand_number,
            "dealer": state.dealer,
            "mao": state.mao,
            "turned": None if state.turned is None else str(state.turned),
            "jokers": codes(sorted(state.jokers)),
            "commitment": hand_commitment(state),
        },
    )
    private = [
        Event("dealt", {"seat": s}, {"cards": codes(state.hands[s])}, frozenset({s})) for s in order
    ]
    return [public, *private]


def _lay_out(state: RummyState, config: RummyConfig, dealt: Dealt) -> None:
    state.hands, state.turned, state.deck = dealt.hands, dealt.turned, dealt.deck
    state.keys = dict(dealt.keys)
    state.stock = list(reversed(dealt.stock))
    # the turned card, where there is one, is the first discard, nobody's
    state.discard, state.discarders = ([dealt.turned], [TURNED]) if dealt.turned else ([], [])
    state.turned_covered = False
    state.jokers = frozenset(
        c for c in set(dealt.deck) if config.is_joker(state.options, dealt.turned, c)
    )
    state.melds, state.stolen = [], [0] * state.seats
    state.went_out, state.rebuilds = None, 0
    state.to_act, state.phase = state.mao, "take"


def score_hand(state: RummyState, config: RummyConfig) -> list[int]:
    """What each seat adds (the spec's hand points, and the bonus per joker stolen from its
    melds); the seat that went out adds nothing."""
    points = []
    for seat in range(state.seats):  # seats not dealt in hold no cards: they add nothing
        hand = (
            0
            if seat == state.went_out
            else config.hand_points(
                state.options, state.turned, state.hands[seat], state.scores[seat]
            )
        )
        points.append(hand + config.steal_bonus(state.options, state.turned) * state.stolen[seat])
    return points


def end_hand(
    state: RummyState,
    config: RummyConfig,
    may_reenter: Callable[[RummyState, int], bool],
    pack: list[Card],
) -> list[Event]:
    """After the move that went out: score; in a match, blow, pay drops, then ask, deal on, or
    end; otherwise the game is over."""
    points = score_hand(state, config)
    state.scores = [s + p for s, p in zip(state.scores, points)]
    state.last_hand = finished_table(state, points)
    events = [
        Event(
            "hand_over",
            {**state.last_hand, "scores": {str(s): p for s, p in enumerate(state.scores)}},
        )
    ]
    events += settle(state, config)
    rules = config.match
    if rules is None:
        return events + _deal_on_or_end(state, config, pack, state.went_out)
    newly_blown = [s for s in state.playing if state.scores[s] >= rules.blow_at]
    for seat in newly_blown:
        state.blown[seat] = True
        state.blows[seat] += 1
        events.append(Event("blown", {"seat": seat, "score": state.scores[seat]}))
    # who may come back is the spec's rules alone: the match ends only when at most one seat
    # plays on and nobody may come back
    deciding = [s for s in newly_blown if may_reenter(state, s)]
    if len(state.playing) <= 1 and not deciding:
        return events + end_match(state, newly_blown)
    events += _pay_drops(state, rules)
    state.deciding = deciding
    for seat in set(newly_blown) - set(state.deciding):
        state.in_match[seat] = False
    if state.deciding:
        state.phase, state.to_act = "decide", None
        events.append(Event("deciding", {"seats": list(state.deciding)}))
        return events
    return events + next_hand(state, config, pack)


def void_hand(state: RummyState, config: RummyConfig, pack: list[Card]) -> list[Event]:
    """The stock is gone and the seat in turn cannot use the top discard: the hand ends void.
    Nobody went out, nobody adds points; in a match the next hand is dealt as usual, otherwise
    the game is over without a winner."""
    state.last_hand = {**finished_table(state, [0] * state.seats), "void": True}
    events = [
        Event("hand_void", {"hand_number": state.hand_number, "seat": state.to_act}),
        Event(
            "hand_over",
            {**state.last_hand, "scores": {str(s): p for s, p in enumerate(state.scores)}},
        ),
    ]
    if config.match is None:
        return events + _deal_on_or_end(state, config, pack, None)
    return events + next_hand(state, config, pack)


def settle(state: RummyState, config: RummyConfig) -> list[Event]:
    """Each seat dealt in that did not go out pays whoever went out what the spec's
    `rummy.settlement.pays` says (balance to balance: GEN-6)."""
    if config.settle is None or state.went_out is None:
        return []
    events = []
    for seat in state.playing:
        if seat == state.went_out:
            continue
        amount = config.pays(state.options, state.turned, state.hands[seat], state.scores[seat])
        if amount:
            events.append(transfer(state, seat, state.went_out, amount, "settlement"))
    return events


def _deal_on_or_end(
    state: RummyState, config: RummyConfig, pack: list[Card], winner: int | None
) -> list[Event]:
    """A game without a match: the next hand while the spec's `rummy.hands` are not all
    dealt, else the game is over, won by whoever went out of the last hand."""
    if state.hand_number < config.hands(state.options, state.turned):
        return next_hand(state, config, pack)
    return game_over(state, winner)


def finished_table(state: RummyState, points: list[int]) -> dict[str, Any]:
    """The hand just ended, revealed: every hand, the melds, the dealt deck, the points."""
    return {
        "hand_number": state.hand_number,
        "went_out": state.went_out,
        "points": {str(s): p for s, p in enumerate(points)},
        "hands": {str(s): codes(h) for s, h in enumerate(state.hands)},
        "hand_sizes": {str(s): len(h) for s, h in enumerate(state.hands)},
        "melds": [
            {"id": m.id, "kind": m.kind, "owner": m.owner, "cards": codes(m.cards)}
            for m in state.melds
        ],
        "discard_top": str(state.discard[-1]) if state.discard else None,
        "stock_size": len(state.stock),
        "deck": codes(state.deck),
        "commitment": hand_commitment(state),
        "salt": chance.hand_salt(state.salt, state.hand_number),
        "keys": dict(state.keys),
    }


def hand_commitment(state: RummyState) -> str:
    """sha256 of the hand's salt and its dealt deck, checkable once the deck is revealed."""
    return chance.hand_commitment(state.salt, state.hand_number, state.deck)


def _pay_drops(state: RummyState, rules: MatchRules) -> list[Event]:
    """Every other player still in pays the drop to whoever went out."""
    drop = rules.stake(state.options) * rules.drop_percent // 100
    if not drop or state.went_out is None:
        return []
    return [
        transfer(state, s, state.went_out, drop, "drop")
        for s in state.playing
        if s != state.went_out
    ]


def reenter(state: RummyState, seat: int, rules: MatchRules) -> list[Event]:
    """Back at the spec's `reentry_score`, paying the stake (doubled per earlier blow, if so)."""
    assert rules.reentry_score is not None  # a spec with a `reenter` move has one (reading.py)
    score = rules.reentry_score(state.options, [state.scores[s] for s in state.playing])
    state.scores[seat] = score
    state.blown[seat] = False
    state.reentries[seat] += 1
    events = [Event("reentered", {"seat": seat, "score": score})]
    price = rules.stake(state.options) * (2 ** (state.blows[seat] - 1) if rules.doubling else 1)
    if price:
        events.append(transfer(state, seat, None, price, "re-entry"))
    return events


def decline(state: RummyState, seat: int) -> list[Event]:
    state.in_match[seat] = False
    return [Event("declined", {"seat": seat})]


def after_decision(state: RummyState, config: RummyConfig, pack: list[Card]) -> list[Event]:
    """Once no blown seat is left deciding: the next hand, or the match's end."""
    if state.deciding:
        return []
    if len(state.playing) <= 1:
        return end_match(state, [])
    return next_hand(state, config, pack)


def next_hand(state: RummyState, config: RummyConfig, pack: list[Card]) -> list[Event]:
    """The deal passes to the next seat playing; the hand is dealt from the table seed."""
    state.deciding = []
    state.out_of_hand = [False] * state.seats  # every seat playing is dealt in again
    state.dealer = state.next_seat(state.dealer)
    state.hand_number += 1
    return deal_hand(state, config, None, pack)


def end_match(state: RummyState, blown: list[int]) -> list[Event]:
    """The last player in wins the match."""
    playing = state.playing
    for seat in blown:
        state.in_match[seat] = False
    return game_over(state, playing[0] if playing else state.went_out)


def game_over(state: RummyState, winner: int | None) -> list[Event]:
    """No move is accepted any more; the winner, if any, takes the pot."""
    state.winner = winner
    state.phase, state.to_act, state.deciding = "over", None, []
    events = [Event("match_over", {"winner": state.winner, "pot": state.pot})]
    if state.pot and state.winner is not None:
        events.append(transfer(state, None, state.winner, state.pot, "pot"))
    return events
