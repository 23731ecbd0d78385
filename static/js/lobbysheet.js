// The lobby's rule form: which options differ from the preset the room's sheet reads as, marked on
// each field (the "•" of .house-rule) and counted in one line under the form's summary.

import { $ } from "./dom.js";
import { tn, t } from "./i18n.js";
import { closestPreset } from "./schemaform.js";
import { presetLabel } from "./sheetnames.js";

// The preset the room started from: named by the room where it says so, else the closest one.
export function lobbyBase(gameInfo, info, sheet) {
  if (!gameInfo || !gameInfo.presets) return { name: null, values: null };
  const name = (info && info.preset) || closestPreset(gameInfo.schema, gameInfo.presets, sheet || {});
  return { name, values: name ? gameInfo.presets[name] || null : null };
}

export function markLobbySheet(form, schema, base) {
  const box = $("#lobby-sheet-changed");
  if (!form || !base.values) {
    box.hidden = true;
    return;
  }
  const now = form.values();
  const changed = form.markHouseRules({ ...now, ...base.values });
  const legend = $("#lobby-sheet-legend");
  if (legend) legend.hidden = !changed.length;
  const preset = t("Based on the preset {name}", { name: presetLabel(base.name) });
  box.textContent = changed.length
    ? `${preset} · ${tn("{n} house rule beyond the preset", "{n} house rules beyond the preset", changed.length)}`
    : preset;
  box.hidden = false;
}
