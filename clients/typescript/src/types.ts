// What the client hands out: plain objects in the move language of docs/scenarios.md, typed per
// game from its JSON Schemas (src/gen/games, made from docs/schemas/) or as plain JSON.
import type { Fix } from "./gen/fixes.js";
import type { GameName, Games } from "./gen/games/index.js";

export type * from "./gen/fixes.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A move of a game this client was not built for: `{type, ...fields}`. */
export type AnyMove = { type: string } & JsonObject;
/** An event of such a game: `{kind, ...data}`. */
export type AnyEvent = { kind: string } & JsonObject;

/** The move, view, event (and card) types of one game. */
export interface GameTypes {
  move: { type: string };
  view: object;
  event: { kind: string };
  card?: string;
}

/** A game's cards: its `Card` codes, or any text for a game this client was not built for. */
export type CardOf<T extends GameTypes> = T extends { card: infer C extends string } ? C : string;

/** A game's types by its name: generated for the games of docs/schemas/, plain JSON otherwise. */
export type TypesOf<G extends string> = G extends GameName ? Games[G]
  : { move: AnyMove; view: JsonObject; event: AnyEvent };

export type Outcome = "accepted" | "rejected" | "pending";

/** One rule a proposal breaks; `Card`: the game's cards, which its fix names. */
export interface Violation<Card extends string = string> {
  rule: string;        // the spec rule id: `PN-13-size`
  message: string;     // a sentence a player understands
  cites: string[];     // rulebook ids (RULES.md): `PN-13`
  cards: string[];     // the offending cards
  code: string;        // stable snake_case: `rule_broken`, `malformed_move`, ...
  /** How to mend the move, where the rules tell (`{kind: "play_one_of", cards: ["7C"]}`);
   *  undefined when they do not. */
  fix: Fix<Card> | undefined;
  /** The fix in words, in the caller's language; "" without one. */
  hint: string;
}

/** An event as told to its reader: its `kind` and fields, and `text`, what happened in words in
 *  the reader's language (it shows no more than the fields: `you drew 7H`, `seat 2 drew a card`). */
export type Told<E> = E & { text: string };

/** The languages to be answered in, as an `accept-language` value (`pt`, `tl, en;q=0.5`):
 *  verdicts, events, explanations and descriptions come in the first one the game is written
 *  in, else in English. Codes, rule ids, move types and cards never change. */
export interface LanguageOption {
  language?: string;
}

/** The referee's answer to a proposal. A rejected move changed nothing. */
export interface Verdict<E = AnyEvent, Card extends string = string> {
  accepted: boolean;
  outcome: Outcome;
  violations: Violation<Card>[];
  /** What the move caused, as the proposing seat may see it, each with its `text`. */
  events: Told<E>[];
  /** The table's version after this verdict. */
  version: number;
  /** The proposal's move id; a ruling's `rulingId`. */
  moveId: string;
  /** The seat that proposed; -1: the director (a ruling). */
  seat: number;
}

/** What GetView gives: a seat's view with its token, the public one without, the director's
 *  (every card) with the operator's create token. */
export interface SeatView<V = JsonObject> {
  view: V;
  version: number;
  /** The seat whose view it is; undefined: the public view; -1: the director's. */
  seat: number | undefined;
  commitment: string;
  over: boolean;
  /** The rules the table plays: the sha256 of its game's spec as loaded when it was created. */
  rulesVersion: string;
}

/** The director's ruling on a dispute (docs/disputes.md), by its number (the version the move
 *  `dispute` made): the verdict disputed stands, the table goes back to version `to` (the moves
 *  after it are void), or a seat's `score` or `chips` change by `amount`. `note` is for every seat. */
export type Ruling = { dispute: number; note: string } & (
  | { decision: "uphold" }
  | { decision: "rewind"; to: number }
  | { decision: "adjust"; seat: number; amount: number; tally: string });

/** A table's signed game record (docs/records.md), as GetRecord gives it. */
export interface GameRecord {
  /** The record's text, byte for byte as signed: `referee verify` checks it. */
  text: string;
  /** The full record (it replays); false: what one seat, or a spectator, may see. */
  full: boolean;
}

/** Which past proposal to explain: the accepted move that made `version`, or a move id's. */
export type ExplainWhich = { version: number } | { moveId: string };

/** Why a past proposal got its verdict (docs/explain.md), as Explain gives it. */
export interface Explanation {
  seat: number;
  move: AnyMove;
  /** The verdict it was given, in the caller's language (without its events). */
  verdict: Verdict;
  /** The table's version it was judged on. */
  judgedAt: number;
  judged: Judged[];
  /** `own` (the proposer: values cut to what it saw), `outcomes` (anyone else), `all` (the operator). */
  shown: string;
  /** The explanation as lines, in the caller's language. */
  text: string[];
}

/** One checkpoint's rules as judged. */
export interface Judged {
  checkpoint: string;
  at: string;
  /** `judged`, `tried` (a reading not chosen) or `blind` (for whatever a hidden card is). */
  role: string;
  rules: { rule: string; outcome: "held" | "broken" | "not_applicable"; reads: JsonObject }[];
}

/** The public key the referee signs records with. */
export interface SigningKey {
  algorithm: string;
  /** 32 bytes, hex. */
  publicKey: string;
  keyId: string;
}

/** One accepted move, as a Watch stream gives it. */
export interface WatchUpdate<E = AnyEvent> {
  version: number;
  /** The seat that moved; -1: the director (a ruling on a dispute); -2: the table itself (a
   *  claim window closed at its deadline). */
  seat: number;
  /** Each with its `text`, in the watcher's language. */
  events: Told<E>[];
}

export type TableState = "in_play" | "over";

/** ListTables' filters (the operator's): each one given must hold. */
export interface TableFilter {
  /** Only this game's tables (a spec name). */
  game?: string;
  state?: TableState;
  /** Only tables with (true) or without (false) an open dispute. */
  openDisputes?: boolean;
  /** Only tables with (true) or without (false) a pending deadline (a clock, a claim window). */
  clockRunning?: boolean;
}

/** One table of the lobby, as ListTables gives it. */
export interface TableSummary {
  tableId: string;
  game: string;
  seats: number;
  /** The display names given at CreateTable, by seat (labels, never identities). */
  names: Record<number, string>;
  /** Accepted moves so far. */
  version: number;
  over: boolean;
  /** The numbers of the disputes not yet ruled. */
  openDisputes: number[];
  /** When the table's pending deadline falls due, in ms since the Unix epoch; undefined: none. */
  clockDueMs: number | undefined;
  /** ISO 8601, UTC. */
  createdAt: string;
  rulesVersion: string;
}

/** One page of the lobby, newest table first. */
export interface TablePage {
  tables: TableSummary[];
  /** Asks for the next page (`listTables({pageToken})`); "": this is the last one. */
  nextPageToken: string;
}

/** Adjudicate's report on a game record. */
export interface Adjudication {
  legal: boolean;
  step: number | undefined;
  seat: number | undefined;
  move: AnyMove | undefined;
  violations: Violation[];
  result: JsonObject;
  moves: number;
}
