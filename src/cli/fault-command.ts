// `listwatch fault`: injects a fault into a running `listwatch serve` through its admin API
// (src/server/faults.ts), with the server URL and bearer token of a kubeconfig. No upstream
// counterpart.
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import {
  describeFaults,
  faultsPath,
  type FaultDescription,
  type FaultParameter,
} from '../server/faults';
import { parseArgs, type OptionSpec } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';

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
    'Usage: listwatch fault --kubeconfig FILE <fault> [--<parameter> VALUE]...',
    '       listwatch fault --kubeconfig FILE --list',
    '',
    "Injects a fault into a running 'listwatch serve' (POST " + faultsPath + '/<fault>),',
    "using the kubeconfig's server and token (its current context). Prints the answer as JSON.",
    '',
    'Options:',
    '  --kubeconfig FILE  the kubeconfig that listwatch serve wrote (required)',
    "  --list             list the server's faults and their parameters",
    '  --json             with --list: the raw JSON',
    '',
    'Faults:',
  ];
  for (const f of describeFaults()) {
    lines.push(`  ${f.name}${f.memoryEtcdOnly ? ' (in-memory etcd only)' : ''}`);
    const oneOf = exactlyOneOfText(f);
    if (oneOf) lines.push(`      ${oneOf}`);
    for (const p of f.parameters) {
      const optional = !p.required && !f.exactlyOneOf?.includes(p.name);
      lines.push(`      --${flagName(p.name)}${optional ? ' (optional)' : ''}: ${p.description}`);
    }
  }
  return lines.join('\n');
}

/** `exactly one of --id, --user-agent is required`, for a fault that has such a group. */
function exactlyOneOfText(f: FaultDescription): string | undefined {
  if (!f.exactlyOneOf) return undefined;
  return `exactly one of ${f.exactlyOneOf.map((n) => `--${flagName(n)}`).join(', ')} is required`;
}

/** The server URL and bearer token of a kubeconfig's current context (else its first entries). */
export function readKubeconfig(text: string, file: string): { server: string; token: string } {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new UsageError(`${file}: not YAML: ${(e as Error).message}`);
  }
  const kc = (doc ?? {}) as {
    'current-context'?: string;
    contexts?: { name?: string; context?: { cluster?: string; user?: string } }[];
    clusters?: { name?: string; cluster?: { server?: string } }[];
    users?: { name?: string; user?: { token?: string } }[];
  };
  const ctx =
    kc.contexts?.find((c) => c.name === kc['current-context'])?.context ??
    kc.contexts?.[0]?.context;
  const cluster = kc.clusters?.find((c) => c.name === ctx?.cluster) ?? kc.clusters?.[0];
  const user = kc.users?.find((u) => u.name === ctx?.user) ?? kc.users?.[0];
  const server = cluster?.cluster?.server;
  const token = user?.user?.token;
  if (!server) throw new UsageError(`${file}: no clusters[].cluster.server`);
  if (!token) throw new UsageError(`${file}: no users[].user.token`);
  return { server: server.replace(/\/+$/, ''), token };
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
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ];
  for (const name of params.keys()) {
    specs.push({ name, value: true });
    if (flagName(name) !== name) specs.push({ name: flagName(name), value: true });
  }
  const { options, positionals } = parseArgs(args, specs);
  if (options.has('help')) {
    io.out(help() + '\n');
    return exitOk;
  }
  const file = options.get('kubeconfig');
  if (typeof file !== 'string') throw new UsageError('--kubeconfig FILE is required');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--kubeconfig: ${(e as Error).message}`);
  }
  const { server, token } = readKubeconfig(text, file);
  const list = options.has('list');
  if (list && positionals.length > 0) throw new UsageError('--list takes no fault name');
  if (!list && positionals.length !== 1)
    throw new UsageError(
      `expected one fault name (${describeFaults()
        .map((f) => f.name)
        .join(', ')}), or --list`,
    );
  const name = positionals[0];
  const body: Record<string, unknown> = {};
  if (!list) {
    const fault = describeFaults().find((f) => f.name === name);
    if (!fault) throw new UsageError(`unknown fault ${JSON.stringify(name)}; see --list`);
    for (const [opt, value] of options) {
      if (['kubeconfig', 'list', 'json', 'help'].includes(opt)) continue;
      const p = fault.parameters.find((q) => q.name === opt || flagName(q.name) === opt);
      if (!p)
        throw new UsageError(
          `--${opt} is not a parameter of ${name}; it takes ${fault.parameters.map((q) => '--' + flagName(q.name)).join(', ') || 'none'}`,
        );
      body[p.name] = parameterValue(p, value as string);
    }
  }
  // `listwatch serve` answers http and https on one loopback port, and Node's fetch cannot skip
  // verifying its self-signed certificate: speak plain http to it.
  const base = server.replace(/^https:\/\/(127\.0\.0\.1|localhost):/, 'http://$1:');
  const url = list ? `${base}${faultsPath}` : `${base}${faultsPath}/${name}`;
  let resp: Response;
  try {
    resp = await fetch(url, {
      method: list ? 'GET' : 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        ...(list ? {} : { 'Content-Type': 'application/json' }),
      },
      body: list ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    io.err(`listwatch fault: ${url}: ${cause ?? (e as Error).message}\n`);
    return exitInvalid;
  }
  const answer = await resp.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    parsed = undefined;
  }
  if (!resp.ok) {
    const message = (parsed as { message?: string } | undefined)?.message ?? answer;
    io.err(`listwatch fault: ${resp.status} ${message}\n`);
    return exitInvalid;
  }
  if (list && !options.has('json')) {
    io.out(listText(parsed as { faults?: ReturnType<typeof describeFaults> }) + '\n');
    return exitOk;
  }
  io.out(JSON.stringify(parsed ?? answer, null, 2) + '\n');
  return exitOk;
}

function listText(list: { faults?: ReturnType<typeof describeFaults> }): string {
  const lines: string[] = [];
  for (const f of list.faults ?? []) {
    lines.push(`${f.name}: ${f.description}${f.memoryEtcdOnly ? ' (in-memory etcd only)' : ''}`);
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
