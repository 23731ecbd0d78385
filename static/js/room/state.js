// A "state" message: the table module (loaded once), the action log, the last moves, the result,
// the host panel, the turn timer and the turn alert.

import { $, h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { botMark } from "../bots.js";
import { appendLogLine, clearLastMove, showLastMove } from "../eventlog.js";
import { noteFairEvents, noteState } from "../fairpanel.js";
import { showLastMoveSlot } from "../lastmove.js";
import { hasTable, loadTableModule, mountTable, trimList } from "../tablehost.js";
import { turnAlert } from "./alerts.js";
import { renderHost } from "./host.js";
import { renderResult } from "./result.js";
import { myTurn } from "./session.js";
import { renderTimer } from "./timer.js";

// The table module is loaded once; states that arrive meanwhile wait for it in order.
function ensureTable(page, game) {
  const { session } = page;
  if (session.table) return Promise.resolve(session.table);
  if (!session.tableLoading) {
    if (!hasTable(game)) {
      replace($("#table"), h("p", { class: "note" }, t("This game has no table in the browser yet.")));
      return Promise.resolve(null);
    }
    session.tableLoading = loadTableModule(game).then((module) => {
      session.tableModule = module;
      session.table = mountTable(module, {
        seat: () => session.seat,
        host: () => session.host,
        sendAction: page.sendAction,
        seatName: page.seatName,
        errorText: page.errorText,
        notice: page.notice,
        room: () => session.room,
        info: () => session.info,
        token: () => session.token,
        roomId: session.roomId,
      });
      session.tableLoading = null;
      return session.table;
    });
  }
  return session.tableLoading;
}

// An event goes in the log once, however many states repeat it.
function addLog(page, event) {
  const { session } = page;
  const key = JSON.stringify(event);
  if (session.seenEvents.has(key)) return;
  session.seenEvents.add(key);
  const list = $("#log");
  appendLogLine(list, event, session.tableModule, page.seatName, botMark(event));
  trimList(list);
}

export async function onState(page, message) {
  const { session } = page;
  session.version = message.version ?? session.version;
  session.state = message;
  // Only a deal this page saw happen live tells what it was dealt (a catch-up shows the hand as it is now).
  noteState(page.fair, message, !session.catchingUp);
  noteFairEvents(page.fair, message, session.seat, !session.catchingUp);
  session.catchingUp = false;
  page.fairSide.update(session.room, session.seat, message);
  const newGame = message.game_no !== undefined && message.game_no !== session.gameNo;
  if (newGame) {
    if (session.gameNo) {
      $("#log").append(h("li", { class: "separator" }, t("New game")));
    }
    session.gameNo = message.game_no;
    clearLastMove();
    session.fairBox = null; // a new game: its own record to verify
    page.fairSide.reset();
  }
  if (!message.view) {
    for (const event of message.events || []) addLog(page, event);
    if (session.table) replace($("#table"));
    if (session.table) replace($("#dock-table"));
    session.table = null;
    clearLastMove();
    $("#dock").hidden = true;
    showLastMoveSlot(false);
    renderResult(page, null);
    renderHost(page);
    session.drawn = session.version;
    return;
  }
  const starting = !session.table || newGame;
  const table = await ensureTable(page, session.info.game);
  // The log is worded by the table module (card names, amounts): only once it has loaded, so a
  // reload, a reopened link or a late spectator reads the same lines as a player who watched live.
  for (const event of message.events || []) addLog(page, event);
  showLastMove(message.events, session.tableModule, page.seatName);
  // A newer state may have arrived while the table module loaded: draw only the newest.
  if (session.state !== message) return;
  if (table) table.update(message);
  showLastMoveSlot(Boolean(table));
  // A game just started (or the page just opened on one): the table is what matters now, so the
  // page shows it from its top, wherever the lobby or the host panel had been scrolled to.
  if (starting && table) window.scrollTo(0, 0);
  renderResult(page, message.outcome);
  renderHost(page);
  renderTimer(page, message);
  const mine = myTurn(session, message);
  document.body.classList.toggle("my-turn", mine);
  turnAlert(page, mine);
  session.drawn = session.version;
}
