// `listwatch fault`: injects a fault into a running `listwatch serve` through its admin API
// (src/server/faults.ts), with the server URL and bearer token of a kubeconfig. No upstream
// counterpart.
import {
  activeFaultsSegment,
  describeFaults,
  faultsPath,
  type FaultDescription,
  type FaultParameter,
} from '../server/faults';
import { matcherFields } from '../server/fault-matcher';
import { triggerFields } from '../server/fault-trigger';
import type { ActiveFaultJSON } from '../server/active-faults';
import { parseArgs, type OptionSpec } from './args';
import { type CliCommand, type CliIo, UsageError, exitOk } from './command';
import { adminBase, callAdminApi, kubeconfigOption } from './admin-api';

/** `perRequestMs` -> `per-request-ms`: the flag spelling (the parameter's own name works too). */
export function flagName(param: string): string {
  return param.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** Every parameter of every fault, each once, by its parameter name. */
function allParameters(): Map<string, FaultParameter> {
  const out = new Map<string, FaultParameter>();
  for (const f of describeFaults()) for (const p of f.parameters) out.set(p.name, p);
  return out;
}

function help(): string {
  const lines = [
    'Usage: listwatch fault --kubeconfig FILE <fault> [--<parameter> VALUE]... [MATCHERS] [TRIGGER]',
    '       listwatch fault --kubeconfig FILE --active [--json]',
    '       listwatch fault --kubeconfig FILE --clear ID|all',
    '       listwatch fault --kubeconfig FILE --list [--json]',
    '',
    "Injects a fault into a running 'listwatch serve' (POST " + faultsPath + '/<fault>),',
    "using the kubeconfig's server and token (its current context). Prints the answer as JSON,",
    'with the id of the fault. Server faults (compact … restart) act on the engine at once, or',
    '--after-seconds later; request faults (stall-watch … latency) act on the requests their',
    'matchers pick, when their trigger says, until spent or cleared. The admin API and',
    '/healthz, /livez, /readyz are never matched.',
    '',
    'Options:',
    '  --kubeconfig FILE  the kubeconfig that listwatch serve wrote (required)',
    "  --list             list the server's faults and their parameters",
    '  --active           list the faults in force: id, parameters, matchers, trigger, hits',
    `                     (GET ${faultsPath}/${activeFaultsSegment})`,
    '  --clear ID|all     clear one fault by id, or every one (DELETE; an unknown id: exit 1)',
    '  --json             with --list or --active: the raw JSON',
    '',
    'Matchers (request faults; a server fault takes only --resource, where it has that',
    'parameter, and --replica; a flag that is a parameter of the fault is that parameter):',
    '  --verb VERB        get, list, watch, create, update, patch, delete, deletecollection',
    '  --resource R       pods, or <plural>.<group> (deployments.apps)',
    '  --namespace NS     the request namespace',
    '  --user-agent S     a substring of the User-Agent',
    '  --watch-list B     true: only WatchList requests (sendInitialEvents=true); false: others',
    '  --replica K        serve --replicas: the replica (1..N) that took the request; a server',
    '                     fault acts on that replica only (default: on every replica)',
    '',
    'Trigger (default: at once, every matching request until cleared):',
    '  --nth K            only the K-th matching request from now',
    '  --count C          the next C matching requests, then spent',
    "  --after-seconds S  armed S seconds from now (the server's clock); a server fault is",
    '                     applied then',
    '',
    'Faults:',
  ];
  for (const f of describeFaults()) {
    lines.push(`  ${f.name}${f.memoryEtcdOnly ? ' (in-memory etcd only)' : ''}${actsText(f)}`);
    const oneOf = exactlyOneOfText(f);
    if (oneOf) lines.push(`      ${oneOf}`);
    for (const p of f.parameters) {
      const optional = !p.required && !f.exactlyOneOf?.includes(p.name);
      lines.push(`      --${flagName(p.name)}${optional ? ' (optional)' : ''}: ${p.description}`);
    }
  }
  return lines.join('\n');
}

/** ` (watch requests)`: what a request fault can hit; nothing for a server fault. */
function actsText(f: FaultDescription): string {
  switch (f.acts) {
    case 'server':
      return '';
    case 'request':
      return ' (requests)';
    case 'watch':
      return ' (watch requests)';
    case 'watchList':
      return ' (WatchList requests)';
  }
}

/** `exactly one of --id, --user-agent is required`, for a fault that has such a group. */
function exactlyOneOfText(f: FaultDescription): string | undefined {
  if (!f.exactlyOneOf) return undefined;
  return `exactly one of ${f.exactlyOneOf.map((n) => `--${flagName(n)}`).join(', ')} is required`;
}

/** A flag's text as the parameter's JSON value. */
export function parameterValue(p: FaultParameter, text: string): unknown {
  switch (p.type) {
    case 'integer':
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n))
        throw new UsageError(
          `--${flagName(p.name)}: expected a number, got ${JSON.stringify(text)}`,
        );
      return n;
    }
    case 'boolean':
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw new UsageError(
        `--${flagName(p.name)}: expected true or false, got ${JSON.stringify(text)}`,
      );
    case 'string':
      return text;
  }
}

async function run(args: string[], io: CliIo): Promise<number> {
  const params = allParameters();
  const specs: OptionSpec[] = [
    { name: 'kubeconfig', value: true },
    { name: 'list', value: false },
    { name: 'active', value: false },
    { name: 'clear', value: true },
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ];
  const names = new Set([
    ...params.keys(),
    ...matcherFields.map((m) => m.name),
    ...triggerFields.map((t) => t.name),
  ]);
  for (const name of names) {
    specs.push({ name, value: true });
    if (flagName(name) !== name) specs.push({ name: flagName(name), value: true });
  }
  const { options, positionals } = parseArgs(args, specs);
  if (options.has('help')) {
    io.out(help() + '\n');
    return exitOk;
  }
  const { server, token } = kubeconfigOption(options.get('kubeconfig'));
  const list = options.has('list');
  const showActive = options.has('active');
  const clear = options.get('clear');
  const modes = [list, showActive, clear !== undefined].filter(Boolean).length;
  if (modes > 1) throw new UsageError('--list, --active and --clear exclude each other');
  if (modes === 1 && positionals.length > 0)
    throw new UsageError(
      `${list ? '--list' : showActive ? '--active' : '--clear'} takes no fault name`,
    );
  if (typeof clear === 'string' && clear !== 'all' && !/^[1-9][0-9]*$/.test(clear))
    throw new UsageError(
      `--clear: expected a fault id (see --active) or all, got ${JSON.stringify(clear)}`,
    );
  if (modes === 0 && positionals.length !== 1)
    throw new UsageError(
      `expected one fault name (${describeFaults()
        .map((f) => f.name)
        .join(', ')}), or --list, --active, --clear`,
    );
  const name = positionals[0];
  const body: Record<string, unknown> = {};
  if (modes === 0) {
    const fault = describeFaults().find((f) => f.name === name);
    if (!fault) throw new UsageError(`unknown fault ${JSON.stringify(name)}; see --list`);
    const match: Record<string, unknown> = {};
    const trigger: Record<string, unknown> = {};
    for (const [opt, value] of options) {
      if (['kubeconfig', 'list', 'active', 'clear', 'json', 'help'].includes(opt)) continue;
      const p = fault.parameters.find((q) => q.name === opt || flagName(q.name) === opt);
      if (p) {
        body[p.name] = parameterValue(p, value as string);
        continue;
      }
      const m = matcherFields.find((f) => f.name === opt || flagName(f.name) === opt);
      if (m) {
        match[m.name] = parameterValue(
          { name: m.name, type: m.type, required: false, description: '' },
          value as string,
        );
        continue;
      }
      const t = triggerFields.find((f) => f.name === opt || flagName(f.name) === opt);
      if (t) {
        trigger[t.name] = parameterValue(
          { name: t.name, type: t.type, required: false, description: '' },
          value as string,
        );
        continue;
      }
      throw new UsageError(
        `--${opt} is not a parameter of ${name}; it takes ${fault.parameters.map((q) => '--' + flagName(q.name)).join(', ') || 'none'}`,
      );
    }
    if (Object.keys(match).length) body.match = match;
    if (Object.keys(trigger).length) body.trigger = trigger;
  } else {
    for (const opt of options.keys())
      if (!['kubeconfig', 'list', 'active', 'clear', 'json', 'help'].includes(opt))
        throw new UsageError(
          `--${opt} goes with a fault name, not with --list, --active or --clear`,
        );
  }
  const base = adminBase(server);
  const activePath = `${base}${faultsPath}/${activeFaultsSegment}`;
  const [method, url] = list
    ? ['GET', `${base}${faultsPath}`]
    : showActive
      ? ['GET', activePath]
      : typeof clear === 'string'
        ? ['DELETE', clear === 'all' ? activePath : `${activePath}/${clear}`]
        : ['POST', `${base}${faultsPath}/${name}`];
  const called = await callAdminApi('listwatch fault', io, token, method, url, body);
  if (typeof called === 'number') return called;
  const { parsed, answer } = called;
  if (list && !options.has('json')) {
    io.out(listText(parsed as { faults?: ReturnType<typeof describeFaults> }) + '\n');
    return exitOk;
  }
  if (showActive && !options.has('json')) {
    io.out(activeText((parsed as { faults?: ActiveFaultJSON[] }).faults ?? []) + '\n');
    return exitOk;
  }
  io.out(JSON.stringify(parsed ?? answer, null, 2) + '\n');
  return exitOk;
}

/** One line per fault in force: `#3 http-error {"code":429} match {...} trigger {...}: armed, 1 hit`. */
export function activeText(faults: readonly ActiveFaultJSON[]): string {
  if (faults.length === 0) return 'no fault is active';
  return faults
    .map((f) => {
      const parts = [`#${f.id} ${f.name}`];
      if (Object.keys(f.parameters).length) parts.push(JSON.stringify(f.parameters));
      if (Object.keys(f.match).length) parts.push(`match ${JSON.stringify(f.match)}`);
      if (Object.keys(f.trigger).length) parts.push(`trigger ${JSON.stringify(f.trigger)}`);
      const held = f.held ? `, ${f.held} held` : '';
      return `${parts.join(' ')}: ${f.phase}, ${f.hits} hit${f.hits === 1 ? '' : 's'}${held}`;
    })
    .join('\n');
}

function listText(list: { faults?: ReturnType<typeof describeFaults> }): string {
  const lines: string[] = [];
  for (const f of list.faults ?? []) {
    lines.push(
      `${f.name}${actsText(f)}: ${f.description}${f.memoryEtcdOnly ? ' (in-memory etcd only)' : ''}`,
    );
    const oneOf = exactlyOneOfText(f);
    if (oneOf) lines.push(`    ${oneOf}`);
    for (const p of f.parameters)
      lines.push(
        `    --${flagName(p.name)} ${p.type}${p.enum ? ` (${p.enum.join('|')})` : ''}${p.required ? ', required' : ''}: ${p.description}`,
      );
  }
  return lines.join('\n');
}

export const faultCommand: CliCommand = {
  name: 'fault',
  summary: "inject a fault into a running 'listwatch serve' (cache lag, 410s, etcd outages, …)",
  help: help(),
  run,
};
