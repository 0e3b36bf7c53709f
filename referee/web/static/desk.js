// The director's desk (docs/desk.md), opened with the operator's token: the tables
// (desk-lobby.js), one table with its disputes and moves (desk-table.js), the ruling form
// (desk-ruling.js) and a seat's new token (desk-reissue.js), all through the referee's HTTP
// routes as the operator (desk-api.js). This module opens and closes the desk, reads the list
// and the table open again every POLL_MS, and sets the desk's language.

import { forgetToken, isRefusal, keepToken, token, whenRefused } from "./desk-api.js";
import { listGames, listingFailed, markCurrent, refreshLobby, wireLobby } from "./desk-lobby.js";
import { wireReissue } from "./desk-reissue.js";
import { noteLeft, wireRuling } from "./desk-ruling.js";
import { choose, drawAgain, forgetTable, refreshTable } from "./desk-table.js";
import { say, WORDS } from "./desk-words.js";
import { setLanguage } from "./words.js";

const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);
let polling = null;
let busy = false;

// --- opening and closing the desk ---

async function openDesk(typed) {
  if (typed) keepToken(typed);
  $("operator-token").value = "";
  if (!token()) return showSignIn(say("desk_closed"));
  try {
    await listGames();
    await refreshLobby();
  } catch (error) {
    if (isRefusal(error)) return; // the desk is shut already (`refused`)
    listingFailed(error);
  }
  showDesk();
  const wanted = new URLSearchParams(location.hash.slice(1)).get("table");
  if (wanted) await openTable(wanted);
  clearInterval(polling);
  polling = setInterval(poll, POLL_MS);
}

// the operator's token refused, at any call: the desk shuts and forgets it
function refused(error) {
  closeDesk();
  showSignIn(say("refused_token", { message: error.message }));
  $("desk-status").classList.add("refused");
}

function closeDesk() {
  clearInterval(polling);
  forgetToken();
  forgetTable();
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

async function openTable(tableId) {
  if (!tableId) return;
  markCurrent(tableId);
  await choose(tableId);
}

// the list and the table open, read again; one reading at a time
async function poll() {
  if (busy) return;
  busy = true;
  try {
    await refreshLobby().catch(listingFailed);
    await refreshTable();
  } catch {
    // a refusal shut the desk (`refused`); anything else is tried again at the next poll
  } finally {
    busy = false;
  }
}

// --- the desk's own words, and the page's (the view, the steps) in the same language ---

const language = () => $("language").value;

function translate() {
  setLanguage(language());
  document.documentElement.lang = language();
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = say(node.dataset.word);
  for (const node of document.querySelectorAll("[data-placeholder]")) node.placeholder = say(node.dataset.placeholder);
  document.title = say("title");
  noteLeft();
}

function changeLanguage() {
  localStorage.setItem("referee-language", language());
  translate();
  if ($("desk").hidden) return;
  listGames().catch(() => {});
  drawAgain();
  poll();
}

// --- wiring ---

whenRefused(refused);
wireLobby(openTable);
wireRuling(() => refreshTable().catch(() => {}));
wireReissue(() => refreshTable().catch(() => {}));
$("sign-in").addEventListener("submit", (event) => {
  event.preventDefault();
  openDesk($("operator-token").value.trim());
});
$("close-desk").addEventListener("click", closeDesk);
$("open-table").addEventListener("submit", (event) => {
  event.preventDefault();
  openTable($("table-id").value.trim());
});
$("language").addEventListener("change", changeLanguage);

const saved = localStorage.getItem("referee-language");
if (saved && WORDS[saved]) $("language").value = saved;
translate();
if (token()) openDesk(null);
else showSignIn(say("desk_closed"));
