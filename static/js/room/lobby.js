// A "room" message: who is here (presence), the lobby (its seats, whom it waits for, the rule sheet
// the host may still change), the host panel, and the table and result redrawn with the new names.

import { $, h, clear } from "../dom.js";
import { t, tn } from "../i18n.js";
import { buildSheetForm } from "../schemaform.js";
import { botTag } from "../bots.js";
import { renderPresence } from "../presence.js";
import { lobbyBase, markLobbySheet } from "../lobbysheet.js";
import { renderHost, sendHost } from "./host.js";
import { renderResult } from "./result.js";

export function renderRoom(page) {
  const { session } = page;
  const room = session.room;
  const people = clear($("#people"));
  for (const seat of room.seats || []) {
    const you = seat.seat === session.seat;
    people.append(h("li", {
      class: `person ${seat.connected ? "online" : "offline"}${you ? " you" : ""}`,
      dataset: { seat: seat.seat },
    },
    h("span", { class: "dot", "aria-hidden": "true" }),
    seat.name || h("em", {}, t("empty seat")),
    seat.host ? h("span", { class: "tag" }, t("host")) : null,
    botTag(seat),
    you ? h("span", { class: "tag" }, t("you")) : null,
    seat.name ? h("span", { class: "visually-hidden" }, seat.connected ? t("connected") : t("not connected")) : null));
  }
  // A spectator may still take a free seat.
  const free = (room.seats || []).some((s) => s.free);
  $("#take-seat").hidden = !(session.seat === null && !session.token && free);
  // The host hands the role over before leaving (the server refuses otherwise), so the button is
  // for the other seated players.
  $("#leave-room").hidden = !(session.seat !== null && session.token && !session.host);
  showWatchers(room.spectators || 0);
  const lobby = room.status === "lobby";
  $("#lobby").hidden = !lobby;
  document.body.dataset.status = room.status || "";
  if (lobby) renderLobbySeats(room);
  if (lobby) renderLobbyTitle(session);
  renderLobbySheet(page, lobby);
  const me = (room.seats || []).find((s) => s.seat === session.seat);
  if (me) session.host = Boolean(me.host);
  document.body.classList.toggle("is-host", session.host);
  renderHost(page);
  renderPresence(room, { host: session.host, seat: session.seat, sendHost: (op, args) => sendHost(page, op, args) });
  // Most room frames repeat the room with only a new version. Redrawing the table for those would
  // replace the dock's buttons under a pointer pressing one (the press then lands on nothing), so the
  // table is redrawn only when something it shows from the room changed (names, presence, the host).
  const tableKey = tableRoomKey(room, session.host);
  const roomChanged = tableKey !== session.tableRoomKey;
  session.tableRoomKey = tableKey;
  if (session.state && session.table && roomChanged) session.table.update(session.state);
  if (session.state && session.state.outcome && session.table) renderResult(page, session.state.outcome);
}

export function showWatchers(count) {
  $("#watchers").textContent = tn("{n} is watching", "{n} are watching", count);
}

// What of a room frame the table shows: all of it but the version, which every move bumps, and the
// watcher count, which only the side shows.
export function tableRoomKey(room, host) {
  return JSON.stringify([{ ...room, version: null, spectators: null }, Boolean(host)]);
}

// In the lobby the host may still change the rules (P24: never once dealt).
function renderLobbySheet(page, lobby) {
  const { session } = page;
  const box = $("#lobby-sheet");
  const schema = session.gameInfo && session.gameInfo.schema;
  box.hidden = !(lobby && session.host && schema);
  if (box.hidden) return;
  if (!session.lobbyForm) {
    const base = lobbyBase(session.gameInfo, session.info, session.room.sheet || {});
    let form = null;
    form = buildSheetForm($("#lobby-sheet-form"), schema, session.room.sheet || {}, {
      onChange: () => {
        $("#lobby-sheet-note").hidden = true;
        markLobbySheet(form, schema, base);
      },
    });
    session.lobbyForm = form;
    markLobbySheet(form, schema, base);
  }
}

export async function saveLobbySheet(page) {
  const form = page.session.lobbyForm;
  const errorBox = $("#lobby-sheet-error");
  errorBox.hidden = true;
  form.clearErrors();
  if (!form.validate()) return;
  try {
    await page.send({ type: "host", op: "sheet", options: form.values() });
    $("#lobby-sheet-note").hidden = false;
  } catch (error) {
    const text = page.errorText(error);
    if (!(error.option && form.showError(error.option, text))) {
      errorBox.textContent = text;
      errorBox.hidden = false;
    }
  }
}

// Whom the lobby waits for: players while seats are free, else the host (only the host starts).
// ``iAmHost`` is whether this page is the seated host.
export function lobbyTitle(seats, iAmHost) {
  // A bot's seat is "free" for a person to take, yet the bot plays: the room is full all the same.
  const full = !seats.some((s) => s.free && !s.bot);
  const host = seats.find((s) => s.host);
  let title = t("Waiting for players");
  let note = "";
  if (!iAmHost && host && host.name) {
    title = t("Waiting for {name} to start", { name: host.name });
    if (!full) note = t("Seats are free: more players may still join.");
  } else if (iAmHost) {
    if (full) title = t("Everyone is here: start the game");
    else note = t("You can start once enough players have joined.");
  }
  return { title, note };
}

function renderLobbyTitle(session) {
  const { title, note } = lobbyTitle(session.room.seats || [], session.host && session.seat !== null);
  $("#lobby-title").textContent = title;
  $("#lobby-note").textContent = note;
  $("#lobby-note").hidden = !note;
}

function renderLobbySeats(room) {
  const list = clear($("#lobby-seats"));
  for (const seat of room.seats || []) {
    // A bot has no connection to lose: it gets its tag instead of "not connected".
    const away = seat.name && !seat.connected && !seat.bot;
    list.append(h("li", { class: seat.name ? "taken" : "free", dataset: { seat: seat.seat } },
      `${t("Seat {n}", { n: seat.seat + 1 })}: `,
      seat.name || t("free"), away ? ` (${t("not connected")})` : "", botTag(seat)));
  }
}
