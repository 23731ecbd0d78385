// Names of presets, shared by the home page and the printable sheet.

import { tMaybe } from "./i18n.js";

export function presetLabel(key) {
  if (!key) return "";
  return tMaybe(`preset: ${key}`) || key.replace(/[-_]/g, " ").replace(/^./, (c) => c.toUpperCase());
}
