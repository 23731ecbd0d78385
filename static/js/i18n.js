// Texts for the scripts come from the same Babel catalogue as the page, embedded in the page as JSON
// (so nothing renders in the wrong language first). Message ids are the English texts.

// Outside a page (the unit tests under node) there is no document: the English ids are the texts.
const block = typeof document === "undefined" ? null : document.getElementById("i18n-catalogue");
const data = block ? JSON.parse(block.textContent) : { lang: "en", messages: {} };

export const lang = data.lang;
const messages = data.messages || {};
// Plural entries: singular id -> the language's forms, in the order of its plural categories.
const plurals = data.plurals || {};
const categories = data.plural_categories || ["one", "other"];
const pluralRules = typeof Intl !== "undefined" && Intl.PluralRules ? new Intl.PluralRules(lang) : null;

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

// t("Seat {n}", {n: 2}) -> the translation with {name} placeholders filled.
export function t(id, params) {
  const text = Object.prototype.hasOwnProperty.call(messages, id) ? messages[id] : id;
  return fill(text, params);
}

// A text with a message context (msgctxt), for ids that mean different things in different places:
// pt("key", "palace: draw") is the key that draws a card in the page's language; the English id
// itself when the catalogue has no text for it.
export function pt(context, id, params) {
  const key = `${context}\u0004${id}`;
  return fill(Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : id, params);
}

// The same, or null when the catalogue has no text for it.
export function ptMaybe(context, id, params) {
  const key = `${context}\u0004${id}`;
  return Object.prototype.hasOwnProperty.call(messages, key) ? fill(messages[key], params) : null;
}

// The form of a countable text for n, by the language's plural rule (CLDR, as the catalogue's):
// tn(singular id, plural id, n, params) picks the form for n; {n} is filled with n unless params say
// otherwise (e.g. the ids "{n} card" / "{n} cards" give "3 kaarti" in Estonian).
export function tn(id, pluralId, n, params) {
  const values = { n, ...(params || {}) };
  const forms = Object.prototype.hasOwnProperty.call(plurals, id) ? plurals[id] : null;
  if (forms && forms.length) {
    const category = pluralRules ? pluralRules.select(n) : n === 1 ? "one" : "other";
    let index = categories.indexOf(category);
    if (index < 0 || index >= forms.length) index = forms.length - 1;
    return fill(forms[index], values);
  }
  return fill(n === 1 ? id : pluralId, values);
}

// A translation only if the catalogue has one, else null (for texts that have a server fallback).
export function tMaybe(id, params) {
  if (!Object.prototype.hasOwnProperty.call(messages, id)) return null;
  return t(id, params);
}

export function has(id) {
  return Object.prototype.hasOwnProperty.call(messages, id);
}

// Values of a refusal that are words, not numbers: a phase of play and a rule-sheet option's label
// (the form's own, context "rule-sheet label") read in the page's language.
function localParams(params) {
  if (!params) return params;
  const out = { ...params };
  if (typeof out.phase === "string") out.phase = tMaybe(`phase: ${out.phase}`) || out.phase;
  if (typeof out.label === "string") out.label = ptMaybe("rule-sheet label", out.label) || out.label;
  return out;
}

// A refusal from the server in the page's language. The server sends its code, its English sentence
// and, for a sentence with values in it, the sentence's template (its catalogue id) and the values:
// the page formats the template's translation with the values. Then the sentence's own translation
// (a refusal without values), then the text for its code, and the server's sentence last of all.
export function refusalText(error) {
  const { code, message, template, params } = error || {};
  const id = template || message;
  if (id && has(id)) return t(id, localParams(params));
  return (code && tMaybe(`error: ${code}`, localParams(params))) || message || code || "";
}
