// @referee/client: a typed TypeScript client of the card-game referee over gRPC (grpc-js).
//
//   const referee = await Referee.connect("127.0.0.1:50051");
//   const table = await referee.createTable("pontinho", { seats: 3, seed: 7 });
//   const verdict = await table.seat(1).propose(pontinho.draw());
//
// Each game of docs/schemas/ has a module of typed move builders, its View and its Event union
// (`pontinho`, `tarocchiPiedicavallo`, ...), generated from the game's JSON Schemas.
import type { AnyMove, JsonObject } from "./types.js";

export {
  Referee, Seat, Table, TOKEN_HEADER, CREATE_HEADER, LANGUAGE_HEADER, TABLE_HEADER, RESUME_ATTEMPTS,
} from "./referee.js";
export type {
  ConnectOptions, CreateTableOptions, ListTablesOptions, ProposeOptions, RuleOptions, WatchOptions,
} from "./referee.js";
export { RefereeError, Status } from "./errors.js";
export type { StatusName } from "./errors.js";
export type * from "./types.js";
export * from "./gen/games/index.js";
export type { GameSummary } from "./gen/referee/v1/referee.js";

/** A move of any game, untyped: `move("discard", {card: "7H"})`. */
export function move(type: string, fields: JsonObject = {}): AnyMove {
  return { ...fields, type };
}
