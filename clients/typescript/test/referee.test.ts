// The client against a real referee (test/serve.ts): every call, its typed answers and errors,
// then the example's whole Pontinho hand and Tarocchi deal.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { move, pontinho, Referee, RefereeError, Status } from "../src/index.js";
import { playPontinhoHand, playTarocchiDeal } from "../examples/play_pontinho_and_tarocchi.js";
import { type Served, serve } from "./serve.js";

// the README's tour: dealer 0, so seat 1 plays first; it draws 4C
const DEAL = {
  hands: { "1": ["5C", "6C", "7C", "8C", "KH", "KS", "2D", "3D", "JH"],
    "2": ["4S", "4H", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
    "0": ["2S", "3S", "5H", "6H", "JD", "JS", "KC", "AD", "7S"] },
  turned: "9D", stock: ["4C", "TH", "5S"],
};

let served: Served;
let referee: Referee;
const quiet = () => {};

before(async () => {
  served = await serve();
  referee = await Referee.connect(served.target);
});

after(async () => {
  referee?.close();
  await served?.stop();
});

describe("games", () => {
  test("ListGames names every game", async () => {
    const names = (await referee.listGames()).map((g) => g.name);
    assert.deepEqual(names, ["pontinho", "pontoon", "shoot_pontoon", "taradinho", "tarocchi_piedicavallo"]);
  });

  test("DescribeGame carries the JSON Schemas and the typed fields", async () => {
    const description = await referee.describeGame("pontinho") as any;
    assert.ok(description.schemas.moves.discard.properties.card);
    assert.ok(description.schemas.view.properties.hand);
    assert.ok(description.schemas.events.drew.properties.card["x-secret"]);
    const discard = description.moves.find((m: any) => m.type === "discard");
    assert.deepEqual(discard.typed_fields, [{ name: "card", type: "card", optional: false }]);
  });

  test("an unknown game is a RefereeError NOT_FOUND", async () => {
    const error = await referee.describeGame("chess").catch((e: unknown) => e);
    assert.ok(error instanceof RefereeError);
    assert.equal(error.code, Status.NOT_FOUND);
    assert.equal(error.status, "NOT_FOUND");
    assert.match(error.details, /unknown game `chess`/);
  });
});

describe("a table", () => {
  test("proposals: typed moves, verdicts, secret events for their seat only", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, deal: DEAL });
    const seat1 = table.seat(1);
    const drew = await seat1.propose(pontinho.draw());
    assert.equal(drew.outcome, "accepted");
    assert.deepEqual(drew.events, [{ kind: "drew", seat: 1, stock_size: 75, card: "4C" }]); // the unlisted cards follow the stock
    const rejected = await seat1.propose(pontinho.meld({ cards: ["KH", "KS"] }));
    assert.equal(rejected.accepted, false);
    assert.equal(rejected.violations[0]!.rule, "PN-13-size");
    assert.equal(rejected.version, 1); // a rejected move changes nothing
    // a plain object in the fields reaches the referee (the Struct is the generated code's)
    const melded = await seat1.propose(pontinho.meld({ cards: ["4C", "5C", "6C"] }));
    assert.equal(melded.outcome, "accepted");
    const { view, version, seat } = await seat1.view();
    assert.equal(seat, 1);
    assert.equal(version, 2);
    assert.deepEqual(view.hand, ["7C", "8C", "KH", "KS", "2D", "3D", "JH"]);
    assert.deepEqual(view.melds.map((m) => m.cards), [["4C", "5C", "6C"]]);
    const spectator = await table.view();
    assert.equal(spectator.seat, undefined);
    assert.equal(spectator.view.hand, undefined);
  });

  test("Watch is an async iterable, redacted for each watcher", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, deal: DEAL });
    await table.seat(1).propose(pontinho.draw());
    for (const [watcher, card] of [[table.seat(1), "4C"], [table.seat(2), undefined], [table, undefined]] as const) {
      for await (const update of watcher.watch()) {
        assert.equal(update.version, 1);
        assert.equal(update.seat, 1);
        const event = update.events[0]!;
        assert.equal(event.kind, "drew");
        assert.equal(event.kind === "drew" ? event.card : null, card);
        break; // leaving the loop cancels the stream
      }
    }
  });

  test("move ids make a proposal idempotent; a stale version is ABORTED", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, deal: DEAL });
    const seat1 = table.seat(1);
    const first = await seat1.propose(pontinho.draw(), { moveId: "m-1" });
    const again = await seat1.propose(pontinho.draw(), { moveId: "m-1" });
    assert.deepEqual(again, first);
    const stale = await seat1.propose(pontinho.discard({ card: "JH" }), { expectedVersion: 0 })
      .catch((e: unknown) => e);
    assert.ok(stale instanceof RefereeError && stale.code === Status.ABORTED);
  });

  test("tokens: a handle per seat; a forged token is UNAUTHENTICATED", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, seed: 7 });
    assert.deepEqual(table.seats, [0, 1, 2]);
    assert.notEqual(table.token(0), table.token(1));
    const joined = referee.join("pontinho", table.id, table.token(2));
    assert.equal((await joined.view()).seat, 2);
    const forged = await referee.join("pontinho", table.id, "forged").view().catch((e: unknown) => e);
    assert.ok(forged instanceof RefereeError && forged.status === "UNAUTHENTICATED");
    assert.throws(() => table.seat(5), RangeError);
  });

  test("an untyped move of any game, and a malformed one as a verdict", async () => {
    const table = await referee.createTable("tarocchi_piedicavallo", { seats: 4, seed: 3 });
    const verdict = await table.seat(0).propose(move("play", { card: "ZZ" }) as any);
    assert.equal(verdict.outcome, "rejected");
    assert.equal(verdict.violations[0]!.rule, "GEN-8");
  });

  test("Adjudicate replays a record", async () => {
    const record = ["format: 1", "game: pontinho", "seats: 3", "dealer: 0", "seed: 7",
      "steps:", "  - {seat: 1, move: {type: draw}}"].join("\n");
    const report = await referee.adjudicate(record);
    assert.equal(report.legal, true);
    assert.equal(report.moves, 1);
  });

  test("Explain: a seat's own rejection rule by rule, another seat's view of it refused", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, deal: DEAL });
    await table.seat(2).propose(pontinho.draw(), { moveId: "out-of-turn" });
    const own = await table.seat(2).explain({ moveId: "out-of-turn" });
    assert.equal(own.shown, "own");
    assert.equal(own.verdict.outcome, "rejected");
    const draw = own.judged.find((j) => j.checkpoint === "draw");
    assert.deepEqual(draw?.rules.find((r) => r.rule === "GEN-7"),
      { rule: "GEN-7", outcome: "broken", reads: { in_turn: false } });
    assert.equal(own.text[0], "seat 2 proposed `draw` at version 0: rejected");
    await assert.rejects(table.seat(1).explain({ moveId: "out-of-turn" }),
      (error: unknown) => error instanceof RefereeError && error.status === "PERMISSION_DENIED");
  });

  test("GetRecord: a seat's signed record, by the key GetSigningKey gives", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, deal: DEAL });
    await table.seat(1).propose(pontinho.draw());
    const own = await table.seat(1).record();
    const record = JSON.parse(own.text);
    assert.equal(own.full, false);
    assert.equal(record.seen_by, 1);
    assert.equal(record.steps.length, 1);
    const key = await referee.signingKey();
    assert.equal(key.algorithm, "ed25519");
    assert.equal(record.signature.key, key.publicKey);
    const spectator = JSON.parse((await table.record()).text);
    assert.equal(spectator.seen_by, "public");
    assert.ok(!JSON.stringify(spectator).includes("4C"));  // seat 1 drew it: nobody else sees it
    assert.ok(JSON.stringify(record).includes("4C"));
    assert.equal((await table.view()).rulesVersion, record.rules_version);
  });
});

describe("the example", () => {
  test("plays a whole hand of Pontinho", async () => {
    const over = await playPontinhoHand(referee, 7, quiet);
    assert.equal(over.kind, "hand_over");
    assert.equal(over.points[String(over.went_out)], 0);
  });

  test("plays a whole deal of Tarocchi", async () => {
    const over = await playTarocchiDeal(referee, 3, quiet);
    assert.equal(over.kind, "deal_over");
    assert.equal(Object.values(over.tricks).reduce((a, b) => a + b, 0), 15);
  });
});
