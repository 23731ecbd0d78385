// One action-log line per event, worded by the game's table module where it knows the event and by
// the room's own wording otherwise. Shared by the room page and the replay page.

import { t, tMaybe } from "./i18n.js";
import { describeFairEvent } from "./fairpanel.js";

// The room's own line at a game's end: who won and, where there is one, who lost.
function resultLine(event) {
  const winners = event.winners || [];
  let text = winners.length === 1
    ? t("{name} wins!", { name: winners[0] })
    : t("{names} share the win!", { names: winners.join(", ") });
  if ((event.losers || []).length === 1) text += ` ${t("{name} is last.", { name: event.losers[0] })}`;
  return text;
}

export function describeEvent(event, module, seatName) {
  if (event.type === "game_result") return resultLine(event);
  // The fair deal's commitments and reveals are the room's own events.
  const fair = describeFairEvent(event);
  if (fair) return fair;
  const text = module && module.describeEvent ? module.describeEvent(event, seatName) : null;
  if (text) return text;
  const who = event.seat !== undefined && event.seat !== null ? `${seatName(event.seat)}: ` : "";
  if (event.type === "deal") return t("The cards are dealt.");
  const label = tMaybe(`event: ${event.type}`) || event.type.replace(/_/g, " ");
  return `${who}${label}`;
}
