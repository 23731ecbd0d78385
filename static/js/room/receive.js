// What the server sends on the room's socket, message by message.

import { api, loadSeat, saveSeat, forgetSeat } from "../api.js";
import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { contribute } from "../fairpanel.js";
import { addChat } from "./chat.js";
import { showFatal, showJoin, showPlay } from "./join.js";
import { renderRoom, showWatchers } from "./lobby.js";
import { setBanner, settle } from "./socket.js";
import { onState } from "./state.js";

// The line the join form shows after the seat (or request) is gone, by the message that said so.
export function goneReason(type, wasPending) {
  return {
    kicked: t("The host removed you from the room."),
    refused: t("The host did not approve your request."),
    left: wasPending ? t("Your request to join is withdrawn.") : t("You left the room. Your seat is free for someone else."),
  }[type];
}

export function receive(page, message) {
  const { session } = page;
  switch (message.type) {
    case "kicked":
    case "refused":
    case "left": {
      const wasPending = session.seat === null;
      forgetSeat(session.roomId);
      session.token = null;
      session.seat = null;
      session.closedByUs = true;
      $("#pending").hidden = true;
      const reason = goneReason(message.type, wasPending);
      // The seats offered are the room's as they are now (the one just given up is free again).
      api.room(session.roomId).then((info) => { session.info = info; }, () => {}).finally(() => showJoin(session, reason));
      break;
    }
    case "welcome":
      setBanner(false);
      session.catchingUp = true; // the next state is the catch-up after hello, not a live push
      session.seat = message.seat ?? null;
      session.host = Boolean(message.host);
      document.body.classList.toggle("is-host", session.host);
      document.body.classList.toggle("is-spectator", session.seat === null);
      // A spectator has no turn: nothing to be alerted to.
      $("#alerts").hidden = session.seat === null;
      $("#pending").hidden = !message.pending;
      if (session.seat !== null && session.token) {
        const stored = loadSeat(session.roomId) || {};
        saveSeat(session.roomId, { ...stored, token: session.token, seat: session.seat, pending: false });
        $("#pending").hidden = true;
      }
      showPlay(session);
      break;
    case "room":
      session.room = message;
      document.body.classList.remove("offline");
      renderRoom(page);
      // Random bytes for the next deal: their hash as soon as its commitment is shown, the bytes
      // once its hashes are sealed, each kept in this browser's receipts first (receipts.js).
      contribute(page.fair, message, session.seat);
      page.fairSide.update(message, session.seat, session.state);
      break;
    case "spectators":
      // Someone without a seat came or went: only the count of watchers changed.
      if (session.room) session.room.spectators = message.count;
      showWatchers(message.count);
      break;
    case "state":
      onState(page, message);
      break;
    case "chat":
      addChat(page, message);
      break;
    case "ack":
      session.acked = message.version ?? session.acked;
      settle(session, message, true);
      break;
    case "contributed":
    case "pong":
      settle(session, message, true);
      break;
    case "error":
      if (settle(session, message, false)) break;
      if (message.code === "bad_token") {
        forgetSeat(session.roomId);
        session.token = null;
        session.closedByUs = true;
        if (session.socket) session.socket.close();
        showJoin(session, page.errorText(message));
      } else if (message.code === "too_many_sockets") {
        // The banner the close brings (4409) says it; no second notice over it.
      } else if (message.code === "unknown_room") {
        session.closedByUs = true;
        showFatal(page.errorText(message));
      } else {
        page.notice(page.errorText(message));
      }
      break;
    default:
      break;
  }
}
