// The replay of a finished game: every move again, from this page's seat (a spectator's view
// without one), drawn by the same table module as live play. The frames come from
// GET /api/rooms/{room}/replay: each is the view and events this seat was sent live at that version.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

const AUTOPLAY_MS = 900;

function boundary(frame) {
  // The frames where a deal or a hand begins, for "jump to".
  for (const event of frame.events || []) {
    if (event.type === "deal") return t("The deal");
    if (event.type === "deal_started") return t("Deal {n}", { n: event.deal });
    if (event.type === "hand_started") return t("Hand {n}", { n: event.hand });
  }
  return null;
}

/**
 * The "Replay" box: a button that loads the frames and then shows the table with step back and
 * forward, start, end, autoplay and a jump to each deal or hand.
 * ctx: {roomId, token(), errorText, seatName, loadModule() -> Promise<table module>, tableContext}
 */
export function replayBox(ctx) {
  const stage = h("div", { class: "replay-stage" });
  const open = h("button", { type: "button", class: "secondary", dataset: { role: "replay" } }, t("Watch the replay"));
  open.addEventListener("click", async () => {
    open.disabled = true;
    try {
      await start(ctx, stage);
      open.hidden = true;
    } catch (error) {
      replace(stage, h("p", { class: "error" }, error.message || String(error)));
      open.disabled = false;
    }
  });
  return h("section", { class: "replay", "aria-labelledby": "replay-title" },
    h("h3", { id: "replay-title" }, t("Replay")), h("p", {}, open), stage);
}

async function start(ctx, stage) {
  const token = ctx.token();
  const response = await fetch(`/api/rooms/${encodeURIComponent(ctx.roomId)}/replay`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = await response.json();
  if (!response.ok) throw new Error(ctx.errorText(body.code, body.message));
  const frames = body.frames || [];
  if (!frames.length) throw new Error(t("This game has no moves to replay."));
  const module = await ctx.loadModule();
  const felt = h("div", { class: "replay-table" });
  const dock = h("div", { class: "dock replay-dock" });
  const line = h("p", { class: "replay-line", "aria-live": "polite" });
  const where = h("span", { class: "replay-where", dataset: { role: "replay-position" } });
  let index = 0;
  let timer = null;
  const table = module.mount(felt, {
    seat: body.seat,
    host: false,
    dock,
    sendAction: () => Promise.reject({ code: "replay", message: t("This is a replay.") }),
    seatName: ctx.seatName,
    errorText: ctx.errorText,
    notice: () => {},
    room: ctx.room,
    info: ctx.info,
    token: () => null,
    roomId: ctx.roomId,
  });
  function describe(event) {
    const text = module.describeEvent ? module.describeEvent(event, ctx.seatName) : null;
    return text || null;
  }
  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    const frame = frames[index];
    table.update({
      type: "state", version: frame.version, game_no: body.game_no, view: frame.view, legal: [], table: [],
      to_act: [], deadline: null, banks: {}, events: frame.events, outcome: frame.outcome,
    });
    where.textContent = t("Move {i} of {n}", { i: index, n: frames.length - 1 });
    where.dataset.index = String(index);
    line.textContent = (frame.events || []).map(describe).filter(Boolean).join(" · ");
    back.disabled = first.disabled = index === 0;
    forward.disabled = last.disabled = index === frames.length - 1;
    if (index === frames.length - 1) stop();
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    auto.textContent = t("Autoplay");
    auto.setAttribute("aria-pressed", "false");
  }
  const button = (label, role, title, onclick) => h("button", { type: "button", class: "secondary", dataset: { role }, title, "aria-label": title, onclick }, label);
  const first = button("|◀", "replay-first", t("To the start"), () => { stop(); show(0); });
  const back = button("◀", "replay-back", t("One move back"), () => { stop(); show(index - 1); });
  const forward = button("▶", "replay-forward", t("One move forward"), () => { stop(); show(index + 1); });
  const last = button("▶|", "replay-last", t("To the end"), () => { stop(); show(frames.length - 1); });
  const auto = h("button", { type: "button", class: "secondary", dataset: { role: "replay-auto" }, "aria-pressed": "false" }, t("Autoplay"));
  auto.addEventListener("click", () => {
    if (timer) {
      stop();
      return;
    }
    if (index === frames.length - 1) show(0);
    auto.textContent = t("Pause");
    auto.setAttribute("aria-pressed", "true");
    timer = setInterval(() => show(index + 1), AUTOPLAY_MS);
  });
  const marks = frames.map((frame, i) => [i, boundary(frame)]).filter(([, label]) => label);
  const jump = h("select", { dataset: { role: "replay-jump" }, "aria-label": t("Jump to") },
    h("option", { value: "" }, t("Jump to…")),
    marks.map(([i, label]) => h("option", { value: String(i) }, label)));
  jump.addEventListener("change", () => {
    if (jump.value !== "") {
      stop();
      show(Number(jump.value));
    }
    jump.value = "";
  });
  replace(stage,
    h("div", { class: "replay-controls" }, first, back, forward, last, auto, marks.length > 1 ? jump : null, where),
    line, felt, dock,
    body.truncated ? h("p", { class: "note" }, t("The replay stops early: this game is too long to replay whole.")) : null);
  show(0);
}
