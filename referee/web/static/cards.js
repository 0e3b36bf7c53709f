// Card codes drawn as cards (docs/cards.md): rank then suit; `??` is a card face down.
// French packs: suits S H D C. The tarot pack: suits S (swords) B (batons) C (cups) D (coins),
// the knight N, trumps T1..T21 and the Matto MT. Which pack a game plays is told by its own
// codes (DescribeGame's schemas list them, `x-codes`). A card's name is in the page's language.

import { say } from "./words.js";

const FRENCH = /^(A|[2-9]|T|J|Q|K)([SHDC])$/;
const TAROT = /^(K|Q|N|J|T|[2-9]|A)([SBCD])$/;
const TRUMP = /^T([1-9]|1[0-9]|2[01])$/;
const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K", N: "N" };
const SUITS = {
  french: { S: "♠", H: "♥", D: "♦", C: "♣" },
  tarot: { S: "⚔", B: "♣", C: "♥", D: "♦" },
};
const RED = { french: "HD", tarot: "CD" };

export function isCard(value, pack = "french") {
  if (typeof value !== "string") return false;
  if (value === "??") return true;
  return pack === "tarot" ? TAROT.test(value) || TRUMP.test(value) || value === "MT" : FRENCH.test(value);
}

export function isCards(value, pack) {
  return Array.isArray(value) && value.length > 0 && value.every((c) => isCard(c, pack));
}

// `tarot` when the game's pack is (DescribeGame's `pack.kind`, else its card codes hold a trump)
export function packOf(description) {
  if (description?.pack?.kind) return description.pack.kind === "tarot" ? "tarot" : "french";
  const codes = [];
  (function find(node) {
    if (Array.isArray(node)) node.forEach(find);
    else if (node && typeof node === "object") {
      if (Array.isArray(node["x-codes"])) codes.push(...node["x-codes"]);
      Object.values(node).forEach(find);
    }
  })(description?.schemas ?? {});
  return codes.includes("MT") ? "tarot" : "french";
}

// how a player writes the card: `7♠`, `10♥`, `T21`, `★`
export function cardText(code, pack = "french") {
  if (code === "??") return "🂠";
  if (code === "MT") return "★";
  if (pack === "tarot" && TRUMP.test(code)) return code;
  const letter = code.slice(0, -1);
  return `${RANKS[letter] ?? letter}${SUITS[pack][code.at(-1)] ?? code.at(-1)}`;
}

// the card in words, in the page's language: "ace of spades", "ás de espadas", "alas ng espada"
export function cardName(code, pack = "french") {
  if (code === "??") return say("card.back");
  if (code === "MT") return say("card.matto");
  if (pack === "tarot" && TRUMP.test(code)) return say("card.trump", { n: code.slice(1) });
  const letter = code.slice(0, -1);
  const rank = /^[2-9]$/.test(letter) ? letter : letter === "T" ? "10" : say(`rank.${letter}`);
  return say("card.name", { rank, suit: say(`suit.${pack}.${code.at(-1)}`) });
}

export function cardElement(code, pack = "french") {
  const card = document.createElement("span");
  card.className = "card";
  card.dataset.card = code;
  card.title = cardName(code, pack);
  if (code === "??") {
    card.classList.add("back");
    return card;
  }
  let rank, suit;
  if (code === "MT") {
    [rank, suit] = ["★", ""];
    card.classList.add("trump");
  } else if (pack === "tarot" && TRUMP.test(code)) {
    [rank, suit] = [code.slice(1), say("card.trump", { n: "" }).trim()];
    card.classList.add("trump");
  } else {
    const letter = code.slice(0, -1);
    rank = RANKS[letter] ?? letter;
    suit = SUITS[pack][code.at(-1)];
    if (RED[pack].includes(code.at(-1))) card.classList.add("red");
  }
  const rankPart = document.createElement("span");
  rankPart.className = "rank";
  rankPart.textContent = rank;
  const suitPart = document.createElement("span");
  suitPart.className = "suit";
  suitPart.textContent = suit;
  card.append(rankPart, suitPart);
  return card;
}

export function cardsElement(codes, pack) {
  const row = document.createElement("span");
  row.className = "cards";
  for (const code of codes) row.append(cardElement(code, pack));
  return row;
}
