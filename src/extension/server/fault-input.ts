// No upstream counterpart: "Inject Fault…" asks for one of src/server/faults.ts's faults and its
// parameters, one quick input each, every value checked as it is typed with the admin API's own
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
import { plural } from '../../format/count-text';

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
  return { name: fault.name, params };
}

/** One line on what an injected fault did, from its FaultResult body. */
export function faultResultText(name: string, body: Record<string, unknown>): string {
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
    default:
      return JSON.stringify(body);
  }
}
