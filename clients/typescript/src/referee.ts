// The client: a Referee connection, its tables, and a handle per seat that sends that seat's
// token (`x-seat-token`) with every call. Moves, views and events are plain typed objects.
import { randomUUID } from "node:crypto";
import {
  type CallOptions, type ChannelCredentials, type ClientReadableStream, type ClientUnaryCall,
  credentials, Metadata, type ServiceError,
} from "@grpc/grpc-js";
import {
  adjudicationFrom, decisionToProto, explanationFrom, moveToProto, updateFrom, verdictFrom, viewFrom,
  withoutUndefined,
} from "./convert.js";
import { RefereeError } from "./errors.js";
import {
  AdjudicateRequest, CreateTableRequest, ExplainRequest, type GameSummary, ProposeRequest, RefereeClient,
  RuleRequest, type WatchResponse,
} from "./gen/referee/v1/referee.js";
import type {
  Adjudication, ExplainWhich, Explanation, GameRecord, GameTypes, JsonObject, Ruling, SeatView,
  SigningKey, TypesOf, Verdict, WatchUpdate,
} from "./types.js";

export const TOKEN_HEADER = "x-seat-token";
export const CREATE_HEADER = "x-create-token";

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
}

export interface ProposeOptions {
  /** Idempotency key: re-sending it returns the first verdict. Default: a new random one. */
  moveId?: string;
  /** Judge the move only at this table version (else ABORTED). */
  expectedVersion?: number;
}

export interface RuleOptions {
  /** Idempotency key: re-sending it returns the first verdict. Default: a new random one. */
  rulingId?: string;
  /** Rule only at this table version (else ABORTED). */
  expectedVersion?: number;
}

export interface WatchOptions {
  /** Stream the moves after this version (default 0: from the first). */
  fromVersion?: number;
}

type Callback<R> = (error: ServiceError | null, response?: R) => void;
type UnaryMethod<Q, R> = (request: Q, metadata: Metadata, options: Partial<CallOptions>,
  callback: Callback<R>) => ClientUnaryCall;

/** A connection to one referee. */
export class Referee {
  private constructor(readonly client: RefereeClient, private readonly createToken?: string) {}

  /** Connects to `target` (`host:port`) and waits until the referee answers. */
  static async connect(target: string, options: ConnectOptions = {}): Promise<Referee> {
    const channel: ChannelCredentials = options.tlsCa === undefined ? credentials.createInsecure()
      : credentials.createSsl(Buffer.from(options.tlsCa));
    const client = new RefereeClient(target, channel, {
      "grpc.enable_retries": 1, "grpc.service_config": JSON.stringify(SERVICE_CONFIG),
    });
    const deadline = Date.now() + (options.connectTimeoutMs ?? 10_000);
    await new Promise<void>((resolve, reject) => client.waitForReady(deadline, (error) =>
      error ? reject(new Error(`no referee at ${target}: ${error.message}`)) : resolve()));
    return new Referee(client, options.createToken);
  }

  close(): void {
    this.client.close();
  }

  async listGames(): Promise<GameSummary[]> {
    return (await this.call(this.client.listGames, {})).games;
  }

  /** Options, moves (with `typed_fields`), rules, and `schemas`: the game's JSON Schemas. */
  async describeGame(game: string): Promise<JsonObject> {
    return ((await this.call(this.client.describeGame, { game })).description ?? {}) as JsonObject;
  }

  /** Opens a table and keeps its seats' tokens: `table.seat(n)` acts for seat n. */
  async createTable<G extends string>(game: G, options: CreateTableOptions): Promise<Table<TypesOf<G>>> {
    const request = CreateTableRequest.fromPartial({
      game, seats: options.seats, dealer: options.dealer ?? 0, seed: options.seed,
      entropy: options.entropy, scores: options.scores ?? {}, balances: options.balances ?? {},
      options: options.options && (withoutUndefined(options.options) as JsonObject),
      deal: options.deal && (withoutUndefined(options.deal) as JsonObject),
    });
    const response = await this.call(this.client.createTable, request, this.operatorMetadata());
    const tokens = new Map(response.seats.map((s) => [s.seat, s.token]));
    return new Table(this, response.tableId, tokens, response.commitment, response.dealCommitment);
  }

  /** A seat of a table someone else created, from the token it was given. */
  join<G extends string>(game: G, tableId: string, token: string): Seat<TypesOf<G>> {
    return new Seat(new Table<TypesOf<G>>(this, tableId, new Map(), "", ""), undefined, token);
  }

  /** Replays a game record (docs/scenarios.md), as data or as its YAML text. */
  async adjudicate(record: JsonObject | string): Promise<Adjudication> {
    const request = AdjudicateRequest.fromPartial(typeof record === "string"
      ? { recordYaml: record } : { recordData: withoutUndefined(record) as JsonObject });
    return adjudicationFrom(await this.call(this.client.adjudicate, request));
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

  /** One unary call, its failure a RefereeError with the gRPC status. */
  call<Q, R>(method: UnaryMethod<Q, R>, request: Q, metadata = new Metadata()): Promise<R> {
    return new Promise((resolve, reject) => {
      method.call(this.client, request, metadata, {}, (error, response) => {
        if (error) reject(RefereeError.from(error));
        else resolve(response as R);
      });
    });
  }
}

/** A table: its id, its commitments, and a handle per seat (the tokens stay here). */
export class Table<T extends GameTypes = GameTypes> {
  constructor(readonly referee: Referee, readonly id: string,
              private readonly tokens: ReadonlyMap<number, string>,
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

  /** The public (spectator) view. */
  view(): Promise<SeatView<T["view"]>> {
    return getView<T>(this, undefined);
  }

  /** The director's view: every card (`seat` -1). It needs the operator's create token: without
   *  one the referee answers with the public view. */
  directorView(): Promise<SeatView<T["view"]>> {
    return getView<T>(this, this.referee.operatorMetadata());
  }

  /** The public stream of accepted moves: ends when the table is over (break to stop early).
   *  `director`: the director's, every event whole (it needs the operator's create token). */
  watch(options: WatchOptions & { director?: boolean } = {}): AsyncIterable<WatchUpdate<T["event"]>> {
    const metadata = options.director ? this.referee.operatorMetadata() : undefined;
    return watch<T>(this, metadata, options.fromVersion ?? 0);
  }

  /** The director rules on a dispute (only the operator's create token may: else PERMISSION_DENIED).
   *  A ruling that cannot be made (no such dispute, one ruled already) is a rejected verdict, as
   *  a move is; a random `rulingId` makes gRPC's retries safe, as a proposal's `moveId` does. */
  async rule(ruling: Ruling, options: RuleOptions = {}): Promise<Verdict<T["event"]>> {
    const request = RuleRequest.fromPartial({
      tableId: this.id, dispute: ruling.dispute, note: ruling.note, ...decisionToProto(ruling),
      rulingId: options.rulingId ?? randomUUID(), expectedVersion: options.expectedVersion,
    });
    const referee = this.referee;
    const response = await referee.call(referee.client.rule, request, referee.operatorMetadata());
    return verdictFrom<T["event"]>(response.verdict);
  }

  /** The signed record: full once the table is over (or for the operator), else a spectator's. */
  record(): Promise<GameRecord> {
    return getRecord(this, this.referee.operatorMetadata());
  }

  /** Why a past proposal got its verdict: an accepted move's outcomes, or all of it for the operator. */
  explain(which: ExplainWhich): Promise<Explanation> {
    return explain(this, which, this.referee.operatorMetadata());
  }
}

/** One seat of a table: every call carries its token. */
export class Seat<T extends GameTypes = GameTypes> {
  constructor(readonly table: Table<T>, readonly seat: number | undefined, private readonly token: string) {}

  /** Proposes a move; an illegal one is a rejected verdict, not an error. */
  async propose(move: T["move"], options: ProposeOptions = {}): Promise<Verdict<T["event"]>> {
    const request = ProposeRequest.fromPartial({
      tableId: this.table.id, move: moveToProto(move), moveId: options.moveId ?? randomUUID(),
      expectedVersion: options.expectedVersion, seat: this.seat,
    });
    const referee = this.table.referee;
    const response = await referee.call(referee.client.propose, request, this.metadata());
    return verdictFrom<T["event"]>(response.verdict);
  }

  /** What this seat may see now. */
  view(): Promise<SeatView<T["view"]>> {
    return getView<T>(this.table, this.metadata());
  }

  /** The signed record as this seat may see it (the full one once the table is over). */
  record(): Promise<GameRecord> {
    return getRecord(this.table, this.metadata());
  }

  /** Why a past proposal got its verdict: this seat's own ones with the values it saw. */
  explain(which: ExplainWhich): Promise<Explanation> {
    return explain(this.table, which, this.metadata());
  }

  /** The accepted moves, redacted for this seat: ends when the table is over. */
  watch(options: WatchOptions = {}): AsyncIterable<WatchUpdate<T["event"]>> {
    return watch<T>(this.table, this.metadata(), options.fromVersion ?? 0);
  }

  private metadata(): Metadata {
    const metadata = new Metadata();
    metadata.set(TOKEN_HEADER, this.token);
    return metadata;
  }
}

async function getView<T extends GameTypes>(table: Table<T>, metadata?: Metadata): Promise<SeatView<T["view"]>> {
  const referee = table.referee;
  const response = await referee.call(referee.client.getView, { tableId: table.id }, metadata);
  return viewFrom<T["view"]>(response);
}

async function getRecord<T extends GameTypes>(table: Table<T>, metadata: Metadata): Promise<GameRecord> {
  const referee = table.referee;
  const response = await referee.call(referee.client.getRecord, { tableId: table.id }, metadata);
  return { text: response.record, full: response.full };
}

async function explain<T extends GameTypes>(table: Table<T>, which: ExplainWhich,
                                            metadata: Metadata): Promise<Explanation> {
  const referee = table.referee;
  const request = ExplainRequest.fromPartial({ tableId: table.id, ...which });
  const response = await referee.call(referee.client.explain, request, metadata);
  return explanationFrom(response);
}

/** A Watch stream as an async iterable; leaving the loop early cancels the call. */
async function* watch<T extends GameTypes>(table: Table<T>, metadata: Metadata | undefined,
                                           fromVersion: number): AsyncGenerator<WatchUpdate<T["event"]>> {
  const call: ClientReadableStream<WatchResponse> = table.referee.client.watch(
    { tableId: table.id, fromVersion }, metadata ?? new Metadata());
  try {
    for await (const response of call) yield updateFrom<T["event"]>(response as WatchResponse);
  } catch (error) {
    throw RefereeError.from(error);
  } finally {
    call.on("error", () => {}); // the CANCELLED status a cancel() brings: nobody is reading now
    call.cancel();
  }
}
