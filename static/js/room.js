// The room page: join (name, seat or watch), the WebSocket session with reconnect, the lobby and
// invite link, presence, host controls, the action log, chat, and the game's table module.

import { api, loadSeat, saveSeat, forgetSeat, lastName, rememberName } from "./api.js";
import { $, h, clear, replace } from "./dom.js";
import { lang, t, tMaybe, tn, tServer } from "./i18n.js";
import { buildSheetForm } from "./schemaform.js";
import { botControls, botMark, botTag, joinSeatNote } from "./bots.js";
import { TABLES } from "./tables/index.js";
import { appendLogLine, clearLastMove, showLastMove } from "./eventlog.js";
import { contribute, noteState, sideBox, verifyBox } from "./fairpanel.js";
import { joinGameNote, renderPresence } from "./presence.js";
import { showLastMoveSlot } from "./lastmove.js";
import { lobbyBase, markLobbySheet } from "./lobbysheet.js";


const roomId = $("#room").dataset.room;

const session = {
  info: null, // GET /api/rooms/{room}
  seat: null, // our seat number, null when watching
  host: false,
  token: null,
  socket: null,
  retry: 0,
  version: null,
  state: null, // last "state" message
  room: null, // last "room" message
  pending: new Map(), // message id -> {resolve, reject}
  counter: 0,
  table: null,
  tableModule: null,
  seenEvents: new Set(),
  pingTimer: null,
  closedByUs: false,
};

// Exposed read-only for the browser tests and for debugging in the console; it holds only what this
// page was sent (its own seat's view), never more.
window.houserules = {
  get seat() { return session.seat; },
  get version() { return session.version; },
  get state() { return session.state; },
  get room() { return session.room; },
  get connected() { return Boolean(session.socket && session.socket.readyState === WebSocket.OPEN); },
  // Turn alerts given so far, newest last (what the page did, for the tests).
  get alerts() { return alerts.given.slice(); },
};

export function seatName(seat) {
  if (seat === null || seat === undefined) return t("Spectator");
  const seats = (session.room && session.room.seats) || (session.info && session.info.seats) || [];
  const entry = seats.find((s) => s.seat === seat);
  return (entry && entry.name) || t("Seat {n}", { n: seat + 1 });
}

export function errorText(code, message) {
  return tServer(message, code);
}

function gameTitle(game) {
  const titles = (session.gameInfo && session.gameInfo.titles) || {};
  return titles[lang] || titles.en || tMaybe(`game: ${game}`) || game;
}

// ---- the socket -------------------------------------------------------------------------------

function nextId() {
  session.counter += 1;
  return `m-${Date.now().toString(36)}-${session.counter}`;
}

function send(message) {
  const id = nextId();
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

function sendAction(action) {
  const message = { type: "action", action };
  // On one's own turn the move is tied to the table as seen; in phases where several seats act at
  // once (a swap phase) the others' moves must not make it stale.
  const acting = session.state ? waitingFor(session.state) : [];
  if (session.version !== null && acting.length === 1 && acting[0] === session.seat) message.version = session.version;
  return send(message);
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${window.location.host}/ws/${encodeURIComponent(roomId)}`);
  session.socket = socket;
  socket.addEventListener("open", () => {
    session.retry = 0;
    socket.send(JSON.stringify({
      type: "hello", token: session.token, last_version: session.version, lang,
    }));
    clearInterval(session.pingTimer);
    session.pingTimer = setInterval(() => {
      send({ type: "ping" }).catch(() => {});
    }, 25000);
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
    const delay = Math.min(5000, 300 * 2 ** session.retry);
    session.retry += 1;
    setTimeout(connect, delay);
  });
}

function setBanner(show) {
  $("#banner").hidden = !show;
}

function receive(message) {
  switch (message.type) {
    case "kicked":
    case "refused":
    case "left": {
      const wasPending = session.seat === null;
      forgetSeat(roomId);
      session.token = null;
      session.seat = null;
      session.closedByUs = true;
      $("#pending").hidden = true;
      const reason = {
        kicked: t("The host removed you from the room."),
        refused: t("The host did not approve your request."),
        left: wasPending ? t("Your request to join is withdrawn.") : t("You left the room. Your seat is free for someone else."),
      }[message.type];
      // The seats offered are the room's as they are now (the one just given up is free again).
      api.room(roomId).then((info) => { session.info = info; }, () => {}).finally(() => showJoin(reason));
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
        const stored = loadSeat(roomId) || {};
        saveSeat(roomId, { ...stored, token: session.token, seat: session.seat, pending: false });
        $("#pending").hidden = true;
      }
      showPlay();
      break;
    case "room":
      session.room = message;
      document.body.classList.remove("offline");
      renderRoom();
      // Random bytes for the next deal, as soon as its commitment is shown (never waited for).
      contribute(message, session.seat, send);
      fairSide.update(message, session.seat, session.state);
      break;
    case "state":
      onState(message);
      break;
    case "chat":
      addChat(message);
      break;
    case "ack":
    case "contributed":
    case "pong": {
      const waiter = session.pending.get(message.id);
      if (waiter) {
        session.pending.delete(message.id);
        waiter.resolve(message);
      }
      break;
    }
    case "error": {
      const waiter = message.id ? session.pending.get(message.id) : null;
      if (waiter) {
        session.pending.delete(message.id);
        waiter.reject(message);
      } else if (message.code === "bad_token") {
        forgetSeat(roomId);
        session.token = null;
        session.closedByUs = true;
        if (session.socket) session.socket.close();
        showJoin(errorText(message.code, message.message));
      } else if (message.code === "too_many_sockets") {
        // The banner the close brings (4409) says it; no second notice over it.
      } else if (message.code === "unknown_room") {
        session.closedByUs = true;
        showFatal(errorText(message.code, message.message));
      } else {
        notice(errorText(message.code, message.message));
      }
      break;
    }
    default:
      break;
  }
}

// ---- state, log, result -----------------------------------------------------------------------

let tableLoading = null;

// The table module is loaded once; states that arrive meanwhile wait for it in order.
function ensureTable(game) {
  if (session.table) return Promise.resolve(session.table);
  if (!tableLoading) {
    const loader = TABLES[game];
    if (!loader) {
      replace($("#table"), h("p", { class: "note" }, t("This game has no table in the browser yet.")));
      return Promise.resolve(null);
    }
    tableLoading = loader().then((module) => {
      session.tableModule = module;
      $("#dock").hidden = false;
      session.table = module.mount($("#table"), {
        get seat() { return session.seat; },
        get host() { return session.host; },
        dock: $("#dock-table"),
        sendAction,
        seatName,
        errorText,
        notice,
        room: () => session.room,
        info: () => session.info,
        token: () => session.token,
        roomId,
      });
      tableLoading = null;
      return session.table;
    });
  }
  return tableLoading;
}

async function onState(message) {
  session.version = message.version ?? session.version;
  session.state = message;
  // Only a deal this page saw happen live tells what it was dealt (a catch-up shows the hand as it is now).
  noteState(message, !session.catchingUp);
  session.catchingUp = false;
  fairSide.update(session.room, session.seat, message);
  const newGame = message.game_no !== undefined && message.game_no !== session.gameNo;
  if (newGame) {
    if (session.gameNo) {
      $("#log").append(h("li", { class: "separator" }, t("New game")));
    }
    session.gameNo = message.game_no;
    clearLastMove();
    fairBoxEl = null; // a new game: its own record to verify
    fairSide.reset();
  }
  if (!message.view) {
    for (const event of message.events || []) addLog(event);
    if (session.table) replace($("#table"));
    if (session.table) replace($("#dock-table"));
    session.table = null;
    clearLastMove();
    $("#dock").hidden = true;
    showLastMoveSlot(false);
    renderResult(null);
    renderHost();
    return;
  }
  const starting = !session.table || newGame;
  const table = await ensureTable(session.info.game);
  // The log is worded by the table module (card names, amounts): only once it has loaded, so a
  // reload, a reopened link or a late spectator reads the same lines as a player who watched live.
  for (const event of message.events || []) addLog(event);
  showLastMove(message.events, session.tableModule, seatName);
  // A newer state may have arrived while the table module loaded: draw only the newest.
  if (session.state !== message) return;
  if (table) table.update(message);
  showLastMoveSlot(Boolean(table));
  // A game just started (or the page just opened on one): the table is what matters now, so the
  // page shows it from its top, wherever the lobby or the host panel had been scrolled to.
  if (starting && table) window.scrollTo(0, 0);
  renderResult(message.outcome);
  renderHost();
  renderTimer(message);
  const mine = session.seat !== null && waitingFor(message).includes(session.seat);
  document.body.classList.toggle("my-turn", mine);
  turnAlert(mine);
}

// ---- turn alerts ------------------------------------------------------------------------------
// While it is this seat's turn the tab's title says so; when the turn starts, an optional short
// sound (off by default), a vibration where the device has one, and an opt-in notification while
// the tab is hidden. The two choices are remembered in localStorage.

const SOUND_KEY = "houserules:alert-sound";
const NOTIFY_KEY = "houserules:alert-notify";
const alerts = { mine: false, given: [], audio: null, notification: null };

function baseTitle() {
  return session.info ? `${gameTitle(session.info.game)} · Houserules` : "Houserules";
}

function setTitle() {
  document.title = alerts.mine ? t("● Your turn · {title}", { title: baseTitle() }) : baseTitle();
}

function turnAlert(mine) {
  const started = mine && !alerts.mine;
  alerts.mine = mine;
  setTitle();
  if (!mine && alerts.notification) {
    alerts.notification.close();
    alerts.notification = null;
  }
  if (!started) return;
  const given = { sound: false, vibrate: false, notify: false, at: session.version };
  if (localStorage.getItem(SOUND_KEY) === "on") given.sound = beep();
  if (navigator.vibrate) given.vibrate = navigator.vibrate(200) !== false;
  if (document.hidden && localStorage.getItem(NOTIFY_KEY) === "on" && window.Notification
      && Notification.permission === "granted") {
    alerts.notification = new Notification(t("Your turn"), { body: baseTitle(), tag: `houserules-${roomId}` });
    alerts.notification.onclick = () => window.focus();
    given.notify = true;
  }
  alerts.given.push(given);
}

// A short two-tone chime made on the spot (no sound file to load).
function beep() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    alerts.audio = alerts.audio || new Context();
    const audio = alerts.audio;
    if (audio.state === "suspended") audio.resume();
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    [660, 880].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(audio.currentTime + i * 0.12);
      tone.stop(audio.currentTime + 0.35);
    });
    return true;
  } catch {
    return false;
  }
}

function setupAlerts() {
  const sound = $("#alert-sound");
  const notify = $("#alert-notify");
  sound.checked = localStorage.getItem(SOUND_KEY) === "on";
  notify.checked = localStorage.getItem(NOTIFY_KEY) === "on";
  if (!window.Notification) notify.closest("label").hidden = true;
  sound.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
    // Browsers start audio only after a click: this one unlocks it for the turns to come.
    if (sound.checked) beep();
  });
  notify.addEventListener("change", async () => {
    if (notify.checked && window.Notification && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission().catch(() => "denied");
      if (answer !== "granted") {
        notify.checked = false;
        notice(t("The browser does not allow notifications for this page."));
      }
    }
    localStorage.setItem(NOTIFY_KEY, notify.checked ? "on" : "off");
  });
}

// Whom the table waits for. The server names only our own seat in to_act (a seat that may move out
// of turn would give its cards away), so the others come from the game's public view.
function waitingFor(message) {
  const module = session.tableModule;
  if (message.view && module && module.waiting) return module.waiting(message.view);
  return (message.view && message.view.waiting_for) || message.to_act || [];
}

// The turn timer: the server sends the deadline in Unix seconds; the page counts down to it.
let timerHandle = null;
function renderTimer(message) {
  const box = $("#timer");
  clearInterval(timerHandle);
  if (!message.deadline || message.outcome) {
    box.hidden = true;
    return;
  }
  const acting = waitingFor(message);
  // A lone seat's deadline includes its time bank (banks are public): show the two apart.
  const bank = acting.length === 1 && message.banks ? Number(message.banks[String(acting[0])] || 0) : 0;
  const tick = () => {
    const left = Math.max(0, Math.ceil(message.deadline - Date.now() / 1000));
    const inBank = Math.min(left, Math.floor(bank));
    const base = left - inBank;
    const n = base > 0 ? base : left;
    const mine = session.seat !== null && acting.includes(session.seat);
    let text = t("Time left: {n} s", { n });
    if (mine) text = t("Your time: {n} s", { n });
    else if (acting.length) text = t("Time left for {names}: {n} s", { names: acting.map(seatName).join(", "), n });
    if (base > 0 && inBank > 0) text += ` ${t("+ time bank {n} s", { n: inBank })}`;
    else if (inBank > 0) text += ` ${t("(time bank)")}`;
    box.textContent = text;
    box.classList.toggle("urgent", left <= 10);
    if (left <= 0) clearInterval(timerHandle);
  };
  tick();
  box.hidden = false;
  timerHandle = setInterval(tick, 500);
}

function addLog(event) {
  const key = JSON.stringify(event);
  if (session.seenEvents.has(key)) return;
  session.seenEvents.add(key);
  const list = $("#log");
  appendLogLine(list, event, session.tableModule, seatName, botMark(event));
  while (list.children.length > 200) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

function winnersHeadline(outcome) {
  const first = (outcome.placings || [])[0] || [];
  if (!first.length) return t("Game over");
  if (first.length === 1) return t("{name} wins!", { name: seatName(first[0]) });
  return t("{names} share the win!", { names: first.map(seatName).join(", ") });
}

// The game-over box: a headline naming the winner(s), placings with scores, and the room's tally
// across rematches. It sits above the table, so it is in view at the top of the page.
function renderResult(outcome) {
  const box = $("#result");
  if (!outcome) {
    box.hidden = true;
    document.body.classList.remove("game-over");
    return;
  }
  const module = session.tableModule;
  const view = session.state && session.state.view;
  const custom = module && module.describeOutcome ? module.describeOutcome(outcome, seatName, view) : null;
  const headline = (custom && custom.headline) || winnersHeadline(outcome);
  const scores = outcome.scores || {};
  const scoreLabel = (module && module.scoreLabel && module.scoreLabel(view)) || t("Score");
  // A game may word a seat's result itself (a tournament's busted players end with no chips).
  const scoreOf = (seat) => (module && module.scoreText
    ? module.scoreText(outcome, seat, view)
    : scores[String(seat)] !== undefined ? String(scores[String(seat)]) : "");
  const placings = h("table", { class: "placings" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Place")), h("th", {}, t("Player")), h("th", {}, scoreLabel))),
    h("tbody", {}, (outcome.placings || []).flatMap((group, index) => group.map((seat) => h("tr", {
      dataset: { seat, place: index + 1 },
    }, h("td", {}, String(index + 1)), h("td", {}, seatName(seat)),
    h("td", {}, scoreOf(seat)))))));
  const wasHidden = box.hidden;
  replace(box,
    h("p", { class: "over-label" }, t("Game over")),
    h("h2", { class: "headline", id: "headline" }, headline),
    ...((custom && custom.lines) || []).map((line) => h("p", { class: "outcome-line" }, line)),
    placings,
    tallyTable(),
    replayLink(),
    fairBox(),
    session.host && session.room && session.room.status === "finished"
      ? hostButton(t("Play again"), "rematch") : null);
  box.hidden = false;
  document.body.classList.add("game-over");
  if (wasHidden) box.scrollIntoView({ block: "nearest" });
}

// The side box: the next deal's commitment, this seat's contribution, Verify during a game.
const fairSide = sideBox({ roomId, token: () => session.token, errorText });
document.querySelector(".side .chat").before(fairSide.element);

// The "Verify" box of the finished game: made once, so its result stays while the box is redrawn.
let fairBoxEl = null;
function fairBox() {
  if (!fairBoxEl) fairBoxEl = verifyBox({ roomId, token: () => session.token, errorText });
  return fairBoxEl;
}

// The finished game's replay, seen from this player's own seat (as a spectator saw it otherwise).
function replayLink() {
  const gameNo = session.state && session.state.game_no;
  if (!gameNo) return null;
  const own = session.seat !== null && session.seat !== undefined ? `?seat=${session.seat}` : "";
  return h("p", { class: "replay-link" },
    h("a", { href: `/r/${encodeURIComponent(roomId)}/replay/${gameNo}${own}`, id: "replay-link" },
      t("Watch the replay")));
}

// Wins and times last per player over the room's finished games (the server keeps them).
function tallyTable() {
  const results = (session.room && session.room.results) || [];
  if (!results.length) return null;
  const rows = new Map();
  const row = (name) => {
    if (!rows.has(name)) rows.set(name, { wins: 0, lost: 0 });
    return rows.get(name);
  };
  // Everyone who played counts, with no win and never last too: the games' players where the
  // server names them, and whoever sits at the table now.
  for (const result of results) {
    for (const name of result.players || []) row(name);
    for (const name of result.winners || []) row(name).wins += 1;
    for (const name of result.losers || []) row(name).lost += 1;
  }
  for (const seat of (session.room && session.room.seats) || []) if (seat.name) row(seat.name);
  const games = results.length;
  return h("section", { class: "tally", "aria-labelledby": "tally-title" },
    h("h3", { id: "tally-title" }, games === 1 ? t("This room so far: 1 game") : t("This room so far: {n} games", { n: games })),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Wins")), h("th", {}, t("Times last")))),
      h("tbody", {}, [...rows.entries()].sort((a, b) => b[1].wins - a[1].wins || a[1].lost - b[1].lost)
        .map(([name, r]) => h("tr", { dataset: { name } }, h("td", {}, name),
          h("td", { dataset: { wins: r.wins } }, String(r.wins)), h("td", { dataset: { lost: r.lost } }, String(r.lost)))))));
}

// ---- presence, lobby, host --------------------------------------------------------------------

function renderRoom() {
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
  const watching = room.spectators || 0;
  $("#watchers").textContent = tn("{n} is watching", "{n} are watching", watching);
  const lobby = room.status === "lobby";
  $("#lobby").hidden = !lobby;
  document.body.dataset.status = room.status || "";
  if (lobby) renderLobbySeats();
  if (lobby) renderLobbyTitle();
  renderLobbySheet(lobby);
  const me = (room.seats || []).find((s) => s.seat === session.seat);
  if (me) session.host = Boolean(me.host);
  document.body.classList.toggle("is-host", session.host);
  renderHost();
  renderPresence(room, { host: session.host, seat: session.seat, sendHost });
  if (session.state && session.table) session.table.update(session.state);
  if (session.state && session.state.outcome && session.table) renderResult(session.state.outcome);
}

// In the lobby the host may still change the rules (P24: never once dealt).
let lobbyForm = null;
function renderLobbySheet(lobby) {
  const box = $("#lobby-sheet");
  const schema = session.gameInfo && session.gameInfo.schema;
  box.hidden = !(lobby && session.host && schema);
  if (box.hidden) return;
  if (!lobbyForm) {
    const base = lobbyBase(session.gameInfo, session.info, session.room.sheet || {});
    lobbyForm = buildSheetForm($("#lobby-sheet-form"), schema, session.room.sheet || {}, {
      onChange: () => {
        $("#lobby-sheet-note").hidden = true;
        markLobbySheet(lobbyForm, schema, base);
      },
    });
    markLobbySheet(lobbyForm, schema, base);
  }
}

async function saveLobbySheet() {
  const errorBox = $("#lobby-sheet-error");
  errorBox.hidden = true;
  lobbyForm.clearErrors();
  if (!lobbyForm.validate()) return;
  try {
    await send({ type: "host", op: "sheet", options: lobbyForm.values() });
    $("#lobby-sheet-note").hidden = false;
  } catch (error) {
    const text = errorText(error.code, error.message);
    if (!(error.option && lobbyForm.showError(error.option, text))) {
      errorBox.textContent = text;
      errorBox.hidden = false;
    }
  }
}

// Who the lobby waits for: players while seats are free, else the host (only the host starts).
function renderLobbyTitle() {
  const seats = session.room.seats || [];
  // A bot's seat is "free" for a person to take, yet the bot plays: the room is full all the same.
  const full = !seats.some((s) => s.free && !s.bot);
  const host = seats.find((s) => s.host);
  const iAmHost = session.host && session.seat !== null;
  let title = t("Waiting for players");
  let note = "";
  if (!iAmHost && host && host.name) {
    title = t("Waiting for {name} to start", { name: host.name });
    if (!full) note = t("Seats are free: more players may still join.");
  } else if (iAmHost) {
    if (full) title = t("Everyone is here: start the game");
    else note = t("You can start once enough players have joined.");
  }
  $("#lobby-title").textContent = title;
  $("#lobby-note").textContent = note;
  $("#lobby-note").hidden = !note;
}

function renderLobbySeats() {
  const list = clear($("#lobby-seats"));
  for (const seat of session.room.seats || []) {
    // A bot has no connection to lose: it gets its tag instead of "not connected".
    const away = seat.name && !seat.connected && !seat.bot;
    list.append(h("li", { class: seat.name ? "taken" : "free", dataset: { seat: seat.seat } },
      `${t("Seat {n}", { n: seat.seat + 1 })}: `,
      seat.name || t("free"), away ? ` (${t("not connected")})` : "", botTag(seat)));
  }
}

function hostButton(label, op, extra = {}, confirmText = null) {
  return h("button", {
    type: "button",
    dataset: { op },
    onclick: async () => {
      if (confirmText && !window.confirm(confirmText)) return;
      try {
        await send({ type: "host", op, ...extra });
      } catch (error) {
        notice(errorText(error.code, error.message));
      }
    },
  }, label);
}

function renderHost() {
  const box = $("#host-box");
  box.hidden = !session.host;
  if (!session.host) clear($("#lobby-start"));
  if (!session.host || !session.room) return;
  const controls = clear($("#host-controls"));
  const room = session.room;
  // Start is the lobby's first button, beside its title, not down in the side panel.
  const start = clear($("#lobby-start"));
  if (room.status === "lobby") {
    const button = hostButton(t("Start the game"), "start");
    button.classList.add("primary");
    start.append(button);
  }
  if (room.status === "finished" || (session.state && session.state.outcome)) {
    controls.append(hostButton(t("Play again"), "rematch"));
  }
  for (const request of room.pending || []) {
    const seatsFree = (room.seats || []).filter((s) => s.free).map((s) => s.seat);
    const select = h("select", { "aria-label": t("Seat for {name}", { name: request.name }) },
      seatsFree.map((s) => h("option", { value: s }, t("Seat {n}", { n: s + 1 }))));
    controls.append(h("div", { class: "request" },
      h("span", {}, t("{name} asks to join", { name: request.name })),
      select,
      h("button", {
        type: "button",
        dataset: { op: "approve" },
        onclick: () => send({ type: "host", op: "approve", request: request.request, seat: Number(select.value) })
          .catch((error) => notice(errorText(error.code, error.message))),
      }, t("Approve")),
      h("button", {
        type: "button",
        dataset: { op: "reject" },
        onclick: () => send({ type: "host", op: "reject", request: request.request })
          .catch((error) => notice(errorText(error.code, error.message))),
      }, t("Refuse"))));
  }
  const others = (room.seats || []).filter((s) => s.name && !s.bot && s.seat !== session.seat);
  if (others.length) {
    const select = h("select", { "aria-label": t("Player") },
      others.map((s) => h("option", { value: s.seat }, s.name)));
    controls.append(h("div", { class: "request" }, select,
      h("button", {
        type: "button",
        dataset: { op: "handover" },
        onclick: () => send({ type: "host", op: "handover", seat: Number(select.value) })
          .catch((error) => notice(errorText(error.code, error.message))),
      }, t("Hand over host")),
      h("button", {
        type: "button",
        dataset: { op: "kick" },
        onclick: () => {
          const name = seatName(Number(select.value));
          if (!window.confirm(t("Remove {name} from the room?", { name }))) return;
          send({ type: "host", op: "kick", seat: Number(select.value) })
            .catch((error) => notice(errorText(error.code, error.message)));
        },
      }, t("Remove"))));
  }
  controls.append(...botControls(room, sendHost));
}

// A host operation; a refusal is shown as a notice.
function sendHost(op, args) {
  return send({ type: "host", op, ...args }).catch((error) => notice(errorText(error.code, error.message)));
}

// ---- chat, notices ----------------------------------------------------------------------------

function addChat(message) {
  const list = $("#chat");
  const time = typeof message.at === "number" ? new Date(message.at * 1000) : message.at ? new Date(message.at) : new Date();
  list.append(h("li", {},
    h("time", { datetime: time.toISOString() }, time.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })),
    " ",
    h("b", {}, message.name || seatName(message.seat)),
    ": ",
    message.text));
  while (list.children.length > 200) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

let noticeTimer = null;
export function notice(text) {
  let box = $("#notice");
  if (!box) {
    box = h("p", { id: "notice", class: "notice", role: "alert" });
    document.body.append(box);
  }
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- join -------------------------------------------------------------------------------------

function showFatal(text) {
  $("#room-loading").hidden = true;
  const box = $("#room-error");
  box.textContent = text;
  box.hidden = false;
  $("#room").classList.remove("loading");
}

function showPlay() {
  $("#room-loading").hidden = true;
  $("#join").hidden = true;
  $("#play").hidden = false;
  $("#dock").hidden = !session.table;
  $("#room").classList.remove("loading");
  $("#invite-button").hidden = false;
}

function inviteUrl() {
  return new URL(`/r/${roomId}`, window.location.href).toString();
}

function showJoin(reason) {
  $("#room-loading").hidden = true;
  $("#room").classList.remove("loading");
  $("#play").hidden = true;
  $("#dock").hidden = true;
  $("#join").hidden = false;
  $("#join-game").textContent = gameTitle(session.info.game);
  $("#join-name").value = lastName();
  const seats = session.info.seats || [];
  const free = seats.filter((s) => (s.free === undefined ? !s.name : s.free));
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

async function join(event) {
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
    const answer = await api.join(roomId, body);
    rememberName(name);
    session.token = answer.token;
    if (answer.pending) {
      saveSeat(roomId, { token: answer.token, name, pending: true });
      $("#pending").hidden = false;
    } else {
      saveSeat(roomId, { token: answer.token, seat: answer.seat, name });
    }
    session.closedByUs = false;
    dropSocket();
    connect();
  } catch (error) {
    const box = $("#join-error");
    box.textContent = errorText(error.code, error.message);
    box.hidden = false;
    try {
      session.info = await api.room(roomId);
      showJoin(errorText(error.code, error.message));
    } catch {
      // keep the form as it is
    }
  } finally {
    button.disabled = false;
  }
}

function watch() {
  session.token = null;
  session.closedByUs = false;
  connect();
}

// Leave the spectator's socket quietly (its close handler sees it was replaced and does not reconnect).
function dropSocket() {
  const old = session.socket;
  session.socket = null;
  if (old) old.close();
}

async function takeSeat() {
  dropSocket();
  try {
    session.info = await api.room(roomId);
  } catch {
    // keep what we knew
  }
  showJoin(null);
}

// Giving up one's seat (or join request) for good; the server answers with "left" (see receive).
async function leaveRoom(question) {
  if (!window.confirm(question)) return;
  try {
    await send({ type: "leave" });
  } catch (error) {
    notice(errorText(error.code, error.message));
  }
}

// Another tab took this seat's socket (4409); the player asked to play here again.
function useHere() {
  $("#replaced").hidden = true;
  session.closedByUs = false;
  session.retry = 0;
  connect();
}

// ---- keyboard help ----------------------------------------------------------------------------

function renderKeys() {
  const list = clear($("#keys-list"));
  const common = [
    ["?", t("Show or hide the keys")],
    ["/", t("Write in the chat")],
  ];
  const module = session.tableModule;
  const own = module && module.keys ? module.keys() : [];
  for (const [key, text] of [...own, ...common]) list.append(h("dt", {}, h("kbd", {}, key)), h("dd", {}, text));
}

function toggleKeys(force) {
  const box = $("#keys-help");
  const show = force === undefined ? box.hidden : force;
  if (show) renderKeys();
  box.hidden = !show;
  $("#keys-button").setAttribute("aria-expanded", show ? "true" : "false");
}

document.addEventListener("keydown", (event) => {
  const target = event.target;
  const typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "?") {
    toggleKeys();
    event.preventDefault();
  } else if (event.key === "/") {
    $("#chat-input").focus();
    event.preventDefault();
  } else if (event.key === "Escape" && !$("#keys-help").hidden) {
    toggleKeys(false);
  } else if (session.table && session.table.onKey) {
    if (session.table.onKey(event)) event.preventDefault();
  }
});

// ---- start ------------------------------------------------------------------------------------

async function copyInvite() {
  const url = inviteUrl();
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    $("#invite-link").select();
    document.execCommand("copy");
  }
  $("#copy-note").hidden = false;
  setTimeout(() => { $("#copy-note").hidden = true; }, 2500);
}

async function start() {
  // A reload shows the table from its top, as the game's start did (not where the page was left).
  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
  $("#invite-link").value = inviteUrl();
  $("#copy-invite").addEventListener("click", copyInvite);
  if (navigator.share) {
    $("#share-invite").hidden = false;
    $("#share-invite").addEventListener("click", () => {
      navigator.share({ title: "Houserules", url: inviteUrl() }).catch(() => {});
    });
  }
  $("#invite-button").addEventListener("click", () => {
    copyInvite();
    notice(t("Invite link copied: {url}", { url: inviteUrl() }));
  });
  $("#keys-button").addEventListener("click", () => toggleKeys());
  // The page leaves room at its foot for the dock fixed over it, so nothing hides under it.
  const dock = $("#dock");
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--dock-h", `${dock.hidden ? 0 : dock.offsetHeight}px`);
  }).observe(dock);
  $("#join-form").addEventListener("submit", join);
  $("#watch-button").addEventListener("click", watch);
  $("#take-seat").addEventListener("click", takeSeat);
  $("#leave-room").addEventListener("click", () => leaveRoom(
    t("Leave the room? Your seat goes to whoever takes it next, and you cannot come back to it.")));
  $("#cancel-request").addEventListener("click", () => leaveRoom(t("Withdraw your request to join?")));
  $("#use-here").addEventListener("click", useHere);
  $("#lobby-sheet-save").addEventListener("click", saveLobbySheet);
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#chat-input");
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text }).then(() => { input.value = ""; })
      .catch((error) => notice(errorText(error.code, error.message)));
  });
  window.addEventListener("online", () => {
    if (session.socket && session.socket.readyState === WebSocket.CLOSED && !session.closedByUs) connect();
  });

  try {
    const [info, games] = await Promise.all([api.room(roomId), api.games().catch(() => [])]);
    session.info = info;
    session.gameInfo = games.find((g) => g.name === info.game) || null;
  } catch (error) {
    showFatal(error.status === 404 ? t("This room does not exist.") : errorText(error.code, error.message));
    return;
  }
  $("#room-title").textContent = gameTitle(session.info.game);
  setTitle();
  setupAlerts();
  document.body.dataset.game = session.info.game;
  const stored = loadSeat(roomId);
  if (stored && stored.token) {
    session.token = stored.token;
    if (stored.pending) $("#pending").hidden = false;
    connect();
  } else {
    showJoin(null);
  }
}

start();
