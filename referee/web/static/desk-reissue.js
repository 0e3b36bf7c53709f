// A seat's new token (ReissueSeat), for a player who lost theirs: asked twice, since the old one
// is refused from then on; the new one shown once, to be given to that player alone, and not
// left on the screen when the desk turns to another table or closes.

import { call, isRefusal, tablePath } from "./desk-api.js";
import { seatName } from "./desk-steps.js";
import { say } from "./desk-words.js";

const $ = (id) => document.getElementById(id);
let table = null; // the table whose seat is given a token (desk-table.js's)
let done = () => {};

export function wireReissue(onDone) {
  done = onDone;
  $("reissue").addEventListener("submit", askReissue);
  $("reissue-confirm").addEventListener("click", reissue);
  $("reissue-cancel").addEventListener("click", () => showConfirm(false));
}

export function resetReissue() {
  table = null;
  $("reissued").replaceChildren();
  showConfirm(false);
}

export function drawReissueForm(here) {
  table = here;
  const select = $("reissue-seat");
  const was = select.value;
  const seats = Array.from({ length: here.view.seats ?? 0 }, (_, s) => new Option(seatName(s, here.names), String(s), false, String(s) === was));
  select.replaceChildren(...seats);
}

function askReissue(event) {
  event.preventDefault();
  if (!table) return;
  $("reissued").replaceChildren();
  showConfirm(true);
}

function showConfirm(asking) {
  $("reissue-ask").hidden = asking;
  $("reissue-confirm").hidden = !asking;
  $("reissue-cancel").hidden = !asking;
}

async function reissue() {
  const here = table;
  const seat = Number($("reissue-seat").value);
  showConfirm(false);
  try {
    const answer = await call("POST", tablePath(here.tableId, `seats/${seat}/token`), {});
    const shown = Object.assign(document.createElement("output"), { id: "new-token", textContent: answer.seat.token });
    if (table === here) $("reissued").replaceChildren(line(say("new_token_of", { seat: seatName(seat, here.names) }), "accepted"), shown);
  } catch (error) {
    if (isRefusal(error)) return;
    $("reissued").replaceChildren(line(error.message, "rejected"));
  }
  done();
}

function line(text, className) {
  return Object.assign(document.createElement("p"), { className, textContent: text });
}
