// The counts of a blind panel or A/B from its key and the judges'
// answers (each a JSON array as judge-panel.md or judge-ab.md asks, or
// a file whose text holds one).
//
//   node bench/avatar-look/tally.mjs KEYFILE ANSWERS.json [MORE.json ...]
//
// A panel's key (panel.mjs) says which side is Kiln's: the tally is how
// often Kiln's was picked to use and as finished, and the mean scores.
// An A/B's key (ab.mjs) says which side is new: the tally is how often
// the new was better, the margins signed for the new, and each
// picture's votes.
import { readFileSync } from 'node:fs';

const [keyFile, ...answerFiles] = process.argv.slice(2);
if (!keyFile || answerFiles.length === 0) {
  console.error('usage: node bench/avatar-look/tally.mjs KEYFILE ANSWERS.json [MORE.json ...]');
  process.exit(2);
}
const key = Object.fromEntries(JSON.parse(readFileSync(keyFile, 'utf8')).map((k) => [k.pair, k]));
// answers takes the JSON array out of a judge's message, which may
// carry words or a code fence around it.
const answers = (f) => {
  const t = readFileSync(f, 'utf8');
  return JSON.parse(t.slice(t.indexOf('['), t.lastIndexOf(']') + 1));
};
const other = (s) => (s === 'A' ? 'B' : 'A');
const lines = [];
let n = 0;
const isPanel = Object.values(key)[0].kilnSide !== undefined;
if (isPanel) {
  let use = 0, fin = 0, ks = 0, ls = 0;
  const byKiln = {};
  for (const f of answerFiles) {
    for (const a of answers(f)) {
      const k = key[a.pair];
      if (!k) throw new Error(`${f}: ${a.pair} is not in the key`);
      n++;
      use += a.use === k.kilnSide;
      fin += a.finished === k.kilnSide;
      const kScore = a['score' + k.kilnSide], lScore = a['score' + other(k.kilnSide)];
      ks += kScore; ls += lScore;
      (byKiln[k.kiln] ||= []).push(kScore);
    }
  }
  lines.push(`judgements: ${n}`, `Kiln picked to use: ${use} of ${n}`, `Kiln picked as finished: ${fin} of ${n}`,
    `mean score: Kiln ${(ks / n).toFixed(2)}, leader ${(ls / n).toFixed(2)}`);
  for (const [k, s] of Object.entries(byKiln).sort()) lines.push(`  ${k}: ${s.join(' ')}`);
} else {
  let wins = 0, signed = 0;
  const byPicture = {};
  for (const f of answerFiles) {
    for (const a of answers(f)) {
      const k = key[a.pair];
      if (!k) throw new Error(`${f}: ${a.pair} is not in the key`);
      n++;
      const forNew = a.better === k.newSide;
      wins += forNew;
      signed += (forNew ? 1 : -1) * (a.margin || 1);
      (byPicture[k.picture] ||= []).push(`${forNew ? 'new' : 'old'}${a.margin || ''}`);
    }
  }
  lines.push(`judgements: ${n}`, `new better: ${wins} of ${n}`, `signed margin for the new: ${signed > 0 ? '+' : ''}${signed}`);
  for (const [p, v] of Object.entries(byPicture).sort()) lines.push(`  ${p}: ${v.join(' ')}`);
}
console.log(lines.join('\n'));
