// Renders a ContinueTokenExplanation for hovers/webviews (markdown) and terminals and the decoder
// document (text), with where its key prefix came from and where the next page is served from.
// Every user-controlled string (token, prefix, decoded JSON, keys, messages) is escaped: markdown
// and HTML for hovers, control characters (terminal escape sequences) for text.
import type { ContinueTokenExplanation, SemanticsProfile } from '../engine';
import { nextPageSource } from './next-page';
import { visibleText } from './visible-text';

export { visibleText } from './visible-text';

/** Where a token's key prefix came from (scan/continue-token-context.ts finds it). */
export type KeyPrefixSource = 'url' | 'objectRef' | 'request' | 'list' | 'setting';

/** What is known about a token besides its text: its key prefix's origin, a kubectl cut, the semantics. */
export interface ExplanationContext {
  /** Where the explanation's keyPrefix came from; absent when someone gave it as such. */
  keyPrefixSource?: KeyPrefixSource;
  /** For people: the URL, objectRef, request or list, or which setting was assumed. */
  keyPrefixDetail?: string;
  /** Characters kubectl cut from the logged body right after the token (see FoundContinueToken). */
  truncated?: number;
  /** The semantics "next page" describes (default release-1.36). */
  profile?: SemanticsProfile;
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

/** "kubectl cut N chars here": why the token ends where it does. */
export function truncationNote(chars: number): string {
  return (
    `kubectl cut ${chars} chars here: client-go logs at most 1024 bytes of a body at -v=8 ` +
    '(10240 at -v=9), so the rest of this token is not in the log; -v=10 logs the whole body'
  );
}

/** Where the prefix came from, in a few words: "assumed (listwatch.keyPrefix)" or the request. */
export function keyPrefixOrigin(context: ExplanationContext): string | undefined {
  if (!context.keyPrefixSource) return undefined;
  if (context.keyPrefixSource === 'setting')
    return `assumed: nothing in the text names the LIST (${context.keyPrefixDetail?.replace(/^assumed: /, '') ?? 'setting'})`;
  return context.keyPrefixDetail ?? context.keyPrefixSource;
}

/** The rows both renderers show, in the order a reader asks the questions. */
function rows(e: ContinueTokenExplanation, context: ExplanationContext): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const origin = keyPrefixOrigin(context);
  out.push(['key prefix', origin ? `${e.keyPrefix} (${origin})` : e.keyPrefix]);
  if (context.truncated !== undefined) out.push(['truncated', truncationNote(context.truncated)]);
  if (e.resumePoint) {
    const where = e.resumePoint.inclusive
      ? 'inclusive'
      : `just after ${e.resumePoint.key.slice(0, -1)}, the last key of the previous page`;
    out.push(['resumes at', `${e.resumePoint.key} (${where})`]);
  }
  if (e.fields) {
    out.push(['rv', e.fields.rv]);
    const next = e.valid ? nextPageSource(BigInt(e.fields.rv), context.profile) : undefined;
    if (next) out.push(['next page', next]);
    out.push(['start', e.fields.start === '' ? '(empty)' : `${e.fields.start} (relative)`]);
    out.push(['version', e.fields.v === '' ? '(empty)' : e.fields.v]);
  }
  if (e.error) out.push(['error', e.error.message]);
  for (const w of e.warnings) out.push(['warning', w.message]);
  if (e.repair) {
    const verdict = e.repair.valid ? 'valid' : `still invalid: ${e.repair.message ?? ''}`;
    out.push(['repaired', `${e.repair.token} (${verdict})`]);
  }
  if (!e.valid) out.push(['apiserver', e.apiserverSays]);
  return out;
}

/**
 * The hover: actions (already markdown) on top, a headline, one table. The decoded JSON follows
 * only when the token is invalid (a valid token's fields are all in the table).
 */
export function renderExplanationMarkdown(
  e: ContinueTokenExplanation,
  context: ExplanationContext = {},
  actions = '',
): string {
  const out: string[] = [];
  if (actions) out.push(actions, '');
  const verdict = e.valid
    ? '✅ valid'
    : `❌ invalid${e.httpStatus === 400 ? ' (400 Bad Request)' : ''}`;
  const assumed = context.keyPrefixSource === 'setting' ? ' · key prefix **assumed**' : '';
  out.push(`**Kubernetes continue token** ${verdict}${assumed}`, '');
  out.push('| | |', '|---|---|');
  for (const [k, v] of rows(e, context)) out.push(`| ${k} | ${escapeMarkdown(v)} |`);
  if (!e.valid && e.decodedJson !== undefined) out.push('', fenced(e.decodedJson, 'json'));
  return out.join('\n');
}

/** The terminal and decoder-document form: one "label: value" line each. */
export function renderExplanationText(
  e: ContinueTokenExplanation,
  context: ExplanationContext = {},
): string {
  const lines: string[] = [];
  const row = (label: string, value: string): void => {
    lines.push(`${(label + ':').padEnd(11)}${visibleText(value)}`);
  };
  row('token', e.token);
  row('valid', e.valid ? 'yes' : 'no');
  if (e.decodedJson !== undefined) row('json', e.decodedJson);
  for (const [label, value] of rows(e, context)) {
    row(label === 'key prefix' ? 'prefix' : label === 'resumes at' ? 'resume' : label, value);
  }
  if (e.valid) row('apiserver', e.apiserverSays);
  return lines.join('\n');
}
