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
import { parseArgs, type OptionSpec } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';
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
      ];
  const { options, positionals } = parseArgs(args, specs);
  if (options.has('help')) {
    io.out((metricsOnly ? metricsHelp : probeHelp) + '\n');
    return exitOk;
  }
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
    if (!options.has('yes')) {
      if (!process.stdin.isTTY) {
        io.err(
          'listwatch: not sending: stdin is not a terminal, so there is nobody to confirm; add --yes to send these requests\n',
        );
        return exitInvalid;
      }
      if (!(await askOnTerminal(io))) {
        io.err('listwatch: nothing sent\n');
        return exitInvalid;
      }
    }
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
