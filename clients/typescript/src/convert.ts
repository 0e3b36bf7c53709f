// Generated messages <-> the plain objects the client hands out. No decisions here: only shapes.
// (ts-proto already turns every google.protobuf.Struct into a plain object and back.)
import {
  type AdjudicateResponse, type ExplainResponse, Outcome as ProtoOutcome, type GetViewResponse, type Move,
  type RuleRequest, type Verdict as ProtoVerdict, type Violation as ProtoViolation, type WatchResponse,
  type Event as ProtoEvent, type ListTablesRequest, type ListTablesResponse, TableState as ProtoTableState,
  type TableSummary as ProtoTableSummary,
} from "./gen/referee/v1/referee.js";
import type {
  Adjudication, AnyEvent, AnyMove, Explanation, Fix, Json, JsonObject, Outcome, Ruling, SeatView, TableFilter,
  TablePage, TableState, TableSummary, Told, Verdict, Violation, WatchUpdate,
} from "./types.js";

const OUTCOMES: Record<number, Outcome> = {
  [ProtoOutcome.OUTCOME_ACCEPTED]: "accepted",
  [ProtoOutcome.OUTCOME_REJECTED]: "rejected",
  [ProtoOutcome.OUTCOME_PENDING]: "pending",
};

/** `{type, ...fields}` as the Move message: the fields travel as a Struct. */
export function moveToProto(move: { type: string }): Move {
  const { type, ...fields } = move as AnyMove;
  if (typeof type !== "string" || !type) throw new TypeError("a move needs its `type`");
  return { type, fields: withoutUndefined(fields) as JsonObject };
}

/** A ruling's decision as RuleRequest's oneof: exactly one of `uphold`, `rewind`, `adjust`. */
export function decisionToProto(ruling: Ruling): Pick<RuleRequest, "uphold" | "rewind" | "adjust"> {
  switch (ruling.decision) {
    case "uphold": return { uphold: {} };
    case "rewind": return { rewind: { to: ruling.to } };
    case "adjust": return { adjust: { seat: ruling.seat, amount: ruling.amount, tally: ruling.tally } };
  }
  // an untyped caller's unknown decision would travel as none: the referee could not read it
  throw new TypeError(`a decision is uphold, rewind or adjust, not \`${(ruling as Ruling).decision}\``);
}

/** An optional field left `undefined` is absent, as the referee reads a missing one. */
export function withoutUndefined(value: unknown): Json {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, withoutUndefined(v)]));
  }
  return value as Json;
}

/** `{kind, ...data, text}`: the fields as the reader may see them, and their sentence. */
export function eventFrom<E>(event: ProtoEvent): Told<E> {
  return { kind: event.kind, ...(event.data ?? {}), text: event.text } as unknown as Told<E>;
}

export function violationFrom<Card extends string = string>(v: ProtoViolation): Violation<Card> {
  const fix = v.fix && Object.keys(v.fix).length ? (v.fix as Fix<Card>) : undefined;
  return { rule: v.rule, message: v.message, cites: v.cites, cards: v.cards, code: v.code, fix, hint: v.hint };
}

export function verdictFrom<E, Card extends string = string>(verdict: ProtoVerdict | undefined): Verdict<E, Card> {
  if (verdict === undefined) throw new Error("the referee answered without a verdict");
  const outcome = OUTCOMES[verdict.outcome];
  if (outcome === undefined) throw new Error(`unknown outcome ${verdict.outcome}`);
  return {
    accepted: outcome === "accepted", outcome, violations: verdict.violations.map((v) => violationFrom<Card>(v)),
    events: verdict.events.map((e) => eventFrom<E>(e)), version: verdict.version,
    moveId: verdict.moveId, seat: verdict.seat,
  };
}

export function viewFrom<V>(response: GetViewResponse): SeatView<V> {
  return { view: (response.view ?? {}) as V, version: response.version, seat: response.seat,
    commitment: response.commitment, over: response.over, rulesVersion: response.rulesVersion };
}

export function updateFrom<E>(response: WatchResponse): WatchUpdate<E> {
  return { version: response.version, seat: response.seat,
    events: response.events.map((e) => eventFrom<E>(e)) };
}

export function adjudicationFrom(response: AdjudicateResponse): Adjudication {
  const move = response.move && { type: response.move.type, ...(response.move.fields ?? {}) };
  return { legal: response.legal, step: response.step, seat: response.seat, move: move as AnyMove | undefined,
    violations: response.violations.map(violationFrom), result: (response.result ?? {}) as JsonObject,
    moves: response.moves };
}

export function explanationFrom(response: ExplainResponse): Explanation {
  const move = { type: response.move?.type ?? "", ...(response.move?.fields ?? {}) } as AnyMove;
  return {
    seat: response.seat, move, verdict: verdictFrom(response.verdict), judgedAt: response.judgedAt,
    judged: response.judged.map((j) => ({
      checkpoint: j.checkpoint, at: j.at, role: j.role,
      rules: j.rules.map((r) => ({
        rule: r.rule, outcome: r.outcome as "held" | "broken" | "not_applicable",
        reads: (r.reads ?? {}) as JsonObject,
      })),
    })),
    shown: response.shown, text: response.text,
  };
}

const STATES: Record<TableState, ProtoTableState> = {
  in_play: ProtoTableState.TABLE_STATE_IN_PLAY,
  over: ProtoTableState.TABLE_STATE_OVER,
};

export function tableFilterToProto(filter: TableFilter, pageSize: number | undefined,
                                   pageToken: string | undefined): ListTablesRequest {
  const state = filter.state === undefined ? ProtoTableState.TABLE_STATE_UNSPECIFIED : STATES[filter.state];
  // an untyped caller's unknown state would travel as none: every table would match
  if (state === undefined) throw new TypeError(`a table's state is in_play or over, not \`${filter.state}\``);
  return { game: filter.game ?? "", state, openDisputes: filter.openDisputes,
    clockRunning: filter.clockRunning, pageSize: pageSize ?? 0, pageToken: pageToken ?? "" };
}

export function tablePageFrom(response: ListTablesResponse): TablePage {
  return { tables: response.tables.map(tableSummaryFrom), nextPageToken: response.nextPageToken };
}

function tableSummaryFrom(t: ProtoTableSummary): TableSummary {
  return { tableId: t.tableId, game: t.game, seats: t.seats, names: { ...t.names }, version: t.version,
    over: t.over, openDisputes: t.openDisputes, clockDueMs: t.clockDueMs, createdAt: t.createdAt,
    rulesVersion: t.rulesVersion };
}

export type { AnyEvent };
