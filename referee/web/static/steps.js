// A record's step in words, in the page's language (words.js), as the players' record stepper
// and the director's desk list it: who, the move, its fields in words, cards as players write
// them (`7♠`); a dispute, a ruling and a seat's new token each in a sentence of its own, the
// seat's reason and the director's note quoted.

import { cardText, isCard } from "./cards.js";
import { fieldName, moveName } from "./play.js";
import { say } from "./words.js";

// a ruling's tally, by the view key that holds it
const TALLIES = { score: "view.scores", chips: "view.balances" };

// `who(seat)`: a seat (a number, or `director`) in words
export function stepText(step, pack, who) {
  if (step?.close_window) return say("record.window");
  if (step?.check) return say("record.check");
  if (!step?.move) return JSON.stringify(step);
  return `${who(step.seat)}: ${moveText(step.move, pack, who)}`;
}

function moveText(move, pack, who) {
  const { type, ...fields } = move;
  if (type === "dispute") return disputeText(fields);
  if (type === "ruling") return rulingText(fields, who);
  if (type === "reissue") return say("step.reissue", { who: who(fields.seat) });
  const shown = Object.entries(fields).map(([name, value]) => `${fieldName(name)} ${valueText(value, pack)}`);
  return `${moveName(type)}${shown.length ? ` (${shown.join(", ")})` : ""}`;
}

function valueText(value, pack) {
  if (isCard(value, pack)) return cardText(value, pack);
  if (Array.isArray(value)) return value.map((item) => valueText(item, pack)).join(" ");
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

function disputeText({ version, proposal, reason }) {
  const on = version === undefined ? say("step.dispute_proposal", { proposal }) : say("step.dispute", { version });
  return quoted(on, reason);
}

function rulingText({ dispute, decision, note, to, seat, amount, tally }, who) {
  const tallied = TALLIES[tally] ? say(TALLIES[tally]) : tally;
  const signed = amount > 0 ? `+${amount}` : String(amount);
  const what = decision === "rewind" ? say("step.rewind", { to })
    : decision === "adjust" ? say("step.adjust", { who: who(seat), tally: tallied, amount: signed })
      : say("step.uphold");
  return quoted(say("step.ruling", { dispute, what }), note);
}

// a seat's or the director's own words, quoted after the sentence
const quoted = (sentence, words) => (words ? `${sentence}: “${words}”` : sentence);
