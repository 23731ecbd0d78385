// Nobody stalls the table: a notice over the table for every seat whose player is away during a
// game ("Kate left the table — a bot takes over in 0:45", then "A bot plays for Kate until they are
// back"), a vacated seat whose cards wait, and the host's answers right there: a bot now, skip the
// turn, a bot in the vacated seat. And the join form's note that a running game's seat comes with
// its cards.
//
// The server sends each seat's ``takeover_in`` as seconds left when it sent the room message, so
// the countdown runs from when the message arrived here, whatever this device's clock says.

import { $, h, clear } from "./dom.js";
import { t } from "./i18n.js";

const countdowns = new Map(); // seat -> moment (performance.now() milliseconds) the bot takes over
let ticker = null;

function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function tick() {
  const now = performance.now();
  for (const span of document.querySelectorAll("#presence [data-countdown]")) {
    const until = countdowns.get(Number(span.dataset.countdown));
    if (until !== undefined) span.textContent = clock((until - now) / 1000);
  }
}

function box() {
  let notice = $("#presence");
  if (!notice) {
    notice = h("section", { id: "presence", class: "presence", role: "status", "aria-live": "polite", hidden: true });
    const table = $("#table");
    table.parentNode.insertBefore(notice, table);
  }
  return notice;
}

function button(label, op, seat, sendHost) {
  return h("button", {
    type: "button",
    class: "small",
    dataset: { op, seat },
    onclick: () => sendHost(op, { seat }),
  }, label);
}

// One line per away or vacated seat of a running game; ``sendHost(op, args)`` sends a host op
// (and shows a refusal); ``host`` whether this page is the host's.
export function renderPresence(room, { host, seat: mine, sendHost }) {
  const notice = box();
  const list = clear(notice);
  countdowns.clear();
  const now = performance.now();
  const playing = room.status === "playing";
  for (const seat of playing ? room.seats || [] : []) {
    if (seat.seat === mine) continue;
    const line = h("p", { class: "away", dataset: { seat: seat.seat } });
    const controls = [];
    if (seat.name && !seat.bot && !seat.connected) {
      if (seat.stand_in) {
        line.append(t("A bot plays for {name} until they are back.", { name: seat.name }));
      } else if (seat.takeover_in !== null && seat.takeover_in !== undefined) {
        countdowns.set(seat.seat, now + seat.takeover_in * 1000);
        const [before, after] = t("{name} left the table — a bot takes over in {time}", { name: seat.name, time: "\u0000" })
          .split("\u0000");
        line.append(before, h("span", { class: "countdown", role: "timer", dataset: { countdown: seat.seat } },
          clock(seat.takeover_in)), after || "");
      } else {
        line.append(t("{name} left the table.", { name: seat.name }));
      }
      if (!seat.stand_in) controls.push(button(t("Let a bot play now"), "stand_in", seat.seat, sendHost));
    } else if (!seat.name && seat.takes_over) {
      line.append(t("Seat {n} is empty: its cards wait for someone to take the seat.", { n: seat.seat + 1 }));
      controls.push(button(t("Seat a bot"), "add_bot", seat.seat, sendHost));
    } else {
      continue;
    }
    if (seat.skip) controls.push(button(t("Skip the turn"), "skip", seat.seat, sendHost));
    if (host && controls.length) line.append(" ", h("span", { class: "host-answers" }, controls));
    list.append(line);
  }
  notice.hidden = !list.children.length;
  if (countdowns.size && !ticker) ticker = setInterval(tick, 250);
  if (!countdowns.size && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

// Under the join form's seats: taking this seat in a running game takes over its cards.
export function joinGameNote(info, seatNumber) {
  const seat = (info.seats || []).find((s) => s.seat === seatNumber);
  if (!seat || !seat.takes_over) return "";
  return t("This game is under way: you take over seat {n} and its cards.", { n: seat.seat + 1 });
}
