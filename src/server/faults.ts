// No upstream counterpart: the admin API that injects faults into the live engine
// (`POST /debug/listwatch/v1/faults/<name>`, `GET /debug/listwatch/v1/faults`, the faults in force
// at `GET /debug/listwatch/v1/faults/active[/<id>]`, cleared by `DELETE` of the same paths). A
// server fault is one engine hook doing what upstream's apiserver or etcd would do in that
// situation, applied at once or `trigger.afterSeconds` later; a request fault (request-faults.ts)
// acts on the requests its matchers pick, when its trigger says. This module validates the
// parameters, matchers and trigger, picks the resources and reports what was done. Errors are
// metav1.Status bodies (400 for a body that is not a JSON object, 422 naming the field, 404 for an
// unknown fault or id). On `serve --replicas` a server fault acts on the replica its `replica`
// matcher names, else on each replica in turn.
import { type EtcdMember, MemoryEtcd, isZeroLatency, type LatencyModel } from '../engine';
import { failure as statusFailure } from '../engine/http-face';
import type { ServedResource } from './served-resource';
import type { ActiveFaults } from './active-faults';
import { matcherFields, parseFaultMatcher, type FaultMatcher } from './fault-matcher';
import { parseFaultTrigger, triggerFields, type FaultTrigger } from './fault-trigger';

/** What the faults act on: the served resources and the etcd they share. */
export interface FaultWorld {
  readonly resources: readonly ServedResource[];
  readonly etcd: EtcdMember;
  /** klog-style sink for one line per injected fault. */
  readonly log?: (message: string) => void;
  /** Told of every fault applied (a live run's timeline marker, live-recorder.ts). */
  readonly onApplied?: (fault: AppliedFault) => void;
  /** The faults in force: request faults, and server faults waiting for their time. */
  readonly active: ActiveFaults;
  /**
   * `serve --replicas N`: each replica's resources and etcd client, replica 1 first (`resources`
   * and `etcd` above are replica 1's). A server fault acts on the replica its `replica` matcher
   * names, else on every one; undefined: a server of one.
   */
  readonly replicas?: readonly ReplicaWorld[];
}

/** What a server fault acts on in one replica of `serve --replicas`. */
export interface ReplicaWorld {
  readonly resources: readonly ServedResource[];
  readonly etcd: EtcdMember;
}

/** A fault that was applied: its name, its parameters and its log line's words. */
export interface AppliedFault {
  name: string;
  params: Record<string, unknown>;
  /** What it did, e.g. `history dropped: pods` (the log line without `fault <name>: `). */
  text: string;
  /** Its id (the active-faults registry's, as the admin API answered it). */
  id: number;
  /** A request fault: it acts on the requests its matchers pick as they come, not on the engine. */
  request?: true;
}

/** An admin API answer: the HTTP status and a JSON body. */
export interface FaultResponse {
  status: number;
  body: unknown;
}

/** The path prefix of the admin API. */
export const faultsPath = '/debug/listwatch/v1/faults';

type ParamType = 'integer' | 'number' | 'string' | 'boolean';

/** One parameter of a fault, as `GET /debug/listwatch/v1/faults` lists it. */
export interface FaultParameter {
  name: string;
  type: ParamType;
  required: boolean;
  description: string;
  /** Smallest allowed value (numbers), exclusive when `exclusiveMinimum`. */
  minimum?: number;
  exclusiveMinimum?: boolean;
  /** Allowed values. */
  enum?: readonly (string | number)[];
}

/**
 * Which requests a fault can act on: `server` faults act on the engine, not on requests (no
 * matchers but `resource` where they have that parameter; no trigger but afterSeconds); the
 * others act on the requests their matchers pick, of this kind only.
 */
export type FaultScope = 'server' | 'request' | 'watch' | 'watchList';

export interface FaultDescription {
  name: string;
  description: string;
  parameters: readonly FaultParameter[];
  /** Parameters of which exactly one must be given (terminate-watcher: id or userAgent). */
  exactlyOneOf?: readonly string[];
  /** What it acts on (FaultScope). */
  acts: FaultScope;
  /**
   * Acts on the in-memory etcd's model (its service time, reachability, RangeStream knob): a
   * server over a real etcd refuses it (409), so the faces do not offer it there.
   */
  memoryEtcdOnly?: true;
}

type Params = Record<string, unknown>;

interface Fault extends FaultDescription {
  /** A server fault's effect (request faults act in request-faults.ts). */
  apply?(p: Params, world: FaultWorld): Promise<FaultResponse> | FaultResponse;
}

/** The in-memory etcd a memoryEtcdOnly fault acts on (handleFaultRequest refused the others). */
function memoryEtcd(world: FaultWorld): MemoryEtcd {
  return world.etcd as MemoryEtcd;
}

const resourceParam: FaultParameter = {
  name: 'resource',
  type: 'string',
  required: false,
  description:
    'The resource (pods, or <plural>.<group> for a custom resource); default: every one.',
};

const seconds = (what: string): FaultParameter => ({
  name: 'seconds',
  type: 'number',
  required: true,
  minimum: 0,
  exclusiveMinimum: true,
  description: what,
});

const latencyFigures: readonly (keyof LatencyModel)[] = [
  'perRequestMs',
  'perWriteMs',
  'perCountedKeyMs',
  'perKeyMs',
  'perByteMs',
];

const latencyDescriptions: Record<keyof LatencyModel, string> = {
  perRequestMs: 'ms for every request (the round trip).',
  perWriteMs: 'ms added for every write (raft, fsync).',
  perCountedKeyMs: "ms per key in a range's index walk (etcd's Count).",
  perKeyMs: 'ms per key returned or written.',
  perByteMs: 'ms per byte returned or written.',
};

const zeroModel: LatencyModel = {
  perRequestMs: 0,
  perWriteMs: 0,
  perCountedKeyMs: 0,
  perKeyMs: 0,
  perByteMs: 0,
};

const faults: readonly Fault[] = [
  {
    name: 'compact',
    acts: 'server',
    description:
      "Compacts etcd's history before a revision (default: the current one): reads and watches " +
      'from older resource versions get 410 from etcd.',
    parameters: [
      {
        name: 'revision',
        type: 'integer',
        required: false,
        minimum: 1,
        description: 'The revision to compact to; default: the current revision.',
      },
    ],
    async apply(p, world) {
      const revision = (p.revision as number | undefined) ?? world.etcd.currentRevision();
      try {
        await world.etcd.compaction({ revision });
      } catch (e) {
        return invalid(`revision: ${(e as Error).message}`);
      }
      world.log?.(`fault compact: etcd compacted to revision ${revision}`);
      return ok('compact', {
        revision,
        compactRevision: world.etcd.compactRevision(),
        currentRevision: world.etcd.currentRevision(),
      });
    },
  },
  {
    name: 'cache-lag',
    acts: 'server',
    description:
      "Pauses the cacher's reflector: etcd's watch events (and progress notifications) are held, " +
      'then applied in order, so the watch cache falls behind etcd. Consistent reads wait up to 3s, ' +
      'then fall back to etcd or answer 429 as the profile decides; WatchList waits.',
    parameters: [seconds('How long the reflector is paused.'), resourceParam],
    apply(p, world) {
      const picked = pick(p, world, { watchCache: true });
      if (!Array.isArray(picked)) return picked;
      const ms = (p.seconds as number) * 1000;
      const resources = picked.map((r) => {
        r.engine.cacher.reflector.pause(ms);
        return {
          resource: resourceName(r),
          pausedForMs: r.engine.cacher.reflector.pausedFor(),
          cacheResourceVersion: r.engine.watchCache.resourceVersion,
          etcdRevision: world.etcd.currentRevision(),
        };
      });
      world.log?.(`fault cache-lag: reflectors paused for ${ms}ms: ${names(picked)}`);
      return ok('cache-lag', { resources });
    },
  },
  {
    name: 'expire-history',
    acts: 'server',
    description:
      "Drops the watch cache's event history, as a restarted or shrunk watch cache has none: " +
      'watches resuming from an older resource version get 410 too old resource version.',
    parameters: [resourceParam],
    apply(p, world) {
      const picked = pick(p, world, { watchCache: true });
      if (!Array.isArray(picked)) return picked;
      const resources = picked.map((r) => ({
        resource: resourceName(r),
        droppedEvents: r.engine.watchCache.expireHistory(),
        oldestResourceVersion: r.engine.watchCache.resourceVersion,
      }));
      world.log?.(`fault expire-history: history dropped: ${names(picked)}`);
      return ok('expire-history', { resources });
    },
  },
  {
    memoryEtcdOnly: true,
    name: 'etcd-latency',
    acts: 'server',
    description:
      "Sets etcd's service time from the next request on (the figures not given are 0); answers " +
      'wait for it. All 0 turns the latency off.',
    parameters: latencyFigures.map((k) => ({
      name: k,
      type: 'number' as const,
      required: false,
      minimum: 0,
      description: latencyDescriptions[k],
    })),
    apply(p, world) {
      const model: Partial<LatencyModel> = {};
      for (const k of latencyFigures) if (p[k] !== undefined) model[k] = p[k] as number;
      memoryEtcd(world).setLatency(model, !isZeroLatency({ ...zeroModel, ...model }));
      world.log?.(`fault etcd-latency: ${JSON.stringify(memoryEtcd(world).latencyModel)}`);
      return ok('etcd-latency', {
        latency: { ...memoryEtcd(world).latencyModel },
        simulated: memoryEtcd(world).simulatesLatency,
      });
    },
  },
  {
    memoryEtcdOnly: true,
    name: 'etcd-unavailable',
    acts: 'server',
    description:
      'Makes etcd unreachable: every request fails at once with gRPC Unavailable (a refused ' +
      'dial), which the etcd3 store passes on as a 500; open watches stay silent.',
    parameters: [seconds('How long etcd is unreachable.')],
    apply(p, world) {
      const ms = (p.seconds as number) * 1000;
      memoryEtcd(world).setUnreachable(ms);
      world.log?.(`fault etcd-unavailable: etcd unreachable for ${ms}ms`);
      return ok('etcd-unavailable', { unavailableForMs: memoryEtcd(world).unreachableFor() });
    },
  },
  {
    memoryEtcdOnly: true,
    name: 'rangestream',
    acts: 'server',
    description:
      "Switches etcd's RangeStream support (etcd 3.7). Only the 1.37 profile's EtcdRangeStream " +
      'gate uses it; a store that found it unsupported asks again after 10 minutes.',
    parameters: [
      {
        name: 'mode',
        type: 'string',
        required: true,
        enum: ['supported', 'unsupported'],
        description: 'supported: etcd 3.7 RangeStream; unsupported: gRPC Unimplemented.',
      },
    ],
    apply(p, world) {
      memoryEtcd(world).setRangeStream(p.mode === 'supported' ? 'supported' : 'unimplemented');
      world.log?.(`fault rangestream: ${String(p.mode)}`);
      return ok('rangestream', {
        mode: p.mode,
        gateEnabled: world.resources.map((r) => ({
          resource: resourceName(r),
          EtcdRangeStream: r.engine.gates.EtcdRangeStream,
        })),
      });
    },
  },
  {
    name: 'terminate-watcher',
    acts: 'server',
    description:
      'Closes watchers as the cacher closes an unresponsive one (its log line and ' +
      'apiserver_terminated_watchers_total): by watcher id, or every watcher of a user agent ' +
      '(exactly one of the two).',
    exactlyOneOf: ['id', 'userAgent'],
    parameters: [
      {
        name: 'id',
        type: 'integer',
        required: false,
        minimum: 0,
        description: 'The watcher id (GET /debug/listwatch/v1/state lists them).',
      },
      {
        name: 'userAgent',
        type: 'string',
        required: false,
        description: "Every watcher whose request's User-Agent is exactly this.",
      },
      resourceParam,
    ],
    apply(p, world) {
      const byId = p.id !== undefined;
      const picked = pick(p, world);
      if (!Array.isArray(picked)) return picked;
      const matches = picked.flatMap((r) =>
        r.engine.cacher
          .registeredWatchers()
          .filter((w) => (byId ? w.id === p.id : w.request?.client === p.userAgent))
          .map((w) => ({ r, w })),
      );
      if (byId && matches.length > 1)
        return invalid(
          `id: watcher ${String(p.id)} exists in ${names(matches.map((m) => m.r))}; name the resource`,
        );
      if (matches.length === 0)
        return notFound(
          byId
            ? `no watcher with id ${String(p.id)}`
            : `no watcher of user agent ${JSON.stringify(p.userAgent)}`,
        );
      const terminated = matches
        .filter(({ w }) => w.terminate())
        .map(({ r, w }) => ({
          resource: resourceName(r),
          id: w.id,
          userAgent: w.request?.client,
          requestLine: w.request?.requestLine,
        }));
      world.log?.(`fault terminate-watcher: ${terminated.length} terminated`);
      return ok('terminate-watcher', { terminated });
    },
  },
  {
    name: 'restart',
    acts: 'server',
    description:
      'Restarts the cachers as an apiserver restart does: every watch is closed, and a new watch ' +
      'cache lists etcd (requests get 429 until it is ready).',
    parameters: [resourceParam],
    apply(p, world) {
      const picked = pick(p, world, { watchCache: true });
      if (!Array.isArray(picked)) return picked;
      const resources = picked.map((r) => {
        const closedWatchers = r.engine.cacher.watcherCount();
        r.engine.restart();
        return { resource: resourceName(r), closedWatchers };
      });
      world.log?.(`fault restart: cachers restarted: ${names(picked)}`);
      return ok('restart', { resources });
    },
  },
  {
    name: 'stall-watch',
    acts: 'watch',
    description:
      'Matching watches stay open and receive nothing, not even bookmarks, for --seconds from ' +
      'their start (a half-open connection); then the events held are delivered in order, or ' +
      'the connection is dropped.',
    parameters: [
      seconds('How long each matching watch is stalled.'),
      {
        name: 'then',
        type: 'string',
        required: false,
        enum: ['deliver', 'drop'],
        description: 'deliver (default): the held events, in order; drop: cut the connection.',
      },
    ],
  },
  {
    name: 'omit-end-bookmark',
    acts: 'watchList',
    description:
      'Matching WatchList requests get their initial events and no k8s.io/initial-events-end ' +
      'bookmark, as a non-conforming server sends (client-go waits for it until its timeout).',
    parameters: [],
  },
  {
    name: 'ignore-send-initial-events',
    acts: 'watchList',
    description:
      'Matching WatchList requests are answered as a plain watch from now (from their ' +
      'resourceVersion if they name one): no initial events and no k8s.io/initial-events-end ' +
      'bookmark, as aggregated API servers and proxies that ignore sendInitialEvents answer ' +
      '(client-go waits for the bookmark until the watch ends, then falls back).',
    parameters: [],
  },
  {
    name: 'drop-connection',
    acts: 'watch',
    description:
      'Cuts matching watch connections after --after-events events written (0: at once), with ' +
      'no ERROR event and no end of the chunked body: the client reads an unexpected EOF.',
    parameters: [
      {
        name: 'afterEvents',
        type: 'integer',
        required: false,
        minimum: 0,
        description: 'Events written before the cut (default 0), e.g. inside the initial events.',
      },
    ],
  },
  {
    name: 'http-error',
    acts: 'request',
    description:
      "Answers matching requests with upstream's own response for the code: 429 as API " +
      'Priority and Fairness rejects (Retry-After: 1), 500 an internal error, 503 as a shutting ' +
      'down apiserver (Retry-After: 1), 504 as the request timeout filter.',
    parameters: [
      {
        name: 'code',
        type: 'integer',
        required: true,
        enum: [429, 500, 503, 504],
        description: 'The HTTP status: 429, 500, 503 or 504.',
      },
    ],
  },
  {
    name: 'blackhole',
    acts: 'request',
    description:
      'Matching requests are accepted and never answered: each connection is held until its ' +
      "client goes or the fault is cleared. At most 600 are held (kube-apiserver's in-flight " +
      'limits; half the connection cap if less); past that a matching request is answered 429.',
    parameters: [],
  },
  {
    name: 'latency',
    acts: 'request',
    description: "Adds --ms (the server's clock) before matching requests are served.",
    parameters: [
      {
        name: 'ms',
        type: 'number',
        required: true,
        minimum: 0,
        exclusiveMinimum: true,
        description: 'Milliseconds added before each matching request is served.',
      },
    ],
  },
];

/** Every fault and its parameters (the CLI's `--list`, the editor's quick inputs). */
export function describeFaults(): FaultDescription[] {
  return faults.map(({ name, description, parameters, exactlyOneOf, memoryEtcdOnly, acts }) => ({
    name,
    description,
    acts,
    parameters,
    ...(exactlyOneOf ? { exactlyOneOf } : {}),
    ...(memoryEtcdOnly ? { memoryEtcdOnly } : {}),
  }));
}

/** The path of the faults in force under faultsPath (`/debug/listwatch/v1/faults/active`). */
export const activeFaultsSegment = 'active';

/** A fault as a request or a schedule names it: its parameters, matchers and trigger. */
export interface FaultSpec {
  name: string;
  params: Params;
  match: FaultMatcher;
  trigger: FaultTrigger;
}

/** Where a FaultSpec's problem lies: `parameters`, `match` or `trigger`, and the key in it. */
export interface FaultSpecProblem {
  part: 'name' | 'parameters' | 'match' | 'trigger';
  field?: string;
  message: string;
}

/**
 * Checks a fault's name, parameters, matchers and trigger (nothing applied): the spec with
 * `match.resource` folded into a server fault's `resource` parameter, or the first problem.
 * `served` lists the resources a `resource` may name (undefined: not checked), `replicas` how many
 * replicas a `replica` matcher may name (undefined: not checked).
 */
export function checkFaultSpec(
  name: string,
  params: Params,
  match: unknown,
  trigger: unknown,
  served?: readonly string[],
  replicas?: number,
): { spec: FaultSpec } | { problem: FaultSpecProblem } {
  const fault = faults.find((f) => f.name === name);
  if (!fault)
    return {
      problem: {
        part: 'name',
        message: `unknown fault ${JSON.stringify(name)}; expected one of: ${faults.map((f) => f.name).join(', ')}`,
      },
    };
  const paramProblem = validate(fault, params);
  if (paramProblem) {
    const field = paramProblem.slice(0, paramProblem.indexOf(':'));
    return { problem: { part: 'parameters', field, message: paramProblem } };
  }
  const m = parseFaultMatcher(match);
  if (!('matcher' in m))
    return { problem: { part: 'match', field: m.field, message: qualified('match', m) } };
  const t = parseFaultTrigger(trigger);
  if (!('trigger' in t))
    return { problem: { part: 'trigger', field: t.field, message: qualified('trigger', t) } };
  const spec: FaultSpec = { name, params: { ...params }, match: m.matcher, trigger: t.trigger };
  const scopeProblem = checkScope(fault, spec);
  if (scopeProblem) return { problem: scopeProblem };
  if (replicas !== undefined && spec.match.replica !== undefined && spec.match.replica > replicas)
    return {
      problem: {
        part: 'match',
        field: 'replica',
        message: `match.replica: ${spec.match.replica}: this server runs ${replicas === 1 ? '1 replica (listwatch serve --replicas N runs more)' : `${replicas} replicas; expected 1..${replicas}`}`,
      },
    };
  const resource = (spec.params.resource ?? spec.match.resource) as string | undefined;
  if (served && resource !== undefined && !served.includes(resource))
    return {
      problem: {
        part: spec.match.resource !== undefined ? 'match' : 'parameters',
        field: 'resource',
        message: `${spec.match.resource !== undefined ? 'match.' : ''}resource: ${JSON.stringify(resource)} is not served; expected one of: ${served.join(', ')}`,
      },
    };
  return { spec };
}

function qualified(part: string, p: { field?: string; message: string }): string {
  return `${p.field === undefined ? part : `${part}.${p.field}`}: ${p.message}`;
}

/** What a fault of `fault.acts` refuses of the matchers and triggers (each named). */
function checkScope(fault: Fault, spec: FaultSpec): FaultSpecProblem | undefined {
  const refuse = (part: 'match' | 'trigger', field: string, why: string): FaultSpecProblem => ({
    part,
    field,
    message: `${part}.${field}: ${fault.name} ${why}`,
  });
  const matchers = Object.keys(spec.match) as (keyof FaultMatcher)[];
  switch (fault.acts) {
    case 'server': {
      const hasResource = fault.parameters.some((p) => p.name === 'resource');
      for (const k of matchers) {
        // A server fault acts on one replica's engine (or every replica's).
        if ((k === 'resource' && hasResource) || k === 'replica') continue;
        return refuse(
          'match',
          k,
          `acts on the server, not on requests: it takes ${hasResource ? 'only the resource and replica matchers' : 'only the replica matcher'}`,
        );
      }
      for (const k of Object.keys(spec.trigger))
        if (k !== 'afterSeconds')
          return refuse(
            'trigger',
            k,
            'acts on the server, not on requests: its only trigger is afterSeconds',
          );
      if (spec.match.resource !== undefined) {
        if (spec.params.resource !== undefined && spec.params.resource !== spec.match.resource)
          return refuse(
            'match',
            'resource',
            `already has the resource parameter ${JSON.stringify(spec.params.resource)}`,
          );
        spec.params.resource = spec.match.resource;
        delete spec.match.resource;
      }
      return undefined;
    }
    case 'watch':
    case 'watchList':
      if (spec.match.verb !== undefined && spec.match.verb !== 'watch')
        return refuse(
          'match',
          'verb',
          `acts on watches: expected "watch", got ${JSON.stringify(spec.match.verb)}`,
        );
      if (fault.acts === 'watchList' && spec.match.watchList === false)
        return refuse('match', 'watchList', 'acts on WatchList requests only: expected true');
      return undefined;
    case 'request':
      return undefined;
  }
}

/** The names of the matchers and triggers (the admin API's list says them). */
export const faultSelectors = {
  match: matcherFields.map((f) => f.name),
  trigger: triggerFields.map((f) => f.name),
};

/**
 * The admin API: `name` undefined or '' is the list (GET); a fault is POSTed with a JSON object
 * of its parameters (an empty body is `{}`) and, under `match` and `trigger`, its matchers and
 * trigger; `active` lists the faults in force (GET) and clears them (DELETE), `active/<id>` one.
 */
export async function handleFaultRequest(
  method: string,
  name: string | undefined,
  body: string | undefined,
  world: FaultWorld,
): Promise<FaultResponse> {
  if (name === undefined || name === '') {
    if (method !== 'GET') return methodNotAllowed(method, 'GET');
    return {
      status: 200,
      body: {
        kind: 'FaultList',
        faults: describeFaults(),
        matchers: matcherFields,
        triggers: triggerFields,
      },
    };
  }
  if (name === activeFaultsSegment || name.startsWith(`${activeFaultsSegment}/`))
    return activeRequest(method, name.slice(activeFaultsSegment.length + 1), world.active);
  const fault = faults.find((f) => f.name === name);
  if (!fault)
    return notFound(
      `unknown fault ${JSON.stringify(name)}; expected one of: ${faults.map((f) => f.name).join(', ')}`,
    );
  if (method === 'GET') return { status: 200, body: describeFaults().find((f) => f.name === name) };
  if (method !== 'POST') return methodNotAllowed(method, 'POST');
  let parsed: unknown;
  try {
    parsed = body === undefined || body.trim() === '' ? {} : JSON.parse(body);
  } catch (e) {
    return failure(400, 'BadRequest', `invalid JSON body: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return failure(
      400,
      'BadRequest',
      `the body must be a JSON object of ${name}'s parameters, got ${jsonKind(parsed)}`,
    );
  const { match, trigger, ...params } = parsed as Params;
  const checked = checkFaultSpec(
    name,
    params,
    match,
    trigger,
    world.resources.map(resourceName),
    world.replicas?.length ?? 1,
  );
  if ('problem' in checked) return invalid(checked.problem.message);
  return applyFaultSpec(checked.spec, world);
}

/** Applies a checked spec: a server fault now (or its timer), a request fault into the active set. */
export async function applyFaultSpec(spec: FaultSpec, world: FaultWorld): Promise<FaultResponse> {
  const fault = faults.find((f) => f.name === spec.name)!;
  const { name, params } = spec;
  if (fault.memoryEtcdOnly && !(world.etcd instanceof MemoryEtcd))
    return failure(
      409,
      'Conflict',
      `fault ${name} acts on the in-memory etcd, and this server runs on a real etcd: slow, stop or upgrade that etcd itself`,
    );
  if (fault.apply === undefined) {
    const f = world.active.addRequestFault(
      name,
      fault.acts === 'server' ? 'request' : fault.acts,
      params,
      spec.match,
      spec.trigger,
    );
    const entry = world.active.toJSON(f);
    const line = `fault ${name}: #${f.id} ${entry.phase}: ${JSON.stringify({ parameters: params, match: spec.match, trigger: spec.trigger })}`;
    world.log?.(line);
    world.onApplied?.({
      name,
      params,
      text: line.slice(`fault ${name}: `.length),
      id: f.id,
      request: true,
    });
    return ok(name, { id: f.id, active: entry });
  }
  const apply = onReplicas(name, fault.apply.bind(fault), spec.match.replica);
  if (spec.trigger.afterSeconds !== undefined && spec.trigger.afterSeconds > 0) {
    const f = world.active.addScheduled(name, params, spec.match, spec.trigger, () => {
      void applyServerFault(name, params, apply, world, f.id).then((answer) => {
        if (answer.status !== 200)
          world.log?.(
            `fault ${name}: #${f.id} failed: ${(answer.body as { message?: string }).message ?? answer.status}`,
          );
      });
    });
    world.log?.(`fault ${name}: #${f.id} scheduled in ${spec.trigger.afterSeconds}s`);
    return ok(name, { id: f.id, active: world.active.toJSON(f) });
  }
  const answer = await applyServerFault(name, params, apply, world);
  return answer;
}

/**
 * `serve --replicas`: a server fault's effect on the replica `replica` names, else on each replica
 * in turn (each one's answer under `replicas`, the first failure as it is); a server of one: as is.
 */
function onReplicas(
  name: string,
  apply: NonNullable<Fault['apply']>,
  replica?: number,
): NonNullable<Fault['apply']> {
  return async (p, world) => {
    const replicas = world.replicas;
    if (replicas === undefined || replicas.length < 2) return apply(p, world);
    const numbers = replica !== undefined ? [replica] : replicas.map((_, i) => i + 1);
    const answers: Record<string, unknown>[] = [];
    let notFound: FaultResponse | undefined;
    for (const n of numbers) {
      const answer = await apply(p, {
        ...world,
        ...replicas[n - 1],
        log: world.log && ((message) => world.log?.(`${message} (replica ${n})`)),
      });
      // What one replica lacks (a watcher lives in one replica) another may have: not found
      // only when no replica had it.
      if (answer.status === 404 && replica === undefined) {
        notFound ??= answer;
        continue;
      }
      if (answer.status !== 200) return answer;
      const { kind, fault, ...what } = answer.body as Record<string, unknown>;
      if (replica !== undefined) return { status: 200, body: { kind, fault, replica: n, ...what } };
      answers.push({ replica: n, ...what });
    }
    if (answers.length === 0 && notFound) return notFound;
    return ok(name, { replicas: answers });
  };
}

/** Applies a server fault; on success its answer carries its id (`id`, or a new one). */
async function applyServerFault(
  name: string,
  params: Params,
  apply: NonNullable<Fault['apply']>,
  world: FaultWorld,
  id?: number,
): Promise<FaultResponse> {
  if (!world.onApplied) {
    const answer = await apply(params, world);
    if (answer.status === 200 && id === undefined)
      (answer.body as Record<string, unknown>).id = world.active.newId();
    return answer;
  }
  // The one place faults are applied: what the fault logs is what its marker says.
  const lines: string[] = [];
  const prefix = `fault ${name}: `;
  const answer = await apply(params, {
    ...world,
    log: (message) => {
      lines.push(message.startsWith(prefix) ? message.slice(prefix.length) : message);
      world.log?.(message);
    },
  });
  if (answer.status === 200) {
    const applied = id ?? world.active.newId();
    if (id === undefined) (answer.body as Record<string, unknown>).id = applied;
    world.onApplied({ name, params, text: lines.join('; ') || name, id: applied });
  }
  return answer;
}

/** `active` (GET: the list; DELETE: clear all) and `active/<id>` (GET one; DELETE it). */
function activeRequest(method: string, id: string, active: ActiveFaults): FaultResponse {
  if (id === '') {
    if (method === 'GET')
      return { status: 200, body: { kind: 'ActiveFaultList', faults: active.list() } };
    if (method === 'DELETE')
      return { status: 200, body: { kind: 'ClearedFaults', cleared: active.clear('all') } };
    return methodNotAllowed(method, 'GET or DELETE');
  }
  const n = /^[1-9][0-9]*$/.test(id) ? Number(id) : undefined;
  const known = (): string => {
    const ids = active.list().map((f) => f.id);
    return ids.length ? `active: ${ids.join(', ')}` : 'no fault is active';
  };
  const f = n === undefined ? undefined : active.get(n);
  if (!f) return notFound(`no active fault with id ${JSON.stringify(id)} (${known()})`);
  if (method === 'GET') return { status: 200, body: active.toJSON(f) };
  if (method === 'DELETE')
    return { status: 200, body: { kind: 'ClearedFaults', cleared: active.clear(f.id) } };
  return methodNotAllowed(method, 'GET or DELETE');
}

/** The first thing wrong with `p` for `fault`, naming the field and what was expected. */
export function validate(fault: FaultDescription, p: Params): string | undefined {
  for (const k of Object.keys(p)) {
    if (!fault.parameters.some((d) => d.name === k)) {
      const known = fault.parameters.map((d) => d.name);
      return `${k}: unknown parameter; ${fault.name} takes ${known.length ? known.join(', ') : 'none'}`;
    }
  }
  for (const d of fault.parameters) {
    const v = p[d.name];
    if (v === undefined || v === null) {
      if (v === null || d.required) return `${d.name}: required: expected ${expected(d)}`;
      continue;
    }
    if (!matchesType(d, v)) return `${d.name}: expected ${expected(d)}, got ${JSON.stringify(v)}`;
  }
  const group = fault.exactlyOneOf;
  if (group && group.filter((k) => p[k] !== undefined).length !== 1)
    return `${group.join(', ')}: exactly one of them is required`;
  return undefined;
}

function matchesType(d: FaultParameter, v: unknown): boolean {
  switch (d.type) {
    case 'string':
      return typeof v === 'string' && (d.enum === undefined || d.enum.includes(v));
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return false;
      if (d.type === 'integer' && !Number.isInteger(v)) return false;
      if (d.enum !== undefined) return d.enum.includes(v);
      if (d.minimum === undefined) return true;
      return d.exclusiveMinimum ? v > d.minimum : v >= d.minimum;
    }
  }
}

function expected(d: FaultParameter): string {
  if (d.enum) return `one of ${d.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  const kind =
    d.type === 'integer' ? 'an integer' : d.type === 'number' ? 'a number' : `a ${d.type}`;
  if (d.minimum === undefined) return kind;
  return `${kind} ${d.exclusiveMinimum ? '>' : '>='} ${d.minimum}`;
}

/**
 * The resources `p.resource` names (every one without it), or the 422 that says why none. A fault
 * on the watch cache (`watchCache`) acts on the resources that have one: events have none
 * (kube-apiserver's DefaultWatchCacheSizes sets them to 0), so no reflector to pause.
 */
function pick(
  p: Params,
  world: FaultWorld,
  o: { watchCache?: boolean } = {},
): ServedResource[] | FaultResponse {
  const want = p.resource as string | undefined;
  const eligible = o.watchCache
    ? world.resources.filter((r) => r.engine.watchCacheEnabled)
    : world.resources;
  if (want === undefined) return [...eligible];
  const found = world.resources.filter(
    (r) => resourceName(r) === want || (r.group === '' && r.resource === want),
  );
  if (found.length === 0)
    return invalid(
      `resource: ${JSON.stringify(want)} is not served; expected one of: ${eligible.map(resourceName).join(', ')}`,
    );
  if (o.watchCache && !found.some((r) => r.engine.watchCacheEnabled))
    return invalid(
      `resource: ${JSON.stringify(want)} has no watch cache (kube-apiserver's DefaultWatchCacheSizes sets it to 0): etcd serves it; expected one of: ${eligible.map(resourceName).join(', ')}`,
    );
  return found.filter((r) => !o.watchCache || r.engine.watchCacheEnabled);
}

/** `pods`, or `widgets.example.com`: how kubectl names a resource. */
export function resourceName(r: Pick<ServedResource, 'group' | 'resource'>): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}

function names(rs: readonly ServedResource[]): string {
  return rs.map(resourceName).join(', ');
}

function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

function ok(fault: string, what: Record<string, unknown>): FaultResponse {
  return { status: 200, body: { kind: 'FaultResult', fault, ...what } };
}

function failure(code: number, reason: string, message: string): FaultResponse {
  return { status: code, body: statusFailure(code, reason, message).status };
}

function invalid(message: string): FaultResponse {
  return failure(422, 'Invalid', message);
}

function notFound(message: string): FaultResponse {
  return failure(404, 'NotFound', message);
}

function methodNotAllowed(method: string, allowed: string): FaultResponse {
  return failure(405, 'MethodNotAllowed', `${method} is not supported here; use ${allowed}`);
}
