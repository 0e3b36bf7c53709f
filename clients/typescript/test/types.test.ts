// The typed contract at compile time: what the schemas refuse, tsc refuses (`@ts-expect-error`
// fails the build when the line compiles). At run time the builders only shape the object.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pontinho, pontoon, tarocchiPiedicavallo } from "../src/index.js";

test("builders make the move language's objects", () => {
  assert.deepEqual(pontinho.discard({ card: "7H" }), { type: "discard", card: "7H" });
  assert.deepEqual(pontinho.draw(), { type: "draw" });
  assert.deepEqual(pontinho.goOut({ melds: [["4C", "5C", "6C"]], discard: "JH" }),
    { type: "go_out", melds: [["4C", "5C", "6C"]], discard: "JH" });
  assert.deepEqual(pontoon.offerBank({ to: 1, price: 50 }), { type: "offer_bank", to: 1, price: 50 });
  assert.deepEqual(pontinho.move("layoff", { meld: 1, cards: ["7C"], at: "high" }),
    { type: "layoff", meld: 1, cards: ["7C"], at: "high" });
  assert.deepEqual(tarocchiPiedicavallo.play({ card: "T21" }), { type: "play", card: "T21" });
});

test("what the schemas refuse does not compile", () => {
  const refused = () => {
    // @ts-expect-error: no such card
    pontinho.discard({ card: "7X" });
    // @ts-expect-error: a tarot card in a French game
    pontinho.discard({ card: "T21" });
    // @ts-expect-error: a missing field
    pontinho.meld({});
    // @ts-expect-error: an unknown field
    pontinho.discard({ card: "7H", cards: ["7H"] });
    // @ts-expect-error: not one of the enum's values
    pontinho.layoff({ meld: 1, cards: ["7C"], at: "middle" });
    // @ts-expect-error: a number, not text
    pontoon.bet({ amount: "10" });
    // @ts-expect-error: no such move in this game
    tarocchiPiedicavallo.move("draw", {});
  };
  assert.equal(typeof refused, "function");
});

test("views and events are typed: an event's fields follow from its kind", () => {
  const event = { kind: "drew", seat: 1, stock_size: 2, card: "4C" } as pontinho.Event;
  if (event.kind === "drew") assert.equal(event.card, "4C");
  const seen: pontinho.View["hand_sizes"] = { "0": 9 };
  assert.equal(seen["0"], 9);
});
