// The director's desk (docs/desk.md): the tables (ListTables), one table's director's view
// (GetView: every card), its moves (GetRecord: the full record, numbered as `referee replay`
// numbers them), its open disputes with their reasons, and a ruling form (Rule). The operator's
// token is kept in this tab's sessionStorage and sent in the `x-create-token` header alone,
// never in a URL. The desk reads the table again every POLL_MS.

import { ApiError } from "./api.js";
import { packOf } from "./cards.js";
import { KEPT_BY_THE_TABLE, stepLine, voidedVersions } from "./desk-steps.js";
import { sayer, WORDS } from "./desk-words.js";
import { renderView } from "./render.js";

const POLL_MS = 1000;
const TOKEN_KEY = "referee-operator-token";
const PAGE_SIZE = 100;
const DENIED = new Set(["PERMISSION_DENIED", "UNAUTHENTICATED"]);

const $ = (id) => document.getElementById(id);
const language = () => $("language").value;
let say = sayer("en");
const games = new Map(); // `game|language` -> {pack, schema, title, tallies}
let lobby = { tables: [], more: false };
const titles = new Map(); // a game's spec name -> its title in the language chosen (ListGames)
let chosen = null; // {tableId, version, view, steps, names, game, pick}
let polling = null;

// --- the API, as the operator ---

const token = () => sessionStorage.getItem(TOKEN_KEY);

async function call(method, path, body) {
  const init = { method, headers: { "x-create-token": token() ?? "", "Accept-Language": language() } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data?.code ?? "UNKNOWN", data?.message ?? response.statusText);
  }
  return data;
}

const tablePath = (tableId, rest) => `/v1/tables/${encodeURIComponent(tableId)}/${rest}`;

async function gameOf(name) {
  const key = `${name}|${language()}`;
  if (!games.has(key)) {
    const { description } = await call("GET", `/v1/games/${encodeURIComponent(name)}`);
    games.set(key, {
      pack: packOf(description),
      schema: description.schemas?.view?.properties ?? {},
      title: typeof description.title === "object" ? description.title[language()] ?? description.title.en : description.title ?? name,
      tallies: description.tallies ?? [],
    });
  }
  return games.get(key);
}

// --- opening and closing the desk ---

async function openDesk(typed) {
  if (typed) sessionStorage.setItem(TOKEN_KEY, typed);
  $("operator-token").value = "";
  if (!token()) return showSignIn(say("desk_closed"));
  try {
    await listGames();
    await refreshLobby();
  } catch (error) {
    if (DENIED.has(error.code)) return refused(error);
    $("lobby-status").textContent = say("no_listing", { message: error.message });
  }
  showDesk();
  const wanted = new URLSearchParams(location.hash.slice(1)).get("table");
  if (wanted) await choose(wanted);
  clearInterval(polling);
  polling = setInterval(poll, POLL_MS);
}

function refused(error) {
  closeDesk();
  showSignIn(say("refused_token", { message: error.message }));
  $("desk-status").classList.add("refused");
}

function closeDesk() {
  clearInterval(polling);
  sessionStorage.removeItem(TOKEN_KEY);
  chosen = null;
  $("chosen").hidden = true;
  $("reissued").replaceChildren(); // a new seat token shown is not left on the screen
  showSignIn(say("desk_closed"));
}

function showSignIn(status) {
  $("desk").hidden = true;
  $("close-desk").hidden = true;
  $("operator-token").parentElement.hidden = false;
  $("open-desk").hidden = false;
  $("desk-status").textContent = status;
  $("desk-status").classList.remove("refused");
}

function showDesk() {
  $("desk").hidden = false;
  $("close-desk").hidden = false;
  $("operator-token").parentElement.hidden = true;
  $("open-desk").hidden = true;
  $("desk-status").textContent = say("desk_open");
}

let busy = false;

async function poll() {
  if (busy) return;
  busy = true;
  try {
    await refreshLobby().catch((error) => {
      if (DENIED.has(error.code)) throw error;
      $("lobby-status").textContent = say("no_listing", { message: error.message });
    });
    if (chosen) await refreshChosen(chosen);
  } catch (error) {
    if (DENIED.has(error.code)) refused(error);
  } finally {
    busy = false;
  }
}

// --- the tables ---

// the games, for the filter and the titles in the list
async function listGames() {
  const { games: listed } = await call("GET", "/v1/games");
  titles.clear();
  for (const game of listed) titles.set(game.name, game.title || game.name);
  const select = $("only-game");
  const was = select.value;
  const every = new Option(say("every_game"), "", false, was === "");
  every.dataset.word = "every_game";
  const options = [...titles].map(([name, title]) => new Option(title, name, false, name === was));
  select.replaceChildren(every, ...options);
}

async function refreshLobby() {
  const query = new URLSearchParams({ page_size: String(PAGE_SIZE) });
  if ($("only-game").value) query.set("game", $("only-game").value);
  if ($("only-disputed").checked) query.set("open_disputes", "true");
  if ($("only-in-play").checked) query.set("state", "TABLE_STATE_IN_PLAY");
  const answer = await call("GET", `/v1/tables?${query}`);
  lobby = { tables: answer.tables ?? [], more: Boolean(answer.next_page_token) };
  $("lobby-status").textContent = lobby.more ? say("more_tables") : lobby.tables.length ? "" : say("no_tables");
  drawLobby();
}

// the rows are kept and their cells written again in place (the list is read every second: a
// row replaced under the mouse would lose a click); new rows are made, the order set only when
// it changed
function drawLobby() {
  const body = $("tables").tBodies[0];
  const kept = new Map([...body.rows].map((row) => [row.dataset.table, row]));
  const rows = lobby.tables.map((summary) => fillRow(kept.get(summary.table_id) ?? newRow(summary.table_id), summary));
  const same = rows.length === body.rows.length && rows.every((row, i) => body.rows[i] === row);
  if (!same) body.replaceChildren(...rows);
}

const COLUMNS = ["table", "game", "players", "version", "state", "disputes", "clock"];

function newRow(tableId) {
  const row = document.createElement("tr");
  row.dataset.table = tableId;
  for (const column of COLUMNS) {
    const cell = document.createElement("td");
    cell.dataset.column = column;
    row.append(cell);
  }
  row.addEventListener("click", () => choose(tableId));
  return row;
}

function fillRow(row, summary) {
  row.classList.toggle("current", summary.table_id === chosen?.tableId);
  row.classList.toggle("disputed", (summary.open_disputes ?? []).length > 0);
  const names = Object.entries(summary.names ?? {}).map(([seat, name]) => `${seat}: ${name}`);
  const disputes = summary.open_disputes ?? [];
  const due = summary.clock_due_ms;
  const texts = {
    table: summary.table_id,
    game: titles.get(summary.game) ?? summary.game,
    players: names.length ? names.join(", ") : String(summary.seats),
    version: String(summary.version),
    state: say(summary.over ? "over" : "in_play"),
    disputes: disputes.length ? disputes.join(", ") : say("none"),
    clock: due === undefined || due === null ? "—" : say("seconds_left", { n: Math.max(0, Math.ceil((due - Date.now()) / 1000)) }),
  };
  for (const cell of row.cells) {
    const text = texts[cell.dataset.column];
    if (cell.textContent !== text) cell.textContent = text;
  }
  return row;
}

// --- one table ---

async function choose(tableId) {
  if (!tableId) return;
  location.hash = `table=${encodeURIComponent(tableId)}`;
  chosen = { tableId, version: null, view: null, steps: [], names: {}, game: null, pick: null };
  $("ruling-verdict").replaceChildren();
  $("reissued").replaceChildren();
  $("ruling-note").value = "";
  noteLeft();
  drawLobby();
  try {
    await refreshChosen(chosen);
  } catch (error) {
    if (DENIED.has(error.code)) return refused(error);
    $("chosen").hidden = false;
    $("chosen-title").textContent = `${tableId}: ${error.message}`;
    $("table").replaceChildren();
  }
}

// read the director's view; the record and everything drawn from it only when it moved on
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
  const title = say("directors_view", { game: here.game.title });
  $("table").replaceChildren(renderView(here.view, { ...here.game, title, seat: null }));
  drawDisputes(here);
  drawRulingForm(here);
  drawMoves(here);
}

function showClock(clock) {
  const shown = $("chosen-clock") ?? newClock();
  if (clock?.left_ms === undefined) {
    shown.textContent = "";
    return;
  }
  const who = (clock.waiting_for ?? []).map(seatName).join(", ");
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

function seatName(seat) {
  const name = chosen?.names?.[seat];
  return name ? `${say("seat_n", { seat })} (${name})` : say("seat_n", { seat });
}

function who(step) {
  if (step.seat === "director") return say("director");
  if (step.close_window) return say("the_table");
  return seatName(step.seat);
}

// --- the open disputes, each with its reason (the full record holds it) ---

function openDisputes(here) {
  return here.view.disputes ?? [];
}

function reasonOf(here, number) {
  return here.steps.find((step) => step.version === number)?.move?.reason ?? "";
}

function drawDisputes(here) {
  const open = openDisputes(here);
  const items = open.map((dispute) => {
    const item = document.createElement("li");
    item.dataset.dispute = dispute.dispute;
    const what = dispute.version !== undefined
      ? say("on_step", { version: dispute.version })
      : say("on_proposal", { proposal: dispute.proposal });
    const head = document.createElement("strong");
    head.textContent = say("dispute_line", { dispute: dispute.dispute, who: seatName(dispute.seat), what });
    const reason = document.createElement("q");
    reason.className = "reason";
    reason.title = say("reason");
    reason.textContent = reasonOf(here, dispute.dispute);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = say("rule_on");
    button.addEventListener("click", () => {
      $("ruling-dispute").value = String(dispute.dispute);
      drawRewind(here);
    });
    item.append(head, reason, button);
    return item;
  });
  if (!items.length) items.push(Object.assign(document.createElement("li"), { className: "none", textContent: say("no_open_disputes") }));
  $("disputes").replaceChildren(...items);
}

// --- the move list: step N is version N, as `referee replay` counts ---

// what a rewind to `to` would void: the moves after it still standing
function wouldVoid(here, to) {
  const voided = voidedVersions(here.steps);
  return here.steps.filter((step) => step.version > to && !voided.has(step.version) && !KEPT_BY_THE_TABLE.has(step.move?.type));
}

function drawMoves(here) {
  const voided = voidedVersions(here.steps);
  const start = moveItem(0, document.createTextNode(say("the_start")));
  const items = here.steps.map((step) => {
    const item = moveItem(step.version, describeStep(step, here.game.pack));
    item.dataset.type = step.move?.type ?? "deadline";
    if (voided.has(step.version)) {
      item.classList.add("voided");
      item.title = say("voided");
    }
    return item;
  });
  $("moves").replaceChildren(start, ...items);
  markPickable(here);
}

function moveItem(version, content) {
  const item = document.createElement("li");
  item.value = version;
  item.dataset.version = version;
  item.append(content);
  item.addEventListener("click", () => pick(version));
  item.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") pick(version);
  });
  return item;
}

function describeStep(step, pack) {
  const said = step.move ? step.move : say("deadline_passed");
  return stepLine(who(step), said, pack);
}

// --- the ruling form ---

const decision = () => document.querySelector("input[name=decision]:checked").value;

function chosenDispute(here) {
  const number = Number($("ruling-dispute").value);
  return openDisputes(here).find((d) => d.dispute === number) ?? null;
}

// a rewind goes back before the move disputed (for a disputed proposal, before the dispute)
function rewindBefore(dispute) {
  return dispute.version ?? dispute.dispute;
}

function drawRulingForm(here) {
  const select = $("ruling-dispute");
  const was = select.value;
  const open = openDisputes(here);
  select.replaceChildren(...open.map((d) => new Option(`${d.dispute} · ${seatName(d.seat)}`, String(d.dispute), false, String(d.dispute) === was)));
  $("rule").disabled = open.length === 0;
  const seats = $("adjust-seat");
  const seatWas = seats.value;
  seats.replaceChildren(...Array.from({ length: here.view.seats ?? 0 }, (_, s) => new Option(seatName(s), String(s), false, String(s) === seatWas)));
  const tallies = $("adjust-tally");
  const tallyWas = tallies.value;
  tallies.replaceChildren(...here.game.tallies.map((t) => new Option(say(t), t, false, t === tallyWas)));
  showDecisionFields(here);
  const reissue = $("reissue-seat");
  const reissueWas = reissue.value;
  reissue.replaceChildren(...Array.from({ length: here.view.seats ?? 0 }, (_, s) => new Option(seatName(s), String(s), false, String(s) === reissueWas)));
}

function showDecisionFields(here) {
  $("rewind-fields").hidden = decision() !== "rewind";
  $("adjust-fields").hidden = decision() !== "adjust";
  cancelConfirm();
  if (here) {
    if (decision() === "adjust" && !here.game.tallies.length) $("ruling-verdict").replaceChildren(line(say("no_tally"), "rejected"));
    drawRewind(here);
  }
}

function markPickable(here) {
  const dispute = chosenDispute(here);
  const rewinding = decision() === "rewind" && dispute !== null;
  for (const item of $("moves").children) {
    const version = Number(item.dataset.version);
    const pickable = rewinding && version < rewindBefore(dispute);
    item.classList.toggle("pickable", pickable);
    item.classList.toggle("picked", rewinding && version === here.pick);
    if (pickable) item.tabIndex = 0;
    else item.removeAttribute("tabindex");
  }
}

function pick(version) {
  if (!chosen || decision() !== "rewind") return;
  const dispute = chosenDispute(chosen);
  if (dispute === null) return;
  if (version >= rewindBefore(dispute)) {
    $("rewind-to").textContent = say("not_before", { before: rewindBefore(dispute) });
    return;
  }
  chosen.pick = version;
  drawRewind(chosen);
}

// the version picked, and the moves the rewind would void, listed before it is confirmed
function drawRewind(here) {
  markPickable(here);
  cancelConfirm();
  const dispute = chosenDispute(here);
  if (here.pick !== null && dispute !== null && here.pick >= rewindBefore(dispute)) here.pick = null;
  if (here.pick === null) {
    $("rewind-to").textContent = say("pick_version");
    $("voids").replaceChildren();
    return;
  }
  $("rewind-to").textContent = say("back_to", { to: here.pick });
  const voids = wouldVoid(here, here.pick);
  const list = document.createElement("ol");
  list.className = "desk-moves";
  for (const step of voids) {
    const item = document.createElement("li");
    item.value = step.version;
    item.dataset.version = step.version;
    item.append(describeStep(step, here.game.pack));
    list.append(item);
  }
  const said = voids.length === 0 ? "voids_nothing" : voids.length === 1 ? "voids_one" : "voids";
  const head = line(say(said, { n: voids.length }), "hint");
  $("voids").replaceChildren(head, list);
}

function cancelConfirm() {
  $("confirm").hidden = true;
  $("cancel").hidden = true;
  $("rule").hidden = false;
  $("voids").classList.remove("confirming");
}

function rulingBody(here) {
  const dispute = chosenDispute(here);
  const body = { dispute: dispute.dispute, note: $("ruling-note").value, ruling_id: crypto.randomUUID(), expected_version: here.version };
  if (decision() === "uphold") body.uphold = {};
  if (decision() === "rewind") body.rewind = { to: here.pick };
  if (decision() === "adjust") {
    body.adjust = { seat: Number($("adjust-seat").value), amount: Number($("adjust-amount").value || 0), tally: $("adjust-tally").value };
  }
  return body;
}

// a rewind asks first: what it voids is shown, and "Confirm the rewind" sends it
function askRuling(event) {
  event.preventDefault();
  if (!chosen || chosenDispute(chosen) === null) return;
  if (decision() === "rewind") {
    if (chosen.pick === null) {
      $("ruling-verdict").replaceChildren(line(say("pick_first"), "rejected"));
      return;
    }
    $("rule").hidden = true;
    $("confirm").hidden = false;
    $("cancel").hidden = false;
    $("voids").classList.add("confirming");
    return;
  }
  sendRuling();
}

async function sendRuling() {
  const here = chosen;
  const out = $("ruling-verdict");
  try {
    const { verdict } = await call("POST", tablePath(here.tableId, "rulings"), rulingBody(here));
    const accepted = verdict.outcome === "OUTCOME_ACCEPTED";
    const lines = [line(say(accepted ? "accepted" : "rejected"), accepted ? "accepted" : "rejected")];
    for (const v of verdict.violations ?? []) lines.push(line(`${v.rule}: ${v.message}${v.hint ? ` (${v.hint})` : ""}`, "violation"));
    for (const e of verdict.events ?? []) if (e.text) lines.push(line(e.text, "event"));
    out.replaceChildren(...lines);
    if (accepted) {
      here.pick = null;
      $("ruling-note").value = "";
      noteLeft();
    }
  } catch (error) {
    if (DENIED.has(error.code)) return refused(error);
    out.replaceChildren(line(`${say("rejected")}: ${error.message}`, "rejected"));
  }
  cancelConfirm();
  if (chosen === here) await refreshChosen(here).catch(() => {});
}

// --- a seat's new token (ReissueSeat), asked twice: the old one is refused from then on ---

function askReissue(event) {
  event.preventDefault();
  if (!chosen?.view) return;
  $("reissued").replaceChildren();
  showReissueConfirm(true);
}

function showReissueConfirm(asking) {
  $("reissue-ask").hidden = asking;
  $("reissue-confirm").hidden = !asking;
  $("reissue-cancel").hidden = !asking;
}

async function reissue() {
  const here = chosen;
  const seat = Number($("reissue-seat").value);
  showReissueConfirm(false);
  try {
    const answer = await call("POST", tablePath(here.tableId, `seats/${seat}/token`), {});
    const shown = document.createElement("output");
    shown.id = "new-token";
    shown.textContent = answer.seat.token;
    $("reissued").replaceChildren(line(say("new_token_of", { seat: seatName(seat) }), "accepted"), shown);
  } catch (error) {
    if (DENIED.has(error.code)) return refused(error);
    $("reissued").replaceChildren(line(error.message, "rejected"));
  }
  if (chosen === here) await refreshChosen(here).catch(() => {});
}

function line(text, className) {
  const node = document.createElement("p");
  node.className = className;
  node.textContent = text;
  return node;
}

function noteLeft() {
  $("note-left").textContent = say("chars_left", { n: 500 - $("ruling-note").value.length });
}

// --- the desk's own words ---

function translate() {
  say = sayer(language());
  document.documentElement.lang = language();
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = say(node.dataset.word);
  for (const node of document.querySelectorAll("[data-placeholder]")) node.placeholder = say(node.dataset.placeholder);
  document.title = say("title");
  noteLeft();
}

// --- wiring ---

$("sign-in").addEventListener("submit", (event) => {
  event.preventDefault();
  openDesk($("operator-token").value.trim());
});
$("close-desk").addEventListener("click", closeDesk);
$("open-table").addEventListener("submit", (event) => {
  event.preventDefault();
  choose($("table-id").value.trim());
});
for (const box of [$("only-game"), $("only-disputed"), $("only-in-play")]) box.addEventListener("change", () => poll());
for (const radio of document.querySelectorAll("input[name=decision]")) {
  radio.addEventListener("change", () => chosen?.view && showDecisionFields(chosen));
}
$("ruling-dispute").addEventListener("change", () => chosen?.view && drawRewind(chosen));
$("ruling").addEventListener("submit", askRuling);
$("confirm").addEventListener("click", sendRuling);
$("cancel").addEventListener("click", cancelConfirm);
$("ruling-note").addEventListener("input", noteLeft);
$("reissue").addEventListener("submit", askReissue);
$("reissue-confirm").addEventListener("click", reissue);
$("reissue-cancel").addEventListener("click", () => showReissueConfirm(false));
$("language").addEventListener("change", () => {
  localStorage.setItem("referee-language", language());
  translate();
  if (!$("desk").hidden) listGames().then(drawLobby).catch(() => {});
  if (chosen) {
    chosen.version = null; // drawn again in the new language
    poll();
  }
});

const saved = localStorage.getItem("referee-language");
if (saved && WORDS[saved]) $("language").value = saved;
translate();
if (token()) openDesk(null);
else showSignIn(say("desk_closed"));
