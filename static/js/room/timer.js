// The turn timer: the server sends the deadline in Unix seconds; the page counts down to it.

import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { waitingFor } from "./session.js";

const TICK_MS = 500;

// The timer's text at ``now`` (Unix seconds) and whether it is urgent. A lone seat's deadline
// includes its time bank (banks are public): the two are shown apart.
export function timerText({ deadline, banks, acting, mine, now, seatName }) {
  const bank = acting.length === 1 && banks ? Number(banks[String(acting[0])] || 0) : 0;
  const left = Math.max(0, Math.ceil(deadline - now));
  const inBank = Math.min(left, Math.floor(bank));
  const base = left - inBank;
  const n = base > 0 ? base : left;
  let text = t("Time left: {n} s", { n });
  if (mine) text = t("Your time: {n} s", { n });
  else if (acting.length) text = t("Time left for {names}: {n} s", { names: acting.map(seatName).join(", "), n });
  if (base > 0 && inBank > 0) text += ` ${t("+ time bank {n} s", { n: inBank })}`;
  else if (inBank > 0) text += ` ${t("(time bank)")}`;
  return { text, left, urgent: left <= 10 };
}

export function renderTimer(page, message) {
  const { session } = page;
  const box = $("#timer");
  clearInterval(session.timerHandle);
  if (!message.deadline || message.outcome) {
    box.hidden = true;
    return;
  }
  const acting = waitingFor(session, message);
  const tick = () => {
    const shown = timerText({
      deadline: message.deadline,
      banks: message.banks,
      acting,
      mine: session.seat !== null && acting.includes(session.seat),
      now: Date.now() / 1000,
      seatName: page.seatName,
    });
    box.textContent = shown.text;
    box.classList.toggle("urgent", shown.urgent);
    if (shown.left <= 0) clearInterval(session.timerHandle);
  };
  tick();
  box.hidden = false;
  session.timerHandle = setInterval(tick, TICK_MS);
}
