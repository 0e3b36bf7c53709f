// The typed contract at compile time: what the schemas refuse, tsc refuses (`@ts-expect-error`
// fails the build when the line compiles). At run time the builders only shape the object.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tableFilterToProto } from "../src/convert.js";
import { TableState } from "../src/gen/referee/v1/referee.js";
import {
  type Fix, pontinho, pontoon, type Referee, type Seat, type TablePage, tarocchiPiedicavallo, type TypesOf,
  type Verdict,
} from "../src/index.js";

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

test("the lobby's filters travel as ListTablesRequest; a state not in_play or over is refused", () => {
  assert.deepEqual(tableFilterToProto({ game: "pontoon", state: "over", openDisputes: false }, 10, "next"),
    { game: "pontoon", state: TableState.TABLE_STATE_OVER, openDisputes: false, clockRunning: undefined,
      pageSize: 10, pageToken: "next" });
  assert.equal(tableFilterToProto({}, undefined, undefined).state, TableState.TABLE_STATE_UNSPECIFIED);
  assert.throws(() => tableFilterToProto({ state: "closed" } as never, 0, ""), /in_play or over, not `closed`/);
});

test("words, fixes and the lobby are typed", () => {
  const typed = async (referee: Referee, verdict: Verdict<pontinho.Event>) => {
    const fix: Fix | undefined = verdict.violations[0]?.fix;
    if (fix?.kind === "amount_range") assert.equal(typeof fix.max, "number");
    // @ts-expect-error: a play_one_of fix has cards, no moves
    if (fix?.kind === "play_one_of") assert.ok(fix.moves);
    const told: string = verdict.events[0]!.text;
    const table = await referee.createTable("pontinho", { seats: 3, names: { 0: "Ana" } });
    const fixes = (await table.seat(1).propose(pontinho.draw())).violations[0]?.fix;
    if (fixes?.kind === "play_one_of") {
      const card: pontinho.Card | undefined = fixes.cards[0]; // a table's fixes name its game's cards
      // @ts-expect-error: not a Tarocchi card
      const other: tarocchiPiedicavallo.Card | undefined = fixes.cards[0];
      assert.ok(card ?? other);
    }
    const page: TablePage = await referee.listTables({ state: "in_play", pageSize: 10 });
    const seat: Seat<TypesOf<"pontinho">> = await table.reissueSeat(0);
    const names: { [seat: string]: string } | undefined = (await seat.view({ language: "pt" })).view.names;
    // @ts-expect-error: a table is in play or over
    await referee.listTables({ state: "closed" });
    // @ts-expect-error: seats are numbers
    await referee.createTable("pontinho", { seats: 3, names: { first: "Ana" } });
    return [told, page, names];
  };
  assert.equal(typeof typed, "function");
});
