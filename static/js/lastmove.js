// The one-line slot above the felt that shows the latest move (#last-move), so a player sees what
// just happened without opening the action log. The fair deal's bookkeeping is not a move.

import { $ } from "./dom.js";

const NOT_MOVES = new Set(["shuffle_commitment", "shuffle_key", "fair_round", "round_reveal", "reveal"]);

export function showLastMove(event, text) {
  if (!event || NOT_MOVES.has(event.type) || !text) return;
  const line = $("#last-move");
  line.textContent = text;
  line.dataset.type = event.type;
  if (event.seat !== undefined && event.seat !== null) line.dataset.seat = event.seat;
  else delete line.dataset.seat;
}

// The slot belongs to the table: shown while a table is drawn, with the newest line it was given.
export function showLastMoveSlot(shown) {
  $("#last-move").hidden = !shown;
}

export function clearLastMove() {
  const line = $("#last-move");
  line.textContent = "";
  delete line.dataset.type;
  delete line.dataset.seat;
}
