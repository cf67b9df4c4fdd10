// `listwatch serve`: the engine as a live apiserver on 127.0.0.1 for real kubectl, client-go and
// client-node, until SIGINT or SIGTERM (every watch is closed as on apiserver shutdown, exit 0).
import { parseSeedCounts, type SeedCounts } from '../server/seed-counts';
import { ApiServer, ReplicasError, SeedAbortedError, bigSeed } from '../server/api-server';
import { maxReplicas, parseReplicas, replicasProblem } from '../server/replicas';
import { servingLimitsFromEnv } from '../server/secure-serving';
import { CrdError } from '../server/crd';
import {
  EtcdOpenError,
  memoryEtcdCheck,
  parseEtcdChoice,
  type EtcdChoice,
} from '../server/etcd-choice';
import { KubeconfigError } from '../server/kubeconfig';
import {
  FaultScheduleError,
  parseFaultSchedule,
  type FaultSchedule,
} from '../server/fault-schedule';
import * as fs from 'node:fs';
import type { ProfileName } from '../server/served-resources';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitOk, runCommand } from './command';

const help = `Usage: listwatch serve [--port N] [--profile 1.36|1.37] [--seed pods=N,configmaps=N]
                       [--crd FILE]... [--kubeconfig PATH] [--audit-log PATH]
                       [--etcd spawn|URL,...] [--etcd-prefix PREFIX]
                       [--etcd-version VERSION] [--replicas N [--sticky]]
                       [--faults FILE] [--clients-report] [--no-namespace-controller]
                       [--json]

Serves the Kubernetes API over HTTP/1.1 on 127.0.0.1 from the simulated apiserver storage
layer (k8s.io/apiserver release-1.36 by default) on the real clock: the built-in resources a
controller uses (core/v1, apps/v1, batch/v1, coordination, events, discovery, rbac,
networking, policy, autoscaling/v2, apiextensions CRDs; see kubectl api-resources), and a
custom resource per CRD (created through the API, or given by --crd), with server-side apply.
No controllers run but the namespace controller and apiextensions' CRD controllers (a
Deployment makes no ReplicaSet); no admission webhooks, no CEL, no RBAC
enforcement. Every request needs the bearer token of the kubeconfig it writes (cluster, user
and context "listwatch").

Options:
  --port N              port to listen on (default 0: a free one)
  --profile P           1.36 (release-1.36, default) or 1.37 (the master preview)
  --seed LIST           objects to create in "default", e.g. pods=100,configmaps=10
  --crd FILE            an apiextensions.k8s.io/v1 CustomResourceDefinition (YAML or JSON);
                        repeatable
  --kubeconfig PATH     where to write the kubeconfig, never through a symbolic link (default:
                        a new temporary directory, removed with it when the server stops)
  --audit-log PATH      write audit.k8s.io/v1 events (Metadata level) to PATH, a failed
                        authentication's too (one ResponseStarted event, code 401)
  --etcd WHERE          where the objects live: memory (default: the engine's in-memory
                        etcd), spawn (start Debian's etcd-server on a free 127.0.0.1 port
                        with a temporary data directory, stopped with the server), or an
                        existing cluster's client URLs, e.g. http://127.0.0.1:2379,…
                        (kube-apiserver's --etcd-servers; plain http only)
  --etcd-prefix PREFIX  the key prefix in etcd (kube-apiserver's --etcd-prefix; default
                        /registry)
  --etcd-version V      the in-memory etcd reports version V (e.g. 3.4.23) to the storage
                        feature check, which decides from it as kube-apiserver does whether
                        the watch cache may serve consistent reads and WatchList (not below
                        3.4.31, nor 3.5.0-3.5.12): the run is then served as one on a real
                        etcd of that version (default: no version, RequestWatchProgress
                        supported, as on the etcd release-1.36 pairs with)
  --replicas N          run N apiservers (1..${maxReplicas}, default 1) over the one etcd, as an HA
                        control plane does, behind the one URL: each has its own watch
                        caches fed by its own etcd watch (each lags on its own) and its
                        own CRD controllers; the namespace controller runs once (replica
                        1's, as kube-controller-manager's leader). Requests are spread as
                        a load balancer does: round robin per request (a watch stays on
                        the replica that accepted it). Needs --etcd spawn or URLs. The
                        admin API and /healthz, /livez, /readyz answer for the whole
                        server; a fault names a replica with match {replica: N}
                        ('listwatch fault --replica N'); --audit-log annotates each event
                        with listwatch.dev/replica
  --sticky              with --replicas: each TCP connection stays on one replica (an L4
                        balancer), chosen round robin per connection
  --faults FILE         a fault schedule (YAML or JSON), checked in full before the server
                        serves (an error names the file, line and column), applied as it
                        starts: 'faults:', a list of {name, parameters, match, trigger} with
                        the names of 'listwatch fault --list', e.g.
                          faults:
                            - name: http-error
                              parameters: {code: 429}
                              match: {verb: list, resource: pods}
                              trigger: {nth: 1}
                        'listwatch fault --active' lists them with their ids
  --clients-report      record what each client did for GET /debug/listwatch/v1/clients
                        and 'listwatch clients' (LISTs, WATCHes, restarts, relists, answers,
                        each fault's recovery time). It keeps every request for the server's
                        life: for tests, not for a long-running server
  --no-namespace-controller
                        do not emulate kube-controller-manager's namespace controller (a
                        deleted namespace then stays Terminating, as with no controller)
  --json                print {"url":…,"kubeconfig":…,"token":…} as the first stdout line,
                        with "etcd" (its client URLs) on a real etcd, "replicas" and
                        "spread" with --replicas
  -h, --help            show this help

Stop it with Ctrl-C (SIGINT) or SIGTERM.
A --seed of 1,000 objects or more prints its size first, then its progress every 2 s, on
stderr; Ctrl-C while it seeds stops the server and the etcd it started.
Exit status: 0 stopped, 1 could not start (port in use, unreadable CRD, etcd not reachable
or etcd-server not installed, interrupted while seeding, --kubeconfig a symbolic link, a
fault schedule naming a resource that is not served), 2 usage error (a fault schedule that
cannot be read or checked).`;

const seedProgressEveryMs = 2000;

/** The seed's progress on stderr: its size before the first create, then every 2 s, then done. */
function seedProgressPrinter(
  io: CliIo,
  counts: SeedCounts,
  etcd: EtcdChoice | undefined,
): (created: number, total: number) => void {
  const started = Date.now();
  let printed = started;
  const seconds = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const where =
    etcd === undefined || etcd.kind === 'memory'
      ? 'the in-memory etcd'
      : etcd.kind === 'spawn'
        ? 'the etcd-server it started'
        : `etcd ${etcd.endpoints.join(',')}`;
  return (created, total) => {
    if (total < bigSeed) return;
    if (created === 0)
      io.err(
        `listwatch serve: seeding ${total} objects (pods=${counts.pods ?? 0}, configmaps=${counts.configmaps ?? 0}) into ${where}, one create at a time; Ctrl-C stops\n`,
      );
    else if (created === total)
      io.err(`listwatch serve: seeded ${total} objects in ${seconds()}\n`);
    else if (Date.now() - printed >= seedProgressEveryMs) {
      printed = Date.now();
      io.err(
        `listwatch serve: seeded ${created} of ${total} objects (${Math.floor((100 * created) / total)}%, ${seconds()})\n`,
      );
    }
  };
}

/** `pods=N,configmaps=N`: seed-counts.ts's rule, its message a usage error here. */
export function parseSeed(text: string): SeedCounts {
  try {
    return parseSeedCounts(text);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** `--faults FILE`, read and checked in full (usage errors name the file, line and column). */
function readFaultSchedule(file: string): FaultSchedule {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--faults: ${(e as Error).message}`);
  }
  try {
    return parseFaultSchedule(text, file);
  } catch (e) {
    if (e instanceof FaultScheduleError) throw new UsageError(e.message);
    throw e;
  }
}

function parsePort(text: string): number {
  if (!/^[0-9]+$/.test(text) || Number(text) > 65535)
    throw new UsageError(`--port expects a port number 0..65535, got ${JSON.stringify(text)}`);
  return Number(text);
}

function parseProfile(text: string): ProfileName {
  if (text !== '1.36' && text !== '1.37')
    throw new UsageError(`--profile expects 1.36 or 1.37, got ${JSON.stringify(text)}`);
  return text;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'serve the Kubernetes API on 127.0.0.1 to real kubectl and clients',
  help,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { options, positionals, repeated } = parseArgs(argv, [
      { name: 'port', value: true },
      { name: 'profile', value: true },
      { name: 'seed', value: true },
      { name: 'crd', value: true, multiple: true },
      { name: 'kubeconfig', value: true },
      { name: 'audit-log', value: true },
      { name: 'etcd', value: true },
      { name: 'etcd-prefix', value: true },
      { name: 'etcd-version', value: true },
      { name: 'faults', value: true },
      { name: 'clients-report', value: false },
      { name: 'replicas', value: true },
      { name: 'sticky', value: false },
      { name: 'no-namespace-controller', value: false },
      { name: 'json', value: false },
      { name: 'help', value: false, short: 'h' },
    ]);
    if (options.has('help')) {
      io.out(help + '\n');
      return exitOk;
    }
    if (positionals.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const str = (name: string): string | undefined => {
      const v = options.get(name);
      return typeof v === 'string' ? v : undefined;
    };
    const port = str('port');
    const profile = str('profile');
    const seed = str('seed');
    const etcd = str('etcd');
    let etcdChoice: EtcdChoice | undefined;
    try {
      etcdChoice = etcd === undefined ? undefined : parseEtcdChoice(etcd);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const etcdVersion = str('etcd-version');
    if (etcdVersion !== undefined) {
      if (etcdChoice !== undefined && etcdChoice.kind !== 'memory')
        throw new UsageError(
          `--etcd-version is for the in-memory etcd; with --etcd ${etcd} each member reports its own version (Maintenance Status)`,
        );
      try {
        memoryEtcdCheck(etcdVersion);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      etcdChoice = { kind: 'memory', version: etcdVersion };
    }
    const etcdPrefix = str('etcd-prefix');
    if (etcdPrefix !== undefined && !etcdPrefix.startsWith('/'))
      throw new UsageError(
        `--etcd-prefix expects a key prefix starting with /, got ${JSON.stringify(etcdPrefix)}`,
      );
    const replicasText = str('replicas');
    const replicas = replicasText === undefined ? 1 : parseReplicas(replicasText);
    if (typeof replicas !== 'number') throw new UsageError(replicas.message);
    const refused = replicasProblem(replicas, etcdChoice);
    if (refused !== undefined) throw new UsageError(refused);
    const sticky = options.has('sticky');
    if (sticky && replicas < 2)
      throw new UsageError(
        '--sticky keeps each connection on one replica: it goes with --replicas 2 or more',
      );
    const seedCounts = seed === undefined ? undefined : parseSeed(seed);
    const faultsFile = str('faults');
    const faultSchedule = faultsFile === undefined ? undefined : readFaultSchedule(faultsFile);
    // The stop handlers go in before the start, and stay: a signal just after the ready line (a
    // client stopping the server at once) must never meet Node's default action, which kills.
    let stop = (): void => undefined;
    const stopRequested = new Promise<void>((resolve) => {
      stop = (): void => {
        process.removeListener('SIGINT', stop);
        process.removeListener('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    // Ctrl-C or SIGTERM while starting: the seed stops, and the etcd started for it with it. A
    // second one exits at once (a spawned etcd is killed on exit) for a start stuck elsewhere.
    const starting = new AbortController();
    const abort = (): void => {
      if (starting.signal.aborted) process.exit(130);
      io.err('listwatch serve: stopping (again to force it)\n');
      starting.abort();
    };
    process.on('SIGINT', abort);
    process.on('SIGTERM', abort);
    let server: ApiServer;
    try {
      server = await ApiServer.start({
        port: port === undefined ? 0 : parsePort(port),
        profile: profile === undefined ? undefined : parseProfile(profile),
        seed: seedCounts,
        crdFiles: repeated.get('crd') ?? [],
        kubeconfigPath: str('kubeconfig'),
        auditLogPath: str('audit-log'),
        namespaceController: !options.has('no-namespace-controller'),
        etcd: etcdChoice,
        etcdPrefix,
        seedProgress: seedCounts && seedProgressPrinter(io, seedCounts, etcdChoice),
        signal: starting.signal,
        servingLimits: servingLimitsFromEnv(process.env),
        faultSchedule,
        clientsReport: options.has('clients-report'),
        faultLog: (message) => io.err(`listwatch serve: ${message}\n`),
        replicas,
        sticky,
      });
    } catch (e) {
      stop();
      if (e instanceof UsageError) throw e;
      const err = e as NodeJS.ErrnoException;
      const why =
        e instanceof CrdError ||
        e instanceof EtcdOpenError ||
        e instanceof SeedAbortedError ||
        e instanceof KubeconfigError ||
        e instanceof ReplicasError ||
        e instanceof FaultScheduleError
          ? err.message
          : err.code === 'EADDRINUSE'
            ? `port ${port} is in use`
            : err.code === 'ENOENT' || err.code === 'EACCES'
              ? err.message
              : (err.stack ?? err.message);
      io.err(`listwatch serve: cannot start: ${why}\n`);
      return 1;
    } finally {
      process.removeListener('SIGINT', abort);
      process.removeListener('SIGTERM', abort);
    }
    if (starting.signal.aborted) {
      // Stopped after the seed, before serving: nothing was served, so nothing to drain.
      stop();
      await server.stop();
      io.err('listwatch serve: stopped while starting\n');
      return exitOk;
    }
    if (options.has('json'))
      io.out(
        JSON.stringify({
          url: server.url,
          kubeconfig: server.kubeconfigPath,
          token: server.token,
          ...(server.etcdEndpoints ? { etcd: server.etcdEndpoints } : {}),
          ...(server.replicas > 1 ? { replicas: server.replicas, spread: server.spread } : {}),
        }) + '\n',
      );
    else
      io.out(
        `listwatch serve: serving on ${server.url} (kubeconfig ${server.kubeconfigPath}, profile ${server.resources.profile.kubernetesVersion}, etcd ${server.etcdEndpoints?.join(',') ?? 'in memory'}${server.replicas > 1 ? `, ${server.spread}` : ''}); Ctrl-C stops\n`,
      );
    if (server.etcdFeatureLine) io.err(`listwatch serve: ${server.etcdFeatureLine}\n`);
    await stopRequested;
    // A second signal while the watches drain exits at once; exit() (not the signal's default
    // action, which kills) still runs the 'exit' hook that removes a temporary kubeconfig.
    const force = (): never => process.exit(130);
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    try {
      await server.stop();
    } finally {
      process.removeListener('SIGINT', force);
      process.removeListener('SIGTERM', force);
    }
    return exitOk;
  },
};

/** `listwatch serve ARGS`: the entry of the CLI's serve chunk (dist/cli-serve.js, see listwatch.ts). */
export function runServeCommand(argv: string[], io: CliIo): Promise<number> {
  return runCommand(serveCommand, argv, io);
}
