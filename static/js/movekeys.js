// Keyboard shortcuts in the page's language: a move's key is the first letter of its word where
// the language has one ("Tõmba" → T, "Nosta" → N), taken from the catalogue (context "key", id
// "<game>: <move>"); English keeps the letters the tables define. Keys like Ü, Ä and + are single
// keys on Estonian and Finnish keyboards.

import { ptMaybe } from "./i18n.js";

export function moveKey(game, move, english) {
  return (ptMaybe("key", `${game}: ${move}`) || english).toLowerCase();
}

// As shown in the keys list and in tooltips.
export function keyLabel(game, move, english) {
  return moveKey(game, move, english).toUpperCase();
}
