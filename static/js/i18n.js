// Texts for the scripts come from the same Babel catalogue as the page, embedded in the page as JSON
// (so nothing renders in the wrong language first). Message ids are the English texts.

const block = document.getElementById("i18n-catalogue");
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

// Server sentences with numbers in them are catalogued as templates ("The bid must be at least
// {min}."): the English sentence is matched against them and the parts carried into the translation.
let templates = null;
function serverTemplates() {
  if (templates) return templates;
  templates = [];
  for (const id of Object.keys(messages)) {
    if (!id.includes("{") || id.startsWith("error: ")) continue;
    // Only sentences with enough fixed words to be told apart ("{name}" alone would match anything).
    if (id.replace(/\{\w+\}/g, "").length < 12) continue;
    const names = [];
    const source = id.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (whole, name) => {
      names.push(name);
      return "(.+?)";
    });
    templates.push({ id, names, pattern: new RegExp(`^${source}$`) });
  }
  return templates;
}

// A refusal from the server in the page's language: its sentence if catalogued (as is or as a
// template), else the text for its code, else the server's own sentence.
export function tServer(message, code) {
  if (message && has(message)) return t(message);
  if (message) {
    for (const { id, names, pattern } of serverTemplates()) {
      const match = pattern.exec(message);
      if (match) return t(id, Object.fromEntries(names.map((name, i) => [name, match[i + 1]])));
    }
  }
  return (code && tMaybe(`error: ${code}`)) || message || code || "";
}
