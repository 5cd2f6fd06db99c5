// The words of the lobby, "my games", invites and pass-and-play, through one function so that
// they can be translated: t("Hand the device to {name}", {name: "Ann"}).
"use strict";
window.ttrWords = window.ttrWords || {
  t(text, values) {
    const said = window.ttrTranslate ? window.ttrTranslate(text) : text;
    return said.replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
  },
};
