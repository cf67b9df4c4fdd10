// `listwatch clients`: what each client of a running `listwatch serve` did (GET
// /debug/listwatch/v1/clients), with the server URL and bearer token of a kubeconfig, as
// `listwatch fault` reads them. A table by default, the JSON (src/run/clients-report.ts
// ClientsReport) with --json. No upstream counterpart.
import * as fs from 'node:fs';
import type { ClientsReport } from '../run/clients-report';
import { clientsPath } from '../server/clients-endpoint';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';
import { readKubeconfig } from './fault-command';
import { renderClientsReport } from './run-report';

function help(): string {
  return [
    'Usage: listwatch clients --kubeconfig FILE [--json]',
    '',
    "What each client of a running 'listwatch serve' did (GET " + clientsPath + '), using',
    "the kubeconfig's server and token: per client (User-Agent and TCP connection) its LISTs by",
    'how they were served, WATCHes, WatchList syncs, restarts, relists, answers by HTTP code and',
    'bytes sent, and for each fault that touched it the time to its first successful retry,',
    're-watch or relist (or "not recovered").',
    '',
    'Options:',
    '  --kubeconfig FILE  the kubeconfig that listwatch serve wrote (required)',
    '  --json             the report as JSON (the README documents its fields)',
  ].join('\n');
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(args, [
    { name: 'kubeconfig', value: true },
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(help() + '\n');
    return exitOk;
  }
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const file = options.get('kubeconfig');
  if (typeof file !== 'string') throw new UsageError('--kubeconfig FILE is required');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--kubeconfig: ${(e as Error).message}`);
  }
  const { server, token } = readKubeconfig(text, file);
  // As `listwatch fault`: plain http to the loopback port (fetch cannot skip verifying its cert).
  const url = `${server.replace(/^https:\/\/(127\.0\.0\.1|localhost):/, 'http://$1:')}${clientsPath}`;
  let resp: Response;
  try {
    resp = await fetch(url, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    io.err(`listwatch clients: ${url}: ${cause ?? (e as Error).message}\n`);
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
    io.err(`listwatch clients: ${resp.status} ${message}\n`);
    return exitInvalid;
  }
  if (options.has('json')) {
    io.out(JSON.stringify(parsed, null, 2) + '\n');
    return exitOk;
  }
  io.out(renderClientsReport(parsed as ClientsReport, 100).join('\n') + '\n');
  return exitOk;
}

export const clientsCommand: CliCommand = {
  name: 'clients',
  summary: "what each client of a running 'listwatch serve' did, and how it recovered from faults",
  help: help(),
  run,
};
