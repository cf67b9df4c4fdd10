// `listwatch probe` and `listwatch probe-metrics`: a real paged LIST (and optionally a watch and a
// scrape of /metrics) against a kubeconfig's cluster, read-only, said in full before it is sent
// (src/probe/probe-run.ts). No upstream counterpart.
import * as fs from 'node:fs';
import { visibleText } from '../format/visible-text';
import { defaultKubeconfigPath } from '../probe/default-kubeconfig';
import { loadClusterTarget } from '../probe/kubeconfig-target';
import { ProbeError } from '../probe/probe-error';
import {
  defaultMaxPages,
  describeProbe,
  runProbe,
  type ProbeOptions,
  type ProbeReport,
} from '../probe/probe-run';
import { parseProbeUrl } from '../probe/probe-url';
import { profile136, profile137Preview } from '../engine';
import {
  compareResource,
  defaultCompareResources,
  type CompareResource,
} from '../probe/compare-resource';
import {
  compareReportText,
  defaultCompareLimit,
  describeCompare,
  runCompare,
  type CompareOptions,
} from '../probe/probe-compare-run';
import { parseArgs, type OptionSpec } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk, exitUsage } from './command';
import { plural } from '../format/count-text';

const commonHelp = [
  '  --kubeconfig FILE  the kubeconfig (default: $KUBECONFIG, else ~/.kube/config)',
  '  --context NAME     its context (default: its current-context)',
  '  --yes              send without asking (required when stdin is not a terminal)',
  '  --json             print the report as one JSON object (the plan goes to stderr)',
  '  --trace FILE       write the probe as a listwatch trace (open it in the inspector)',
];

const probeHelp = [
  'Usage: listwatch probe [--kubeconfig FILE] [--context NAME] [--watch SECONDS] [--initial-events]',
  '                       [--metrics] [--max-pages N] [--yes] [--json] [--trace FILE] <list-url>',
  '',
  "Runs a real paged LIST against the kubeconfig's cluster with its own credentials (token,",
  'token-file, client certificate, exec plugin) and reports each page: its continue token decoded,',
  'metadata.resourceVersion, remainingItemCount, items, bytes and time. Reads only: every request',
  'is a GET. Prints exactly what it will send (the credential redacted, the exec plugin it will',
  'run) and asks before sending.',
  '',
  '<list-url> is a path and query, e.g. /api/v1/namespaces/default/pods?limit=2&labelSelector=app%3Dweb',
  '',
  'Options:',
  ...commonHelp,
  "  --watch SECONDS    then watch (allowWatchBookmarks=true, from the LIST's resourceVersion) and report what arrives",
  '  --initial-events   the watch is a watch-list (sendInitialEvents=true&resourceVersionMatch=NotOlderThan)',
  '  --metrics          then scrape GET /metrics as probe-metrics does',
  `  --max-pages N      stop after N pages (default ${defaultMaxPages})`,
  '',
  'Usage: listwatch probe --compare [--resource R]... [--namespace NS] [--rv0] [--limit N]',
  '                       [--profile 1.36|1.37] [--kubeconfig FILE] [--context NAME] [--yes] [--json]',
  '',
  "Cache or etcd? KEP-2340's troubleshooting check, per resource: a LIST the watch cache serves",
  '(resourceVersion "": a consistent read), then the same LIST with resourceVersion=<its RV>',
  '&resourceVersionMatch=Exact, both paged with limit/continue, compared item by item',
  '(namespace/name, uid, resourceVersion, the whole object). Each difference is a stale or',
  'inconsistent watch cache. Says what the profile says served each LIST: in 1.36 the Exact one',
  'is served by a watch-cache snapshot (ListFromCacheSnapshot), not etcd, unless the cache has none.',
  'Progress goes to stderr; Ctrl-C stops (exit 130).',
  '',
  `  --resource R       a resource (pods, deployments.apps, cm) or a collection path; repeatable (default ${defaultCompareResources.join(', ')})`,
  '  --namespace NS     only that namespace (default: all namespaces)',
  '  --rv0              the cache LIST asks resourceVersion=0 (Any: the cache as it is, the whole list in one page) instead of ""',
  `  --limit N          page size (default ${defaultCompareLimit})`,
  '  --profile P        whose rules say who served each LIST: 1.36 (default) or 1.37',
  'Exit status: 0 every resource the same, 1 some differ or could not be compared (e.g. 504:',
  'the cache lags), 2 usage, or the cluster unreachable or refusing, 130 stopped by Ctrl-C.',
].join('\n');

const metricsHelp = [
  'Usage: listwatch probe-metrics [--kubeconfig FILE] [--context NAME] [--yes] [--json] [--trace FILE]',
  '',
  "Scrapes GET /metrics of the kubeconfig's cluster (its own credentials, read-only) and shows the",
  'apiserver_storage_list_*, apiserver_cache_list_*, apiserver_watch_cache_*, watch_cache_capacity*',
  "and etcd_request_* samples: the cluster's figures at the time of the scrape.",
  '',
  'Options:',
  ...commonHelp,
].join('\n');

const commonSpecs: OptionSpec[] = [
  { name: 'kubeconfig', value: true },
  { name: 'context', value: true },
  { name: 'yes', value: false },
  { name: 'json', value: false },
  { name: 'trace', value: true },
  { name: 'help', value: false, short: 'h' },
];

function positiveInteger(flag: string, v: string | true | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n <= 0)
    throw new UsageError(`--${flag}: expected a positive whole number, got ${JSON.stringify(v)}`);
  return n;
}

/** Asks on the terminal; false for anything but y/yes. */
/** The plan confirmed on the terminal (false, said why, when nobody can confirm or they decline). */
async function confirmedOnTerminal(io: CliIo): Promise<boolean> {
  if (!process.stdin.isTTY) {
    io.err(
      'listwatch: not sending: stdin is not a terminal, so there is nobody to confirm; add --yes to send these requests\n',
    );
    return false;
  }
  if (!(await askOnTerminal(io))) {
    io.err('listwatch: nothing sent\n');
    return false;
  }
  return true;
}

async function askOnTerminal(io: CliIo): Promise<boolean> {
  io.err('Send these requests? [y/N] ');
  for await (const line of io.stdinLines()) return /^\s*y(es)?\s*$/i.test(line);
  return false;
}

/** Prints the report as text. */
function printReport(r: ProbeReport, io: CliIo): void {
  if (r.pages.length)
    io.out(
      `LIST: ${plural(r.pages.length, 'page', { plain: true })}, ${plural(r.items, 'item', { plain: true })}${r.pagesCapped ? ' (stopped at --max-pages: more pages follow)' : ''}\n`,
    );
  const w = r.watch;
  if (w) {
    const counts = Object.entries(w.byType)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    io.out(
      `WATCH: ${counts || 'nothing arrived'} in ${w.seconds} s (${w.ended === 'closed' ? 'closed by the probe' : 'ended by the server'})${w.eventsDropped ? `, ${w.eventsDropped} events not listed` : ''}\n`,
    );
  }
  const m = r.metrics;
  if (m) {
    io.out(
      `METRICS of the cluster at ${m.scrapedAt} (its own figures, not the engine's): ${Object.keys(m.samples).length} of ${m.totalSamples} samples\n`,
    );
    // Histogram buckets stay in --json and the trace: here each series' count and sum.
    let buckets = 0;
    for (const [k, v] of Object.entries(m.samples)) {
      if (/_bucket(\{|$)/.test(k)) buckets++;
      else io.out(`  ${visibleText(k)} ${v}\n`);
    }
    if (buckets) io.out(`  (${buckets} histogram buckets: see --json or --trace)\n`);
    if (m.nonFinite.length)
      io.out(`  (${m.nonFinite.length} samples were NaN or ±Inf: not kept)\n`);
  }
}

async function probe(args: string[], io: CliIo, metricsOnly: boolean): Promise<number> {
  const specs = metricsOnly
    ? commonSpecs
    : [
        ...commonSpecs,
        { name: 'watch', value: true },
        { name: 'initial-events', value: false },
        { name: 'metrics', value: false },
        { name: 'max-pages', value: true },
        { name: 'compare', value: false },
        { name: 'resource', value: true, multiple: true },
        { name: 'namespace', value: true },
        { name: 'rv0', value: false },
        { name: 'limit', value: true },
        { name: 'profile', value: true },
      ];
  const { options, positionals, repeated } = parseArgs(args, specs);
  if (options.has('help')) {
    io.out((metricsOnly ? metricsHelp : probeHelp) + '\n');
    return exitOk;
  }
  const compareOnly = ['resource', 'namespace', 'rv0', 'limit', 'profile'].filter(
    (n) => options.has(n) || repeated.has(n),
  );
  if (options.has('compare')) return compare(options, positionals, repeated, io);
  if (compareOnly.length) throw new UsageError(`--${compareOnly[0]} is an option of --compare`);
  const expected = metricsOnly ? 0 : 1;
  if (positionals.length !== expected)
    throw new UsageError(
      metricsOnly
        ? `expected no arguments, got ${positionals.length}`
        : `expected one <list-url> (a path and query), got ${positionals.length}`,
    );
  const kubeconfig = options.get('kubeconfig');
  const context = options.get('context');
  if (kubeconfig === true || context === true)
    throw new UsageError('--kubeconfig and --context take a value');
  const json = options.has('json');
  const say = (text: string): void => (json ? io.err(text) : io.out(text));
  try {
    const o: ProbeOptions = metricsOnly
      ? { metrics: true }
      : {
          url: parseProbeUrl(positionals[0]),
          watchSeconds: positiveInteger('watch', options.get('watch')),
          sendInitialEvents: options.has('initial-events'),
          metrics: options.has('metrics'),
          maxPages: positiveInteger('max-pages', options.get('max-pages')),
        };
    if (o.sendInitialEvents && !o.watchSeconds)
      throw new UsageError('--initial-events needs --watch SECONDS');
    const target = await loadClusterTarget(
      (kubeconfig as string | undefined) ?? defaultKubeconfigPath(),
      context as string | undefined,
    );
    say(describeProbe(target, o).join('\n') + '\n');
    if (!options.has('yes') && !(await confirmedOnTerminal(io))) return exitInvalid;
    const run = await runProbe(target, o, json ? undefined : (line) => io.out(line + '\n'));
    const trace = options.get('trace');
    if (typeof trace === 'string') {
      fs.writeFileSync(trace, run.traceLines.join('\n') + '\n');
      say(`trace written to ${trace} (${run.traceLines.length} lines)\n`);
    }
    if (json) io.out(JSON.stringify(run.report, null, 2) + '\n');
    else printReport(run.report, io);
    return exitOk;
  } catch (e) {
    if (e instanceof ProbeError) {
      io.err(`listwatch ${metricsOnly ? 'probe-metrics' : 'probe'}: ${visibleText(e.message)}\n`);
      return exitInvalid;
    }
    throw e;
  }
}

/** 128 + SIGINT, as a shell reports a process Ctrl-C ended. */
const exitInterrupted = 130;

/** `probe --compare`: KEP-2340's check per resource (src/probe/probe-compare-run.ts). */
async function compare(
  options: Map<string, string | true>,
  positionals: string[],
  repeated: Map<string, string[]>,
  io: CliIo,
): Promise<number> {
  if (positionals.length)
    throw new UsageError(
      `--compare takes no <list-url> (it builds its LISTs from --resource), got ${JSON.stringify(positionals[0])}`,
    );
  for (const n of ['watch', 'initial-events', 'metrics', 'max-pages', 'trace'])
    if (options.has(n)) throw new UsageError(`--${n} is not an option of --compare`);
  const kubeconfig = options.get('kubeconfig');
  const context = options.get('context');
  const namespace = options.get('namespace');
  const profile = options.get('profile');
  if (kubeconfig === true || context === true || namespace === true || profile === true)
    throw new UsageError('--kubeconfig, --context, --namespace and --profile take a value');
  if (profile !== undefined && profile !== '1.36' && profile !== '1.37')
    throw new UsageError(`--profile expects 1.36 or 1.37, got ${JSON.stringify(profile)}`);
  if (namespace !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(namespace))
    throw new UsageError(`--namespace: not a namespace name: ${JSON.stringify(namespace)}`);
  const json = options.has('json');
  // Ctrl-C before anything is sent (the kubeconfig read, the question) exits at once; while the
  // LISTs are read it aborts the one in flight and says so; a second one exits at once.
  const stop = new AbortController();
  let sending = false;
  const interrupt = (): void => {
    if (!sending || stop.signal.aborted) {
      io.err('listwatch probe: stopped (Ctrl-C)\n');
      process.exit(exitInterrupted);
    }
    stop.abort();
  };
  process.on('SIGINT', interrupt);
  try {
    let resources: CompareResource[];
    try {
      resources = (repeated.get('resource') ?? defaultCompareResources).map((r) =>
        compareResource(r, namespace),
      );
    } catch (e) {
      if (e instanceof ProbeError) throw new UsageError(e.message);
      throw e;
    }
    const o: CompareOptions = {
      resources,
      limit: positiveInteger('limit', options.get('limit')) ?? defaultCompareLimit,
      cacheResourceVersion: options.has('rv0') ? '0' : '',
      profile: profile === '1.37' ? profile137Preview : profile136,
    };
    const target = await loadClusterTarget(
      (kubeconfig as string | undefined) ?? defaultKubeconfigPath(),
      context as string | undefined,
    );
    io.err(describeCompare(target, o).join('\n') + '\n');
    if (!options.has('yes') && !(await confirmedOnTerminal(io))) return exitInvalid;
    sending = true;
    const report = await runCompare(
      target,
      o,
      (line) => io.err(`listwatch probe: ${line}\n`),
      stop.signal,
    );
    if (json) io.out(JSON.stringify(report, null, 2) + '\n');
    else io.out(compareReportText(report).join('\n') + '\n');
    return report.differ || report.errors ? exitInvalid : exitOk;
  } catch (e) {
    if (stop.signal.aborted) {
      io.err('listwatch probe: stopped (Ctrl-C); nothing compared is reported\n');
      return exitInterrupted;
    }
    if (e instanceof ProbeError) {
      io.err(`listwatch probe: ${visibleText(e.message)}\n`);
      return exitUsage;
    }
    throw e;
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}

export const probeCommand: CliCommand = {
  name: 'probe',
  summary: "run a real paged LIST (and watch) against a kubeconfig's cluster, read-only",
  help: probeHelp,
  run: (args, io) => probe(args, io, false),
};

export const probeMetricsCommand: CliCommand = {
  name: 'probe-metrics',
  summary: "scrape a kubeconfig's cluster's /metrics (storage list, watch cache, etcd latencies)",
  help: metricsHelp,
  run: (args, io) => probe(args, io, true),
};
