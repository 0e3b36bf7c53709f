// The ruling form (Rule): a dispute, a decision (uphold; rewind to a version picked in the move
// list, what it voids listed and confirmed before it is sent; adjust a seat's tally) and a note
// for every seat. It sends the version the desk showed (`expected_version`): a table that moved
// on meanwhile refuses the ruling rather than rewind to a list the director did not see.

import { call, isRefusal, tablePath } from "./desk-api.js";
import { seatName, stepLine, wouldVoid } from "./desk-steps.js";
import { say } from "./desk-words.js";

const NOTE_CHARS = 500;
const $ = (id) => document.getElementById(id);
let table = null; // the table the form rules on (desk-table.js's)
let picked = null; // the version a rewind goes back to
let ruled = () => {};

export function wireRuling(onRuled) {
  ruled = onRuled;
  for (const radio of document.querySelectorAll("input[name=decision]")) radio.addEventListener("change", showDecisionFields);
  $("ruling-dispute").addEventListener("change", drawRewind);
  $("ruling").addEventListener("submit", askRuling);
  $("confirm").addEventListener("click", sendRuling);
  $("cancel").addEventListener("click", cancelConfirm);
  $("ruling-note").addEventListener("input", noteLeft);
}

// a table newly chosen: nothing of the one before
export function resetRuling() {
  table = null;
  picked = null;
  $("ruling-verdict").replaceChildren();
  $("ruling-note").value = "";
  noteLeft();
}

export function noteLeft() {
  $("note-left").textContent = say("chars_left", { n: NOTE_CHARS - $("ruling-note").value.length });
}

export function drawRulingForm(here) {
  table = here;
  const open = here.view.disputes ?? [];
  const seats = Array.from({ length: here.view.seats ?? 0 }, (_, s) => [String(s), seatName(s, here.names)]);
  refill($("ruling-dispute"), open.map((d) => [String(d.dispute), `${d.dispute} · ${seatName(d.seat, here.names)}`]));
  refill($("adjust-seat"), seats);
  refill($("adjust-tally"), here.game.tallies.map((t) => [t, say(t)]));
  $("rule").disabled = open.length === 0;
  showDecisionFields();
}

// a select's options written again, the one chosen kept
function refill(select, options) {
  const was = select.value;
  select.replaceChildren(...options.map(([value, text]) => new Option(text, value, false, value === was)));
}

const decision = () => document.querySelector("input[name=decision]:checked").value;

function chosenDispute() {
  const number = Number($("ruling-dispute").value);
  return (table?.view.disputes ?? []).find((d) => d.dispute === number) ?? null;
}

// a rewind goes back before the move disputed (for a disputed proposal, before the dispute)
function rewindBefore(dispute) {
  return dispute.version ?? dispute.dispute;
}

function showDecisionFields() {
  $("rewind-fields").hidden = decision() !== "rewind";
  $("adjust-fields").hidden = decision() !== "adjust";
  cancelConfirm();
  if (!table) return;
  if (decision() === "adjust" && !table.game.tallies.length) $("ruling-verdict").replaceChildren(line(say("no_tally"), "rejected"));
  drawRewind();
}

// "rule on it", beside a dispute
export function ruleOn(number) {
  $("ruling-dispute").value = String(number);
  drawRewind();
}

// the steps a rewind may go back to, marked in the move list
function markPickable() {
  const dispute = chosenDispute();
  const rewinding = decision() === "rewind" && dispute !== null;
  for (const item of $("moves").children) {
    const version = Number(item.dataset.version);
    const pickable = rewinding && version < rewindBefore(dispute);
    item.classList.toggle("pickable", pickable);
    item.classList.toggle("picked", rewinding && version === picked);
    if (pickable) item.tabIndex = 0;
    else item.removeAttribute("tabindex");
  }
}

// a step clicked in the move list
export function pick(version) {
  const dispute = chosenDispute();
  if (decision() !== "rewind" || dispute === null) return;
  if (version >= rewindBefore(dispute)) {
    $("rewind-to").textContent = say("not_before", { before: rewindBefore(dispute) });
    return;
  }
  picked = version;
  drawRewind();
}

// the version picked, and the moves the rewind would void, listed before it is confirmed
function drawRewind() {
  if (!table) return;
  markPickable();
  cancelConfirm();
  const dispute = chosenDispute();
  if (picked !== null && dispute !== null && picked >= rewindBefore(dispute)) picked = null;
  if (picked === null) {
    $("rewind-to").textContent = say("pick_version");
    $("voids").replaceChildren();
    return;
  }
  $("rewind-to").textContent = say("back_to", { to: picked });
  const voids = wouldVoid(table.steps, picked);
  const list = document.createElement("ol");
  list.className = "desk-moves";
  for (const step of voids) {
    const item = document.createElement("li");
    item.value = step.version;
    item.dataset.version = step.version;
    item.textContent = stepLine(step, table);
    list.append(item);
  }
  const said = voids.length === 0 ? "voids_nothing" : voids.length === 1 ? "voids_one" : "voids";
  $("voids").replaceChildren(line(say(said, { n: voids.length }), "hint"), list);
}

function cancelConfirm() {
  $("confirm").hidden = true;
  $("cancel").hidden = true;
  $("rule").hidden = false;
  $("voids").classList.remove("confirming");
}

// a rewind asks first: what it voids is shown, and "Confirm the rewind" sends it
function askRuling(event) {
  event.preventDefault();
  if (chosenDispute() === null) return;
  if (decision() !== "rewind") {
    sendRuling();
    return;
  }
  if (picked === null) {
    $("ruling-verdict").replaceChildren(line(say("pick_first"), "rejected"));
    return;
  }
  $("rule").hidden = true;
  $("confirm").hidden = false;
  $("cancel").hidden = false;
  $("voids").classList.add("confirming");
}

function rulingBody(here) {
  const body = { dispute: chosenDispute().dispute, note: $("ruling-note").value, ruling_id: crypto.randomUUID(), expected_version: here.version };
  if (decision() === "uphold") body.uphold = {};
  if (decision() === "rewind") body.rewind = { to: picked };
  if (decision() === "adjust") {
    body.adjust = { seat: Number($("adjust-seat").value), amount: Number($("adjust-amount").value || 0), tally: $("adjust-tally").value };
  }
  return body;
}

async function sendRuling() {
  const here = table;
  const out = $("ruling-verdict");
  try {
    const { verdict } = await call("POST", tablePath(here.tableId, "rulings"), rulingBody(here));
    out.replaceChildren(...verdictLines(verdict));
    if (verdict.outcome === "OUTCOME_ACCEPTED" && table === here) {
      picked = null;
      $("ruling-note").value = "";
      noteLeft();
    }
  } catch (error) {
    if (isRefusal(error)) return;
    out.replaceChildren(line(`${say("rejected")}: ${error.message}`, "rejected"));
  }
  cancelConfirm();
  ruled();
}

function verdictLines(verdict) {
  const accepted = verdict.outcome === "OUTCOME_ACCEPTED";
  const lines = [line(say(accepted ? "accepted" : "rejected"), accepted ? "accepted" : "rejected")];
  for (const v of verdict.violations ?? []) lines.push(line(`${v.rule}: ${v.message}${v.hint ? ` (${v.hint})` : ""}`, "violation"));
  for (const e of verdict.events ?? []) if (e.text) lines.push(line(e.text, "event"));
  return lines;
}

function line(text, className) {
  return Object.assign(document.createElement("p"), { className, textContent: text });
}
