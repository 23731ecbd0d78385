// Texts for the scripts come from the same Babel catalogue as the page, embedded in the page as JSON
// (so nothing renders in the wrong language first). Message ids are the English texts.

const block = document.getElementById("i18n-catalogue");
const data = block ? JSON.parse(block.textContent) : { lang: "en", messages: {} };

export const lang = data.lang;
const messages = data.messages || {};

// t("Seat {n}", {n: 2}) -> the translation with {name} placeholders filled.
export function t(id, params) {
  let text = Object.prototype.hasOwnProperty.call(messages, id) ? messages[id] : id;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
  }
  return text;
}

// A translation only if the catalogue has one, else null (for texts that have a server fallback).
export function tMaybe(id, params) {
  if (!Object.prototype.hasOwnProperty.call(messages, id)) return null;
  return t(id, params);
}

export function has(id) {
  return Object.prototype.hasOwnProperty.call(messages, id);
}
