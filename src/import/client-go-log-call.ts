// Mirrors the log calls of k8s.io/client-go tools/cache/reflector.go as explain-log and the .log
// hover read them: which call printed a line, its reflector, type and error (the calls themselves
// are client-go-reflector-log-calls.ts's one table). No explanation here (that is
// client-go-log-explanations.ts): this is the cheap part the extension's entry runs on the line
// under the cursor before it loads the catalogue. A line may come with its klog header, without it
// (pasted) or as klog's JSON (`{"msg":…,"err":…}`, --logging-format=json).
import {
  printfReflectorLogLine,
  structuredReflectorLogLine,
  type ClientGoLogCall,
  type ReflectorCall,
  type ReflectorLogLine,
  type RoutineReflectorCall,
} from './client-go-reflector-log-calls';
import { isStructuredMessage, parseKlogLine, readQuoted, readStructured } from './klog-entry';

export type { ClientGoLogCall };

export interface ClientGoLogLine {
  call: ClientGoLogCall;
  /** Where the message starts in the line (after the klog header): a hover covers it. */
  start: number;
  /** The reflector's name (its caller's file:line, or the name it was given), when the line has it. */
  reflector?: string;
  /** The reflector's type: `*v1.Pod`, `stable.example.com/v1, Kind=CronTab`. */
  type?: string;
  /** The error the line carries, as client-go printed it. */
  err?: string;
}

/** Longest line read: a klog line with a whole object in it is long, a minified file is not a log. */
export const maxClientGoLogLineLength = 64 * 1024;

type Fields = Omit<ClientGoLogLine, 'start'>;
const routineCalls: readonly ReflectorCall[] = [
  'list-start',
  'list-done',
  'reflector-stopped',
] satisfies RoutineReflectorCall[];

/** A reflector's routine lines (a LIST begun or done, a stop) are not explain-log's to explain. */
function explained(call: ReflectorCall): call is ClientGoLogCall {
  return !routineCalls.includes(call);
}

/** The fields explain-log and the hover show of a line the table read. */
function fields(line: ReflectorLogLine | undefined): Fields | undefined {
  if (!line || !explained(line.call)) return undefined;
  const f: Fields = { call: line.call };
  if (line.reflector !== undefined) f.reflector = line.reflector;
  if (line.type !== undefined) f.type = line.type;
  if (line.err !== undefined) f.err = line.err;
  return f;
}

const printfCall = (message: string) => fields(printfReflectorLogLine(message));
const structuredCall = (msg: string, values: ReadonlyMap<string, string>) =>
  fields(structuredReflectorLogLine(msg, values));

/**
 * The key/values of a structured message cut short or otherwise unreadable by readStructured
 * (a pasted line missing its closing quote): the quoted ones that can be read, and an err that
 * runs to the end of the line.
 */
function lenientValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const m of text.matchAll(/ ([\w.-]+)="/g)) {
    const at = m.index + m[0].length - 1;
    const v = readQuoted(text, at);
    if (typeof v !== 'string') values.set(m[1], v.value);
    else if (m[1] === 'err') values.set('err', text.slice(at + 1).replace(/\\"/g, '"'));
  }
  return values;
}

function jsonCall(text: string): Fields | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const { msg } = entry as Record<string, unknown>;
  if (typeof msg !== 'string') return undefined;
  const values = new Map<string, string>();
  for (const [k, v] of Object.entries(entry))
    if (typeof v === 'string' || typeof v === 'number') values.set(k, String(v));
  return structuredCall(msg, values);
}

function messageCall(message: string): Fields | undefined {
  if (!isStructuredMessage(message)) return printfCall(message);
  const read = readStructured(message);
  if (read.kind === 'done') return structuredCall(read.entry.msg, read.entry.values);
  const msg = readQuoted(message, 0);
  return typeof msg === 'string' ? undefined : structuredCall(msg.value, lenientValues(message));
}

/** The client-go reflector call that printed `text` (one line of a log), or undefined. */
export function readClientGoLogLine(text: string): ClientGoLogLine | undefined {
  if (text.length > maxClientGoLogLineLength) return undefined;
  const k = parseKlogLine(text, 2000);
  if (typeof k === 'object') {
    const start = text.length - k.message.length;
    const fields = messageCall(k.message);
    return fields && { ...fields, start };
  }
  // A header that breaks klog's rules (a date that does not exist): read the message after it.
  if (typeof k === 'string') {
    const end = text.indexOf('] ');
    const fields = end < 0 ? undefined : messageCall(text.slice(end + 2));
    return fields && { ...fields, start: end + 2 };
  }
  // A line without its header: the message pasted alone, or klog's JSON format.
  const trimmed = text.trimStart();
  const start = text.length - trimmed.length;
  const message = trimmed.trimEnd();
  const fields = message.startsWith('{') ? jsonCall(message) : messageCall(message);
  return fields && { ...fields, start };
}
