// The client against a real referee (test/serve.ts): every call, its typed answers and errors,
// every word it says in the language asked for, the lobby, then the examples' whole hands.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { move, pontinho, Referee, RefereeError, Status, TABLE_HEADER } from "../src/index.js";
import { playPontinhoHand, playTarocchiDeal } from "../examples/play_pontinho_and_tarocchi.js";
import { type Served, serve } from "./serve.js";

// the shipped games: the spec files in specs/ (a proofs file is no game), sorted as ListGames
// (this file runs as dist/test/referee.test.js)
const SPECS = fileURLToPath(new URL("../../../../specs", import.meta.url));
const SHIPPED = readdirSync(SPECS)
  .filter((name) => name.endsWith(".yaml") && !name.endsWith(".proofs.yaml"))
  .map((name) => name.slice(0, -".yaml".length))
  .sort();
const WHOLE_HAND = fileURLToPath(new URL("../examples/whole_hand.js", import.meta.url)); // README's example

// the README's tour: dealer 0, so seat 1 plays first; it draws 4C
const DEAL = {
  hands: { "1": ["5C", "6C", "7C", "8C", "KH", "KS", "2D", "3D", "JH"],
    "2": ["4S", "4H", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
    "0": ["2S", "3S", "5H", "6H", "JD", "JS", "KC", "AD", "7S"] },
  turned: "9D", stock: ["4C", "TH", "5S"],
};

// a second referee, started with an operator's token: the director is whoever sends it
const OPERATOR = "the-operator's-token";
let served: Served;
let referee: Referee;
let directed: Served;
let director: Referee;
const quiet = () => {};

before(async () => {
  [served, directed] = await Promise.all([serve(), serve({ createToken: OPERATOR })]);
  referee = await Referee.connect(served.target);
  director = await Referee.connect(directed.target, { createToken: OPERATOR });
});

after(async () => {
  referee?.close();
  director?.close();
  await Promise.all([served?.stop(), directed?.stop()]);
});

describe("games", () => {
  test("ListGames names every game", async () => {
    const names = (await referee.listGames()).map((g) => g.name);
    assert.deepEqual(names, SHIPPED);
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
    assert.deepEqual(drew.events, [{ kind: "drew", seat: 1, stock_size: 75, card: "4C", // the unlisted cards follow the stock
      text: drew.events[0]!.text }]);
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
    assert.equal(own.text[0], "seat 2 proposed to draw at version 0: rejected");
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

describe("words: the referee's every sentence, in the language asked for", () => {
  let portuguese: Referee;

  before(async () => {
    portuguese = await Referee.connect(served.target, { language: "pt" });
  });

  after(() => portuguese?.close());

  test("a rejection keeps its fix and hint: in the connection's language, or a call's own", async () => {
    const table = await portuguese.createTable("pontinho", { seats: 3, deal: DEAL });
    const early = (await table.seat(1).propose(pontinho.discard({ card: "JH" }))).violations[0]!;
    assert.deepEqual(early.fix, { kind: "move_instead", moves: ["draw", "take_discard"] });
    assert.match(early.message, /^primeiro compre uma carta/);
    assert.match(early.hint, /^faça em vez disso /);
    const fix = early.fix; // a union tagged by kind: its values follow
    assert.deepEqual(fix?.kind === "move_instead" ? fix.moves : [], ["draw", "take_discard"]);
    const english = (await table.seat(1).propose(pontinho.discard({ card: "JH" }), { language: "en" })).violations[0]!;
    assert.deepEqual(english.fix, early.fix); // data in no language
    assert.equal(english.rule, early.rule);
    assert.ok(english.hint && english.hint !== early.hint && english.message !== early.message);
    const outOfTurn = (await table.seat(2).propose(pontinho.draw())).violations[0]!;
    assert.deepEqual([outOfTurn.rule, outOfTurn.fix, outOfTurn.hint], ["GEN-7", undefined, ""]);
  });

  test("events keep their text, told to each reader: a seat's own card, a card to the others", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, deal: DEAL });
    const drew = await table.seat(1).propose(pontinho.draw(), { language: "pt" });
    assert.match(drew.events[0]!.text, /^você comprou 4\S* do monte$/);
    for await (const update of table.seat(2).watch({ language: "pt" })) {
      assert.match(update.events[0]!.text, /comprou uma carta do monte/);
      assert.doesNotMatch(update.events[0]!.text, /4/); // no more than the seat may see
      break;
    }
    for await (const update of table.watch()) { // no language: English
      assert.match(update.events[0]!.text, /drew a card from the stock/);
      break;
    }
  });

  test("Explain's lines come in the language asked for", async () => {
    const table = await referee.createTable("pontinho", { seats: 3, deal: DEAL });
    await table.seat(2).propose(pontinho.draw(), { moveId: "out-of-turn" });
    const english = await table.seat(2).explain({ moveId: "out-of-turn" });
    const portuguese = await table.seat(2).explain({ moveId: "out-of-turn" }, { language: "pt" });
    assert.equal(portuguese.text.length, english.text.length);
    assert.match(portuguese.text[0]!, /propôs .*: recusada$/);
    assert.equal(portuguese.verdict.violations[0]!.message, "não é a sua vez");
  });

  test("DescribeGame's sentences: the connection's language, or a call's own", async () => {
    assert.equal((await portuguese.describeGame("pontinho")).language, "pt");
    assert.equal((await portuguese.describeGame("pontinho", { language: "en" })).language, "en");
  });

  test("a language the game is not written in gets English", async () => {
    const table = await portuguese.createTable("pontinho", { seats: 3, deal: DEAL });
    const drew = await table.seat(1).propose(pontinho.draw(), { language: "tl" }); // Pontinho: en, pt
    assert.match(drew.events[0]!.text, /^you drew /);
  });
});

describe("the director", () => {
  /** Seat 1 draws 4C and discards JH (versions 1 and 2); seat 2 disputes the discard: dispute 3. */
  async function disputedDiscard() {
    const table = await director.createTable("pontinho", { seats: 3, deal: DEAL });
    await table.seat(1).propose(pontinho.draw());
    await table.seat(1).propose(pontinho.discard({ card: "JH" }));
    const disputed = await table.seat(2).propose(pontinho.dispute({ version: 2, reason: "I called it first" }));
    assert.equal(disputed.version, 3);
    return table;
  }

  test("a rewind voids the moves after its version; a dispute is ruled on once", async () => {
    const table = await disputedDiscard();
    const ruled = await table.rule({ dispute: 3, decision: "rewind", to: 1, note: "seat 2 called first" });
    assert.equal(ruled.outcome, "accepted");
    assert.equal(ruled.version, 4);
    assert.equal(ruled.seat, -1); // the director's
    assert.equal(ruled.events.length, 1);
    const rewound = ruled.events[0]!;
    assert.equal(rewound.kind, "rewound");
    assert.deepEqual(rewound.kind === "rewound" && rewound.voided, [2]);
    const { view } = await table.seat(1).view();
    assert.ok(view.hand?.includes("JH"));
    assert.deepEqual([view.disputes, view.disputes_ruled], [[], 1]); // ruled on: counted, not listed
    const again = await table.rule({ dispute: 3, decision: "uphold", note: "again" });
    assert.equal(again.outcome, "rejected");
    assert.match(again.violations[0]!.message, /dispute 3 was ruled on at version 4/);
    assert.equal(again.version, 4); // a rejected ruling changes nothing
  });

  test("a move disputed and still open is not disputed again: the verdict says why", async () => {
    const table = await disputedDiscard();
    const again = await table.seat(0).propose(pontinho.dispute({ version: 2, reason: "me too" }));
    assert.equal(again.outcome, "rejected");
    assert.equal(again.violations[0]!.code, "already_disputed");
    assert.equal(again.version, 3); // nothing changed
  });

  test("the director's view has every hand; its stream every event whole", async () => {
    const table = await disputedDiscard();
    const { view, seat } = await table.directorView();
    assert.equal(seat, -1);
    assert.deepEqual(Object.keys(view.hands ?? {}).sort(), ["0", "1", "2"]);
    assert.deepEqual(view.hands?.["1"], (await table.seat(1).view()).view.hand);
    await table.rule({ dispute: 3, decision: "uphold", note: "the discard stands" });
    const updates = [];
    for await (const update of table.watch({ fromVersion: 2, director: true })) {
      updates.push(update);
      if (updates.length === 2) break;
    }
    assert.deepEqual(updates.map((u) => [u.version, u.seat, u.events[0]!.kind]),
      [[3, 2, "disputed"], [4, -1, "upheld"]]);
    const [disputed, upheld] = updates.map((u) => u.events[0]!);
    assert.equal(disputed?.kind === "disputed" && disputed.reason, "I called it first"); // for the director
    assert.equal(upheld?.kind === "upheld" && upheld.note, "the discard stands");
    for await (const update of table.watch({ fromVersion: 2 })) {
      const event = update.events[0]!;
      assert.equal(event.kind === "disputed" && event.reason, undefined); // not for a spectator
      break;
    }
  });

  test("an adjust on a second dispute changes the public scores", async () => {
    const table = await disputedDiscard();
    const disputed = await table.seat(0).propose(pontinho.dispute({ version: 1, reason: "a misdeal" }));
    assert.equal(disputed.version, 4);
    const ruled = await table.rule({ dispute: 4, decision: "adjust", seat: 0, amount: -5, tally: "score",
      note: "seat 0 is compensated" }, { rulingId: "ruling-1", expectedVersion: 4 });
    assert.equal(ruled.outcome, "accepted");
    const adjusted = ruled.events[0]!;
    assert.equal(adjusted.kind, "adjusted");
    assert.equal(adjusted.kind === "adjusted" && adjusted.total, -5);
    const { view } = await table.view();
    assert.equal(view.scores["0"], -5);
    assert.deepEqual(view.disputes, [{ dispute: 3, seat: 2, version: 2 }]); // the one open
    assert.equal(view.disputes_ruled, 1);
    const again = await table.rule({ dispute: 4, decision: "adjust", seat: 0, amount: -5, tally: "score",
      note: "seat 0 is compensated" }, { rulingId: "ruling-1" });
    assert.deepEqual(again, ruled); // the ruling id makes it idempotent
  });

  test("only the operator's token rules: a seat's is PERMISSION_DENIED, so is a wrong one", async () => {
    const table = await disputedDiscard();
    const ruling = { dispute: 3, decision: "uphold", note: "it stands" } as const;
    const stranger = await Referee.connect(directed.target);
    const impostor = await Referee.connect(directed.target, { createToken: "a guess" });
    try {
      for (const referee of [stranger, impostor]) {
        await assert.rejects(referee.join("pontinho", table.id, table.token(2)).table.rule(ruling),
          (error: unknown) => error instanceof RefereeError && error.status === "PERMISSION_DENIED");
      }
    } finally {
      stranger.close();
      impostor.close();
    }
    assert.equal((await table.rule(ruling)).outcome, "accepted"); // still open: nobody ruled
  });
});

describe("the lobby: names, tables, reissued seats (the operator's)", () => {
  // the director's referee; the other tests there play Pontinho, and the tables here each a game's
  test("display names go in at CreateTable and show in the views and the lobby", async () => {
    const table = await director.createTable("pontinho", { seats: 3, deal: DEAL, names: { 0: "Ana", 2: "Bia" } });
    assert.deepEqual((await table.seat(1).view()).view.names, { "0": "Ana", "2": "Bia" });
    const { tables, nextPageToken } = await director.listTables({ game: "pontinho" });
    const listed = tables.find((t) => t.tableId === table.id);
    assert.deepEqual(listed && [listed.game, listed.seats, listed.names, listed.version, listed.over],
      ["pontinho", 3, { 0: "Ana", 2: "Bia" }, 0, false]);
    assert.equal(nextPageToken, "");
  });

  test("ListTables filters and pages; anyone but the operator is PERMISSION_DENIED", async () => {
    const quiet = await director.createTable("tarocchi_piedicavallo", { seats: 4, seed: 3 });
    const disputed = await director.createTable("tarocchi_piedicavallo", { seats: 4, seed: 3 });
    const { view } = await disputed.view();
    const first = await disputed.seat(view.to_act!).propose(move("contribute", { entropy: "x" }) as any);
    assert.equal(first.outcome, "accepted");
    const raised = await disputed.seat(1).propose(move("dispute", { version: 1, reason: "misdeal" }) as any);
    assert.equal(raised.outcome, "accepted");
    const open = await director.listTables({ game: "tarocchi_piedicavallo", openDisputes: true });
    assert.deepEqual(open.tables.map((t) => [t.tableId, t.openDisputes]), [[disputed.id, [raised.version]]]);
    const page = await director.listTables({ game: "tarocchi_piedicavallo", pageSize: 1 });
    assert.deepEqual(page.tables.map((t) => t.tableId), [disputed.id]); // newest first
    assert.notEqual(page.nextPageToken, "");
    const all = [];
    for await (const t of director.tables({ game: "tarocchi_piedicavallo", state: "in_play" })) all.push(t.tableId);
    assert.deepEqual(all, [disputed.id, quiet.id]);
    const stranger = await Referee.connect(directed.target);
    try {
      await assert.rejects(stranger.listTables(),
        (error: unknown) => error instanceof RefereeError && error.status === "PERMISSION_DENIED");
    } finally {
      stranger.close();
    }
  });

  test("ReissueSeat: the seat's new token acts, its old one is UNAUTHENTICATED", async () => {
    const table = await director.createTable("pontinho", { seats: 3, deal: DEAL });
    const old = table.token(1);
    const seat1 = await table.reissueSeat(1);
    assert.notEqual(table.token(1), old);
    assert.equal((await seat1.propose(pontinho.draw())).outcome, "accepted");
    await assert.rejects(director.join("pontinho", table.id, old).view(),
      (error: unknown) => error instanceof RefereeError && error.status === "UNAUTHENTICATED");
    await assert.rejects(director.reissueSeat(table.id, 7),
      (error: unknown) => error instanceof RefereeError && error.status === "INVALID_ARGUMENT");
  });
});

describe("the table header (x-referee-table), where a proxy routes a table's calls", () => {
  const ABOUT_A_TABLE = ["propose", "getView", "watch", "getRecord", "explain", "rule", "reissueSeat"];

  /** A connection whose calls pass `sent` their method's name and metadata before they go out. */
  async function watched(sent: (method: string, metadata: any) => void): Promise<Referee> {
    const connection = await Referee.connect(directed.target, { createToken: OPERATOR });
    const client = connection.client as any;
    for (const name of ABOUT_A_TABLE) {
      const original = client[name];
      client[name] = function (this: unknown, request: unknown, metadata: any, ...rest: unknown[]) {
        sent(name, metadata);
        return original.call(this, request, metadata, ...rest);
      };
    }
    return connection;
  }

  test("every call of a table names it", async () => {
    const named = new Map<string, unknown[]>();
    const connection = await watched((method, metadata) => named.set(method, metadata.get(TABLE_HEADER)));
    try {
      const table = await connection.createTable("pontinho", { seats: 3, deal: DEAL });
      await table.seat(1).propose(pontinho.draw());
      await table.seat(1).view();
      for await (const _ of table.seat(1).watch()) break;
      await table.record();
      await table.explain({ version: 1 });
      await table.rule({ dispute: 1, decision: "uphold", note: "no dispute here" }); // rejected: a call still
      await table.reissueSeat(2);
      assert.deepEqual([...named.keys()].sort(), [...ABOUT_A_TABLE].sort());
      for (const [method, values] of named) assert.deepEqual([method, values], [method, [table.id]]);
    } finally {
      connection.close();
    }
  });

  test("the referee reads it: a call naming another table is INVALID_ARGUMENT", async () => {
    const other = "0123456789abcdef";
    const connection = await watched((_, metadata) => {
      if (metadata.get(TABLE_HEADER).length) metadata.set(TABLE_HEADER, other); // only if sent
    });
    try {
      const table = await connection.createTable("pontinho", { seats: 3, deal: DEAL });
      const refused = (error: unknown) => error instanceof RefereeError && error.status === "INVALID_ARGUMENT"
        && error.details.includes(`names table \`${other}\`, not the request's \`${table.id}\``);
      await assert.rejects(table.seat(1).propose(pontinho.draw()), refused);
      await assert.rejects(async () => { for await (const _ of table.watch()) break; }, refused);
      assert.equal((await director.table("pontinho", table.id).view()).version, 0); // nothing changed
    } finally {
      connection.close();
    }
  });
});

describe("the examples", () => {
  test("the README's plays a deal: reasons, hints and events' text, in the language asked for", () => {
    const play = (language: string) => execFileSync(process.execPath,
      [WHOLE_HAND, served.target, language]).toString().trim().split("\n");
    const [portuguese, english] = [play("pt"), play("en")];
    assert.equal(portuguese.length, english.length); // the same deal, told twice
    for (const line of [...portuguese, ...english]) {
      assert.match(line, /^(Ana|Bruno|Carla|Davi) [✓✗] /); // the names, from the views
    }
    const refused = portuguese.filter((line) => line.includes(" ✗ "));
    assert.ok(refused.length > 0);
    for (const line of refused) assert.match(line, /✗ .+: .+$/); // each with its hint
    assert.notEqual(portuguese.at(-1), english.at(-1));
    assert.match(english.at(-1)!, /over/);
    assert.match(portuguese.at(-1)!, /acabou/);
  });

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
