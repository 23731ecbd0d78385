// Cards drawn as SVG. Suits are told apart twice over: by shape and by one of four colours from the
// Okabe–Ito palette, which stays distinct under the common forms of colour blindness
// (spades black, hearts vermilion, diamonds blue, clubs bluish green).

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

export const RANKS = "23456789TJQKA";

export const SUIT_PATHS = {
  s: "M50 4C38 22 8 40 8 62c0 16 20 24 36 10l-6 24h24l-6-24c16 14 36 6 36-10C92 40 62 22 50 4z",
  h: "M50 94C30 76 4 58 4 32 4 16 16 6 30 6c10 0 17 6 20 14 3-8 10-14 20-14 14 0 26 10 26 26 0 26-26 44-46 62z",
  d: "M50 2L90 50 50 98 10 50z",
  c: "M50 6a20 20 0 0 1 16 32 20 20 0 1 1-8 32l6 26H36l6-26a20 20 0 1 1-8-32A20 20 0 0 1 50 6z",
};

export const SUIT_CLASS = { s: "suit-s", h: "suit-h", d: "suit-d", c: "suit-c" };

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

// What a card face shows in its corner: "10", "Q", "JK" for a joker.
function shownRank(code) {
  return code[0] === "X" ? "JK" : rankLabel(code[0]);
}

// Rank and suit words for card names, by catalogue id ("card rank: queen", "card suit: spades"), so
// each language writes a card its own way: "Queen of spades", "potiemand", "patarouva".
const RANK_WORDS = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six",
  5: "five", 4: "four", 3: "three", 2: "two",
};
const SUIT_WORDS = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };

// The card's name for screen readers, tooltips and the log, e.g. "Queen of spades" / "potiemand".
export function cardName(code) {
  if (!code) return t("face-down card");
  if (code[0] === "X") return t("Joker");
  const rankWord = RANK_WORDS[code[0]];
  const suitWord = SUIT_WORDS[code[1]];
  if (!rankWord || !suitWord) return code;
  return t("card: {rank}{suit}", {
    rank: t(`card rank: ${rankWord}`),
    suit: t(`card suit: ${suitWord}`),
  });
}

function svg(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  return el;
}

function suitShape(suit, x, y, size) {
  const scale = size / 100;
  return svg("path", { d: SUIT_PATHS[suit], transform: `translate(${x} ${y}) scale(${scale})` });
}

// One card face (code) or back (code null) as an <svg> element, 60×84 units.
export function cardSvg(code) {
  const root = svg("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true", focusable: "false" });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-edge" }));
  if (!code) {
    root.classList.add("back");
    root.append(svg("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, class: "card-back-field" }));
    for (let i = 0; i < 5; i += 1) {
      root.append(svg("path", { d: `M5 ${15 + i * 14}l25 -10 25 10`, class: "card-back-line" }));
    }
    return root;
  }
  if (code[0] === "X") {
    root.classList.add(code[1] === "r" ? "joker-r" : "joker-b");
    const text = svg("text", { x: 30, y: 50, "text-anchor": "middle", class: "card-joker" });
    text.textContent = "★";
    root.append(text);
    const label = svg("text", { x: 6, y: 17, class: "card-rank small" });
    label.textContent = "JK";
    root.append(label);
    return root;
  }
  const rank = code[0];
  const suit = code[1];
  root.classList.add(SUIT_CLASS[suit] || "");
  const label = svg("text", { x: 5, y: 19, class: "card-rank" });
  label.textContent = rankLabel(rank);
  root.append(label);
  root.append(suitShape(suit, 5, 23, 12));
  const corner = svg("g", { transform: "rotate(180 30 42)" });
  const label2 = svg("text", { x: 5, y: 19, class: "card-rank" });
  label2.textContent = rankLabel(rank);
  corner.append(label2, suitShape(suit, 5, 23, 12));
  root.append(corner);
  root.append(suitShape(suit, 19, 28, 26));
  return root;
}

// A card as an element: a <button> when it can be chosen, else a <span>.
export function cardEl(code, { button = false, selected = false, disabled = false, extra = {} } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = "card";
  if (button) {
    el.type = "button";
    el.setAttribute("aria-pressed", selected ? "true" : "false");
    if (disabled) el.disabled = true;
  }
  if (selected) el.classList.add("selected");
  if (code) el.dataset.card = code;
  else el.classList.add("face-down");
  const name = cardName(code);
  if (button) {
    // A card button is named by its content, which starts with what it shows ("6 ristikuus"):
    // voice control users say the rank they see (WCAG 2.5.3, label in name).
    const spoken = document.createElement("span");
    spoken.className = "visually-hidden";
    spoken.textContent = code ? `${shownRank(code)} ${name}` : name;
    el.append(spoken);
  } else {
    // A card that cannot be chosen is a picture with the card's name, announced as such.
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", name);
  }
  el.title = name;
  for (const [key, value] of Object.entries(extra)) {
    if (key === "class") el.classList.add(...String(value).split(" ").filter(Boolean));
    else el.setAttribute(key, value);
  }
  el.append(cardSvg(code));
  return el;
}

// Palace order: 2 low to A high, suits only to keep the sort stable.
export function sortCards(cards, order = RANKS) {
  const suitOrder = "cdhs";
  return [...cards].sort((a, b) => {
    const ra = a[0] === "X" ? 99 : order.indexOf(a[0]);
    const rb = b[0] === "X" ? 99 : order.indexOf(b[0]);
    return ra - rb || suitOrder.indexOf(a[1]) - suitOrder.indexOf(b[1]);
  });
}
