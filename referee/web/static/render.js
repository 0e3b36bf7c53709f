// A view drawn for a player: each key under its label in the page's language (words.js), seats
// by their display names (`names`, else "seat N"), cards as cards. Maps by seat go to the seats'
// panels, maps by team to the teams' panel, the rest to the table's tiles; a seat's own `hand`
// is drawn once, in its panel (never again from `hands`). A key no layout knows is still drawn,
// under its name. Each label's tooltip is the key's description from the game's view schema.
// Names are user input: every text goes in by textContent, never as HTML.

import { cardElement, cardsElement, isCard, isCards } from "./cards.js";
import { labelOf, say } from "./words.js";

// shown elsewhere (the headline, the clock), or only of use to check a deal: in the whole view
const ASIDE = new Set([
  "game", "version", "seats", "seat", "commitment", "deal_commitment", "salt", "deal_secret",
  "legal", "legal_moves", "revealed_deck", "contributions", "seed", "deal", "keys", "clock",
  "rules_version", "names", "disputes_ruled", "team", "active_hand",
]);
const HEADLINE = ["phase", "hand_number", "hand_over", "match_over", "winner", "went_out"];
const ROLES = ["dealer", "banker", "mao", "leader"];
// keys whose value is a seat, or a list of seats (a seat panel's badges)
const SEAT_VALUED = new Set(["dealer", "banker", "mao", "leader", "to_act", "went_out", "winner", "owner", "seat", "discarder", "next_banker", "to"]);
const SEAT_LISTS = ["out", "out_of_hand", "blown", "deciding"];
// games whose `winner` is a team
const TEAM_WINNER = new Set(["tarocchi_piedicavallo"]);
// the last hand, revealed: what of it a player reads (the rest checks the deal)
const LAST_HAND_SHOWN = ["hand_number", "went_out", "winner", "void", "points", "tricks", "next_banker", "hands", "melds", "discard"];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// the seat's display name (user input: only ever set as text), else "seat N"
export function seatName(seat, names) {
  const name = names?.[seat] ?? names?.[String(seat)];
  return typeof name === "string" && name.trim() ? name : say("seat", { n: seat });
}

function label(key, ctx) {
  const node = element("span", "label", labelOf(key, ctx.game));
  node.dataset.key = key;
  const description = ctx.schema?.[key]?.description;
  if (description) node.title = description;
  return node;
}

const isEmpty = (value) =>
  value === null || value === undefined || (Array.isArray(value) && value.length === 0) ||
  (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);

const isSeatKeyed = (value) =>
  value && typeof value === "object" && !Array.isArray(value) &&
  Object.keys(value).length > 0 && Object.keys(value).every((k) => /^[0-9]+$/.test(k));

const isTeamMap = (key, ctx) => /\bteams?\b/.test(ctx.schema?.[key]?.description ?? "");

function word(prefix, value) {
  const key = `${prefix}.${value}`;
  const said = say(key);
  return said === key ? String(value).replaceAll("_", " ") : said;
}

// one value under `key`: a seat, cards, a holding, labelled fields, a word
export function renderValue(value, ctx, key = "") {
  if (value === null || value === undefined) return element("span", "none", "—");
  if (SEAT_VALUED.has(key) && typeof value === "number") {
    if (key === "winner" && TEAM_WINNER.has(ctx.game)) return element("span", "value", say("team", { n: value }));
    return element("span", "value seat-name", seatName(value, ctx.names));
  }
  if (key === "phase") return element("span", "value", word("phase", value));
  if (isCard(value, ctx.pack)) return cardElement(value, ctx.pack);
  if (Array.isArray(value)) return renderList(value, ctx, key);
  if (typeof value === "object") return renderObject(value, ctx, key);
  if (typeof value === "boolean") return element("span", "flag", say(value ? "yes" : "no"));
  return element("span", "value", String(value));
}

function renderList(value, ctx, key) {
  if (value.length === 0) return element("span", "none", SEAT_LISTS.includes(key) || key === "waiting" ? say("nobody") : "—");
  if (isCards(value, ctx.pack)) return cardsElement(value, ctx.pack);
  if (key === "disputes") return disputesElement(value, ctx);
  if (SEAT_LISTS.includes(key) || key === "waiting") {
    return element("span", "value", value.map((s) => seatName(s, ctx.names)).join(", "));
  }
  const list = element("span", "items");
  for (const item of value) list.append(renderValue(item, ctx, key));
  return list;
}

// the disputes open, each in words: who called the director, on which move
function disputesElement(disputes, ctx) {
  const list = element("span", "items disputes");
  for (const dispute of disputes) {
    const values = { n: dispute.dispute, who: seatName(dispute.seat, ctx.names), version: dispute.version };
    list.append(element("span", "value dispute", say(dispute.version === undefined ? "dispute.proposal" : "dispute.version", values)));
  }
  return list;
}

function renderObject(value, ctx, key) {
  if (Object.keys(value).length === 0) return element("span", "none", "—");
  if ("cards" in value || "card" in value) return holding(value, ctx);
  const fields = element("dl", "fields");
  for (const [name, item] of Object.entries(value)) {
    const term = element("dt");
    const bySeat = /^[0-9]+$/.test(name) && key !== "tricks" && key !== "points";
    term.append(bySeat ? element("span", "label", seatName(Number(name), ctx.names)) : label(name, ctx));
    const detail = element("dd");
    detail.append(renderValue(item, ctx, bySeat ? "" : name));
    fields.append(term, detail);
  }
  return fields;
}

// a meld, a play of a trick, a Pontoon hand, a trick taken: its cards and a caption in words
function holding(value, ctx) {
  const box = element("span", "holding");
  const caption = captionOf(value, ctx);
  if (caption) box.append(element("span", "caption", caption));
  const cards = value.cards ?? [value.card];
  if (cards.length && typeof cards[0] === "object") {
    box.append(renderList(cards, ctx, "trick")); // a trick taken: each play with its seat
  } else {
    box.append(cards.length ? cardsElement(cards, ctx.pack) : element("span", "none", say("no_cards")));
  }
  return box;
}

function captionOf(value, ctx) {
  if ("kind" in value && "id" in value) {
    return say("meld.caption", { id: value.id, kind: word("kind", value.kind), owner: seatName(value.owner, ctx.names) });
  }
  if ("stake" in value) return handCaption(value);
  if ("winner" in value) return say("trick.won_by", { who: seatName(value.winner, ctx.names) });
  if ("seat" in value) return seatName(value.seat, ctx.names);
  return "";
}

// a banking hand: its whole stake, the cards bought for it added (PO-5), and what holds of it
function handCaption(hand) {
  const bought = (hand.paid ?? []).reduce((sum, paid) => sum + paid, 0);
  const parts = []; // no stake said for a hand without one (the banker's)
  if (bought) parts.push(say("hand.stake_bought", { total: hand.stake + bought, bet: hand.stake, bought }));
  else if (hand.stake) parts.push(say("hand.stake", { total: hand.stake }));
  if (hand.shoot) parts.push(say("hand.shoot", { n: hand.shoot }));
  for (const flag of ["split", "twisted", "done", "settled"]) if (hand[flag]) parts.push(say(`hand.${flag}`));
  return parts.join(" · ");
}

// `ctx.viewer`: who reads the view, in words, where it is neither a seat nor a spectator
export function renderView(view, ctx) {
  ctx = { pack: "french", schema: {}, title: "", seat: null, ...ctx, game: ctx.game ?? view.game, names: view.names };
  const root = element("div", "view");
  root.dataset.version = view.version ?? "";
  root.dataset.game = view.game ?? "";
  root.append(headline(view, ctx));
  const used = new Set([...ASIDE, ...HEADLINE, "to_act", ...ROLES, "hand", "hands", ...SEAT_LISTS]);
  const seatMaps = Object.keys(view).sort().filter((k) => !used.has(k) && isSeatKeyed(view[k]) && !isTeamMap(k, ctx));
  const teamMaps = Object.keys(view).sort().reverse()
    .filter((k) => !used.has(k) && k !== "teams" && isTeamMap(k, ctx) && !isEmpty(view[k]));
  [...seatMaps, ...teamMaps, "teams", "last_hand"].forEach((k) => used.add(k));
  root.append(seatPanels(view, seatMaps, ctx));
  if (view.teams) root.append(teamPanel(view, teamMaps, ctx));
  root.append(board(view, used, ctx));
  if (!isEmpty(view.last_hand)) root.append(lastHand(view.last_hand, ctx));
  const whole = element("details", "whole");
  whole.append(element("summary", "", say("whole")), element("pre", "", JSON.stringify(view, null, 1)));
  root.append(whole);
  return root;
}

// the table itself: a tile a key, those that hold cards first; an empty one is not drawn
function board(view, used, ctx) {
  const tiles = element("div", "board");
  const keys = Object.keys(view).filter((k) => !used.has(k) && !isEmpty(view[k])).sort();
  const holdsCards = (k) => JSON.stringify(view[k]).match(/"[0-9A-Z?]{2,3}"/) !== null;
  for (const key of [...keys.filter(holdsCards), ...keys.filter((k) => !holdsCards(k))]) {
    const tile = element("div", "tile");
    tile.dataset.key = key;
    tile.append(label(key, ctx), renderValue(view[key], ctx, key));
    if (Array.isArray(view[key]) && view[key].length > 20) tile.classList.add("many");
    tiles.append(tile);
  }
  return tiles;
}

function lastHand(last, ctx) {
  const box = element("details", "last-hand");
  box.append(element("summary", "", labelOf("last_hand", ctx.game)));
  const fields = element("dl", "fields");
  for (const key of LAST_HAND_SHOWN) {
    if (isEmpty(last[key])) continue;
    const term = element("dt");
    term.append(label(key, ctx));
    const detail = element("dd");
    detail.append(renderValue(last[key], { ...ctx, schema: {} }, key));
    fields.append(term, detail);
  }
  box.append(fields);
  return box;
}

function headline(view, ctx) {
  const bar = element("div", "headline");
  bar.append(element("strong", "game", ctx.title || view.game || ""));
  for (const key of HEADLINE) {
    if (view[key] === undefined || view[key] === null || view[key] === false) continue;
    const part = element("span", "part");
    part.dataset.key = key;
    if (view[key] === true) part.append(label(key, ctx));
    else part.append(label(key, ctx), " ", renderValue(view[key], ctx, key));
    bar.append(part);
  }
  const turn = view.to_act;
  const turnText = turn === null || turn === undefined ? say("turn.nobody")
    : turn === ctx.seat ? say("turn.yours") : say("turn.of", { who: seatName(turn, ctx.names) });
  bar.append(element("span", "turn", turnText));
  if (view.deal) bar.append(element("span", "part", word("deal", view.deal)));
  const me = ctx.viewer ?? (ctx.seat === null || ctx.seat === undefined ? say("spectator") : say("you_are", { who: seatName(ctx.seat, ctx.names) }));
  bar.append(element("span", "part who", me));
  bar.append(element("span", "part version", say("version", { n: view.version ?? "?" })));
  return bar;
}

function seatPanels(view, seatMaps, ctx) {
  const panels = element("div", "seats");
  for (let s = 0; s < (view.seats ?? 0); s++) panels.append(seatPanel(view, s, seatMaps, ctx));
  return panels;
}

function seatPanel(view, s, seatMaps, ctx) {
  const panel = element("section", "seat");
  panel.dataset.seat = s;
  if (view.to_act === s) panel.classList.add("to-act");
  if (ctx.seat === s) panel.classList.add("me");
  const head = element("h3");
  head.append(element("span", "seat-name", seatName(s, ctx.names)));
  for (const role of ROLES) if (view[role] === s) head.append(element("span", "badge", say(`badge.${role}`)));
  if (view.to_act === s) head.append(element("span", "badge turn", say("badge.to_act")));
  for (const key of SEAT_LISTS) if (view[key]?.includes?.(s)) head.append(element("span", "badge out", labelOf(key, ctx.game)));
  panel.append(head);
  const fields = element("dl", "fields");
  const add = (key, value, className) => {
    const term = element("dt");
    term.append(label(key, ctx));
    const detail = element("dd", className);
    detail.append(renderValue(value, ctx, key));
    fields.append(term, detail);
  };
  for (const key of seatMaps) if (view[key][s] !== undefined) add(key, view[key][s]);
  // each hand once: the seat's own from `hand` (its cards may be chosen), the others' from `hands`
  if (ctx.seat === s && view.hand !== undefined) add("hand", view.hand, "my-hand");
  else if (view.hands?.[s] !== undefined) add("hands", view.hands[s]);
  markActiveHand(fields, view, s);
  panel.append(fields);
  return panel;
}

// after a split, the hand of the seat to act being played
function markActiveHand(fields, view, s) {
  if (view.to_act !== s || typeof view.active_hand !== "number") return;
  const hands = fields.querySelectorAll(":scope > dd > .items > .holding");
  if (hands.length > 1) hands[view.active_hand]?.classList.add("active");
}

function teamPanel(view, teamMaps, ctx) {
  const panel = element("section", "teams");
  panel.append(element("h3", "", say("teams")));
  const fields = element("dl", "fields");
  (view.teams ?? []).forEach((seats, team) => {
    const term = element("dt", "label", say("team.seats", { n: team, seats: seats.map((s) => seatName(s, ctx.names)).join(", ") }));
    if (view.team === team) term.classList.add("mine");
    const detail = element("dd", "", teamMaps.map((key) => `${labelOf(key, ctx.game)}: ${view[key][team] ?? "—"}`).join(" · "));
    fields.append(term, detail);
  });
  panel.append(fields);
  return panel;
}
