// Mirrors go.yaml.in/yaml/v2 decode.go decoder.setMapIndex in strict mode (what sigs.k8s.io/yaml
// UnmarshalStrict reports): `line N: key "k" already set in map` for each mapping key seen twice,
// N the line of the repeated key's value. js-yaml stops at the first duplicate, so each one found
// is renamed to a placeholder and the text parsed again. Deliberate difference: at most
// `maxDuplicates` are listed (each costs a parse; a hostile patch could repeat a key thousands of
// times), which still refuses it under Strict.
import { load } from 'js-yaml';

export const maxDuplicates = 100;

/** A mapping key repeated in a YAML document: go-yaml's strict-mode line for it. */
export interface DuplicateKey {
  /** 1-based, of the repeated key's value as go-yaml's node line. */
  readonly line: number;
  /** The key as Go's %#v prints it: `"name"`, `1`, `true`. */
  readonly key: string;
}

/** go-yaml's unmarshal error entry. */
export function duplicateKeyMessage(d: DuplicateKey): string {
  return `line ${d.line}: key ${d.key} already set in map`;
}

/** The repeated mapping keys of `text`, in document order; [] when none (or it does not parse). */
export function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  let doc = text;
  while (found.length < maxDuplicates) {
    const at = duplicateAt(doc);
    if (at === undefined) break;
    const key = keyAt(doc, at);
    if (key === undefined) break;
    found.push({ line: valueLine(doc, key.end), key: goFormatKey(key) });
    const placeholder = JSON.stringify(`\u0000listwatch-duplicate-${found.length}`);
    doc = doc.slice(0, at) + placeholder + doc.slice(key.end);
  }
  return found;
}

// The offset of the first repeated key js-yaml meets (its error mark), or undefined.
function duplicateAt(text: string): number | undefined {
  try {
    load(text);
    return undefined;
  } catch (e) {
    const err = e as { reason?: string; mark?: { position?: number } };
    return err.reason === 'duplicated mapping key' ? err.mark?.position : undefined;
  }
}

interface KeyToken {
  readonly text: string;
  readonly quoted: boolean;
  readonly end: number;
}

// The key written at `at`: a quoted scalar, or a plain one up to `: `, a flow indicator or the line end.
function keyAt(text: string, at: number): KeyToken | undefined {
  const q = text[at];
  if (q === '"' || q === "'") {
    let i = at + 1;
    while (i < text.length && text[i] !== q) i += text[i] === '\\' && q === '"' ? 2 : 1;
    if (i >= text.length) return undefined;
    const raw = text.slice(at, i + 1);
    let value: string;
    try {
      value = q === '"' ? (JSON.parse(raw) as string) : raw.slice(1, -1).replace(/''/g, "'");
    } catch {
      value = raw.slice(1, -1);
    }
    return { text: value, quoted: true, end: i + 1 };
  }
  const m = /^[^\n\r]*?(?=:(?:[ \t\r\n]|$)|[,}\]\r\n]|$)/.exec(text.slice(at));
  if (!m) return undefined;
  return { text: m[0].trimEnd(), quoted: false, end: at + m[0].length };
}

// go-yaml's line of the value after the key ending at `keyEnd`: the same line when the value
// starts there, else the next line that is not blank or a comment.
function valueLine(text: string, keyEnd: number): number {
  const lineOf = (i: number): number => text.slice(0, i).split('\n').length;
  const eol = text.indexOf('\n', keyEnd);
  const rest = text
    .slice(keyEnd, eol < 0 ? undefined : eol)
    .replace(/^\s*:/, '')
    .replace(/(^|\s)#.*$/, '')
    .trim();
  if (rest !== '' || eol < 0) return lineOf(keyEnd);
  let i = eol + 1;
  while (i < text.length) {
    const next = text.indexOf('\n', i);
    const line = text.slice(i, next < 0 ? undefined : next).trim();
    if (line !== '' && !line.startsWith('#')) return lineOf(i);
    if (next < 0) break;
    i = next + 1;
  }
  return lineOf(keyEnd);
}

// %#v of the key go-yaml resolved: a plain integer, float, bool or null keeps its Go form, any
// other key is a Go-quoted string.
function goFormatKey(key: KeyToken): string {
  if (!key.quoted) {
    if (/^[-+]?(0|[1-9][0-9]*)$/.test(key.text)) return String(Number(key.text));
    if (/^(true|True|TRUE|false|False|FALSE)$/.test(key.text)) return key.text.toLowerCase();
    if (/^(~|null|Null|NULL|)$/.test(key.text)) return '<nil>';
  }
  return JSON.stringify(key.text);
}
