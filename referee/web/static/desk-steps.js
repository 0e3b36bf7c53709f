// A full record's steps as the desk lists them: step N is version N, as `referee replay` and
// the record number them, each said in words as the players' page says a record's steps
// (steps.js); a rewind's ruling voids the moves after its `to` and before it, but the table's own
// record of what was contested and decided (docs/disputes.md).

import { say } from "./desk-words.js";
import { stepText } from "./steps.js";

export const KEPT_BY_THE_TABLE = new Set(["dispute", "ruling", "reissue"]); // never voided

// the versions voided by the rewinds in the record
export function voidedVersions(steps) {
  const voided = new Set();
  for (const step of steps) {
    if (step.move?.type !== "ruling" || step.move.decision !== "rewind") continue;
    for (const earlier of steps) {
      if (earlier.version > step.move.to && earlier.version < step.version && !KEPT_BY_THE_TABLE.has(earlier.move?.type)) {
        voided.add(earlier.version);
      }
    }
  }
  return voided;
}

// what a rewind to `to` would void: the moves after it still standing
export function wouldVoid(steps, to) {
  const voided = voidedVersions(steps);
  return steps.filter((step) => step.version > to && !voided.has(step.version) && !KEPT_BY_THE_TABLE.has(step.move?.type));
}

// a seat as the director reads it: its number, and its display name if it has one
export function seatName(seat, names) {
  const name = names?.[seat];
  return name ? `${say("seat_n", { seat })} (${name})` : say("seat_n", { seat });
}

// a step in words, cards as players write them: `seat 1 (Ana): discard (card J♥)`
export function stepLine(step, table) {
  const who = (seat) => (seat === "director" ? say("director") : seatName(seat, table.names));
  return stepText(step, table.game.pack, who);
}
