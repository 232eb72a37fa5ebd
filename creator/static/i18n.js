// The creator's words: one JSON file a language under i18n/ (a Go test
// checks that every language has every key). Style and colour names come
// from the configuration, or the catalogue's labels where it has them.
import { retrying } from './api.js';

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja'];

// pick is the UI language: the boot's (from /{lang}/avatar), else the
// browser's first one the creator speaks, else English.
export function pick(bootLang, navigatorLangs) {
  const match = (tag) => {
    if (!tag) return null;
    if (LANGUAGES.includes(tag)) return tag;
    const base = tag.split('-')[0].toLowerCase();
    if (base === 'pt') return 'pt-BR';
    return LANGUAGES.find((k) => k.toLowerCase() === base) || null;
  };
  if (match(bootLang)) return match(bootLang);
  for (const l of navigatorLangs || []) if (match(l)) return match(l);
  return 'en';
}

// translator loads a language's words and gives t(key); a key it lacks
// shows as itself.
// A busy answer (a 503 from a server starting under load) is asked again
// (retrying); with none, the keys show.
export async function translator(lang) {
  const words = await retrying(async () => {
    const res = await fetch(new URL(`i18n/${lang}.json`, import.meta.url));
    if (res.ok) return res.json();
    const err = new Error(`${res.status}`);
    err.status = res.status;
    throw err;
  }).catch(() => ({}));
  return (key) => words[key] ?? key;
}
