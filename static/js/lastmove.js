// The one-line slot above the felt that shows the latest move (#last-move), so a player sees what
// just happened without opening the action log. Its text is the log's sentence of the newest move
// (eventlog.js, showLastMove); the slot belongs to the table and shows while a table is drawn.

import { $ } from "./dom.js";

export function showLastMoveSlot(shown) {
  $("#last-move").hidden = !shown;
}
