// `listwatch clients`: what each client of a running `listwatch serve` did (GET
// /debug/listwatch/v1/clients), with the server URL and bearer token of a kubeconfig, as
// `listwatch fault` reads them. A table by default, the JSON (src/run/clients-report.ts
// ClientsReport) with --json. No upstream counterpart.
import type { ClientsReport } from '../run/clients-report';
import { clientsPath } from '../server/clients-endpoint';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitOk } from './command';
import { adminBase, callAdminApi, kubeconfigOption } from './admin-api';
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
  const { server, token } = kubeconfigOption(options.get('kubeconfig'));
  const called = await callAdminApi(
    'listwatch clients',
    io,
    token,
    'GET',
    `${adminBase(server)}${clientsPath}`,
  );
  if (typeof called === 'number') return called;
  const { parsed } = called;
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
