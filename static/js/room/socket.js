// The room's WebSocket: hello with the seat's token and the last version seen, requests answered by
// id (ack / error), a ping every 25 s, and reconnection with back-off unless the page closed it.

import { $ } from "../dom.js";
import { lang, t } from "../i18n.js";
import { waitingFor } from "./session.js";

const PING_MS = 25000;

function nextId(session) {
  session.counter += 1;
  return `m-${Date.now().toString(36)}-${session.counter}`;
}

export function send(session, message) {
  const id = nextId(session);
  const full = { ...message, id };
  return new Promise((resolve, reject) => {
    if (!session.socket || session.socket.readyState !== WebSocket.OPEN) {
      reject({ code: "offline", message: t("Not connected. Reconnecting…") });
      return;
    }
    session.pending.set(id, { resolve, reject });
    session.socket.send(JSON.stringify(full));
  });
}

// The version a move is tied to: on one's own turn the table as seen; in phases where several seats
// act at once (a swap phase) the others' moves must not make it stale, so none.
export function actionMessage(session, action) {
  const message = { type: "action", action };
  const acting = session.state ? waitingFor(session, session.state) : [];
  if (session.version !== null && acting.length === 1 && acting[0] === session.seat) message.version = session.version;
  return message;
}

export function sendAction(session, action) {
  return send(session, actionMessage(session, action));
}

// Settles the request an answer names: resolved by an ack, rejected by an error. False when no
// request of ours waits for it.
export function settle(session, message, ok) {
  const waiter = message.id ? session.pending.get(message.id) : null;
  if (!waiter) return false;
  session.pending.delete(message.id);
  if (ok) waiter.resolve(message);
  else waiter.reject(message);
  return true;
}

export function setBanner(show) {
  $("#banner").hidden = !show;
}

// Opens the socket; every message goes to ``receive``.
export function connect(session, receive) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${window.location.host}/ws/${encodeURIComponent(session.roomId)}`);
  session.socket = socket;
  socket.addEventListener("open", () => {
    session.retry = 0;
    socket.send(JSON.stringify({
      type: "hello", token: session.token, last_version: session.version, lang,
    }));
    clearInterval(session.pingTimer);
    session.pingTimer = setInterval(() => {
      send(session, { type: "ping" }).catch(() => {});
    }, PING_MS);
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    // 4403: kicked or refused by the host; the token is dead, so there is nothing to come back to.
    if (event.code === 4403) session.closedByUs = true;
    // 4409: this seat opened a newer socket elsewhere. Coming back on our own would close that one
    // in turn, so two tabs would push each other out for ever: the player chooses instead.
    if (event.code === 4409 && session.socket === socket) {
      session.closedByUs = true;
      setBanner(false);
      $("#replaced").hidden = false;
      document.body.classList.add("offline");
    }
    clearInterval(session.pingTimer);
    for (const [, waiter] of session.pending) waiter.reject({ code: "offline", message: t("Connection lost. Reconnecting…") });
    session.pending.clear();
    if (session.socket !== socket || session.closedByUs) return;
    setBanner(true);
    // Who is online is not known while our own socket is down: the dots go grey (CSS) until the
    // server sends the room again.
    document.body.classList.add("offline");
    session.retry += 1;
    setTimeout(() => connect(session, receive), retryDelay(session.retry - 1));
  });
}

// Milliseconds before the n-th reconnection attempt (n from 0): doubling from 300 ms, at most 5 s.
export function retryDelay(n) {
  return Math.min(5000, 300 * 2 ** n);
}

// Leave the socket quietly (its close handler sees it was replaced and does not reconnect).
export function dropSocket(session) {
  const old = session.socket;
  session.socket = null;
  if (old) old.close();
}
