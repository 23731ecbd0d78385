// The replay of a game (a finished one, or a table's finished hands while it plays on): the server's
// frames (one per log entry, as a chosen seat saw it) drawn by the game's own table module, as in live
// play, with steps back and forth, jumps to each deal or hand, and autoplay. Keys: ← → step, Home/End, space plays or pauses.

import { api, loadSeat as storedSeat } from "./api.js";
import { $, h, clear, replace } from "./dom.js";
import { lang, t, tMaybe, refusalText } from "./i18n.js";
import { appendLogLine, showLastMove } from "./eventlog.js";
import { hasTable, loadTableModule, mountTable, outcomeHeadline, trimList, watchDock } from "./tablehost.js";

const roomId = $("#room").dataset.room;
const gameNo = Number($("#room").dataset.gameNo);
const AUTOPLAY_MS = 900;

const replay = {
  info: null,
  module: null,
  table: null,
  seat: null, // null: as a spectator saw it
  own: null, // this browser's seat in the room and its token, when it has one
  inPlay: false, // the game goes on: its frames end with the last finished hand
  jumpLast: false, // open at the last mark (the page's ``at=last``: the latest finished hand)
  openSeats: false, // every seat may be watched (a fair game's seed is revealed at its end)
  names: [],
  frames: [], // every frame of the game for the chosen seat, loaded page by page
  length: 0,
  marks: [],
  index: 0,
  timer: null,
  loading: 0, // a counter: a seat change starts a new load and the old one stops
};

function seatName(seat) {
  if (seat === null || seat === undefined) return t("Spectator");
  return replay.names[seat] || t("Seat {n}", { n: seat + 1 });
}

function notice(text) {
  const box = $("#room-error");
  box.textContent = text;
  box.hidden = false;
}

function showFatal(text) {
  $("#room-loading").hidden = true;
  $("#room").classList.remove("loading");
  $("#play").hidden = true;
  notice(text);
}

// A seat's frames need its player's token; a spectator's are open to anyone.
async function fetchPage(seat, start) {
  const query = seat === null ? `start=${start}` : `seat=${seat}&start=${start}`;
  return api.replay(roomId, gameNo, query, seat === null || !replay.own ? null : replay.own.token);
}

// The first page draws at once; the rest of the game loads behind it.
async function loadSeat(seat) {
  const run = ++replay.loading;
  const first = await fetchPage(seat, 0);
  if (run !== replay.loading) return;
  replay.seat = seat;
  replay.names = first.names;
  replay.length = first.length;
  replay.marks = first.marks;
  replay.openSeats = Boolean(first.open_seats);
  replay.inPlay = Boolean(first.in_play);
  replay.frames = first.frames;
  $("#replay-in-play").hidden = !replay.inPlay;
  mountReplayTable();
  fillChoices(first.players);
  show(Math.min(replay.index, replay.frames.length - 1));
  while (replay.frames.length < replay.length) {
    const page = await fetchPage(seat, replay.frames.length);
    if (run !== replay.loading) return;
    if (!page.frames.length) break;
    replay.frames = replay.frames.concat(page.frames);
    renderPosition();
  }
  if (replay.jumpLast) {
    replay.jumpLast = false;
    show(replay.marks[replay.marks.length - 1].index);
  }
}

function mountReplayTable() {
  replay.table = mountTable(replay.module, {
    seat: () => replay.seat,
    host: () => false,
    sendAction: () => Promise.reject({ code: "replay", message: t("This is a replay: moves are not sent.") }),
    seatName,
    replaying: true,
    errorText: refusalText,
    notice,
    room: () => replay.info,
    info: () => replay.info,
    token: () => null,
    roomId,
  });
}

// Whose eyes: a spectator's, or a seat's: any seat once the game's seed is revealed, else only
// this player's own (the server shows no one else's hand).
function fillChoices(players) {
  const seats = clear($("#replay-seat"));
  seats.append(h("option", { value: "" }, t("A spectator")));
  const own = replay.own ? replay.own.seat : null;
  // A table's newcomers sit beyond the deal's seats: the names list them too.
  const count = Math.max(players, replay.names.length);
  const open = [...Array(count).keys()].filter((seat) => seat < players || replay.names[seat]);
  const shown = replay.openSeats ? open : (own === null ? [] : [own]);
  for (const seat of shown) {
    const label = seat === own ? t("{name} (you)", { name: seatName(seat) }) : seatName(seat);
    seats.append(h("option", { value: String(seat) }, label));
  }
  seats.value = replay.seat === null ? "" : String(replay.seat);
  const jump = clear($("#replay-jump"));
  for (const mark of replay.marks) {
    let label = t("Start of the game");
    if (mark.kind === "deal") label = t("Deal {n}", { n: mark.number });
    else if (mark.kind === "hand") label = t("Hand {n}", { n: mark.number });
    jump.append(h("option", { value: String(mark.index) }, label));
  }
  // The last move is a place to jump to as well; at it the list says so (not the last deal's start).
  jump.append(h("option", { value: "end", dataset: { role: "end" } },
    replay.inPlay ? t("The last finished hand's end") : t("End of the game")));
}

// The events up to frame ``index`` (the newest few hundred), for the seats' latest moves.
function historyTo(index) {
  const events = [];
  for (let i = index; i >= 0 && events.length < 400; i -= 1) {
    events.unshift(...(replay.frames[i].events || []));
  }
  return events;
}

// The state message of frame ``index``: the frame's view without any move to make.
function stateOf(index) {
  const frame = replay.frames[index];
  return {
    type: "state", version: frame.version, game_no: gameNo, view: frame.view, legal: [], table: [],
    to_act: [], deadline: null, banks: {}, events: frame.events, outcome: frame.outcome,
    history: historyTo(index),
  };
}

function show(index) {
  const last = replay.frames.length - 1;
  replay.index = Math.max(0, Math.min(index, last));
  replay.table.update(stateOf(replay.index));
  renderLog();
  showLastMove(historyTo(replay.index), replay.module, seatName, { whole: true });
  renderPosition();
  const outcome = replay.frames[replay.index].outcome;
  const box = $("#replay-outcome");
  box.hidden = !outcome;
  if (outcome) box.textContent = outcomeLine(outcome);
  // The jump list follows the position: the last deal or hand begun at or before it.
  const marks = replay.marks.filter((m) => m.index <= replay.index);
  const atEnd = replay.frames.length === replay.length && replay.index === replay.frames.length - 1;
  if (atEnd) $("#replay-jump").value = "end";
  else if (marks.length) $("#replay-jump").value = String(marks[marks.length - 1].index);
}

function outcomeLine(outcome) {
  return outcomeHeadline(replay.module, outcome, seatName, replay.frames[replay.index].view);
}

// The log as it stood at this frame: every event up to it, newest last.
function renderLog() {
  const list = replace($("#log"));
  for (let i = 0; i <= replay.index; i += 1) {
    for (const event of replay.frames[i].events || []) appendLogLine(list, event, replay.module, seatName);
  }
  trimList(list);
}

function renderPosition() {
  const total = replay.length;
  $("#replay-position").textContent = t("Move {i} of {n}", { i: replay.index + 1, n: total });
  $("#replay-first").disabled = replay.index === 0;
  $("#replay-back").disabled = replay.index === 0;
  const atEnd = replay.index >= replay.frames.length - 1;
  $("#replay-forward").disabled = atEnd;
  $("#replay-last").disabled = atEnd && replay.frames.length === total;
}

function step(delta) {
  show(replay.index + delta);
  if (replay.index >= replay.frames.length - 1) pause();
}

function play() {
  if (replay.index >= replay.frames.length - 1) show(0);
  replay.timer = setInterval(() => step(1), AUTOPLAY_MS);
  $("#replay-play").textContent = t("Pause");
  $("#replay-play").setAttribute("aria-pressed", "true");
}

function pause() {
  clearInterval(replay.timer);
  replay.timer = null;
  $("#replay-play").textContent = t("Autoplay");
  $("#replay-play").setAttribute("aria-pressed", "false");
}

function onKey(event) {
  if (event.target.closest("select, input, textarea")) return;
  const keys = {
    ArrowRight: () => step(1),
    ArrowLeft: () => step(-1),
    Home: () => show(0),
    End: () => show(replay.frames.length - 1),
    " ": () => (replay.timer ? pause() : play()),
  };
  const run = keys[event.key];
  if (run) {
    event.preventDefault();
    run();
  }
}

async function start() {
  try {
    const [info, games] = await Promise.all([api.room(roomId), api.games().catch(() => [])]);
    replay.info = info;
    const game = games.find((g) => g.name === info.game);
    const titles = (game && game.titles) || {};
    $("#room-title").textContent = titles[lang] || titles.en || tMaybe(`game: ${info.game}`) || info.game;
    document.body.dataset.game = info.game;
    if (!hasTable(info.game)) {
      showFatal(t("This game has no table in the browser yet."));
      return;
    }
    replay.module = await loadTableModule(info.game);
    const stored = storedSeat(roomId);
    if (stored && stored.token && Number.isInteger(stored.seat)) replay.own = { seat: stored.seat, token: stored.token };
    const asked = new URLSearchParams(window.location.search).get("seat");
    const seat = asked !== null && /^\d+$/.test(asked) ? Number(asked) : null;
    replay.jumpLast = new URLSearchParams(window.location.search).get("at") === "last";
    try {
      await loadSeat(seat);
    } catch (error) {
      // A seat this viewer may not watch (a game dealt before deals were fair, an earlier game, a
      // seat taken over): the spectator's view.
      if (seat === null || (error.status !== 403 && error.status !== 422)) throw error;
      if (replay.own && replay.own.seat === seat) replay.own = null;
      await loadSeat(null);
    }
  } catch (error) {
    showFatal(refusalText(error));
    return;
  }
  $("#room-loading").hidden = true;
  $("#room").classList.remove("loading");
  $("#play").hidden = false;
  // The log was drawn hidden: its newest lines come into view now.
  $("#log").scrollTop = $("#log").scrollHeight;
  $("#replay-first").addEventListener("click", () => show(0));
  $("#replay-back").addEventListener("click", () => step(-1));
  $("#replay-forward").addEventListener("click", () => step(1));
  $("#replay-last").addEventListener("click", () => show(replay.frames.length - 1));
  $("#replay-play").addEventListener("click", () => (replay.timer ? pause() : play()));
  $("#replay-jump").addEventListener("change", (event) => show(
    event.target.value === "end" ? replay.frames.length - 1 : Number(event.target.value)));
  $("#replay-seat").addEventListener("change", (event) => {
    const seat = event.target.value === "" ? null : Number(event.target.value);
    const url = new URL(window.location.href);
    if (seat === null) url.searchParams.delete("seat");
    else url.searchParams.set("seat", String(seat));
    window.history.replaceState(null, "", url);
    loadSeat(seat).catch((error) => notice(refusalText(error)));
  });
  document.addEventListener("keydown", onKey);
  watchDock();
  // For tests and the curious: what is drawn.
  window.houserules = replay;
}

start();
