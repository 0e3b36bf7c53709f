// A view drawn from its JSON alone (docs/schemas/ describes each game's): no code of any one
// game here. Cards, rows of cards, things holding `cards` (melds, a trick's plays, a hand of
// Pontoon) and maps by seat are drawn as such; the rest as labelled values. Each label's
// tooltip is the key's description from the game's view schema.

import { cardElement, cardsElement, isCard, isCards } from "./cards.js";

// shown elsewhere (the header), or only of use to check a deal: in the whole-view details
const ASIDE = new Set([
  "game", "version", "seats", "seat", "commitment", "deal_commitment", "salt", "deal_secret",
  "legal", "legal_moves", "revealed_deck", "contributions", "seed", "deal", "keys",
  "clock", // the play clock: counted down beside the status (app.js)
]);
const HEADLINE = ["phase", "hand_number", "hand_over", "match_over", "winner", "went_out"];
const ROLES = ["dealer", "banker", "mao", "leader"];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function label(key, schema) {
  const node = element("span", "label", key.replaceAll("_", " "));
  const description = schema?.[key]?.description;
  if (description) node.title = description;
  return node;
}

const isSeatKeyed = (value) =>
  value && typeof value === "object" && !Array.isArray(value) &&
  Object.keys(value).length > 0 && Object.keys(value).every((k) => /^[0-9]+$/.test(k));

const isTeamMap = (key, schema) => /\bteams?\b/.test(schema?.[key]?.description ?? "");

export function renderValue(value, pack, schema) {
  if (value === null || value === undefined) return element("span", "none", "—");
  if (isCard(value, pack)) return cardElement(value, pack);
  if (Array.isArray(value)) {
    if (value.length === 0) return element("span", "none", "none");
    if (isCards(value, pack)) return cardsElement(value, pack);
    const list = element("span", "items");
    for (const item of value) list.append(renderValue(item, pack, schema));
    return list;
  }
  if (typeof value === "object") {
    if (Object.keys(value).length === 0) return element("span", "none", "none");
    if ("cards" in value || "card" in value) return holding(value, pack, schema);
    const fields = element("dl", "fields");
    for (const [key, item] of Object.entries(value)) {
      const term = element("dt");
      term.append(/^[0-9]+$/.test(key) ? element("span", "label", `seat ${key}`) : label(key, schema));
      const detail = element("dd");
      detail.append(renderValue(item, pack, schema));
      fields.append(term, detail);
    }
    return fields;
  }
  if (typeof value === "boolean") return element("span", "flag", value ? "yes" : "no");
  return element("span", "value", String(value));
}

// a meld, a play of a trick, a Pontoon hand: its cards, its other fields as a caption
function holding(value, pack, schema) {
  const box = element("span", "holding");
  // a flag said only when it holds (`twisted`), a seat as a seat
  const caption = Object.entries(value)
    .filter(([key, item]) => key !== "cards" && key !== "card" && item !== null && item !== false && typeof item !== "object")
    .map(([key, item]) => {
      const name = key.replaceAll("_", " ");
      if (key === "seat" || key === "owner") return `seat ${item}`;
      return item === true ? name : `${name} ${item}`;
    });
  if (caption.length) box.append(element("span", "caption", caption.join(" · ")));
  const cards = value.cards ?? [value.card];
  box.append(cards.length ? renderValue(cards, pack, schema) : element("span", "none", "no card"));
  return box;
}

export function renderView(view, { pack = "french", schema = {}, title = "", seat = null } = {}) {
  const root = element("div", "view");
  root.dataset.version = view.version ?? "";
  root.append(headline(view, title, seat, schema));
  const used = new Set([...ASIDE, ...HEADLINE, "to_act", ...ROLES, "hand"]);
  const seatMaps = Object.keys(view).sort().filter(
    (k) => !used.has(k) && isSeatKeyed(view[k]) && !isTeamMap(k, schema));
  const teamMaps = Object.keys(view).filter((k) => !used.has(k) && isSeatKeyed(view[k]) && isTeamMap(k, schema));
  seatMaps.concat(teamMaps).forEach((k) => used.add(k));
  root.append(seatPanels(view, seatMaps, pack, schema, seat));
  if (teamMaps.length) root.append(teamPanel(view, teamMaps, pack, schema));
  // the table itself: a tile a key, those that hold cards first (melds, the trick, the turned card)
  const board = element("div", "board");
  const keys = Object.keys(view).filter((k) => !used.has(k) && view[k] !== undefined).sort();
  const holdsCards = (k) => JSON.stringify(view[k] ?? null).match(/"[0-9A-Z?]{2,3}"/) !== null && !isSeatKeyed(view[k]);
  for (const key of [...keys.filter(holdsCards), ...keys.filter((k) => !holdsCards(k))]) {
    const tile = element("div", "tile");
    tile.dataset.key = key;
    tile.append(label(key, schema), renderValue(view[key], pack, schema));
    if (Array.isArray(view[key]) && view[key].length > 20) tile.classList.add("many");
    board.append(tile);
  }
  root.append(board);
  if (view.legal && Object.keys(view.legal).length) {
    const legal = element("p", "legal");
    legal.append(label("legal", schema), ` ${Object.keys(view.legal).join(", ")}`);
    root.append(legal);
  }
  const whole = element("details", "whole");
  whole.append(element("summary", "", "the whole view (JSON)"), element("pre", "", JSON.stringify(view, null, 1)));
  root.append(whole);
  return root;
}

function headline(view, title, seat, schema) {
  const bar = element("div", "headline");
  bar.append(element("strong", "game", title || view.game || ""));
  for (const key of HEADLINE) {
    if (view[key] === undefined || view[key] === null || view[key] === false) continue;
    const part = element("span", "part");
    part.append(label(key, schema), " ", renderValue(view[key], "french", schema));
    bar.append(part);
  }
  const turn = view.to_act;
  const turnText = turn === null || turn === undefined ? "nobody to act" : turn === seat ? "your turn" : `seat ${turn} to act`;
  bar.append(element("span", "turn", turnText));
  if (view.deal) bar.append(element("span", "part", `${view.deal} deal`));
  bar.append(element("span", "part", seat === null || seat === undefined ? "spectator" : `you are seat ${seat}`));
  bar.append(element("span", "part version", `version ${view.version ?? "?"}`));
  return bar;
}

function seatPanels(view, seatMaps, pack, schema, me) {
  const panels = element("div", "seats");
  const count = view.seats ?? 0;
  for (let s = 0; s < count; s++) {
    const panel = element("section", "seat");
    panel.dataset.seat = s;
    if (view.to_act === s) panel.classList.add("to-act");
    if (me === s) panel.classList.add("me");
    const head = element("h3", "", `seat ${s}`);
    for (const role of ROLES) if (view[role] === s) head.append(element("span", "badge", role));
    if (view.to_act === s) head.append(element("span", "badge turn", "to act"));
    panel.append(head);
    const fields = element("dl", "fields");
    for (const key of seatMaps) {
      if (view[key][s] === undefined) continue;
      const term = element("dt");
      term.append(label(key, schema));
      const detail = element("dd");
      detail.append(renderValue(view[key][s], pack, schema));
      fields.append(term, detail);
    }
    // a seat's own `hand`, unless a map by seat shows the same already
    const shown = seatMaps.some((k) => JSON.stringify(view[k][s]) === JSON.stringify(view.hand));
    if (me === s && view.hand !== undefined && !shown) {
      const term = element("dt");
      term.append(label("hand", schema));
      const detail = element("dd", "my-hand");
      detail.append(renderValue(view.hand, pack, schema));
      fields.append(term, detail);
    }
    panel.append(fields);
    panels.append(panel);
  }
  return panels;
}

function teamPanel(view, teamMaps, pack, schema) {
  const panel = element("section", "teams");
  panel.append(element("h3", "", "teams"));
  const fields = element("dl", "fields");
  for (const key of teamMaps) {
    const term = element("dt");
    term.append(label(key, schema));
    const detail = element("dd");
    const parts = Object.entries(view[key]).map(([team, value]) => {
      const seats = view.teams?.[team];
      return `team ${team}${seats ? ` (seats ${seats.join(", ")})` : ""}: ${value}`;
    });
    detail.textContent = parts.join(" · ");
    fields.append(term, detail);
  }
  panel.append(fields);
  return panel;
}
