// The tables (ListTables) as the operator lists them: newest first, PAGE_SIZE a page, paged with
// ListTables' `next_page_token` (older ▶ reads the page after, ◀ newer goes back through the
// tokens read so far), narrowed by its filters (a game, only with open disputes, only in play).
// The page shown is read again at each poll.

import { call, isRefusal } from "./desk-api.js";
import { say } from "./desk-words.js";

const PAGE_SIZE = 100;
const COLUMNS = ["table", "game", "players", "version", "state", "disputes", "clock"];
const $ = (id) => document.getElementById(id);
const titles = new Map(); // a game's spec name -> its title in the language chosen (ListGames)
let pages = [""]; // the token of each page read so far: "" is the first, the newest tables
let at = 0; // the page shown
let listing = 0; // counts the turns of page and changes of filter: an older answer is dropped
let shown = { tables: [], next: "" };
let current = null; // the table open at the desk, marked in the list
let choose = () => {};

export function wireLobby(onChoose) {
  choose = onChoose;
  for (const box of [$("only-game"), $("only-disputed"), $("only-in-play")]) box.addEventListener("change", () => turnTo(0));
  $("newer").addEventListener("click", () => turnTo(at - 1));
  $("older").addEventListener("click", () => shown.next && turnTo(at + 1, shown.next));
}

// the games, for the filter and the titles in the list
export async function listGames() {
  const { games } = await call("GET", "/v1/games");
  titles.clear();
  for (const game of games) titles.set(game.name, game.title || game.name);
  const select = $("only-game");
  const was = select.value;
  const every = new Option(say("every_game"), "", false, was === "");
  every.dataset.word = "every_game";
  const options = [...titles].map(([name, title]) => new Option(title, name, false, name === was));
  select.replaceChildren(every, ...options);
  drawLobby();
}

// the page shown, read again
export async function refreshLobby() {
  const asked = listing;
  const query = new URLSearchParams({ page_size: String(PAGE_SIZE) });
  if (pages[at]) query.set("page_token", pages[at]);
  if ($("only-game").value) query.set("game", $("only-game").value);
  if ($("only-disputed").checked) query.set("open_disputes", "true");
  if ($("only-in-play").checked) query.set("state", "TABLE_STATE_IN_PLAY");
  const answer = await call("GET", `/v1/tables?${query}`);
  if (asked !== listing) return;
  shown = { tables: answer.tables ?? [], next: answer.next_page_token ?? "" };
  $("lobby-status").textContent = shown.tables.length ? "" : say("no_tables");
  drawLobby();
}

export function listingFailed(error) {
  if (!isRefusal(error)) $("lobby-status").textContent = say("no_listing", { message: error.message });
}

// page `page` (0: the newest tables); `token` starts it when it is the next one
function turnTo(page, token) {
  if (page < 0) return;
  if (page === 0) pages = [""];
  else if (token !== undefined) pages = [...pages.slice(0, page), token];
  at = page;
  listing += 1;
  refreshLobby().catch(listingFailed);
}

export function markCurrent(tableId) {
  current = tableId;
  drawLobby();
}

// the rows are kept and their cells written again in place (the list is read every second: a
// row replaced under the mouse would lose a click); new rows are made, the order set only when
// it changed
export function drawLobby() {
  const body = $("tables").tBodies[0];
  const kept = new Map([...body.rows].map((row) => [row.dataset.table, row]));
  const rows = shown.tables.map((summary) => fillRow(kept.get(summary.table_id) ?? newRow(summary.table_id), summary));
  const same = rows.length === body.rows.length && rows.every((row, i) => body.rows[i] === row);
  if (!same) body.replaceChildren(...rows);
  drawPages();
}

function drawPages() {
  $("pages").hidden = at === 0 && !shown.next;
  $("newer").disabled = at === 0;
  $("older").disabled = !shown.next;
  $("page-at").textContent = say("page_n", { n: at + 1 });
}

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
  row.classList.toggle("current", summary.table_id === current);
  row.classList.toggle("disputed", (summary.open_disputes ?? []).length > 0);
  const texts = cellTexts(summary);
  for (const cell of row.cells) {
    const text = texts[cell.dataset.column];
    if (cell.textContent !== text) cell.textContent = text;
  }
  return row;
}

function cellTexts(summary) {
  const names = Object.entries(summary.names ?? {}).map(([seat, name]) => `${seat}: ${name}`);
  const disputes = summary.open_disputes ?? [];
  const due = summary.clock_due_ms;
  return {
    table: summary.table_id,
    game: titles.get(summary.game) ?? summary.game,
    players: names.length ? names.join(", ") : String(summary.seats),
    version: String(summary.version),
    state: say(summary.over ? "over" : "in_play"),
    disputes: disputes.length ? disputes.join(", ") : say("none"),
    clock: due === undefined || due === null ? "—" : say("seconds_left", { n: Math.max(0, Math.ceil((due - Date.now()) / 1000)) }),
  };
}
