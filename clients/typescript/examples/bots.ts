// Two small bots that know no rule: they propose candidate moves, best first, and keep the first
// the referee accepts (a rejected move changes nothing). Each reads only its own seat's view.
import { pontinho, tarocchiPiedicavallo as tarocchi } from "../src/index.js";

type Card = pontinho.Card;
const RANKS = "A23456789TJQK";
const order = (a: string, b: string) =>
  a[1]! === b[1]! ? RANKS.indexOf(a[0]!) - RANKS.indexOf(b[0]!) : a[1]!.localeCompare(b[1]!);

/** Every `size`-card subset of `cards`, in order. */
export function* combinations<T>(cards: readonly T[], size: number, from = 0): Generator<T[]> {
  if (size === 0) { yield []; return; }
  for (let i = from; i <= cards.length - size; i++) {
    for (const rest of combinations(cards, size - 1, i + 1)) yield [cards[i]!, ...rest];
  }
}

/** Pontinho: draw; go out if the hand allows; lay melds and lay-offs; then discard. */
export function* pontinhoCandidates(view: pontinho.View): Generator<pontinho.Move> {
  const legal = view.legal_moves ?? [];
  const hand = [...(view.hand ?? [])].sort(order);
  if (legal.includes("reenter")) { yield pontinho.reenter(); return; }
  if (legal.includes("pass")) { yield pontinho.pass(); return; } // a claim window: let it go
  if (legal.includes("draw")) { yield pontinho.draw(); return; }
  if (legal.includes("meld")) {
    if (hand.length === 1) yield pontinho.discard({ card: hand[0]! });
    if (hand.length >= 3 && hand.length <= 4) {
      for (const melded of combinations(hand, hand.length - 1)) {
        const rest = hand.filter((c) => !melded.includes(c));
        yield pontinho.goOut({ melds: [melded], discard: rest[0] });
      }
    }
    if (hand.length >= 4) { // keep a card to discard (PN-22)
      for (const cards of likelyMelds(hand)) yield pontinho.meld({ cards });
    }
    if (hand.length >= 2) {
      for (const meld of view.melds) {
        for (const card of hand) yield pontinho.layoff({ meld: meld.id, cards: [card] });
      }
    }
  }
  if (legal.includes("discard")) for (const card of hand) yield pontinho.discard({ card });
}

/** Three of a rank in three suits, and three in a row of a suit (Q K A too). */
function* likelyMelds(hand: Card[]): Generator<Card[]> {
  for (const rank of RANKS) {
    const suits = new Map(hand.filter((c) => c[0] === rank).map((c) => [c[1], c]));
    if (suits.size >= 3) yield [...suits.values()].slice(0, 3);
  }
  for (const suit of "SHDC") {
    const has = (rank: string) => hand.includes(`${rank}${suit}` as Card);
    for (const run of [...RANKS.slice(0, 11).split("").map((_, i) => RANKS.slice(i, i + 3)), "QKA"]) {
      if ([...run].every(has)) yield [...run].map((rank) => `${rank}${suit}` as Card);
    }
  }
}

const suit = (card: string) => (/^T\d/.test(card) ? "T" : card.slice(-1));

/** Tarocchi: the dealer's discard (any two cards), then a card to each trick, the led suit first. */
export function* tarocchiCandidates(view: tarocchi.View): Generator<tarocchi.Move> {
  if (view.seat === undefined || view.to_act !== view.seat) return;
  const hand = view.hand ?? [];
  if (view.phase === "discard") {
    const extra = hand.length - Math.max(...Object.entries(view.hand_sizes)
      .filter(([seat]) => Number(seat) !== view.seat).map(([, n]) => n));
    for (const cards of combinations(hand, extra)) yield tarocchi.discard({ cards });
  } else if (view.phase === "play") {
    const led = view.trick[0] && suit(view.trick[0].card);
    const following = hand.filter((card) => suit(card) === led);
    for (const card of [...following, ...hand.filter((c) => !following.includes(c))]) {
      yield tarocchi.play({ card });
    }
  }
}

export type { Card };
