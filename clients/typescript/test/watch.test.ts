// A watch outlives its referee: a real referee on a SQLite file is killed with kill -9 mid-watch
// and started again on its port and file, and the watch goes on from the last version it gave,
// every version once, in order; the control, `resume: 0`, throws the break, and a refusal is
// thrown at once. A stream ended with no gRPC status (what HAProxy sends when the process behind
// it dies) is resumed too.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { pontinho, Referee, RefereeError, type Table, type WatchOptions } from "../src/index.js";
import { WatchRequest, WatchResponse } from "../src/gen/referee/v1/referee.js";
import { serve } from "./serve.js";

const MOVES = 4; // before the kill, and as many after it
const WAIT_MS = 30_000;
const folder = mkdtempSync(join(tmpdir(), "referee-watch-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/** `table.watch(options)` read up to version `until`: the versions it gave, the statuses of the
 *  breaks it resumed after, and what it threw, if it did. */
class Watching {
  readonly versions: number[] = [];
  readonly resumedAfter: string[] = [];
  error: unknown;
  readonly done: Promise<void>;

  constructor(table: Table, until: number, options: WatchOptions = {}) {
    this.done = this.read(table, until, options);
  }

  private async read(table: Table, until: number, options: WatchOptions): Promise<void> {
    const onResume = (error: RefereeError) => this.resumedAfter.push(error.status);
    try {
      for await (const update of table.watch({ ...options, onResume })) {
        this.versions.push(update.version);
        if (update.version >= until) return;
      }
    } catch (error) {
      this.error = error;
    }
  }

  async waitFor(version: number): Promise<void> {
    const giveUp = Date.now() + WAIT_MS;
    while ((this.versions.at(-1) ?? 0) < version && Date.now() < giveUp) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** `moves` accepted moves of `table` through `referee`: each seat in turn draws, then discards
 *  its first card. */
async function play(referee: Referee, table: Table, moves: number): Promise<void> {
  for (let n = 0; n < moves; n += 1) {
    const toAct = (await referee.table("pontinho", table.id).view()).view.to_act as number;
    const seat = referee.join("pontinho", table.id, table.token(toAct));
    const { view } = await seat.view();
    const move = view.legal_moves?.includes("draw") ? pontinho.draw() : pontinho.discard({ card: view.hand![0]! });
    assert.equal((await seat.propose(move)).outcome, "accepted");
  }
}

test("a watch resumes across its referee's kill -9 and restart: every version once, in order; a refusal is thrown", async () => {
  const db = join(folder, "referee.db");
  const first = await serve({ db });
  const port = Number(first.target.split(":").at(-1));
  const before = await Referee.connect(first.target);
  const table = await before.createTable("pontinho", { seats: 3, seed: 5 });
  const watchers = await Referee.connect(first.target);
  const watched = watchers.table("pontinho", table.id);
  const resuming = new Watching(watched, 2 * MOVES); // the default
  const notResuming = new Watching(watched, 2 * MOVES, { resume: 0 }); // the control
  await play(before, table, MOVES);
  await Promise.all([resuming.waitFor(MOVES), notResuming.waitFor(MOVES)]);
  await first.kill();
  before.close();

  const again = await serve({ db, port });
  const after = await Referee.connect(again.target);
  try {
    await play(after, table, MOVES);
    await Promise.all([resuming.done, notResuming.done]);
    assert.deepEqual(resuming.versions, [...Array(2 * MOVES).keys()].map((n) => n + 1));
    assert.equal(resuming.error, undefined);
    assert.ok(resuming.resumedAfter.length > 0);
    assert.deepEqual(new Set(resuming.resumedAfter), new Set(["UNAVAILABLE"]));
    assert.deepEqual(notResuming.versions, [...Array(MOVES).keys()].map((n) => n + 1));
    assert.ok(notResuming.error instanceof RefereeError);
    assert.equal(notResuming.error.status, "UNAVAILABLE");

    const refused = new Watching(after.table("pontinho", "no-such-table"), 1); // thrown at once
    await refused.done;
    assert.ok(refused.error instanceof RefereeError);
    assert.equal(refused.error.status, "NOT_FOUND");
    assert.deepEqual(refused.resumedAfter, []);
  } finally {
    after.close();
    watchers.close();
    await again.stop();
  }
});

/** An HTTP/2 server that answers Watch as HAProxy does when the process behind a stream dies:
 *  a stream from version 0 gives versions 1 and 2, then ends with no gRPC status (END_STREAM on a
 *  DATA frame, no trailers); one from a later version gives the versions after it, to 3, and
 *  ends with OK (the table over). `asked`: each stream's `fromVersion`. */
async function dyingProxy(): Promise<{ target: string; asked: number[]; close(): void }> {
  const asked: number[] = [];
  const server = createServer();
  server.on("stream", (stream) => {
    const body: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => body.push(chunk));
    stream.on("end", () => {
      const from = WatchRequest.decode(Buffer.concat(body).subarray(5)).fromVersion; // after the 5-byte frame header
      asked.push(from);
      const dies = from === 0;
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: !dies });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      for (let version = from + 1; version <= (dies ? 2 : 3); version += 1) {
        const message = WatchResponse.encode(WatchResponse.fromPartial({ version, seat: 1 })).finish();
        const header = Buffer.alloc(5);
        header.writeUInt32BE(message.length, 1);
        stream.write(Buffer.concat([header, message]));
      }
      stream.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { target: `127.0.0.1:${port}`, asked, close: () => server.close() };
}

test("a stream ended with no gRPC status (a proxy's, its process dead) resumes; the control throws", async () => {
  const proxy = await dyingProxy();
  const referee = await Referee.connect(proxy.target);
  try {
    const table = referee.table("pontinho", "t-1");
    const resuming = new Watching(table, 3);
    await resuming.done;
    assert.deepEqual(resuming.versions, [1, 2, 3]);
    assert.deepEqual(proxy.asked, [0, 2]); // opened again from the last version given
    assert.deepEqual(resuming.resumedAfter, ["INTERNAL"]); // grpc-js: "Call ended without gRPC status"
    const control = new Watching(table, 3, { resume: 0 });
    await control.done;
    assert.deepEqual(control.versions, [1, 2]);
    assert.ok(control.error instanceof RefereeError);
    assert.match(control.error.details, /Call ended without gRPC status/);
  } finally {
    referee.close();
    proxy.close();
  }
});
