// No upstream counterpart: "Inject Fault…" asks for one of src/server/faults.ts's faults and its
// parameters, one quick input each, then which requests (matchers) and when (a trigger), every value checked as it is typed with the admin API's own
// validate() (the same rules and messages as `POST /debug/listwatch/v1/faults/<name>`), and says
// in one line what an injected fault did.
import type * as vscode from 'vscode';
import {
  describeFaults,
  validate,
  type FaultDescription,
  type FaultParameter,
} from '../../server/faults';
import type { ServerPrompts } from './server-prompts';
import { matcherFields, parseFaultMatcher, type FaultMatcher } from '../../server/fault-matcher';
import { parseFaultTrigger, type FaultTrigger } from '../../server/fault-trigger';
import { plural } from '../../format/count-text';
import type { ActiveFaultJSON } from '../../server/active-faults';

/** A fault and its parameters, as the admin API's JSON body carries them. */
export interface FaultChoice {
  name: string;
  params: Record<string, unknown>;
}

/** A required parameter's pre-filled value, so that Enter through the inputs injects something. */
const defaultValues: Readonly<Record<string, string>> = { seconds: '5' };

const everyResource = '(every resource)';

/** A typed value as JSON gets it: a number for a numeric parameter when the text is one. */
export function parameterValueOf(d: FaultParameter, text: string): unknown {
  const t = text.trim();
  if ((d.type === 'integer' || d.type === 'number') && t !== '' && Number.isFinite(Number(t)))
    return Number(t);
  if (d.type === 'boolean' && (t === 'true' || t === 'false')) return t === 'true';
  return text;
}

/** The admin API's message for one parameter's text (undefined: fine; '' of an optional: omitted). */
export function parameterProblem(
  fault: FaultDescription,
  d: FaultParameter,
  text: string,
): string | undefined {
  if (text.trim() === '' && !d.required) return undefined;
  const value = text.trim() === '' ? undefined : parameterValueOf(d, text);
  // One parameter alone: askFault itself asks for exactly one of a group.
  return validate(
    { ...fault, parameters: [d], exactlyOneOf: undefined },
    value === undefined ? {} : { [d.name]: value },
  );
}

/** The faults that apply to a server: on a real etcd, not those that act on the in-memory one. */
export function faultsFor(etcd: 'memory' | 'real'): FaultDescription[] {
  return describeFaults().filter((f) => etcd === 'memory' || !f.memoryEtcdOnly);
}

/**
 * Asks for a fault and its parameters; undefined when a prompt was dismissed. `resources` are the
 * served resources' names (the `resource` parameter's choices), `watchers` a hint for the id;
 * `etcd` says which faults apply (a real etcd refuses those of the in-memory one).
 */
export async function askFault(
  prompts: ServerPrompts,
  resources: readonly string[],
  watcherHint: string,
  etcd: 'memory' | 'real' = 'memory',
): Promise<FaultChoice | undefined> {
  const faults = faultsFor(etcd);
  const items = faults.map((f) => ({
    label: f.name,
    detail: f.description,
    description: f.parameters.map((p) => p.name + (p.required ? '' : '?')).join(', '),
  }));
  const picked = await prompts.pick(items, {
    title: 'Inject Fault (1/2)',
    placeHolder:
      etcd === 'memory'
        ? "The fault to inject into the local API server's engine"
        : "The fault to inject into the local API server's engine (on a real etcd: slow or stop that etcd itself)",
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  const fault = faults.find((f) => f.name === picked.label)!;
  const params: Record<string, unknown> = {};
  const group = fault.exactlyOneOf ?? [];
  for (const [i, d] of fault.parameters.entries()) {
    // Exactly one of a group: once one is given the others are not asked; the last is required.
    const inGroup = group.includes(d.name);
    if (inGroup && group.some((g) => params[g] !== undefined)) continue;
    const lastOfGroup = inGroup && group.at(-1) === d.name;
    const others = group.filter((g) => g !== d.name).join(' or ');
    const groupNote = !inGroup
      ? ''
      : lastOfGroup
        ? ` Required: no ${others} was given (exactly one of ${group.join(', ')}).`
        : ` Exactly one of ${group.join(', ')}: empty to give ${others} instead.`;
    const asked: FaultParameter = lastOfGroup ? { ...d, required: true } : d;
    const title = `Inject ${fault.name}: ${d.name} (${i + 1}/${fault.parameters.length})`;
    if (d.enum || d.name === 'resource') {
      const choices = (d.enum ?? [everyResource, ...resources]).map((v) => ({ label: String(v) }));
      if (!d.required && d.enum) choices.unshift({ label: '(none)' });
      const choice = await prompts.pick(choices, {
        title,
        placeHolder: d.description,
        ignoreFocusOut: true,
      });
      if (!choice) return undefined;
      if (choice.label !== everyResource && choice.label !== '(none)')
        params[d.name] = parameterValueOf(d, choice.label);
      continue;
    }
    const text = await prompts.input({
      title,
      prompt: `${d.description}${groupNote || (d.required ? '' : ' Empty: not given.')}${d.name === 'id' ? watcherHint : ''}`,
      value: defaultValues[d.name] ?? '',
      placeHolder: asked.required ? undefined : inGroup ? `(or ${others})` : '(optional)',
      ignoreFocusOut: true,
      validateInput: (t) =>
        lastOfGroup && t.trim() === ''
          ? `${group.join(', ')}: exactly one of them is required`
          : parameterProblem(fault, asked, t),
    } satisfies vscode.InputBoxOptions & { title: string });
    if (text === undefined) return undefined;
    if (text.trim() !== '') params[d.name] = parameterValueOf(d, text);
  }
  const selection = await askMatchAndTrigger(prompts, fault);
  if (!selection) return undefined;
  return { name: fault.name, params: { ...params, ...selection } };
}

/** `verb=list resource=pods watchList=true`: the matchers of the Inject Fault input, or the problem. */
export function parseMatcherText(text: string): { matcher: FaultMatcher } | { problem: string } {
  const raw: Record<string, unknown> = {};
  for (const token of text
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '')) {
    const eq = token.indexOf('=');
    if (eq <= 0)
      return {
        problem: `${token}: expected name=value (${matcherFields.map((f) => f.name).join(', ')})`,
      };
    const k = token.slice(0, eq);
    const v = token.slice(eq + 1);
    raw[k] =
      k === 'watchList' && (v === 'true' || v === 'false')
        ? v === 'true'
        : k === 'replica' && /^[0-9]+$/.test(v)
          ? Number(v)
          : v;
  }
  const m = parseFaultMatcher(raw);
  if ('matcher' in m) return m;
  return { problem: m.field === undefined ? m.message : `${m.field}: ${m.message}` };
}

/** The "When" choices: at once, or one trigger (a server fault: only afterSeconds). */
const whenChoices: readonly { label: string; trigger?: keyof FaultTrigger; detail: string }[] = [
  { label: 'At once', detail: 'Every matching request, until cleared (a server fault: now).' },
  { label: 'The nth matching request', trigger: 'nth', detail: 'Only that one, then spent.' },
  { label: 'The next matching requests', trigger: 'count', detail: 'That many, then spent.' },
  {
    label: 'After seconds',
    trigger: 'afterSeconds',
    detail: "Armed later, on the server's clock.",
  },
];

/** Which requests (request faults) and when: the `match` and `trigger` of the admin API's body. */
async function askMatchAndTrigger(
  prompts: ServerPrompts,
  fault: FaultDescription,
): Promise<{ match?: FaultMatcher; trigger?: FaultTrigger } | undefined> {
  const out: { match?: FaultMatcher; trigger?: FaultTrigger } = {};
  if (fault.acts !== 'server') {
    const text = await prompts.input({
      title: `Inject ${fault.name}: match (1/2)`,
      prompt:
        'Which requests: name=value pairs of verb, resource (pods, deployments.apps), namespace, ' +
        'userAgent (a substring), watchList (true: WatchList requests only). Empty: every ' +
        'request (never the admin API nor /healthz, /livez, /readyz).',
      value: '',
      placeHolder: 'verb=list resource=pods',
      ignoreFocusOut: true,
      validateInput: (t) => {
        const m = parseMatcherText(t);
        return 'problem' in m ? m.problem : undefined;
      },
    } satisfies vscode.InputBoxOptions & { title: string });
    if (text === undefined) return undefined;
    const m = parseMatcherText(text);
    if ('problem' in m) return undefined;
    if (Object.keys(m.matcher).length) out.match = m.matcher;
  }
  const choices = whenChoices.filter(
    (c) => fault.acts !== 'server' || (c.trigger !== 'nth' && c.trigger !== 'count'),
  );
  const when = await prompts.pick(
    choices.map(({ label, detail }) => ({ label, detail })),
    {
      title: `Inject ${fault.name}: when (2/2)`,
      placeHolder: 'When the fault acts',
      ignoreFocusOut: true,
    },
  );
  if (!when) return undefined;
  const key = choices.find((c) => c.label === when.label)?.trigger;
  if (key === undefined) return out;
  const problem = (t: string): string | undefined => {
    if (t.trim() === '' || !Number.isFinite(Number(t))) return `${key}: expected a number`;
    const parsed = parseFaultTrigger({ [key]: Number(t) });
    return 'trigger' in parsed ? undefined : `${parsed.field}: ${parsed.message}`;
  };

  const value = await prompts.input({
    title: `Inject ${fault.name}: ${key} (2/2)`,
    prompt: when.detail ?? '',
    value: key === 'afterSeconds' ? '10' : '1',
    ignoreFocusOut: true,
    validateInput: problem,
  } satisfies vscode.InputBoxOptions & { title: string });
  if (value === undefined || problem(value) !== undefined) return undefined;
  out.trigger = { [key]: Number(value) };
  return out;
}

const requestFaultNames = new Set(
  describeFaults()
    .filter((f) => f.acts !== 'server')
    .map((f) => f.name),
);

/** `#3 pending (in force from …), 0 hits so far`: a fault in force, as its answer describes it. */
function activeText(a: ActiveFaultJSON | undefined, id: unknown): string {
  if (!a) return `#${String(id)}`;
  const match = Object.keys(a.match).length
    ? ` on ${JSON.stringify(a.match)}`
    : ' on every request';
  const trigger = Object.keys(a.trigger).length ? `, ${JSON.stringify(a.trigger)}` : '';
  return `#${a.id} ${a.phase}${requestFaultNames.has(a.name) ? match : ''}${trigger} (Clear Fault… in the Server view ends it)`;
}

/** One line on what an injected fault did, from its FaultResult body. */
export function faultResultText(name: string, body: Record<string, unknown>): string {
  // A server fault scheduled for later answers with its entry, as a request fault does.
  if (body.active !== undefined && !requestFaultNames.has(name))
    return activeText(body.active as ActiveFaultJSON, body.id);
  const per = (f: (r: Record<string, unknown>) => string): string =>
    ((body.resources as Record<string, unknown>[] | undefined) ?? []).map(f).join('; ');
  switch (name) {
    case 'compact':
      return `etcd compacted to revision ${String(body.compactRevision)} (current ${String(body.currentRevision)})`;
    case 'cache-lag':
      return `reflector paused: ${per((r) => `${String(r.resource)} for ${String(r.pausedForMs)}ms at RV ${String(r.cacheResourceVersion)}`)}`;
    case 'expire-history':
      return `watch cache history dropped: ${per((r) => `${String(r.resource)} ${String(r.droppedEvents)} events`)}`;
    case 'etcd-latency':
      return `etcd latency ${JSON.stringify(body.latency)}${body.simulated ? '' : ' (off)'}`;
    case 'etcd-unavailable':
      return `etcd unreachable for ${String(body.unavailableForMs)}ms`;
    case 'rangestream':
      return `etcd RangeStream ${String(body.mode)}`;
    case 'terminate-watcher': {
      const t = (body.terminated as Record<string, unknown>[] | undefined) ?? [];
      return `${plural(t.length, 'watcher', { plain: true })} terminated${t.length ? ': ' : ''}${t.map((w) => `${String(w.resource)} #${String(w.id)} (${String(w.userAgent ?? 'no user agent')})`).join(', ')}`;
    }
    case 'restart':
      return `cachers restarted: ${per((r) => `${String(r.resource)} (${String(r.closedWatchers)} watchers closed)`)}`;
    case 'stall-watch':
    case 'omit-end-bookmark':
    case 'ignore-send-initial-events':
    case 'drop-connection':
    case 'http-error':
    case 'blackhole':
    case 'latency':
      return activeText(body.active as ActiveFaultJSON | undefined, body.id);
    default:
      return JSON.stringify(body);
  }
}
