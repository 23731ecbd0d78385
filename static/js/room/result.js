// The game-over box: a headline naming the winner(s), placings with scores, the room's tally across
// rematches, the replay link and the Verify box. It sits above the table, so it is in view at the
// top of the page.

import { $, h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { verifyBox } from "../fairpanel.js";
import { describeOutcome, winnersHeadline } from "../tablehost.js";
import { hostButton } from "./host.js";

export function renderResult(page, outcome) {
  const { session } = page;
  const box = $("#result");
  if (!outcome) {
    box.hidden = true;
    document.body.classList.remove("game-over");
    return;
  }
  const module = session.tableModule;
  const view = session.state && session.state.view;
  const custom = describeOutcome(module, outcome, page.seatName, view);
  const headline = (custom && custom.headline) || winnersHeadline(outcome, page.seatName);
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
    }, h("td", {}, String(index + 1)), h("td", {}, page.seatName(seat)),
    h("td", {}, scoreOf(seat)))))));
  const wasHidden = box.hidden;
  replace(box,
    h("p", { class: "over-label" }, t("Game over")),
    h("h2", { class: "headline", id: "headline" }, headline),
    ...((custom && custom.lines) || []).map((line) => h("p", { class: "outcome-line" }, line)),
    placings,
    tallyTable(session.room),
    replayLink(session),
    fairBox(page),
    session.host && session.room && session.room.status === "finished"
      ? hostButton(page, t("Play again"), "rematch") : null);
  box.hidden = false;
  document.body.classList.add("game-over");
  if (wasHidden) box.scrollIntoView({ block: "nearest" });
}

// The "Verify" box of the finished game: made once, so its result stays while the box is redrawn.
function fairBox(page) {
  const { session } = page;
  if (!session.fairBox) session.fairBox = verifyBox(page.fair, { roomId: session.roomId, token: () => session.token, errorText: page.errorText });
  return session.fairBox;
}

// The finished game's replay address, seen from this player's own seat (as a spectator saw it
// otherwise); null before any game.
export function replayHref(roomId, gameNo, seat) {
  if (!gameNo) return null;
  const own = seat !== null && seat !== undefined ? `?seat=${seat}` : "";
  return `/r/${encodeURIComponent(roomId)}/replay/${gameNo}${own}`;
}

function replayLink(session) {
  const href = replayHref(session.roomId, session.state && session.state.game_no, session.seat);
  if (!href) return null;
  return h("p", { class: "replay-link" }, h("a", { href, id: "replay-link" }, t("Watch the replay")));
}

// Wins and times last per player over the room's finished games (the server keeps them), most
// wins first, then fewest times last. Everyone who played counts, with no win and never last too:
// the games' players where the server names them, and whoever sits at the table now.
export function tallyRows(results, seats) {
  const rows = new Map();
  const row = (name) => {
    if (!rows.has(name)) rows.set(name, { wins: 0, lost: 0 });
    return rows.get(name);
  };
  for (const result of results) {
    for (const name of result.players || []) row(name);
    for (const name of result.winners || []) row(name).wins += 1;
    for (const name of result.losers || []) row(name).lost += 1;
  }
  for (const seat of seats || []) if (seat.name) row(seat.name);
  return [...rows.entries()].sort((a, b) => b[1].wins - a[1].wins || a[1].lost - b[1].lost)
    .map(([name, r]) => ({ name, wins: r.wins, lost: r.lost }));
}

function tallyTable(room) {
  const results = (room && room.results) || [];
  if (!results.length) return null;
  const games = results.length;
  return h("section", { class: "tally", "aria-labelledby": "tally-title" },
    h("h3", { id: "tally-title" }, games === 1 ? t("This room so far: 1 game") : t("This room so far: {n} games", { n: games })),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Wins")), h("th", {}, t("Times last")))),
      h("tbody", {}, tallyRows(results, room.seats).map(({ name, wins, lost }) => h("tr", { dataset: { name } },
        h("td", {}, name),
        h("td", { dataset: { wins } }, String(wins)), h("td", { dataset: { lost } }, String(lost)))))));
}
