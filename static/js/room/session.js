// The room page's state: made once by room.js and handed to every module of the page explicitly
// (no module keeps it, so two sessions never share state and a test can make one of its own).
// The helpers below read it and nothing else: no DOM, so they run under node too (tests/js).

import { lang, t, tMaybe } from "../i18n.js";

export function createSession(roomId) {
  return {
    roomId,
    info: null, // GET /api/rooms/{room}
    gameInfo: null, // the game's entry in GET /api/games (titles, rule-sheet schema)
    seat: null, // our seat number, null when watching
    host: false,
    token: null,
    socket: null,
    retry: 0,
    version: null, // the newest state's version: a move is tied to it
    drawn: null, // the version the page has drawn (the table module may still be loading)
    acked: null, // the version at which the server acknowledged this page's last request
    state: null, // last "state" message
    room: null, // last "room" message
    pending: new Map(), // message id -> {resolve, reject}
    counter: 0,
    table: null,
    tableModule: null,
    tableLoading: null, // the table module's load while it is under way
    seenEvents: new Set(),
    pingTimer: null,
    timerHandle: null,
    closedByUs: false,
    catchingUp: false,
    gameNo: undefined,
    fairBox: null, // the finished game's "Verify" box, kept while the result is redrawn
    lobbyForm: null,
    // Turn alerts: whether it is our turn, what was given so far (for the tests), the chime's audio
    // context and the open notification.
    alerts: { mine: false, given: [], audio: null, notification: null },
  };
}

export function seatName(session, seat) {
  if (seat === null || seat === undefined) return t("Spectator");
  const seats = (session.room && session.room.seats) || (session.info && session.info.seats) || [];
  const entry = seats.find((s) => s.seat === seat);
  return (entry && entry.name) || t("Seat {n}", { n: seat + 1 });
}

export function gameTitle(session, game) {
  const titles = (session.gameInfo && session.gameInfo.titles) || {};
  return titles[lang] || titles.en || tMaybe(`game: ${game}`) || game;
}

// Whom the table waits for. The server names only our own seat in to_act (a seat that may move out
// of turn would give its cards away), so the others come from the game's public view.
export function waitingFor(session, message) {
  const module = session.tableModule;
  if (message.view && module && module.waiting) return module.waiting(message.view);
  return (message.view && message.view.waiting_for) || message.to_act || [];
}

// Whether this page's seat is among those the table waits for.
export function myTurn(session, message) {
  return session.seat !== null && waitingFor(session, message).includes(session.seat);
}
