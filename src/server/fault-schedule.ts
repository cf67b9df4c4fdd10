// No upstream counterpart: `listwatch serve --faults FILE`, the faults a test scripts before the
// server starts: YAML or JSON (JSON is YAML), the admin API's names, parameters, matchers and
// triggers. Every entry is checked before any is applied; an error names the file, the line and
// column of the offending key or value, and what was expected. js-yaml (already a dependency)
// keeps no positions in what it returns, so its parse listener records where each node starts.
//
//   faults:
//     - name: http-error
//       parameters: { code: 429 }
//       match: { verb: list, resource: pods }
//       trigger: { nth: 1 }
import { load, YAMLException, type State } from 'js-yaml';
import { checkFaultSpec, type FaultSpec, type FaultSpecProblem } from './faults';

/** A schedule that parsed and passed every check that needs no server. */
export interface FaultSchedule {
  file: string;
  entries: readonly ScheduledFault[];
}

interface ScheduledFault {
  index: number;
  spec: FaultSpec;
  /** `file:line:column` of a part of the entry (its key, else the entry). */
  where(part?: FaultSpecProblem['part'], field?: string): string;
}

/** A schedule that cannot be applied: the message names the file, line and column. */
export class FaultScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultScheduleError';
  }
}

/** The keys of an entry. */
const entryKeys = ['name', 'parameters', 'match', 'trigger'] as const;

/** Parses and checks `text` (read from `file`); throws FaultScheduleError on the first problem. */
export function parseFaultSchedule(text: string, file: string): FaultSchedule {
  const positions = new YamlPositions(text);
  let doc: unknown;
  try {
    doc = load(text, { filename: file, listener: positions.listener });
  } catch (e) {
    if (e instanceof YAMLException && e.mark)
      throw new FaultScheduleError(
        `${file}:${e.mark.line + 1}:${e.mark.column + 1}: not YAML: ${e.reason}`,
      );
    throw e;
  }
  const at = (path: readonly (string | number)[], key = false): string => {
    const { line, column } = positions.locate(path, key);
    return `${file}:${line}:${column}`;
  };
  if (isObject(doc))
    for (const k of Object.keys(doc))
      if (k !== 'faults')
        throw new FaultScheduleError(`${at([k], true)}: ${k}: unknown key; expected faults`);
  if (!isObject(doc) || !Array.isArray(doc.faults))
    throw new FaultScheduleError(
      `${at(isObject(doc) && 'faults' in doc ? ['faults'] : [])}: expected a mapping with faults: a list of {name, parameters, match, trigger}`,
    );
  const entries: ScheduledFault[] = (doc.faults as unknown[]).map((entry, index) => {
    const path = ['faults', index];
    if (!isObject(entry))
      throw new FaultScheduleError(
        `${at(path)}: faults[${index}]: expected a mapping with ${entryKeys.join(', ')}`,
      );
    for (const k of Object.keys(entry))
      if (!(entryKeys as readonly string[]).includes(k))
        throw new FaultScheduleError(
          `${at([...path, k], true)}: faults[${index}].${k}: unknown key; expected one of ${entryKeys.join(', ')}`,
        );
    if (typeof entry.name !== 'string')
      throw new FaultScheduleError(
        `${at('name' in entry ? [...path, 'name'] : path)}: faults[${index}].name: expected a fault name`,
      );
    const params = entry.parameters ?? {};
    if (!isObject(params))
      throw new FaultScheduleError(
        `${at([...path, 'parameters'])}: faults[${index}].parameters: expected a mapping of ${entry.name}'s parameters`,
      );
    const where = (part?: FaultSpecProblem['part'], field?: string): string => {
      if (part === undefined) return at(path);
      if (part === 'name') return at([...path, 'name']);
      const container = entry[part];
      if (field !== undefined && isObject(container) && field in container)
        return at([...path, part, field], true);
      return part in entry ? at([...path, part], true) : at(path);
    };
    const checked = checkFaultSpec(entry.name, params, entry.match, entry.trigger);
    if ('problem' in checked) throw problemError(index, entry.name, checked.problem, where);
    return { index, spec: checked.spec, where };
  });
  return { file, entries };
}

/** The schedule's specs, each checked again with the resources and replicas the server serves. */
export function checkFaultSchedule(
  schedule: FaultSchedule,
  served: readonly string[],
  replicas = 1,
): FaultSpec[] {
  return schedule.entries.map((e) => {
    const checked = checkFaultSpec(
      e.spec.name,
      e.spec.params,
      e.spec.match,
      e.spec.trigger,
      served,
      replicas,
    );
    if ('problem' in checked) throw problemError(e.index, e.spec.name, checked.problem, e.where);
    return checked.spec;
  });
}

function problemError(
  index: number,
  name: string,
  p: FaultSpecProblem,
  where: ScheduledFault['where'],
): FaultScheduleError {
  return new FaultScheduleError(
    `${where(p.part, p.field)}: faults[${index}] (${name}): ${p.message}`,
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One node of the document as the listener saw it: where it starts, what it became. */
interface PositionNode {
  start: number;
  result?: unknown;
  kind?: string;
  children: PositionNode[];
}

/**
 * Where each node of a YAML document starts, from js-yaml's parse events (an `open` and a `close`
 * per node, nested; a mapping's children alternate key and value).
 */
class YamlPositions {
  private readonly root: PositionNode = { start: 0, children: [] };
  private readonly stack: PositionNode[] = [this.root];

  constructor(private readonly text: string) {}

  readonly listener = (type: 'open' | 'close', state: State): void => {
    if (type === 'open') {
      const node: PositionNode = { start: state.position, children: [] };
      this.stack[this.stack.length - 1].children.push(node);
      this.stack.push(node);
      return;
    }
    const node = this.stack.pop();
    if (!node) return;
    node.kind = (state as State & { kind?: string }).kind ?? undefined;
    node.result = state.result;
  };

  /** Line and column (1-based) of the node at `path` (its key when `key`), else its nearest parent. */
  locate(path: readonly (string | number)[], key = false): { line: number; column: number } {
    let node = this.document();
    let keyNode: PositionNode | undefined;
    for (const step of path) {
      if (!node) break;
      const next = this.child(node, step);
      if (!next) break;
      keyNode = next.key;
      node = next.value;
    }
    return this.lineColumn((key && keyNode ? keyNode : (node ?? this.root)).start);
  }

  /** The document's top node. */
  private document(): PositionNode | undefined {
    const n = this.root.children[0];
    return n && unwrap(n);
  }

  private child(
    node: PositionNode,
    step: string | number,
  ): { key?: PositionNode; value: PositionNode } | undefined {
    const kids = unwrap(node).children;
    const n = unwrap(node);
    if (n.kind === 'sequence' && typeof step === 'number') {
      const v = kids[step];
      return v ? { value: v } : undefined;
    }
    if (n.kind !== 'mapping') return undefined;
    for (let i = 0; i + 1 < kids.length; i += 2)
      if (kids[i].result === step) return { key: kids[i], value: kids[i + 1] };
    return undefined;
  }

  private lineColumn(offset: number): { line: number; column: number } {
    let at = offset;
    // An open event comes before the node's leading spaces, line breaks and comments.
    for (;;) {
      const c = this.text[at];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') at++;
      else if (c === '#') while (at < this.text.length && this.text[at] !== '\n') at++;
      else break;
    }
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    return { line, column: at - (before.lastIndexOf('\n') + 1) + 1 };
  }
}

/** js-yaml opens a flow collection twice: the outer node has the inner one's result. */
function unwrap(n: PositionNode): PositionNode {
  let x = n;
  while (x.children.length === 1 && x.children[0].result === x.result) x = x.children[0];
  return x;
}
