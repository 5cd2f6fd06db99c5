// The page's words: the server's gettext catalogs as JSON (/i18n/<lang>.json, or /i18n.json for
// the language the browser's Accept-Language prefers), the same catalogs the terminal reads.
// t("Draw tickets") and tn("{n} ticket", "{n} tickets", n) look a message up; {name} placeholders
// are filled from params. A language chosen on the page is kept in the browser (localStorage).
"use strict";

const I18N = {
  lang: "en",
  plural: (n) => Number(n !== 1),
  messages: {},
  languages: { en: "English", pt: "Português", ru: "Русский", ro: "Română" },
  seatKinds: {},
};
const LANG_KEY = "ttr-lang";

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (params && key in params ? String(params[key]) : whole));
}

function t(msgid, params) {
  const found = I18N.messages[msgid];
  return fill(typeof found === "string" ? found : msgid, params);
}

function tn(singular, plural, n, params) {
  const found = I18N.messages[singular];
  const all = { n: n, ...(params || {}) };
  // a negative count (-58 points) agrees as its size does: the formulas are written for n >= 0
  if (Array.isArray(found)) return fill(found[Math.min(I18N.plural(Math.abs(n)), found.length - 1)], all);
  return fill(Math.abs(n) === 1 ? singular : plural, all);
}

// A name of the map data (a map's title, a variant's name, its bonus): its English is the message
// id, which scripts/i18n_catalogs.py reads from the data (t() takes literals only).
function named(name) {
  const found = I18N.messages[name];
  return typeof found === "string" ? found : name;
}

// Who plays a seat, as a name: a built-in bot's style described ("Ticket-chasing bot", from the
// catalog's seat_kinds); null for a bot the catalog does not know (a program, a class).
function seatKind(kind) {
  const said = I18N.seatKinds[String(kind).toLowerCase()];
  return said ? said[0].toUpperCase() + said.slice(1) : null;
}

// A heading made of a message that may begin in lower case ("vez de Ana", "la rând: Ana", the
// words the header's status shares): its first letter in upper case, as the language writes it.
function sentence(text) {
  return text ? text[0].toLocaleUpperCase(I18N.lang) + text.slice(1) : text;
}

// Every element with data-i18n (its text), data-i18n-label (aria-label), data-i18n-title or
// data-i18n-placeholder: the English is the message id.
function translatePage(root) {
  for (const el of (root || document).querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of (root || document).querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of (root || document).querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of (root || document).querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

// Load a language's catalog (null: the kept choice, else what the browser asks for).
async function loadLanguage(lang) {
  const wanted = lang || localStorage.getItem(LANG_KEY);
  const response = await fetch(wanted ? `/i18n/${encodeURIComponent(wanted)}.json` : "/i18n.json");
  const catalog = await response.json();
  I18N.lang = catalog.lang;
  I18N.messages = catalog.messages;
  I18N.languages = catalog.languages;
  I18N.seatKinds = catalog.seat_kinds || {};
  I18N.plural = new Function("n", `return Number(${catalog.plural});`); // gettext's C formula is JS
  document.documentElement.lang = catalog.lang;
  translatePage();
  return catalog.lang;
}

function chooseLanguage(lang) {
  localStorage.setItem(LANG_KEY, lang);
  return loadLanguage(lang);
}
