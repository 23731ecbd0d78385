// Bots on the room page: the host's "Add bot" / "Remove bot" controls, the bot label in the player
// list and the log, and the note on the join form when a seat is a bot's (a friend takes its place).

import { h } from "./dom.js";
import { t } from "./i18n.js";

// The tag after a seat's name: a bot, or a person's seat a bot plays while they are away.
export function botTag(seat) {
  if (seat.bot) return h("span", { class: "tag bot", dataset: { bot: seat.bot } }, t("bot"));
  if (seat.stand_in) return h("span", { class: "tag bot" }, t("played by a bot"));
  return null;
}

// The mark on a log line for a move a bot made.
export function botMark(event) {
  return event.bot ? h("span", { class: "tag bot" }, t("bot")) : null;
}

// On the join form: this seat is a bot's, and whoever takes it plays instead of the bot.
export function joinSeatNote(seat) {
  return seat.bot ? ` (${t("instead of {name}", { name: seat.name || t("bot") })})` : "";
}

// The host's controls: a bot for a free seat (at a chosen level), and a remove button per bot.
// ``sendHost(op, args)`` sends the host operation (and shows a refusal).
export function botControls(room, sendHost) {
  const seats = room.seats || [];
  const open = seats.filter((s) => s.free && !s.name);
  const out = [];
  // Bots sit down before a game, between games, at a table game's free seat, or in a running
  // game's vacated seat (its cards): every free seat nobody holds.
  if (open.length) {
    const seatSelect = h("select", { "aria-label": t("Seat for the bot"), id: "bot-seat" },
      open.map((s) => h("option", { value: s.seat }, t("Seat {n}", { n: s.seat + 1 }))));
    const levelSelect = h("select", { "aria-label": t("How well the bot plays"), id: "bot-level" },
      h("option", { value: "good" }, t("Good")),
      h("option", { value: "easy" }, t("Easy")),
      h("option", { value: "strong" }, t("Strong (thinks longer)")));
    out.push(h("div", { class: "request bots" }, seatSelect, levelSelect,
      h("button", {
        type: "button",
        dataset: { op: "add_bot" },
        onclick: () => sendHost("add_bot", { seat: Number(seatSelect.value), level: levelSelect.value }),
      }, t("Add bot"))));
  }
  for (const seat of seats.filter((s) => s.bot)) {
    out.push(h("div", { class: "request bots" }, h("span", {}, seat.name),
      h("button", {
        type: "button",
        dataset: { op: "remove_bot", seat: seat.seat },
        onclick: () => sendHost("remove_bot", { seat: seat.seat }),
      }, t("Remove bot"))));
  }
  return out;
}
