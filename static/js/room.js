// The room page: join (name, seat or watching), the WebSocket session with reconnect, the lobby and
// invite link, presence, host controls, the action log, chat, and the game's table module. This file
// wires the page together; the parts are in static/js/room/ and each gets the session explicitly.

import { api, loadSeat } from "./api.js";
import { $, h } from "./dom.js";
import { t, refusalText } from "./i18n.js";
import { createFairDeal, sideBox, startReceipts } from "./fairpanel.js";
import { watchDock } from "./tablehost.js";
import { setTitle, setupAlerts } from "./room/alerts.js";
import { createNotice, onKey, toggleKeys } from "./room/chat.js";
import { copyInvite, inviteUrl, join, leaveRoom, showFatal, showJoin, takeSeat, useHere, watch } from "./room/join.js";
import { saveLobbySheet } from "./room/lobby.js";
import { receive } from "./room/receive.js";
import { createSession, gameTitle, myTurn, seatName } from "./room/session.js";
import { connect, send, sendAction } from "./room/socket.js";

const roomId = $("#room").dataset.room;
const session = createSession(roomId);

// What every part of the page is handed: the session and the page's common actions.
const page = {
  session,
  errorText: refusalText,
  notice: createNotice(),
  seatName: (seat) => seatName(session, seat),
  send: (message) => send(session, message),
  sendAction: (action) => sendAction(session, action),
  connect: () => connect(session, (message) => receive(page, message)),
  fair: createFairDeal(), // this page's receipts and what it was dealt (fairpanel.js)
  fairSide: null,
};

// Exposed read-only for the browser tests and for debugging in the console; it holds only what this
// page was sent (its own seat's view), never more.
window.houserules = {
  get seat() { return session.seat; },
  // The version on screen: a state's table is drawn once its game's module has loaded.
  get version() { return session.drawn; },
  // The version at which this page's last request was acknowledged, and the requests still unanswered.
  get acked() { return session.acked; },
  get unanswered() { return session.pending.size; },
  get state() { return session.state; },
  get room() { return session.room; },
  // Whether the table waits for this page's seat (not only offers it a move out of turn).
  get myTurn() { return Boolean(session.state) && myTurn(session, session.state); },
  get connected() { return Boolean(session.socket && session.socket.readyState === WebSocket.OPEN); },
  // Turn alerts given so far, newest last (what the page did, for the tests).
  get alerts() { return session.alerts.given.slice(); },
};

// Where the fair-deal parts fetch the game record, with this seat's token.
const recordAccess = { roomId, token: () => session.token, errorText: refusalText };
// The side box: the next deal's commitment, this seat's contribution, Verify during a game.
page.fairSide = sideBox(page.fair, recordAccess);
document.querySelector(".side .chat").before(page.fairSide.element);
// A fair-deal warning is loud: at the page's top, on every page of this room in this browser.
const fairWarning = h("section", { id: "fair-warning", class: "fair-warning", role: "alert", hidden: true });
$("#room").before(fairWarning);
startReceipts(page.fair, recordAccess, page.send, fairWarning);

document.addEventListener("keydown", (event) => onKey(session, event));

async function start() {
  // A reload shows the table from its top, as the game's start did (not where the page was left).
  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
  $("#invite-link").value = inviteUrl(roomId);
  $("#copy-invite").addEventListener("click", () => copyInvite(roomId));
  if (navigator.share) {
    $("#share-invite").hidden = false;
    $("#share-invite").addEventListener("click", () => {
      navigator.share({ title: "Houserules", url: inviteUrl(roomId) }).catch(() => {});
    });
  }
  $("#invite-button").addEventListener("click", () => {
    copyInvite(roomId);
    page.notice(t("Invite link copied: {url}", { url: inviteUrl(roomId) }));
  });
  $("#keys-button").addEventListener("click", () => toggleKeys(session));
  watchDock();
  $("#join-form").addEventListener("submit", (event) => join(page, event));
  $("#watch-button").addEventListener("click", () => watch(page));
  $("#take-seat").addEventListener("click", () => takeSeat(session));
  $("#leave-room").addEventListener("click", () => leaveRoom(page,
    t("Leave the room? Your seat goes to whoever takes it next, and you cannot come back to it.")));
  $("#cancel-request").addEventListener("click", () => leaveRoom(page, t("Withdraw your request to join?")));
  $("#use-here").addEventListener("click", () => useHere(page));
  $("#lobby-sheet-save").addEventListener("click", () => saveLobbySheet(page));
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#chat-input");
    const text = input.value.trim();
    if (!text) return;
    page.send({ type: "chat", text }).then(() => { input.value = ""; })
      .catch((error) => page.notice(refusalText(error)));
  });
  window.addEventListener("online", () => {
    if (session.socket && session.socket.readyState === WebSocket.CLOSED && !session.closedByUs) page.connect();
  });

  try {
    const [info, games] = await Promise.all([api.room(roomId), api.games().catch(() => [])]);
    session.info = info;
    session.gameInfo = games.find((g) => g.name === info.game) || null;
  } catch (error) {
    showFatal(error.status === 404 ? t("This room does not exist.") : refusalText(error));
    return;
  }
  $("#room-title").textContent = gameTitle(session, session.info.game);
  setTitle(session);
  setupAlerts(page);
  document.body.dataset.game = session.info.game;
  const stored = loadSeat(roomId);
  if (stored && stored.token) {
    session.token = stored.token;
    if (stored.pending) $("#pending").hidden = false;
    page.connect();
  } else {
    showJoin(session, null);
  }
}

start();
