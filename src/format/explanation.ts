// Renders a ContinueTokenExplanation for hovers/webviews (markdown) and terminals (text).
// Every user-controlled string (token, prefix, decoded JSON, keys, messages) is escaped: markdown
// and HTML for hovers, control characters (terminal escape sequences) for terminals.
import type { ContinueTokenExplanation } from '../engine/storage/explain-continue';

/** Control characters (C0, DEL, C1) made visible, so text can neither break lines nor drive a terminal. */
export function visibleText(s: string, keep = ''): string {
  let out = '';
  for (const ch of s) {
    const n = ch.charCodeAt(0);
    if (keep.includes(ch)) out += ch;
    else if (n < 0x20) out += String.fromCharCode(0x2400 + n);
    else if (n === 0x7f) out += '\u2421';
    else if (n >= 0x80 && n <= 0x9f) out += `\\u${n.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** Markdown-safe inline text: every ASCII punctuation character backslash-escaped (CommonMark allows it). */
export function escapeMarkdown(s: string): string {
  return visibleText(s).replace(/[\\`*_{}[\]()#+\-.!|<>&~"'=:;,/?@$%^]/g, (c) => '\\' + c);
}

/** A fenced code block whose fence is longer than any backtick run in the content. */
function fenced(content: string, lang = ''): string {
  const longest = Math.max(2, ...Array.from(content.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // Keep newlines/tabs (the block is preformatted) but neutralise other control characters.
  const body = visibleText(content, '\n\t');
  return `${fence}${lang}\n${body}\n${fence}`;
}

export function renderExplanationMarkdown(e: ContinueTokenExplanation): string {
  const out: string[] = [];
  const head = e.valid ? '✅ valid' : '❌ invalid';
  out.push(`**Kubernetes continue token** ${head} for key prefix ${escapeMarkdown(e.keyPrefix)}`);
  out.push('');
  const rows: Array<[string, string]> = [];
  if (e.fields) {
    rows.push(['version (v)', escapeMarkdown(e.fields.v === '' ? '(empty)' : e.fields.v)]);
    rows.push([
      'resourceVersion (rv)',
      `${escapeMarkdown(e.fields.rv)}: ${escapeMarkdown(e.rvMeaning ?? '')}`,
    ]);
    rows.push([
      'start (relative)',
      escapeMarkdown(e.fields.start === '' ? '(empty)' : e.fields.start),
    ]);
  }
  if (e.startKey) rows.push(['start (absolute)', escapeMarkdown(e.startKey.absolute)]);
  if (e.resumePoint) rows.push(['next page starts', escapeMarkdown(e.resumePoint.description)]);
  if (e.error) rows.push(['error', escapeMarkdown(e.error.message)]);
  if (rows.length > 0) {
    out.push('| | |', '|---|---|');
    for (const [k, v] of rows) out.push(`| ${k} | ${v} |`);
    out.push('');
  }
  out.push(`**apiserver:** ${escapeMarkdown(e.apiserverSays)}`);
  if (e.warnings.length > 0) {
    out.push('');
    for (const w of e.warnings) out.push(`- ⚠️ ${escapeMarkdown(w.message)}`);
  }
  if (e.repair) {
    const verdict = e.repair.valid ? 'valid' : `still invalid: ${e.repair.message ?? ''}`;
    out.push(
      '',
      `**Repaired token** (${escapeMarkdown(verdict)}): ${escapeMarkdown(e.repair.token)}`,
    );
  }
  if (e.decodedJson !== undefined) {
    out.push('', 'Decoded JSON:', '', fenced(e.decodedJson, 'json'));
  }
  return out.join('\n');
}

export function renderExplanationText(e: ContinueTokenExplanation): string {
  const lines: string[] = [];
  const row = (label: string, value: string): void => {
    lines.push(`${(label + ':').padEnd(11)}${visibleText(value)}`);
  };
  row('token', e.token);
  row('prefix', e.keyPrefix);
  row('valid', e.valid ? 'yes' : 'no');
  if (e.decodedJson !== undefined) row('json', e.decodedJson);
  if (e.fields) {
    row('version', e.fields.v === '' ? '(empty)' : e.fields.v);
    row('rv', `${e.fields.rv} (${e.rvMeaning ?? ''})`);
    row('start', e.fields.start === '' ? '(empty)' : e.fields.start);
  }
  if (e.startKey) row('absolute', e.startKey.absolute);
  if (e.resumePoint) row('resume', e.resumePoint.description);
  if (e.error) row('error', e.error.message);
  for (const w of e.warnings) row('warning', w.message);
  if (e.repair)
    row(
      'repaired',
      `${e.repair.token} (${e.repair.valid ? 'valid' : `still invalid: ${e.repair.message ?? ''}`})`,
    );
  row('apiserver', e.apiserverSays);
  return lines.join('\n');
}
