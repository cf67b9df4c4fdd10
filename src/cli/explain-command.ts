// `listwatch explain`: how the apiserver serves one LIST or WATCH, found by running it on the
// engine in an assumed cluster state (src/explain/explain-request.ts).
import {
  clusterStateDefaults,
  clusterStateKeys,
  ClusterStateError,
  parseClusterState,
  type ClusterState,
} from '../explain/cluster-state';
import {
  explainRequest,
  ExplainInputError,
  maxExplainObjects,
  type ExplainOptions,
} from '../explain/explain-request';
import { explanationLines } from '../explain/explanation-text';
import { explainAcrossProfiles, MatrixGateError } from '../explain/explanation-matrix';
import { matrixLines } from '../explain/explanation-matrix-text';
import {
  FeatureGateError,
  isProfileVersion,
  parseFeatureGates,
  profileVersions,
  type FeatureName,
} from '../engine';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';

const help = `Usage: listwatch explain <url> [--profile 1.33|1.34|1.35|1.36|1.37 | --matrix]
                        [--gates K=V,...] [--objects N] [--match R] [--state k=v,...] [--json]

Explains one LIST or WATCH request the way the apiserver (k8s.io/apiserver release-1.36,
or master with --profile 1.37) serves it: list or watch; served by the watch cache, a
watch-cache snapshot or etcd, and the delegation rule that decided; whether the limit is
honoured; whether it is a consistent read that may wait up to 3 s for the cache; the etcd
calls with their limits; the errors it can meet (each with the state that causes it).
The answer comes from running the request on the engine (delegator, cacher, etcd3 store,
in-memory etcd) in virtual time, put into the state below.

Arguments:
  <url>          a full URL or a path with its query, e.g.
                 '/api/v1/namespaces/default/pods?limit=500&labelSelector=app%3Dx'

Options:
  --profile P    1.36 (default), 1.37 (master preview), or 1.33, 1.34, 1.35: that
                 release's feature-gate defaults on the 1.36 code (said as an assumption)
  --matrix       every profile side by side: the list/watch gates (value, stage) and the
                 verdicts; a cell that differs from the 1.36 column ends in ' *'
  --gates G      feature gates set on the profile, K=V,... (kube-apiserver's
                 --feature-gates syntax); an unknown or locked gate is refused as
                 kube-apiserver refuses it
  --objects N    objects of the resource in etcd (default 0, at most ${maxExplainObjects})
  --match R      fraction of the objects the request's selectors match, 0..1 (default 1)
  --state S      the cluster state, k=v,... (true/false or a resource version):
${clusterStateKeys.map((k) => `                   ${k.padEnd(25)} default: ${clusterStateDefaults[k]}`).join('\n')}
  --json         print one JSON object instead of text
  -h, --help     show this help

Exit status: 0 explained (also when the request itself would fail), 1 the URL is not a
LIST or WATCH or the state cannot be reached, 2 usage error.`;

function parseObjects(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > maxExplainObjects)
    throw new UsageError(
      `invalid --objects ${JSON.stringify(text)}: expected a whole number from 0 to ${maxExplainObjects}`,
    );
  return Number(text);
}

function parseMatch(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(
      `invalid --match ${JSON.stringify(text)}: expected a fraction from 0 to 1, e.g. 0.01`,
    );
  return n;
}

function parseState(text: string): Partial<ClusterState> {
  try {
    return parseClusterState(text);
  } catch (e) {
    throw new UsageError(`invalid --state: ${(e as Error).message}`);
  }
}

/** pflag's wording for a flag value its Set refused, as kube-apiserver --feature-gates prints it. */
function gatesArgument(text: string | true | undefined): string {
  return `invalid argument ${JSON.stringify(typeof text === 'string' ? text : '')} for "--gates" flag`;
}

function parseGates(text: string): Partial<Record<FeatureName, boolean>> {
  try {
    return parseFeatureGates(text) as Partial<Record<FeatureName, boolean>>;
  } catch (e) {
    if (e instanceof FeatureGateError) throw new UsageError(`${gatesArgument(text)}: ${e.message}`);
    throw e;
  }
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    { name: 'profile', value: true },
    { name: 'matrix', value: false },
    { name: 'gates', value: true },
    { name: 'objects', value: true },
    { name: 'match', value: true },
    { name: 'state', value: true },
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  if (positionals.length === 0)
    throw new UsageError('missing <url> (the LIST or WATCH to explain)');
  if (positionals.length > 1)
    throw new UsageError(
      `one <url> at a time (got ${positionals.length}); quote a URL that contains '&'`,
    );
  const profile = options.get('profile') ?? '1.36';
  if (!isProfileVersion(profile))
    throw new UsageError(
      `invalid --profile ${JSON.stringify(profile)}: expected one of ${profileVersions.join(', ')}`,
    );
  const matrix = options.has('matrix');
  if (matrix && options.has('profile'))
    throw new UsageError('--matrix explains every profile: leave out --profile');
  const opts: ExplainOptions = { profile };
  const gatesText = options.get('gates');
  if (typeof gatesText === 'string') opts.gates = parseGates(gatesText);
  const objects = options.get('objects');
  if (typeof objects === 'string') opts.objects = parseObjects(objects);
  const match = options.get('match');
  if (typeof match === 'string') opts.matchRatio = parseMatch(match);
  const state = options.get('state');
  if (typeof state === 'string') opts.state = parseState(state);
  try {
    if (matrix) {
      const m = await explainAcrossProfiles(positionals[0], opts);
      io.out(
        options.has('json')
          ? JSON.stringify(m) + '\n'
          : matrixLines(m, { bold: process.stdout.isTTY === true }).join('\n') + '\n',
      );
      return exitOk;
    }
    const explanation = await explainRequest(positionals[0], opts);
    io.out(
      options.has('json')
        ? JSON.stringify(explanation) + '\n'
        : explanationLines(explanation).join('\n') + '\n',
    );
    return exitOk;
  } catch (e) {
    if (e instanceof MatrixGateError)
      throw new UsageError(`${gatesArgument(gatesText)} (profile ${e.profile}): ${e.message}`);
    if (e instanceof FeatureGateError)
      throw new UsageError(`${gatesArgument(gatesText)}: ${e.message}`);
    if (e instanceof ExplainInputError || e instanceof ClusterStateError) {
      io.err(`listwatch explain: ${e.message}\n`);
      return exitInvalid;
    }
    throw e;
  }
}

export const explainCommand: CliCommand = {
  name: 'explain',
  summary: 'explain how one LIST or WATCH URL is served (cache, snapshot or etcd, and why)',
  help,
  run,
};
