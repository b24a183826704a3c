// Text a file holds as U+FFFD (the replacement character: a character an earlier tool could not decode, so its
// bytes are gone; the shipped Nigerian list has them). Each is restored to what its place shows it stood for,
// by these rules, in order:
//   1. a single letter between two ("AREA �A� WORLD BANK")    → quotes around it: ‘A’
//   2. between a letter and a lone s, l, a or d ("MARY�S", "INT�L", "ODU�A", "MOH�D") → an apostrophe: ’
//   3. "CAF�"                                                  → "CAFÉ"
//   4. alone between two spaces ("IBADAN, AGODI � UCH", "Onitsha � Owerri Road", "350 � 360") → an en dash: –
//   5. any other run of them (a no-break space in the source: "NNEWI,� ANAMBRA", "ABEOKUTA���� (2)") → one space,
//      merged with the spaces around it, none at either end of the text.
// Rows without U+FFFD are returned as they are.

const RULES: [RegExp, string][] = [
  [/(^|\s)\uFFFD(\p{L})\uFFFD(?=[^\p{L}]|$)/gu, '$1‘$2’'],
  [/(?<=\p{L})\uFFFD(?=[sSlLaAdD](?:[^\p{L}]|$))/gu, '’'],
  [/\bCAF\uFFFD/g, 'CAFÉ'],
  [/(?<=\S) \uFFFD (?=\S)/g, ' – '],
  [/ *\uFFFD+ */g, ' '],
];

export function repairReplacementCharacters(text: string): string;
export function repairReplacementCharacters(text: string | null): string | null;
export function repairReplacementCharacters(text: string | null): string | null {
  if (text === null || !text.includes('\uFFFD')) return text;
  let repaired = text;
  for (const [pattern, replacement] of RULES) repaired = repaired.replace(pattern, replacement);
  return repaired.trim();
}
