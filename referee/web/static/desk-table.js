// One table at the desk: the director's view (GetView with the operator's token: every card),
// its clock, its open disputes each with its reason (the full record holds it), and its moves
// (GetRecord, the full record: step N is version N, as `referee replay` counts). The view is
// read at each poll; the record, and everything drawn from it, only when the version moved on.

import { call, gameOf, isRefusal, tablePath } from "./desk-api.js";
import { drawReissueForm, resetReissue } from "./desk-reissue.js";
import { drawRulingForm, pick, resetRuling, ruleOn } from "./desk-ruling.js";
import { seatName, stepLine, voidedVersions } from "./desk-steps.js";
import { say } from "./desk-words.js";
import { renderView } from "./render.js";

const $ = (id) => document.getElementById(id);
let chosen = null; // {tableId, version, view, steps, names, game}

export async function choose(tableId) {
  if (!tableId) return;
  location.hash = `table=${encodeURIComponent(tableId)}`;
  chosen = { tableId, version: null, view: null, steps: [], names: {}, game: null };
  resetRuling();
  resetReissue();
  try {
    await refreshChosen(chosen);
  } catch (error) {
    if (isRefusal(error)) return;
    $("chosen").hidden = false;
    $("chosen-title").textContent = `${tableId}: ${error.message}`;
    $("table").replaceChildren();
  }
}

export function forgetTable() {
  chosen = null;
  $("chosen").hidden = true;
  resetReissue(); // a new seat token shown is not left on the screen
}

// the table open, read again
export async function refreshTable() {
  if (chosen) await refreshChosen(chosen);
}

// the table open, drawn again at its next reading even if it did not move on (a new language)
export function drawAgain() {
  if (chosen) chosen.version = null;
}

async function refreshChosen(here) {
  const answer = await call("GET", tablePath(here.tableId, "view"));
  if (chosen !== here) return;
  here.view = answer.view;
  here.names = answer.view.names ?? {};
  showClock(answer.view.clock);
  if (answer.version === here.version) return;
  const { record } = await call("GET", tablePath(here.tableId, "record"));
  if (chosen !== here) return;
  here.steps = JSON.parse(record).steps ?? [];
  here.version = answer.version;
  here.game = await gameOf(answer.view.game);
  drawChosen(here);
}

function drawChosen(here) {
  $("chosen").hidden = false;
  $("chosen").dataset.version = here.version;
  $("chosen-title").textContent = say("table_of", { game: here.game.title, table: here.tableId });
  const viewer = say("directors_view");
  $("table").replaceChildren(renderView(here.view, { ...here.game, title: here.game.title, seat: null, viewer }));
  drawDisputes(here);
  drawMoves(here);
  drawRulingForm(here);
  drawReissueForm(here);
}

function showClock(clock) {
  const shown = $("chosen-clock") ?? newClock();
  if (clock?.left_ms === undefined) {
    shown.textContent = "";
    return;
  }
  const who = (clock.waiting_for ?? []).map((seat) => seatName(seat, chosen?.names)).join(", ");
  const left = say("seconds_left", { n: Math.ceil(clock.left_ms / 1000) });
  shown.textContent = who ? say("clock_of", { who, left }) : left;
}

function newClock() {
  const clock = document.createElement("span");
  clock.id = "chosen-clock";
  clock.className = "status clock";
  clock.setAttribute("role", "timer");
  $("chosen-title").after(clock);
  return clock;
}

// --- the open disputes, each with its reason ---

function reasonOf(here, number) {
  return here.steps.find((step) => step.version === number)?.move?.reason ?? "";
}

function drawDisputes(here) {
  const items = (here.view.disputes ?? []).map((dispute) => disputeItem(here, dispute));
  if (!items.length) items.push(Object.assign(document.createElement("li"), { className: "none", textContent: say("no_open_disputes") }));
  $("disputes").replaceChildren(...items);
}

function disputeItem(here, dispute) {
  const item = document.createElement("li");
  item.dataset.dispute = dispute.dispute;
  const what = dispute.version !== undefined
    ? say("on_step", { version: dispute.version })
    : say("on_proposal", { proposal: dispute.proposal });
  const head = document.createElement("strong");
  head.textContent = say("dispute_line", { dispute: dispute.dispute, who: seatName(dispute.seat, here.names), what });
  const reason = document.createElement("q");
  reason.className = "reason";
  reason.title = say("reason");
  reason.textContent = reasonOf(here, dispute.dispute);
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = say("rule_on");
  button.addEventListener("click", () => ruleOn(dispute.dispute));
  item.append(head, reason, button);
  return item;
}

// --- the move list: the start, then each step in words; a voided one struck through ---

function drawMoves(here) {
  const voided = voidedVersions(here.steps);
  const start = moveItem(0, say("the_start"));
  const items = here.steps.map((step) => {
    const item = moveItem(step.version, stepLine(step, here));
    item.dataset.type = step.move?.type ?? "deadline";
    if (voided.has(step.version)) {
      item.classList.add("voided");
      item.title = say("voided");
    }
    return item;
  });
  $("moves").replaceChildren(start, ...items); // the ruling form marks those a rewind may pick
}

function moveItem(version, text) {
  const item = document.createElement("li");
  item.value = version;
  item.dataset.version = version;
  item.textContent = text;
  item.addEventListener("click", () => pick(version));
  item.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") pick(version);
  });
  return item;
}
