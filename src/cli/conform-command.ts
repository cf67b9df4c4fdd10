// `listwatch conform`: the black-box list/watch battery (src/conform) against a kubeconfig's
// cluster, its credential applied by src/probe. No upstream counterpart.
import { visibleText } from '../format/visible-text';
import { connect } from '../probe/cluster-connection';
import { defaultKubeconfigPath } from '../probe/default-kubeconfig';
import { loadClusterTarget } from '../probe/kubeconfig-target';
import { ProbeError } from '../probe/probe-error';
import { ConformUnreachable, runConform } from '../conform/conform-run';
import { conformReportText } from '../conform/conform-report-text';
import { parseArgs, type OptionSpec } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk, exitUsage } from './command';

const help = [
  'Usage: listwatch conform [--kubeconfig FILE] [--context NAME] [--namespace NS] [--resource R]...',
  '                         [--read-only] [--json]',
  '',
  "Grades a server's LIST and WATCH against the apiserver's rules (release-1.36), black-box: limit",
  'and continue, remainingItemCount, resourceVersion=0, resourceVersionMatch, an expired continue,',
  'a future resourceVersion; watches from a LIST, from a too old resourceVersion, bookmarks,',
  'timeoutSeconds, order; WatchList (initial events and the k8s.io/initial-events-end bookmark, or',
  'a refusal); discovery, Table and PartialObjectMetadata. Each check says the upstream rule, what',
  'was expected, what came, and what clients (client-go by version, client-node) do about it.',
  '',
  'It writes only ConfigMaps and Secrets, in a namespace it creates (listwatch-conform-<random>)',
  'or in --namespace, and deletes what it created afterwards (also on failure or Ctrl-C).',
  '',
  'Options:',
  '  --kubeconfig FILE  the kubeconfig (default: $KUBECONFIG, else ~/.kube/config)',
  '  --context NAME     its context (default: its current-context)',
  '  --namespace NS     list and write here instead of a namespace of its own',
  '  --resource R       a resource to grade (pods, deployments.apps; repeatable; default configmaps)',
  '  --read-only        GETs only (watches are GETs); checks that need writes are skipped',
  '  --json             one JSON object: {server, checks:[{id,title,status,rule,expected,got,impact}],',
  '                     passed, failed, skipped}',
  '',
  'Exit status: 0 every check passed (or was skipped), 1 some failed, 2 usage, an unreadable',
  'kubeconfig, an unreachable server or an interruption.',
].join('\n');

const specs: OptionSpec[] = [
  { name: 'kubeconfig', value: true },
  { name: 'context', value: true },
  { name: 'namespace', value: true },
  { name: 'resource', value: true, multiple: true },
  { name: 'read-only', value: false },
  { name: 'json', value: false },
  { name: 'help', value: false, short: 'h' },
];

/** A Kubernetes name: what --namespace and --resource may be (no path or query characters). */
const namePattern = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

async function conform(args: string[], io: CliIo): Promise<number> {
  const { options, positionals, repeated } = parseArgs(args, specs);
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  if (positionals.length)
    throw new UsageError(`expected no arguments, got ${JSON.stringify(positionals[0])}`);
  const namespace = options.get('namespace') as string | undefined;
  if (namespace !== undefined && !namePattern.test(namespace))
    throw new UsageError(`--namespace: ${JSON.stringify(namespace)} is not a namespace name`);
  const resources = repeated.get('resource') ?? [];
  for (const r of resources)
    if (!namePattern.test(r))
      throw new UsageError(
        `--resource: ${JSON.stringify(r)} is not a resource (pods, deployments.apps)`,
      );
  const json = options.has('json');
  const controller = new AbortController();
  const onInterrupt = (): void => {
    io.err('listwatch conform: interrupted: deleting what it created\n');
    controller.abort();
  };
  process.once('SIGINT', onInterrupt);
  try {
    const target = await loadClusterTarget(
      (options.get('kubeconfig') as string | undefined) ?? defaultKubeconfigPath(),
      options.get('context') as string | undefined,
    );
    const c = await connect(target, 'application/json');
    // The credential only: the battery sets its own Accept and User-Agent per request.
    const credential = Object.fromEntries(
      Object.entries(c.headers).filter(([k]) => k !== 'Accept' && k !== 'User-Agent'),
    );
    const run = await runConform({
      endpoint: { server: target.server, headers: credential, agent: c.agent },
      resources,
      namespace,
      readOnly: options.has('read-only'),
      signal: controller.signal,
      log: (line) => io.err(`listwatch conform: ${line}\n`),
    });
    if (json) io.out(JSON.stringify(run.report, null, 2) + '\n');
    else
      io.out(
        conformReportText(run.report)
          .map((l) => visibleText(l))
          .join('\n') + '\n',
      );
    if (run.interrupted) return exitUsage;
    return run.report.failed > 0 ? exitInvalid : exitOk;
  } catch (e) {
    if (e instanceof ProbeError || e instanceof ConformUnreachable) {
      io.err(`listwatch conform: ${visibleText(e.message)}\n`);
      return exitUsage;
    }
    throw e;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

export const conformCommand: CliCommand = {
  name: 'conform',
  summary: "grade a server's list/watch against upstream's rules, and say what clients do about it",
  help,
  run: conform,
};
