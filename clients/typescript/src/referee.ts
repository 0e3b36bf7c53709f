// The client: a Referee connection, its tables, and a handle per seat that sends that seat's
// token (`x-seat-token`) with every call; every call of a table names it (`x-referee-table`).
// Moves, views and events are plain typed objects.
import { randomUUID } from "node:crypto";
import {
  type CallOptions, type ChannelCredentials, type ClientReadableStream, type ClientUnaryCall,
  credentials, Metadata, type ServiceError,
} from "@grpc/grpc-js";
import {
  adjudicationFrom, decisionToProto, explanationFrom, moveToProto, tableFilterToProto, tablePageFrom,
  updateFrom, verdictFrom, viewFrom, withoutUndefined,
} from "./convert.js";
import { RefereeError, Status } from "./errors.js";
import {
  AdjudicateRequest, CreateTableRequest, ExplainRequest, type GameSummary, ProposeRequest, RefereeClient,
  RuleRequest, type WatchResponse,
} from "./gen/referee/v1/referee.js";
import type {
  Adjudication, CardOf, ExplainWhich, Explanation, GameRecord, GameTypes, JsonObject, LanguageOption, Ruling,
  SeatView, SigningKey, TableFilter, TablePage, TableSummary, TypesOf, Verdict, WatchUpdate,
} from "./types.js";

export const TOKEN_HEADER = "x-seat-token";
export const CREATE_HEADER = "x-create-token";
export const LANGUAGE_HEADER = "accept-language";
/** The table a call is about, where a proxy can route on it: the referee checks it is the request's. */
export const TABLE_HEADER = "x-referee-table";

// Over a quota the referee answers RESOURCE_EXHAUSTED and says how long to wait
// (`grpc-retry-pushback-ms`): gRPC's retry policy waits that long and tries again. Safe: a
// refused call never reached the referee, and a proposal carries its move id.
const SERVICE_CONFIG = { methodConfig: [{
  name: [{ service: "referee.v1.Referee" }],
  retryPolicy: { maxAttempts: 5, initialBackoff: "0.05s", maxBackoff: "2s", backoffMultiplier: 2,
    retryableStatusCodes: ["RESOURCE_EXHAUSTED"] },
}] };

export interface ConnectOptions {
  /** The server speaks TLS; its certificate chains to this CA (PEM). */
  tlsCa?: Buffer | string;
  /** The operator's token, for a referee that asks CreateTable for one. */
  createToken?: string;
  /** How long `connect` waits for the referee to answer (default 10 s). */
  connectTimeoutMs?: number;
  /** The languages every call asks to be answered in, unless the call names its own
   *  (`accept-language`: `pt`, `tl, en;q=0.5`); default: the referee's, English. */
  language?: string;
}

export interface CreateTableOptions {
  seats: number;
  /** The dealer (Pontoon: the banker); seat 0 by default. */
  dealer?: number;
  /** Table options; omitted ones take their defaults. */
  options?: JsonObject;
  /** A chosen seed (test and dispute mode: `referee serve --allow-stacked`). */
  seed?: number;
  /** A stacked first deal (docs/scenarios.md; the same mode). */
  deal?: JsonObject;
  scores?: Record<number, number>;
  balances?: Record<number, number>;
  /** Up to 64 printable characters mixed into the seed chain before the first deal. */
  entropy?: string;
  /** Display names by seat (at most 40 printable characters each): shown in views (`names`),
   *  records and pages. A label, never an identity: the seat's token alone says who acts. */
  names?: Record<number, string>;
}

export interface ProposeOptions extends LanguageOption {
  /** Idempotency key: re-sending it returns the first verdict. Default: a new random one. */
  moveId?: string;
  /** Judge the move only at this table version (else ABORTED). */
  expectedVersion?: number;
}

export interface RuleOptions extends LanguageOption {
  /** Idempotency key: re-sending it returns the first verdict. Default: a new random one. */
  rulingId?: string;
  /** Rule only at this table version (else ABORTED). */
  expectedVersion?: number;
}

export interface WatchOptions extends LanguageOption {
  /** Stream the moves after this version (default 0: from the first). */
  fromVersion?: number;
  /** A stream its process or connection broke is opened again from the last version given:
   *  this many breaks in a row with no move between them are borne, the next one thrown
   *  (default `RESUME_ATTEMPTS`, 10; 0: none). */
  resume?: number;
  /** Told of each break the watch resumes after, before it waits to open the stream again. */
  onResume?: (error: RefereeError) => void;
}

/** The breaks in a row, no move between them, that a watch resumes after by default (~7-13 s). */
export const RESUME_ATTEMPTS = 10;
const RESUME_WAIT_MS = { first: 100, longest: 2000 };
const RESUME_LIVED_MS = 60_000; // a stream open this long before it broke starts the count of breaks anew
// A referee that went away is tried again at least every 2 s (gRPC's own wait grows to 120 s),
// so that a client, and a watch resuming, finds a restarted process within 2 s of its return.
const RECONNECT_AT_MOST_MS = 2000;

type Callback<R> = (error: ServiceError | null, response?: R) => void;
type UnaryMethod<Q, R> = (request: Q, metadata: Metadata, options: Partial<CallOptions>,
  callback: Callback<R>) => ClientUnaryCall;

export interface ListTablesOptions extends TableFilter {
  /** At most this many tables a page (0: the referee's 50; at most 200). */
  pageSize?: number;
  /** The previous page's `nextPageToken`; none: the first page. */
  pageToken?: string;
}

/** A connection to one referee. */
export class Referee {
  private constructor(readonly client: RefereeClient, private readonly createToken?: string,
                      /** The languages asked for when a call names none. */
                      readonly language?: string) {}

  /** Connects to `target` (`host:port`) and waits until the referee answers. */
  static async connect(target: string, options: ConnectOptions = {}): Promise<Referee> {
    const channel: ChannelCredentials = options.tlsCa === undefined ? credentials.createInsecure()
      : credentials.createSsl(Buffer.from(options.tlsCa));
    const client = new RefereeClient(target, channel, {
      "grpc.enable_retries": 1, "grpc.service_config": JSON.stringify(SERVICE_CONFIG),
      "grpc.max_reconnect_backoff_ms": RECONNECT_AT_MOST_MS,
    });
    const deadline = Date.now() + (options.connectTimeoutMs ?? 10_000);
    await new Promise<void>((resolve, reject) => client.waitForReady(deadline, (error) =>
      error ? reject(new Error(`no referee at ${target}: ${error.message}`)) : resolve()));
    return new Referee(client, options.createToken, options.language);
  }

  close(): void {
    this.client.close();
  }

  /** The games, their titles in the language asked for. */
  async listGames(options: LanguageOption = {}): Promise<GameSummary[]> {
    return (await this.call(this.client.listGames, {}, new Metadata(), options.language)).games;
  }

  /** Options, moves (with `typed_fields`), rules, and `schemas`: the game's JSON Schemas; every
   *  `sentence` in the language asked for. */
  async describeGame(game: string, options: LanguageOption = {}): Promise<JsonObject> {
    const response = await this.call(this.client.describeGame, { game }, new Metadata(), options.language);
    return (response.description ?? {}) as JsonObject;
  }

  /** Opens a table and keeps its seats' tokens: `table.seat(n)` acts for seat n. */
  async createTable<G extends string>(game: G, options: CreateTableOptions): Promise<Table<TypesOf<G>>> {
    const request = CreateTableRequest.fromPartial({
      game, seats: options.seats, dealer: options.dealer ?? 0, seed: options.seed,
      entropy: options.entropy, scores: options.scores ?? {}, balances: options.balances ?? {},
      options: options.options && (withoutUndefined(options.options) as JsonObject),
      deal: options.deal && (withoutUndefined(options.deal) as JsonObject), names: options.names ?? {},
    });
    const response = await this.call(this.client.createTable, request, this.operatorMetadata());
    const tokens = new Map(response.seats.map((s) => [s.seat, s.token]));
    return new Table(this, response.tableId, tokens, response.commitment, response.dealCommitment);
  }

  /** A seat of a table someone else created, from the token it was given. */
  join<G extends string>(game: G, tableId: string, token: string): Seat<TypesOf<G>> {
    return new Seat(this.table(game, tableId), undefined, token);
  }

  /** A table someone else created (the lobby's `tableId`), without its seats' tokens: the
   *  spectator's calls, or the director's on a connection with the operator's token. */
  table<G extends string>(game: G, tableId: string): Table<TypesOf<G>> {
    return new Table<TypesOf<G>>(this, tableId, new Map(), "", "");
  }

  /** The lobby (the operator's: without its create token PERMISSION_DENIED): one page of the
   *  tables, newest first, with their names, open disputes and clocks; the filters given all hold. */
  async listTables(options: ListTablesOptions = {}): Promise<TablePage> {
    const request = tableFilterToProto(options, options.pageSize, options.pageToken);
    return tablePageFrom(await this.call(this.client.listTables, request, this.operatorMetadata()));
  }

  /** Every table of the lobby that passes `filter`, page after page. */
  async* tables(filter: TableFilter = {}): AsyncGenerator<TableSummary> {
    let pageToken = "";
    do {
      const page = await this.listTables({ ...filter, pageToken });
      yield* page.tables;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /** The operator gives seat `seat` a new secret token (its player lost theirs, or it leaked):
   *  the old one is refused (UNAUTHENTICATED) from then on. The new token, for that player only. */
  async reissueSeat(tableId: string, seat: number): Promise<string> {
    const response = await this.call(this.client.reissueSeat, { tableId, seat }, this.operatorMetadata());
    if (response.seat === undefined) throw new Error("the referee answered without a token");
    return response.seat.token;
  }

  /** Replays a game record (docs/scenarios.md), as data or as its YAML text. */
  async adjudicate(record: JsonObject | string, options: LanguageOption = {}): Promise<Adjudication> {
    const request = AdjudicateRequest.fromPartial(typeof record === "string"
      ? { recordYaml: record } : { recordData: withoutUndefined(record) as JsonObject });
    return adjudicationFrom(await this.call(this.client.adjudicate, request, new Metadata(), options.language));
  }

  /** The public key the referee signs game records with. */
  async signingKey(): Promise<SigningKey> {
    const { algorithm, publicKey, keyId } = await this.call(this.client.getSigningKey, {});
    return { algorithm, publicKey, keyId };
  }

  /** The operator's metadata (its create token), when this connection holds one. */
  operatorMetadata(): Metadata {
    const metadata = new Metadata();
    if (this.createToken) metadata.set(CREATE_HEADER, this.createToken);
    return metadata;
  }

  /** `metadata` with the languages asked for: `language`, else the connection's. */
  speaking(metadata: Metadata, language = this.language): Metadata {
    if (language) metadata.set(LANGUAGE_HEADER, language);
    return metadata;
  }

  /** `metadata` naming the table `request` is about (its `tableId`), if it is about one. */
  naming(request: unknown, metadata: Metadata): Metadata {
    const tableId = (request as { tableId?: unknown }).tableId;
    if (typeof tableId === "string" && tableId) metadata.set(TABLE_HEADER, tableId);
    return metadata;
  }

  /** One unary call, its failure a RefereeError with the gRPC status; its words in `language`
   *  (else the connection's); a call of a table names it. */
  call<Q, R>(method: UnaryMethod<Q, R>, request: Q, metadata = new Metadata(), language?: string): Promise<R> {
    return new Promise((resolve, reject) => {
      const sent = this.speaking(this.naming(request, metadata), language);
      method.call(this.client, request, sent, {}, (error, response) => {
        if (error) reject(RefereeError.from(error));
        else resolve(response as R);
      });
    });
  }
}

/** A table: its id, its commitments, and a handle per seat (the tokens stay here). */
export class Table<T extends GameTypes = GameTypes> {
  constructor(readonly referee: Referee, readonly id: string,
              private readonly tokens: Map<number, string>,
              readonly commitment: string, readonly dealCommitment: string) {}

  /** The seats, in order. */
  get seats(): number[] {
    return [...this.tokens.keys()].sort((a, b) => a - b);
  }

  /** Seat `n`'s secret token: hand it to that seat's player only. */
  token(n: number): string {
    const token = this.tokens.get(n);
    if (token === undefined) throw new RangeError(`table ${this.id} has no seat ${n}`);
    return token;
  }

  /** A handle that acts for seat `n`: its proposals, its view, its events. */
  seat(n: number): Seat<T> {
    return new Seat(this, n, this.token(n));
  }

  /** The operator gives seat `n` a new token (ReissueSeat): the old one is refused from then
   *  on, and the handle this gives (and `token(n)`) sends the new one. */
  async reissueSeat(n: number): Promise<Seat<T>> {
    const token = await this.referee.reissueSeat(this.id, n);
    this.tokens.set(n, token);
    return this.seat(n);
  }

  /** The public (spectator) view. */
  view(options: LanguageOption = {}): Promise<SeatView<T["view"]>> {
    return getView<T>(this, new Metadata(), options.language);
  }

  /** The director's view: every card (`seat` -1). It needs the operator's create token: without
   *  one the referee answers with the public view. */
  directorView(options: LanguageOption = {}): Promise<SeatView<T["view"]>> {
    return getView<T>(this, this.referee.operatorMetadata(), options.language);
  }

  /** The public stream of accepted moves: ends when the table is over (break to stop early).
   *  `director`: the director's, every event whole (it needs the operator's create token). */
  watch(options: WatchOptions & { director?: boolean } = {}): AsyncIterable<WatchUpdate<T["event"]>> {
    const metadata = options.director ? this.referee.operatorMetadata() : new Metadata();
    return watch<T>(this, metadata, options);
  }

  /** The director rules on a dispute (only the operator's create token may: else PERMISSION_DENIED).
   *  A ruling that cannot be made (no such dispute, one ruled already) is a rejected verdict, as
   *  a move is; a random `rulingId` makes gRPC's retries safe, as a proposal's `moveId` does. */
  async rule(ruling: Ruling, options: RuleOptions = {}): Promise<Verdict<T["event"], CardOf<T>>> {
    const request = RuleRequest.fromPartial({
      tableId: this.id, dispute: ruling.dispute, note: ruling.note, ...decisionToProto(ruling),
      rulingId: options.rulingId ?? randomUUID(), expectedVersion: options.expectedVersion,
    });
    const referee = this.referee;
    const response = await referee.call(referee.client.rule, request, referee.operatorMetadata(),
      options.language);
    return verdictFrom<T["event"], CardOf<T>>(response.verdict);
  }

  /** The signed record: full once the table is over (or for the operator), else a spectator's. */
  record(): Promise<GameRecord> {
    return getRecord(this, this.referee.operatorMetadata());
  }

  /** Why a past proposal got its verdict: an accepted move's outcomes, or all of it for the operator. */
  explain(which: ExplainWhich, options: LanguageOption = {}): Promise<Explanation> {
    return explain(this, which, this.referee.operatorMetadata(), options.language);
  }
}

/** One seat of a table: every call carries its token. */
export class Seat<T extends GameTypes = GameTypes> {
  constructor(readonly table: Table<T>, readonly seat: number | undefined, private readonly token: string) {}

  /** Proposes a move; an illegal one is a rejected verdict, not an error. */
  async propose(move: T["move"], options: ProposeOptions = {}): Promise<Verdict<T["event"], CardOf<T>>> {
    const request = ProposeRequest.fromPartial({
      tableId: this.table.id, move: moveToProto(move), moveId: options.moveId ?? randomUUID(),
      expectedVersion: options.expectedVersion, seat: this.seat,
    });
    const referee = this.table.referee;
    const response = await referee.call(referee.client.propose, request, this.metadata(), options.language);
    return verdictFrom<T["event"], CardOf<T>>(response.verdict);
  }

  /** What this seat may see now. */
  view(options: LanguageOption = {}): Promise<SeatView<T["view"]>> {
    return getView<T>(this.table, this.metadata(), options.language);
  }

  /** The signed record as this seat may see it (the full one once the table is over). */
  record(): Promise<GameRecord> {
    return getRecord(this.table, this.metadata());
  }

  /** Why a past proposal got its verdict: this seat's own ones with the values it saw. */
  explain(which: ExplainWhich, options: LanguageOption = {}): Promise<Explanation> {
    return explain(this.table, which, this.metadata(), options.language);
  }

  /** The accepted moves, redacted for this seat: ends when the table is over. */
  watch(options: WatchOptions = {}): AsyncIterable<WatchUpdate<T["event"]>> {
    return watch<T>(this.table, this.metadata(), options);
  }

  private metadata(): Metadata {
    const metadata = new Metadata();
    metadata.set(TOKEN_HEADER, this.token);
    return metadata;
  }
}

async function getView<T extends GameTypes>(table: Table<T>, metadata: Metadata,
                                            language: string | undefined): Promise<SeatView<T["view"]>> {
  const referee = table.referee;
  const response = await referee.call(referee.client.getView, { tableId: table.id }, metadata, language);
  return viewFrom<T["view"]>(response);
}

async function getRecord<T extends GameTypes>(table: Table<T>, metadata: Metadata): Promise<GameRecord> {
  const referee = table.referee;
  const response = await referee.call(referee.client.getRecord, { tableId: table.id }, metadata);
  return { text: response.record, full: response.full };
}

async function explain<T extends GameTypes>(table: Table<T>, which: ExplainWhich, metadata: Metadata,
                                            language: string | undefined): Promise<Explanation> {
  const referee = table.referee;
  const request = ExplainRequest.fromPartial({ tableId: table.id, ...which });
  const response = await referee.call(referee.client.explain, request, metadata, language);
  return explanationFrom(response);
}

/** A Watch as an async iterable: a stream broken by its process or connection going away is
 *  opened again from the last version given, after a short wait, so every version comes once,
 *  in order; leaving the loop early cancels the call. */
async function* watch<T extends GameTypes>(table: Table<T>, metadata: Metadata,
                                           options: WatchOptions): AsyncGenerator<WatchUpdate<T["event"]>> {
  const attempts = options.resume ?? RESUME_ATTEMPTS;
  let version = options.fromVersion ?? 0;
  let breaks = 0; // in a row, no move between them
  for (;;) {
    const opened = Date.now();
    try {
      for await (const update of stream<T>(table, metadata, version, options.language)) {
        version = update.version;
        breaks = 0;
        yield update;
      }
      return;
    } catch (error) {
      if (Date.now() - opened >= RESUME_LIVED_MS) breaks = 0; // a quiet table's stream cut by a proxy's timeout
      if (!(error instanceof RefereeError) || !resumable(error) || breaks >= attempts) throw error;
      breaks += 1;
      options.onResume?.(error);
      await new Promise((resolve) => setTimeout(resolve, resumeWaitMs(breaks)));
    }
  }
}

/** A stream that ended so went away with its process or its connection: a referee stopping, a
 *  connection dropped (UNAVAILABLE), or a proxy's stream whose process died, ended with no status
 *  at all (UNKNOWN; grpc-js says INTERNAL, "Call ended without gRPC status"). The referee's own
 *  failures are INTERNAL with a status: never resumed. */
function resumable(error: RefereeError): boolean {
  return error.code === Status.UNAVAILABLE || error.code === Status.UNKNOWN
    || (error.code === Status.INTERNAL && error.details.includes("Call ended without gRPC status"));
}

/** The wait before opening a stream again after `breaks` breaks in a row: doubling from the
 *  first to the longest, each between its half and itself (a process's watchers do not all
 *  come back at once). */
function resumeWaitMs(breaks: number): number {
  const longest = Math.min(RESUME_WAIT_MS.longest, RESUME_WAIT_MS.first * 2 ** (breaks - 1));
  return longest / 2 + Math.random() * longest / 2;
}

/** One Watch stream from `fromVersion`; leaving the loop early cancels the call. */
async function* stream<T extends GameTypes>(table: Table<T>, metadata: Metadata, fromVersion: number,
                                            language: string | undefined): AsyncGenerator<WatchUpdate<T["event"]>> {
  const referee = table.referee;
  const request = { tableId: table.id, fromVersion };
  const call: ClientReadableStream<WatchResponse> = referee.client.watch(
    request, referee.speaking(referee.naming(request, metadata.clone()), language));
  try {
    for await (const response of call) yield updateFrom<T["event"]>(response as WatchResponse);
  } catch (error) {
    throw RefereeError.from(error);
  } finally {
    call.on("error", () => {}); // the CANCELLED status a cancel() brings: nobody is reading now
    call.cancel();
  }
}
