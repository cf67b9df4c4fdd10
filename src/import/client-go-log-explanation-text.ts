// No upstream counterpart: a client-go log line's explanation (client-go-log-explanations.ts) as
// the CLI prints it, as the hover's Markdown and as JSON. The line is the user's text: the CLI shows
// it with its control characters made visible, the Markdown escapes it (no HTML, no links from it).
import { escapeMarkdown } from '../format/explanation';
import { visibleText } from '../format/visible-text';
import { clientGoLogCommands, type ExplainedClientGoLine } from './client-go-log-explanations';

/** The fields of an explanation, for `listwatch explain-log --json`. */
export interface ClientGoLogExplanationJSON {
  id: string;
  title: string;
  healthy: boolean;
  call: string;
  reflector?: string;
  type?: string;
  err?: string;
  happened: string;
  cause: string;
  versions: string;
  conform: string;
  reproduce: string[];
  reproduceNote?: string;
}

export function clientGoLogExplanationJSON(e: ExplainedClientGoLine): ClientGoLogExplanationJSON {
  const { explanation: x, line } = e;
  const commands = clientGoLogCommands(e);
  return {
    id: x.id,
    title: x.title,
    healthy: x.healthy ?? false,
    call: line.call,
    ...(line.reflector !== undefined ? { reflector: line.reflector } : {}),
    ...(line.type !== undefined ? { type: line.type } : {}),
    ...(line.err !== undefined ? { err: line.err } : {}),
    happened: x.happened,
    cause: x.cause,
    versions: x.versions,
    conform: commands.conform,
    reproduce: commands.reproduce,
    ...(x.reproduceNote !== undefined ? { reproduceNote: x.reproduceNote } : {}),
  };
}

/** The explanation as indented text lines (the CLI puts the line number and the line above it). */
export function clientGoLogExplanationText(e: ExplainedClientGoLine): string {
  const j = clientGoLogExplanationJSON(e);
  const out = [`${j.healthy ? 'ok' : 'problem'}: ${j.title} [${j.id}]`];
  if (j.err !== undefined) out.push(`error: ${visibleText(j.err)}`);
  out.push(`what happened: ${j.happened}`, `server cause: ${j.cause}`, `printed by: ${j.versions}`);
  out.push(`check: ${visibleText(j.conform)}`);
  for (const r of j.reproduce) out.push(`reproduce: ${visibleText(r)}`);
  if (j.reproduceNote !== undefined) out.push(`reproduce: ${j.reproduceNote}`);
  return out.join('\n');
}

/** Inline code of text we wrote (commands): a fence longer than any backtick run in it. */
function code(s: string): string {
  const longest = Math.max(0, ...Array.from(s.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const body = visibleText(s);
  return `${fence}${body.includes('`') ? ` ${body} ` : body}${fence}`;
}

/** Our own text (the catalogue's): escaped, except that its `…` spans become code. */
function catalogueMarkdown(s: string): string {
  return s
    .split('`')
    .map((part, i) => (i % 2 === 1 ? code(part) : escapeMarkdown(part)))
    .join('');
}

/**
 * The hover's Markdown: what happened, why and what to run first, the versions last (the line
 * itself, its error included, is beside it in the editor); the log's text escaped.
 */
export function clientGoLogExplanationMarkdown(e: ExplainedClientGoLine): string {
  const j = clientGoLogExplanationJSON(e);
  const out = [`**client-go: ${escapeMarkdown(j.title)}**`, ''];
  const about = [j.type, j.reflector].filter((v): v is string => v !== undefined);
  if (about.length) out.push(`Reflector: ${about.map(escapeMarkdown).join(' from ')}`, '');
  out.push(
    `**What happened.** ${catalogueMarkdown(j.happened)}`,
    '',
    `**Server cause.** ${catalogueMarkdown(j.cause)}`,
    '',
    `**Check the server:** ${code(j.conform)}`,
  );
  if (j.reproduce.length || j.reproduceNote !== undefined) {
    out.push('', '**Reproduce with listwatch serve:**');
    for (const r of j.reproduce) out.push(`- ${code(r)}`);
    if (j.reproduceNote !== undefined) out.push(`- ${catalogueMarkdown(j.reproduceNote)}`);
  }
  out.push('', `**Printed by** ${catalogueMarkdown(j.versions)}`);
  return out.join('\n');
}
