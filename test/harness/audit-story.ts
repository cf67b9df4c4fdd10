// No upstream counterpart: an audit.k8s.io/v1 log with a known story, written the way
// kube-apiserver writes --audit-log-path (one Event per line, stages as
// pkg/endpoints/filters/audit.go emits them, default policy omitting RequestReceived for most
// requests), so that an import can be checked against facts set here rather than against itself:
// reflectors that LIST then WATCH and re-watch at their timeouts; a kubelet whose watch gets a
// 410 and relists; an operator in a relist storm; a backup tool paging ConfigMaps that meets a
// 410 Expired on a continue token mid-way and restarts; a WatchList client; 429s and 504s on
// consistent LISTs; lease renewals as noise; watches begun before the log and open after it.
import { encodeContinue } from '../../src/engine/storage/continue';

export interface AuditStory {
  lines: string[];
  /** The facts an import must find. */
  facts: {
    events: number;
    /** User agents that LIST or WATCH. */
    listWatchClients: string[];
    backup: {
      userAgent: string;
      path: string;
      /** Pages of the chain the 410 broke (the 410 page included) and of the restart. */
      brokenPages: number;
      restartPages: number;
    };
    /** Relists per user agent (a LIST right after a watch that ended early or with a 410). */
    relists: Record<string, number>;
    stormUserAgent: string;
    watchListUserAgent: string;
    http429: { userAgent: string; count: number };
    http504: { userAgent: string; count: number };
    watchesStartedBeforeLog: number;
    watchesOpenAtEnd: number;
  };
}

const t0 = Date.UTC(2026, 10, 30, 10, 0, 0);

function micro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_, f: string) => `.${f}000Z`);
}

/** A deterministic LCG: the same story every time. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Req {
  verb: string;
  uri: string;
  ua: string;
  user: string;
  start: number;
  end?: number;
  code: number;
  reason?: string;
  message?: string;
  resource: string;
  namespace?: string;
  name?: string;
  longRunning?: boolean;
  /** Write RequestReceived too (most requests' policy omits it). */
  received?: boolean;
  /** A watch whose RequestReceived and ResponseStarted lie before the log: only ResponseComplete is written. */
  beforeLog?: boolean;
  responseObject?: unknown;
}

export function auditStory(): AuditStory {
  const rand = lcg(7);
  const reqs: Req[] = [];
  const kcm = 'kube-controller-manager/v1.33.1 (linux/amd64) kubernetes/8adc0f0/shared-informers';
  const kubelet = 'kubelet/v1.33.1 (linux/amd64) kubernetes/8adc0f0';
  const operator = 'my-operator/v0.4.2 (linux/amd64) controller-runtime';
  const velero = 'velero/v1.14.0 (linux/amd64) 4a8c9a1';
  const watchLister = 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0';
  const dashboard = 'dashboard/v2.7.0';
  const scheduler = 'kube-scheduler/v1.33.1 (linux/amd64) kubernetes/8adc0f0/leader-election';
  const durationMs = 30 * 60_000;
  let rv = 48_000;

  // Reflectors of the controller manager: LIST rv=0 then WATCH, re-watch at each timeout.
  for (const resource of ['pods', 'configmaps']) {
    let at = t0 + 1_000 + (resource === 'pods' ? 0 : 400);
    reqs.push({
      verb: 'list',
      uri: `/api/v1/${resource}?limit=500&resourceVersion=0`,
      ua: kcm,
      user: 'system:kube-controller-manager',
      start: at,
      end: at + 35,
      code: 200,
      resource,
    });
    at += 40;
    while (at < t0 + durationMs) {
      const timeout = 300 + Math.floor(rand() * 300);
      const end = at + timeout * 1000;
      reqs.push({
        verb: 'watch',
        uri: `/api/v1/${resource}?allowWatchBookmarks=true&resourceVersion=${rv}&timeout=${Math.floor(timeout / 60)}m${timeout % 60}s&timeoutSeconds=${timeout}&watch=true`,
        ua: kcm,
        user: 'system:kube-controller-manager',
        start: at,
        end: end <= t0 + durationMs ? end : undefined,
        code: 200,
        resource,
        longRunning: true,
      });
      at = end + 2;
    }
  }

  // The kubelet's pod watch, begun before the log; the next one gets a 410 and the kubelet relists.
  const nodeSel = 'fieldSelector=spec.nodeName%3Dnode-1';
  reqs.push({
    verb: 'watch',
    uri: `/api/v1/pods?allowWatchBookmarks=true&${nodeSel}&resourceVersion=47000&timeoutSeconds=480&watch=true`,
    ua: kubelet,
    user: 'system:node:node-1',
    start: t0 - 200_000,
    end: t0 + 280_000,
    code: 200,
    resource: 'pods',
    longRunning: true,
    beforeLog: true,
  });
  reqs.push({
    verb: 'watch',
    uri: `/api/v1/pods?allowWatchBookmarks=true&${nodeSel}&resourceVersion=47100&timeoutSeconds=410&watch=true`,
    ua: kubelet,
    user: 'system:node:node-1',
    start: t0 + 280_010,
    end: t0 + 280_014,
    code: 200,
    resource: 'pods',
    longRunning: true,
  });
  reqs.push({
    verb: 'list',
    uri: `/api/v1/pods?${nodeSel}&limit=500`,
    ua: kubelet,
    user: 'system:node:node-1',
    start: t0 + 281_100,
    end: t0 + 281_160,
    code: 200,
    resource: 'pods',
  });
  reqs.push({
    verb: 'watch',
    uri: `/api/v1/pods?allowWatchBookmarks=true&${nodeSel}&resourceVersion=49210&timeoutSeconds=350&watch=true`,
    ua: kubelet,
    user: 'system:node:node-1',
    start: t0 + 281_170,
    code: 200,
    resource: 'pods',
    longRunning: true,
  });

  // The operator's relist storm: watches that end within seconds, each followed by a LIST.
  const stormRelists = 6;
  let at = t0 + 600_000;
  reqs.push({
    verb: 'list',
    uri: '/apis/example.com/v1/widgets?limit=500&resourceVersion=0',
    ua: operator,
    user: 'system:serviceaccount:ops:my-operator',
    start: at,
    end: at + 20,
    code: 200,
    resource: 'widgets',
  });
  at += 30;
  for (let i = 0; i <= stormRelists; i++) {
    reqs.push({
      verb: 'watch',
      uri: `/apis/example.com/v1/widgets?allowWatchBookmarks=true&resourceVersion=${rv + i}&timeoutSeconds=540&watch=true`,
      ua: operator,
      user: 'system:serviceaccount:ops:my-operator',
      start: at,
      end: i < stormRelists ? at + 1_500 : undefined,
      code: 200,
      resource: 'widgets',
      longRunning: true,
    });
    if (i === stormRelists) break;
    at += 1_500 + 1_000 + i * 200;
    reqs.push({
      verb: 'list',
      uri: '/apis/example.com/v1/widgets?limit=500&resourceVersion=0',
      ua: operator,
      user: 'system:serviceaccount:ops:my-operator',
      start: at,
      end: at + 25,
      code: 200,
      resource: 'widgets',
    });
    at += 30;
  }

  // The backup chain: ConfigMaps 5 at a time; page 4's token has expired; a restart completes.
  const backupPath = '/api/v1/configmaps';
  const brokenPages = 4;
  const restartPages = 7;
  at = t0 + 300_000;
  const page = (chainRv: number, n: number, last: boolean, token: string): Req => {
    const keys = Array.from({ length: 5 }, (_, i) => `ns-${n}/cm-${String(i).padStart(2, '0')}`);
    const next = last
      ? ''
      : encodeContinue(`/registry/configmaps/${keys[4]}\u0000`, '/registry/configmaps/', chainRv);
    return {
      verb: 'list',
      uri: token ? `${backupPath}?continue=${token}&limit=5` : `${backupPath}?limit=5`,
      ua: velero,
      user: 'system:serviceaccount:velero:velero',
      start: at,
      end: at + 12,
      code: 200,
      resource: 'configmaps',
      responseObject: {
        kind: 'ConfigMapList',
        apiVersion: 'v1',
        // 35 ConfigMaps, as the restarted chain's 7 pages show: a page with more after it says how
        // many (etcd3 GetList sets remainingItemCount on an unfiltered page).
        metadata: {
          resourceVersion: String(chainRv),
          ...(next ? { continue: next, remainingItemCount: 35 - 5 * (n + 1) } : {}),
        },
        items: keys.map((k) => ({
          metadata: { namespace: k.split('/')[0], name: k.split('/')[1] },
        })),
      },
    };
  };
  let token = '';
  for (let n = 0; n < brokenPages - 1; n++) {
    const p = page(48_100, n, false, token);
    reqs.push(p);
    token = (p.responseObject as { metadata: { continue: string } }).metadata.continue;
    at += 90_000; // a slow backup: the token outlives the compaction interval
  }
  reqs.push({
    verb: 'list',
    uri: `${backupPath}?continue=${token}&limit=5`,
    ua: velero,
    user: 'system:serviceaccount:velero:velero',
    start: at,
    end: at + 3,
    code: 410,
    reason: 'Expired',
    message:
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    resource: 'configmaps',
  });
  at += 2_000;
  token = '';
  for (let n = 0; n < restartPages; n++) {
    const p = page(49_500, n, n === restartPages - 1, token);
    reqs.push(p);
    token = (p.responseObject as { metadata: { continue?: string } }).metadata.continue ?? '';
    at += 400;
  }

  // A WatchList client (client-go's reflector with WatchListClient on).
  reqs.push({
    verb: 'watch',
    uri: '/api/v1/namespaces/default/pods?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=30&watch=true',
    ua: watchLister,
    user: 'admin',
    start: t0 + 900_000,
    end: t0 + 930_000,
    code: 200,
    resource: 'pods',
    namespace: 'default',
    longRunning: true,
    received: true,
  });

  // A dashboard's consistent LISTs: some throttled by APF, some time out waiting for the cache.
  const throttled = 3;
  const timedOut = 2;
  for (let i = 0; i < 12; i++) {
    const start = t0 + 120_000 + i * 60_000;
    const code = i < throttled ? 429 : i < throttled + timedOut ? 504 : 200;
    reqs.push({
      verb: 'list',
      uri: '/api/v1/pods?limit=500',
      ua: dashboard,
      user: 'system:serviceaccount:kube-system:dashboard',
      start,
      end: start + (code === 504 ? 3_001 : code === 429 ? 1 : 180),
      code,
      reason: code === 429 ? 'TooManyRequests' : code === 504 ? 'Timeout' : undefined,
      message:
        code === 429
          ? 'Too many requests, please try again later.'
          : code === 504
            ? `Timeout: Too large resource version: ${50_000 + i}, current: ${49_990 + i}`
            : undefined,
      resource: 'pods',
      received: true,
    });
  }

  // Noise: leader-election and node leases renewed every 2 s.
  const renewers: Array<[string, string, string, string]> = [
    [scheduler, 'system:kube-scheduler', 'kube-system', 'kube-scheduler'],
    [
      kcm.replace('shared-informers', 'leader-election'),
      'system:kube-controller-manager',
      'kube-system',
      'kube-controller-manager',
    ],
    [kubelet, 'system:node:node-1', 'kube-node-lease', 'node-1'],
  ];
  renewers.forEach(([ua, user, namespace, name], k) => {
    for (let ms = 500 + k * 700; ms < durationMs; ms += 2_000) {
      const start = t0 + ms;
      rv += 1;
      reqs.push({
        verb: 'update',
        uri: `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`,
        ua,
        user,
        start,
        end: start + 3 + Math.floor(rand() * 4),
        code: 200,
        resource: 'leases',
        namespace,
        name,
      });
    }
  });

  const lines = writeEvents(reqs, t0 + durationMs);
  return {
    lines,
    facts: {
      events: lines.length,
      listWatchClients: [kcm, kubelet, operator, velero, watchLister, dashboard].sort(),
      backup: { userAgent: velero, path: backupPath, brokenPages, restartPages },
      relists: { [kubelet]: 1, [operator]: stormRelists },
      stormUserAgent: operator,
      watchListUserAgent: watchLister,
      http429: { userAgent: dashboard, count: throttled },
      http504: { userAgent: dashboard, count: timedOut },
      watchesStartedBeforeLog: 1,
      watchesOpenAtEnd: reqs.filter((r) => r.longRunning && r.end === undefined).length,
    },
  };
}

/** The requests' stages as audit events, in stage-time order (as the log backend writes them). */
function writeEvents(reqs: Req[], logEnd: number): string[] {
  const out: Array<{ at: number; seq: number; line: string }> = [];
  let seq = 0;
  reqs.forEach((r, i) => {
    const auditID = `5f0c${String(i).padStart(4, '0')}-1a2b-4c3d-8e4f-${(0x1000_0000_0000 + i).toString(16)}`;
    const group = r.uri.startsWith('/apis/') ? r.uri.split('/')[2] : undefined;
    const version = r.uri.startsWith('/apis/') ? r.uri.split('/')[3] : 'v1';
    const objectRef = {
      resource: r.resource,
      namespace: r.namespace,
      name: r.name,
      apiGroup: group,
      apiVersion: version,
    };
    const event = (stage: string, at: number, withStatus: boolean): void => {
      const status = withStatus
        ? r.code === 200
          ? { metadata: {}, code: 200 }
          : { metadata: {}, status: 'Failure', message: r.message, reason: r.reason, code: r.code }
        : undefined;
      const e = {
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: r.responseObject !== undefined ? 'RequestResponse' : 'Metadata',
        auditID,
        stage,
        requestURI: r.uri,
        verb: r.verb,
        user: { username: r.user, groups: ['system:authenticated'] },
        sourceIPs: ['10.0.0.12'],
        userAgent: r.ua,
        objectRef,
        responseStatus: status,
        responseObject: stage === 'ResponseComplete' ? r.responseObject : undefined,
        requestReceivedTimestamp: micro(r.start),
        stageTimestamp: micro(at),
        annotations:
          stage === 'RequestReceived'
            ? undefined
            : { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
      };
      out.push({ at, seq: seq++, line: JSON.stringify(e) });
    };
    if (r.received && !r.beforeLog) event('RequestReceived', r.start, false);
    if (r.longRunning && !r.beforeLog) event('ResponseStarted', r.start + 2, true);
    if (r.end !== undefined && r.end <= logEnd) event('ResponseComplete', r.end, true);
  });
  out.sort((a, b) => a.at - b.at || a.seq - b.seq);
  return out.map((o) => o.line);
}
