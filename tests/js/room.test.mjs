// The room page's pure parts (static/js/room/, static/js/tablehost.js): seat names, whom the table
// waits for, the version a move is tied to, the tally, the lobby's title, the timer's text, the
// replay link, the free seats, the reconnection delays and the headline of a finished game.
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticModule, useCatalogue } from "./catalogue.mjs";

useCatalogue("en");
const { createSession, seatName, waitingFor, myTurn } = await staticModule("room/session.js");
const { actionMessage, retryDelay, settle } = await staticModule("room/socket.js");
const { tallyRows, replayHref } = await staticModule("room/result.js");
const { lobbyTitle, tableRoomKey } = await staticModule("room/lobby.js");
const { timerText } = await staticModule("room/timer.js");
const { freeSeats } = await staticModule("room/join.js");
const { goneReason } = await staticModule("room/receive.js");
const { winnersHeadline, outcomeHeadline } = await staticModule("tablehost.js");
const { keyBelongsTo } = await staticModule("room/chat.js");

function seated(seat, changes = {}) {
  const session = createSession("r1");
  session.seat = seat;
  session.room = { seats: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Ben" }, { seat: 2, name: null }] };
  return Object.assign(session, changes);
}

test("sessions are separate objects: one page's state never leaks into another's", () => {
  const a = createSession("r1");
  const b = createSession("r1");
  a.seenEvents.add("x");
  a.alerts.given.push({});
  assert.equal(b.seenEvents.size, 0);
  assert.equal(b.alerts.given.length, 0);
});

test("a seat is named by its player, an empty one by its number, no seat as a spectator", () => {
  const session = seated(0);
  assert.equal(seatName(session, 1), "Ben");
  assert.equal(seatName(session, 2), "Seat 3");
  assert.equal(seatName(session, null), "Spectator");
});

test("whom the table waits for: the module's reading of the view, else the view's, else to_act", () => {
  const session = seated(1);
  assert.deepEqual(waitingFor(session, { view: { waiting_for: [0, 1] }, to_act: [1] }), [0, 1]);
  assert.deepEqual(waitingFor(session, { to_act: [1] }), [1]);
  session.tableModule = { waiting: (view) => view.turn };
  assert.deepEqual(waitingFor(session, { view: { turn: [2] } }), [2]);
  assert.equal(myTurn(session, { view: { turn: [1] } }), true);
  assert.equal(myTurn(seated(null), { to_act: [0] }), false);
});

test("a move on one's own turn is tied to the version seen; in a phase where several act, not", () => {
  const alone = seated(1, { version: 7, state: { to_act: [1] } });
  assert.deepEqual(actionMessage(alone, { move: "x" }), { type: "action", action: { move: "x" }, version: 7 });
  const together = seated(1, { version: 7, state: { view: { waiting_for: [0, 1] } } });
  assert.deepEqual(actionMessage(together, { move: "x" }), { type: "action", action: { move: "x" } });
});

test("a room frame that only bumps the version leaves the table as drawn; a new name or host redraws it", () => {
  const room = { version: 4, seats: [{ seat: 0, name: "Ann", connected: true }] };
  const key = tableRoomKey(room, false);
  assert.equal(tableRoomKey({ ...room, version: 5 }, false), key);
  assert.notEqual(tableRoomKey({ ...room, seats: [{ seat: 0, name: "Ann", connected: false }] }, false), key);
  assert.notEqual(tableRoomKey(room, true), key);
});

test("an answer settles only the request it names", () => {
  const session = seated(0);
  const got = [];
  session.pending.set("m-1", { resolve: (m) => got.push(["ok", m.id]), reject: (m) => got.push(["no", m.id]) });
  assert.equal(settle(session, { id: "m-2" }, true), false);
  assert.equal(settle(session, { id: "m-1" }, false), true);
  assert.deepEqual(got, [["no", "m-1"]]);
  assert.equal(session.pending.size, 0);
});

test("reconnection waits double from 300 ms up to 5 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map(retryDelay), [300, 600, 1200, 2400, 4800, 5000, 5000]);
});

test("the tally: most wins first, then fewest times last; everyone who played or sits is in it", () => {
  const results = [
    { players: ["Ann", "Ben", "Cid"], winners: ["Ben"], losers: ["Cid"] },
    { players: ["Ann", "Ben", "Cid"], winners: ["Ann"], losers: ["Ben"] },
    { winners: ["Ann"], losers: ["Cid"] },
  ];
  assert.deepEqual(tallyRows(results, [{ name: "Dot" }, { name: null }]), [
    { name: "Ann", wins: 2, lost: 0 },
    { name: "Ben", wins: 1, lost: 1 },
    { name: "Dot", wins: 0, lost: 0 },
    { name: "Cid", wins: 0, lost: 2 },
  ]);
});

test("the lobby says whom it waits for; a bot's free seat counts as taken", () => {
  const seats = [{ seat: 0, name: "Ann", host: true }, { seat: 1, name: null, free: true }];
  assert.deepEqual(lobbyTitle(seats, false), { title: "Waiting for Ann to start", note: "Seats are free: more players may still join." });
  assert.deepEqual(lobbyTitle(seats, true), { title: "Waiting for players", note: "You can start once enough players have joined." });
  const full = [seats[0], { seat: 1, name: "Bot", free: true, bot: true }];
  assert.deepEqual(lobbyTitle(full, true), { title: "Everyone is here: start the game", note: "" });
});

test("the timer counts to the deadline and shows a lone seat's time bank apart", () => {
  const seatNames = (seat) => ["Ann", "Ben"][seat];
  const base = { deadline: 1000, banks: { 1: 20 }, acting: [1], seatName: seatNames };
  assert.deepEqual(timerText({ ...base, mine: false, now: 970 }), { text: "Time left for Ben: 10 s + time bank 20 s", left: 30, urgent: false });
  assert.deepEqual(timerText({ ...base, mine: true, now: 985 }), { text: "Your time: 15 s (time bank)", left: 15, urgent: false });
  assert.deepEqual(timerText({ ...base, banks: {}, mine: false, now: 995.5 }), { text: "Time left for Ben: 5 s", left: 5, urgent: true });
  assert.equal(timerText({ ...base, acting: [], mine: false, now: 2000 }).text, "Time left: 0 s");
});

test("the replay link shows one's own seat, a spectator's view otherwise, nothing before a game", () => {
  assert.equal(replayHref("a b", 3, 1), "/r/a%20b/replay/3?seat=1");
  assert.equal(replayHref("r1", 3, null), "/r/r1/replay/3");
  assert.equal(replayHref("r1", 0, 1), null);
});

test("free seats: as the server marks them, else those with no name", () => {
  assert.deepEqual(freeSeats([{ seat: 0, name: "A", free: true }, { seat: 1, name: null, free: false }]).map((s) => s.seat), [0]);
  assert.deepEqual(freeSeats([{ seat: 0, name: "A" }, { seat: 1, name: null }]).map((s) => s.seat), [1]);
});

test("why the join form is back", () => {
  assert.equal(goneReason("left", true), "Your request to join is withdrawn.");
  assert.equal(goneReason("left", false), "You left the room. Your seat is free for someone else.");
  assert.equal(goneReason("kicked", false), "The host removed you from the room.");
});

test("a finished game's headline: the game's own, else its winners", () => {
  const names = (seat) => ["Ann", "Ben"][seat];
  assert.equal(winnersHeadline({ placings: [[1], [0]] }, names), "Ben wins!");
  assert.equal(winnersHeadline({ placings: [[0, 1]] }, names), "Ann, Ben share the win!");
  assert.equal(winnersHeadline({ placings: [] }, names), "Game over");
  const module = { describeOutcome: (outcome, seatName) => ({ headline: `${seatName(0)} takes the pot` }) };
  assert.equal(outcomeHeadline(module, { placings: [[1]] }, names, null), "Ann takes the pot");
  assert.equal(outcomeHeadline({}, { placings: [[1]] }, names, null), "Ben wins!");
});

test("a ticked alert box keeps the table's keys; text fields, lists and the box's own keys do not", () => {
  const box = { tagName: "INPUT", type: "checkbox" };
  assert.equal(keyBelongsTo(box, "1"), false);
  assert.equal(keyBelongsTo(box, "p"), false);
  assert.equal(keyBelongsTo(box, " "), true);
  assert.equal(keyBelongsTo(box, "Enter"), true);
  assert.equal(keyBelongsTo({ tagName: "INPUT", type: "text" }, "1"), true);
  assert.equal(keyBelongsTo({ tagName: "INPUT", type: "" }, "p"), true);
  assert.equal(keyBelongsTo({ tagName: "TEXTAREA" }, "p"), true);
  assert.equal(keyBelongsTo({ tagName: "SELECT" }, "1"), true);
  assert.equal(keyBelongsTo({ tagName: "DIV", isContentEditable: true }, "p"), true);
  assert.equal(keyBelongsTo({ tagName: "BUTTON" }, "p"), false);
  assert.equal(keyBelongsTo({ tagName: "BODY" }, "1"), false);
  assert.equal(keyBelongsTo(null, "1"), false);
});
