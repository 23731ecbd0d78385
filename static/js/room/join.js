// Joining: the form (name, a free seat or watching), a join request waiting for the host, taking a
// seat after watching, leaving the room, playing here again after another tab took the seat, and
// the invite link.

import { api, saveSeat, lastName, rememberName } from "../api.js";
import { $, h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { joinSeatNote } from "../bots.js";
import { joinGameNote } from "../presence.js";
import { gameTitle } from "./session.js";
import { dropSocket } from "./socket.js";

export function showFatal(text) {
  $("#room-loading").hidden = true;
  const box = $("#room-error");
  box.textContent = text;
  box.hidden = false;
  $("#room").classList.remove("loading");
}

export function showPlay(session) {
  $("#room-loading").hidden = true;
  $("#join").hidden = true;
  $("#play").hidden = false;
  $("#dock").hidden = !session.table;
  $("#room").classList.remove("loading");
  $("#invite-button").hidden = false;
}

export function inviteUrl(roomId) {
  return new URL(`/r/${roomId}`, window.location.href).toString();
}

// The seats a newcomer may take: those the server marks free (an older answer: those with no name).
export function freeSeats(seats) {
  return seats.filter((s) => (s.free === undefined ? !s.name : s.free));
}

export function showJoin(session, reason) {
  $("#room-loading").hidden = true;
  $("#room").classList.remove("loading");
  $("#play").hidden = true;
  $("#dock").hidden = true;
  $("#join").hidden = false;
  $("#join-game").textContent = gameTitle(session, session.info.game);
  $("#join-name").value = lastName();
  const free = freeSeats(session.info.seats || []);
  const box = clear($("#join-seats"));
  free.forEach((seat, index) => {
    const id = `join-seat-${seat.seat}`;
    box.append(h("label", { class: "choice", for: id },
      h("input", { type: "radio", name: "seat", id, value: seat.seat, checked: index === 0 }),
      t("Seat {n}", { n: seat.seat + 1 }), joinSeatNote(seat)));
  });
  if (!free.length) box.append(h("p", { class: "note" }, t("All seats are taken. You can watch.")));
  const gameNote = h("p", { class: "note", id: "join-game-note" });
  const noteSeat = () => {
    const checked = box.querySelector("input:checked");
    gameNote.textContent = checked ? joinGameNote(session.info, Number(checked.value)) : "";
    gameNote.hidden = !gameNote.textContent;
  };
  box.onchange = noteSeat;
  box.append(gameNote);
  noteSeat();
  $("#join-button").hidden = !free.length;
  if (reason) {
    $("#join-error").textContent = reason;
    $("#join-error").hidden = false;
  }
  $("#join-name").focus();
}

export async function join(page, event) {
  const { session } = page;
  event.preventDefault();
  const name = $("#join-name").value.trim();
  const errorBox = $("#join-name-error");
  errorBox.hidden = true;
  $("#join-error").hidden = true;
  if (!name) {
    errorBox.textContent = t("Enter your name.");
    errorBox.hidden = false;
    $("#join-name").focus();
    return;
  }
  const checked = document.querySelector("#join-seats input:checked");
  const body = { name };
  if (checked) body.seat = Number(checked.value);
  const button = $("#join-button");
  button.disabled = true;
  try {
    const answer = await api.join(session.roomId, body);
    rememberName(name);
    session.token = answer.token;
    if (answer.pending) {
      saveSeat(session.roomId, { token: answer.token, name, pending: true });
      $("#pending").hidden = false;
    } else {
      saveSeat(session.roomId, { token: answer.token, seat: answer.seat, name });
    }
    session.closedByUs = false;
    dropSocket(session);
    page.connect();
  } catch (error) {
    const box = $("#join-error");
    box.textContent = page.errorText(error);
    box.hidden = false;
    try {
      session.info = await api.room(session.roomId);
      showJoin(session, page.errorText(error));
    } catch {
      // keep the form as it is
    }
  } finally {
    button.disabled = false;
  }
}

export function watch(page) {
  page.session.token = null;
  page.session.closedByUs = false;
  page.connect();
}

export async function takeSeat(session) {
  dropSocket(session);
  try {
    session.info = await api.room(session.roomId);
  } catch {
    // keep what we knew
  }
  showJoin(session, null);
}

// Giving up one's seat (or join request) for good; the server answers with "left" (receive.js).
export async function leaveRoom(page, question) {
  if (!window.confirm(question)) return;
  try {
    await page.send({ type: "leave" });
  } catch (error) {
    page.notice(page.errorText(error));
  }
}

// Another tab took this seat's socket (4409); the player asked to play here again.
export function useHere(page) {
  $("#replaced").hidden = true;
  page.session.closedByUs = false;
  page.session.retry = 0;
  page.connect();
}

export async function copyInvite(roomId) {
  const url = inviteUrl(roomId);
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    $("#invite-link").select();
    document.execCommand("copy");
  }
  $("#copy-note").hidden = false;
  setTimeout(() => { $("#copy-note").hidden = true; }, 2500);
}
