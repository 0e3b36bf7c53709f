// A full record's steps as the desk lists them: step N is version N, as `referee replay` and
// the record number them; a rewind's ruling voids the moves after its `to` and before it, but
// the table's own record of what was contested and decided (docs/disputes.md).

import { cardElement, cardsElement, isCard, isCards } from "./cards.js";

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

// `who: type field value...`, cards drawn as cards; `move` a move, or the words for a step that
// is none (a deadline passed)
export function stepLine(who, move, pack) {
  const line = document.createElement("span");
  if (typeof move === "string") {
    line.textContent = `${who}: ${move}`;
    return line;
  }
  const { type, ...fields } = move;
  line.append(`${who}: `, Object.assign(document.createElement("strong"), { textContent: type }));
  for (const [key, value] of Object.entries(fields)) {
    line.append(` ${key} `);
    if (isCard(value, pack)) line.append(cardElement(value, pack));
    else if (isCards(value, pack)) line.append(cardsElement(value, pack));
    else line.append(typeof value === "string" ? `“${value}”` : JSON.stringify(value));
  }
  return line;
}
