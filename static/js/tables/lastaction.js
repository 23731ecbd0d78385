// Each seat's latest action, shown on its seat until its next turn ("played 4♦ ×2", "checks",
// "calls 40", "bids 120"). Shared by the table modules: each words its own moves (describeAction)
// and names the events that start a new round of them (a hand, a deal).

import { h } from "../dom.js";

// `describe(event)`: the short text of a seat's move, null for anything else; `resets(event)`: true
// for an event after which earlier moves no longer stand (a new hand or deal).
export function seatActions(describe, resets) {
  let events = [];
  let last = null; // the state whose events were taken

  return {
    // Takes a state's new events once (the room draws a state again on presence changes). A state
    // that carries `history` (the replay: every event up to its frame) replaces what was taken.
    note(state) {
      if (state === last) return;
      last = state;
      if (Array.isArray(state.history)) events = state.history.slice(-400);
      else events = events.concat(state.events || []).slice(-400);
    },
    // Seat -> text, for the seats that are not on turn now (their move is still to come).
    current(acting) {
      const shown = new Map();
      for (const event of events) {
        if (resets(event)) {
          shown.clear();
          continue;
        }
        if (event.seat === null || event.seat === undefined) continue;
        const text = describe(event);
        if (text) shown.set(event.seat, { text, type: event.type });
      }
      for (const seat of acting || []) shown.delete(seat);
      return shown;
    },
  };
}

// The line on a seat: its latest action, or nothing.
export function actionLine(shown, seat) {
  const entry = shown.get(seat);
  if (!entry) return null;
  return h("p", { class: "last-action", dataset: { seat, type: entry.type } }, entry.text);
}

const SUIT_SIGN = { s: "♠", h: "♥", d: "♦", c: "♣" };

// A card as a seat's line writes it: "4♦", "10♠" (the log names it in words).
export function shortCard(code) {
  if (!code) return "?";
  if (code[0] === "X") return "🃏";
  return `${code[0] === "T" ? "10" : code[0]}${SUIT_SIGN[code[1]] || ""}`;
}

// Cards of one play: "4♦", or "4♦ ×2" for several of a rank.
export function shortPlay(cards) {
  const list = cards || [];
  if (!list.length) return "";
  const sameRank = list.every((c) => c && list[0] && c[0] === list[0][0]);
  if (list.length > 1 && sameRank) return `${shortCard(list[0])} ×${list.length}`;
  return list.map(shortCard).join(" ");
}
