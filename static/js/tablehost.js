// What the room page and the replay page share around a game's table module (static/js/tables/*.js):
// loading it, the context it is mounted with, the dock fixed at the page's foot, the log's length,
// and the headline of a finished game.

import { $, replace } from "./dom.js";
import { t } from "./i18n.js";
import { TABLES } from "./tables/index.js";

// The most log lines a page keeps (older ones go).
export const LOG_LINES = 200;

// The game's table module, or null when the game has none in the browser.
export function loadTableModule(game) {
  const loader = TABLES[game];
  return loader ? loader() : Promise.resolve(null);
}

export function hasTable(game) {
  return Boolean(TABLES[game]);
}

// Mounts ``module`` in #table (its controls in the dock's #dock-table) and shows the dock.
// ``source`` gives the context: seat() and host() are read on every use (they change while the
// table is up), the rest as they are.
export function mountTable(module, source) {
  const ctx = {
    get seat() { return source.seat(); },
    get host() { return source.host(); },
    dock: $("#dock-table"),
    sendAction: source.sendAction,
    seatName: source.seatName,
    errorText: source.errorText,
    notice: source.notice,
    room: source.room,
    info: source.info,
    token: source.token,
    roomId: source.roomId,
    replaying: Boolean(source.replaying),
  };
  replace($("#table"));
  replace($("#dock-table"));
  $("#dock").hidden = false;
  return module.mount($("#table"), ctx);
}

// The page leaves room at its foot for the dock fixed over it, so nothing hides under it.
export function watchDock() {
  const dock = $("#dock");
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--dock-h", `${dock.hidden ? 0 : dock.offsetHeight}px`);
  }).observe(dock);
}

// Drops a list's oldest lines beyond LOG_LINES and scrolls it to its newest.
export function trimList(list) {
  while (list.children.length > LOG_LINES) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

// The winners as a headline, "Game over" when the outcome names none.
export function winnersHeadline(outcome, seatName) {
  const first = (outcome.placings || [])[0] || [];
  if (!first.length) return t("Game over");
  if (first.length === 1) return t("{name} wins!", { name: seatName(first[0]) });
  return t("{names} share the win!", { names: first.map(seatName).join(", ") });
}

// The game's own wording of its outcome (module.describeOutcome: a headline and lines), or null.
export function describeOutcome(module, outcome, seatName, view) {
  return module && module.describeOutcome ? module.describeOutcome(outcome, seatName, view) : null;
}

export function outcomeHeadline(module, outcome, seatName, view) {
  const custom = describeOutcome(module, outcome, seatName, view);
  return (custom && custom.headline) || winnersHeadline(outcome, seatName);
}
