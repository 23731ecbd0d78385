// One action-log line per event, worded by the game's table module where it knows the event and by
// the room's own wording otherwise. Shared by the room page and the replay page: the lines, the fair
// deal's records folded into one quiet line per run, and the move just made shown on the felt.

import { h } from "./dom.js";
import { t, tMaybe, tn } from "./i18n.js";
import { describeFairEvent, shortNote } from "./fairpanel.js";

// The room's own records of the fair deal (fairness.py): there to check, quieter than the play.
export const FAIR_EVENTS = new Set(["shuffle_commitment", "shuffle_key", "reveal", "fair_round", "round_reveal"]);

export function isFairEvent(event) {
  return FAIR_EVENTS.has(event.type);
}

// The room's own line at a game's end: who won and, where there is one, who lost.
function resultLine(event) {
  const winners = event.winners || [];
  let text = winners.length === 1
    ? t("{name} wins!", { name: winners[0] })
    : t("{names} share the win!", { names: winners.join(", ") });
  if ((event.losers || []).length === 1) text += ` ${t("{name} is last.", { name: event.losers[0] })}`;
  return text;
}

// The line for an event and whether it is worded for its kind (`worded` false: the generic
// fallback, "<type in words>", which no event of a registered game should reach; a test checks).
export function eventText(event, module, seatName) {
  if (event.type === "game_result") return { text: resultLine(event), worded: true };
  const fair = describeFairEvent(event);
  if (fair) return { text: fair, worded: true };
  const text = module && module.describeEvent ? module.describeEvent(event, seatName) : null;
  if (text) return { text, worded: true };
  if (event.type === "deal") return { text: `${t("The cards are dealt.")}${shortNote(event)}`, worded: true };
  // An event a newer server sends that this page does not know: its catalogue text, without a name
  // (the event's seat is only the seat whose move it followed, which need not be its subject).
  return { text: tMaybe(`event: ${event.type}`) || event.type.replace(/_/g, " "), worded: false };
}

export function describeEvent(event, module, seatName) {
  return eventText(event, module, seatName).text;
}

// ---- the log list -----------------------------------------------------------------------------

// The fold of fair-deal records that a run of them goes into: the list's last line when it is one.
function openFold(list) {
  const last = list.lastElementChild;
  if (last && last.classList.contains("fair-fold")) return last;
  const fold = h("li", { class: "fair-fold", dataset: { type: "fair" } },
    h("details", {},
      h("summary", {}, h("span", { class: "fair-count" })),
      h("ol", { class: "fair-lines" })));
  list.append(fold);
  return fold;
}

function countFold(fold) {
  const n = fold.querySelectorAll(".fair-lines > li").length;
  fold.querySelector(".fair-count").textContent = tn(
    "Fair deal: {n} record (the Fair-deal box checks them)",
    "Fair deal: {n} records (the Fair-deal box checks them)", n);
}

// Appends one event's line to the log list `list`: a fair-deal record goes into the quiet folded line
// of its run (one per deal: the commitment, keys and reveal come together), anything else is a line.
// `extra` is appended to the line (the bot mark). Returns the line.
export function appendLogLine(list, event, module, seatName, extra = null) {
  const line = h("li", { dataset: { type: event.type, version: event.version, bot: event.bot ? "1" : undefined } },
    describeEvent(event, module, seatName), extra);
  if (isFairEvent(event)) {
    const fold = openFold(list);
    fold.querySelector(".fair-lines").append(line);
    countFold(fold);
    return line;
  }
  list.append(line);
  return line;
}

// ---- the move just made, on the felt ---------------------------------------------------------------

// The table's one-line slot for the latest move (#last-move): the page's own when the layout has
// one, else made at the head of the table area.
function lastMoveBox() {
  let box = document.getElementById("last-move");
  if (box) return box;
  const table = document.getElementById("table");
  if (!table || !table.parentNode) return null;
  box = h("p", { id: "last-move", class: "last-move", role: "status", "aria-live": "polite" });
  table.before(box);
  return box;
}

const FADE_MS = 6000;
let fadeTimer = null;

// Shows the newest seat move among `events` in the table's last-move line, worded as the log words
// it; it stands out for a moment, then stays quietly until the next move. A batch without a seat
// move leaves the line as it was, unless `whole` says the events are all there is (the replay's
// history up to its frame): then the line is empty.
export function showLastMove(events, module, seatName, { whole = false } = {}) {
  const box = lastMoveBox();
  if (!box || !module) return;
  const event = lastMoveOf(events, module);
  if (!event) {
    if (whole) clearLastMove();
    return;
  }
  box.textContent = describeEvent(event, module, seatName);
  box.dataset.seat = String(event.seat);
  box.dataset.type = event.type;
  box.classList.remove("faded");
  box.classList.add("fresh");
  clearTimeout(fadeTimer);
  fadeTimer = setTimeout(() => {
    box.classList.remove("fresh");
    box.classList.add("faded");
  }, FADE_MS);
}

// The newest seat move among `events`: the table module's `isMove` says which events are a
// player's moves (by default those its `describeAction` words for the seat); null when none is.
export function lastMoveOf(events, module) {
  const isMove = module.isMove || module.describeAction;
  if (!isMove) return null;
  const moves = (events || []).filter((e) => e.seat !== null && e.seat !== undefined && isMove(e));
  return moves[moves.length - 1] || null;
}

export function clearLastMove() {
  const box = document.getElementById("last-move");
  if (!box) return;
  box.textContent = "";
  delete box.dataset.seat;
  delete box.dataset.type;
}
