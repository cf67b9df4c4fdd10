import * as assert from 'assert';
import { clientGoLogFormat } from '../../../src/import/client-go-log-format';
import { isStructuredMessage, parseKlogLine, readStructured } from '../../../src/import/klog-entry';
import {
  printfReflectorEvent,
  resourceOfType,
  structuredReflectorEvent,
  type ReflectorEvent,
} from '../../../src/import/reflector-line';
import { fixtureLines, fold, parseLines, summary } from './client-log-fold';

const parse = (lines: string[], file?: string) => parseLines(clientGoLogFormat, lines, file);

/** What a whole klog line's reflector message says (printf or structured). */
function eventOf(line: string): ReflectorEvent | undefined {
  const k = parseKlogLine(line, 2026);
  if (typeof k !== 'object') return undefined;
  if (!isStructuredMessage(k.message)) return printfReflectorEvent(k.message);
  const e = readStructured(k.message);
  return e.kind === 'done' ? structuredReflectorEvent(e.entry) : undefined;
}

const fixtures: Array<{ file: string; requests: string[] }> = [
  {
    // client-go 0.27 inside kubectl 1.27: printf reflector lines, -v=6 round-tripper lines.
    file: 'kubectl-1.27-v6-wait.log',
    requests: [
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200 ended: Watch close - *unstructured.Unstructured total 0 items received',
      'watch /api/v1/namespaces/default/pods 200 Expired ended: watch of *unstructured.Unstructured closed with: too old resource version: 27 (28)',
      'list /api/v1/namespaces/default/pods 200',
      // kubectl wait timed out: the reflector stopped, and its open watch with it.
      'watch /api/v1/namespaces/default/pods 200 ended: Stopping reflector (test.log:17): its client stopped the reflector, and the watch with it',
    ],
  },
  {
    // client-go 0.32: the same, and HandleError's "Unhandled Error" when the wait times out.
    file: 'kubectl-1.32-v6-wait.log',
    requests: [
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200 ended: Watch close - *unstructured.Unstructured total 0 items received',
      'watch /api/v1/namespaces/default/pods 200 Expired ended: watch of *unstructured.Unstructured closed with: too old resource version: 24 (25)',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200 ended: Watch close - *unstructured.Unstructured total 0 items received',
    ],
  },
  {
    // client-go 0.33: structured reflector and round-tripper lines.
    file: 'kubectl-1.33-v6-wait.log',
    requests: [
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200 ended: Watch close: totalItems=0',
      'watch /api/v1/namespaces/default/pods 200 Expired ended: Watch closed: too old resource version: 25 (26)',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200 ended: Stopping reflector (test.log:23): its client stopped the reflector, and the watch with it',
    ],
  },
  {
    // WatchListClient: the reflector's initial list is a sendInitialEvents watch, and so is its relist.
    file: 'kubectl-1.33-v6-wait-watchlist.log',
    requests: [
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'get /api/v1/namespaces/default/pods/pod-0 200',
      // The initial events end (a list of 2 in 45.6 ms); the same watch goes on until it closes.
      'watch /api/v1/namespaces/default/pods 200 listed: 2 items in 45.639079 ms ended: Watch close: totalItems=0',
      'watch /api/v1/namespaces/default/pods 200 Expired ended: Watch closed: too old resource version: 26 (27)',
      'watch /api/v1/namespaces/default/pods 200 listed: 2 items in 7.084224 ms ended: Stopping reflector (test.log:23): its client stopped the reflector, and the watch with it',
    ],
  },
  {
    // A WatchList controller below -v=6 (0.30, printf): its list is one watch that goes on, not a
    // LIST and a WATCH; a plain watch follows its close, a new WatchList watch the 410.
    file: 'client-go-watchlist-printf-0.30.log',
    requests: [
      'watch (url not logged) - listed: 13 items in 250.0812 ms ended: Watch close - *v1.Pod total 20 items received',
      'watch (url not logged) 410 Expired ended: watch of *v1.Pod closed with: too old resource version: 40 (57)',
      'watch (url not logged) - listed: 14 items in 120.0512 ms',
    ],
  },
  {
    // The same in 0.35's structured lines (WatchListClient on by default).
    file: 'client-go-watchlist-structured-0.35.log',
    requests: [
      'watch (url not logged) - listed: 41 items in 42.018764 ms ended: Watch close: totalItems=7',
      'watch (url not logged) 410 Expired ended: Watch closed: too old resource version: 880 (902)',
      'watch (url not logged) - listed: 42 items in 30.081945 ms',
    ],
  },
  {
    // Built from the format strings of 0.17, 0.20, 0.27 and 0.30 (the file's header says how).
    file: 'client-go-printf-0.17-0.30.log',
    requests: [
      'list (url not logged) 200',
      'watch (url not logged) - ended: Watch close - *v1.Pod total 12 items received',
      'watch (url not logged) 410 Expired ended: watch of *v1.Pod ended with: too old resource version: 5 (7)',
      'list (url not logged) -',
      'list (url not logged) 200',
      'watch (url not logged) - ended: Watch close - stable.example.com/v1, Kind=CronTab total 3 items received',
      'watch (url not logged) 410 Expired ended: watch of stable.example.com/v1, Kind=CronTab closed with: too old resource version: 41 (57)',
      'list (url not logged) 410 Expired',
      'list /api/v1/configmaps 200',
      'watch /api/v1/configmaps 200 ended: watch of *v1.ConfigMap ended with: an error on the server ("unable to decode an event from the watch stream: http2: client connection lost") has prevented the request from succeeding',
      'list /api/v1/configmaps 410 Expired',
      'list (url not logged) 200',
      'watch (url not logged) 429 ended: watch of *v1.Endpoints returned 429 - backing off',
    ],
  },
  {
    file: 'client-go-structured-0.33.log',
    requests: [
      'list (url not logged) 200',
      'watch (url not logged) - ended: Watch close: totalItems=12',
      'watch (url not logged) 410 Expired ended: Warning: watch ended with error: too old resource version: 5 (7)',
      'list (url not logged) 410 Expired',
      'list (url not logged) 200',
      'watch (url not logged) 429 ended: Watch returned 429 - backing off',
    ],
  },
];

describe('client-go reflector and round-tripper lines (clientGoLogFormat)', () => {
  for (const c of fixtures) {
    it(`${c.file}: every request and how each watch ended, no line rejected`, () => {
      const parsed = parse(fixtureLines(c.file));
      assert.deepStrictEqual(parsed.rejects, [], c.file);
      assert.deepStrictEqual(fold(parsed.fragments).map(summary), c.requests, c.file);
    });
  }

  it('a watch-end line attaches to its stream\'s last watch, a 410 for "too old resource version"', () => {
    const lines = fixtureLines('kubectl-1.27-v6-wait.log');
    const parsed = parse(lines, 'wait.log');
    const ends = parsed.fragments.filter((f) => f.attach === 'last-watch');
    // `Watch close`, the 410, and `Stopping reflector` (the wait's deadline) of the last watch.
    assert.strictEqual(ends.length, 3);
    const tooOld = ends[1];
    const line = lines.findIndex((l) => l.includes('closed with: too old')) + 1;
    const at = Date.UTC(2026, 11, 1, 19, 10, 31) + 339.145;
    assert.deepStrictEqual(tooOld, {
      source: { file: 'wait.log', line, format: 'client-go' },
      time: at,
      stream: 'wait.log pid 9534',
      attach: 'last-watch',
      complete: true,
      fields: {
        completedAt: at,
        // *unstructured.Unstructured names no resource: that of the pid's last logged watch.
        objectRef: { resource: 'pods' },
        watchEnd: {
          message:
            'watch of *unstructured.Unstructured closed with: too old resource version: 27 (28)',
          at,
          source: { file: 'wait.log', line, format: 'client-go' },
        },
        code: 410,
        status: { reason: 'Expired', message: 'too old resource version: 27 (28)' },
      },
    });
    // The watch it joins carries the same stream.
    const watches = parsed.fragments.filter((f) => f.fields.verb === 'watch');
    assert.ok(watches.every((f) => f.stream === 'wait.log pid 9534'));
  });

  it("a typed reflector names its resource, so its end joins only that resource's watch", () => {
    const parsed = parse([
      'I0312 12:00:00.010200    4303 round_trippers.go:553] GET https://h/api/v1/pods?watch=true 200 OK in 2 milliseconds',
      'I0312 12:00:00.010300    4303 round_trippers.go:553] GET https://h/api/v1/configmaps?watch=true 200 OK in 2 milliseconds',
      'I0312 12:05:00.000000    4303 reflector.go:456] r.go:1: watch of *v1.Pod ended with: too old resource version: 5 (7)',
    ]);
    const [pods, configmaps] = fold(parsed.fragments);
    assert.strictEqual(
      pods.watchEnd?.message,
      'watch of *v1.Pod ended with: too old resource version: 5 (7)',
    );
    assert.strictEqual(configmaps.watchEnd, undefined);
  });

  it('0.27–0.32 log a failed LIST twice (a warning, then HandleError): one Status on the 410 LIST', () => {
    const parsed = parse(fixtureLines('client-go-printf-0.17-0.30.log'));
    const expired = parsed.fragments.filter(
      (f) => f.key === 'pid 4303 #3' && f.fields.status?.reason === 'Expired',
    );
    assert.strictEqual(expired.length, 1);
  });

  it('skips the lines of other components and the reflector lines about no request', () => {
    const parsed = parse([
      'I0312 10:15:00.000100    4101 leaderelection.go:242] attempting to acquire leader lease  kube-system/x...',
      'I0312 14:00:00.000100    5505 reflector.go:357] "Starting reflector" type="*v1.Pod" resyncPeriod="10h0m0s" reflector="r.go:1"',
      'I0312 14:00:00.200400    5505 controller.go:220] "Starting workers" controller="pod" worker count=1',
      'I1201 19:10:35.187199    9534 reflector.go:293] Stopping reflector *v1.Pod (0s) from r.go:1',
    ]);
    assert.deepStrictEqual(parsed, { fragments: [], rejects: [], skipped: 4 });
  });

  it("the end of a WatchList watch's initial events, printf (0.27–0.32) and structured (0.33+)", () => {
    const cases: Array<{ name: string; line: string; want: ReflectorEvent }> = [
      {
        name: 'v0.27–v0.32 printf (Infof at V(4))',
        line: 'I0312 15:00:00.250300    6601 reflector.go:798] exiting k8s.io/client-go/informers/factory.go:150 Watch because received the bookmark that marks the end of initial events stream, total 13 items received in 1m2.5s',
        want: {
          kind: 'initial-events-end',
          reflector: 'k8s.io/client-go/informers/factory.go:150',
          totalItems: 13,
          durationMs: 62_500,
        },
      },
      {
        name: 'v0.33+ structured',
        line: 'I1201 19:09:02.182732    7959 reflector.go:933] "Exiting watch because received the bookmark that marks the end of initial events stream" reflector="r.go:1" totalItems=2 duration="49.600528ms"',
        want: {
          kind: 'initial-events-end',
          reflector: 'r.go:1',
          totalItems: 2,
          durationMs: 49.600528,
        },
      },
      {
        name: 'a duration in microseconds',
        line: 'I1201 19:09:02.182732    7959 reflector.go:978] "Exiting watch because received the bookmark that marks the end of initial events stream" reflector="r.go:1" totalItems=1 duration="812µs"',
        want: {
          kind: 'initial-events-end',
          reflector: 'r.go:1',
          totalItems: 1,
          durationMs: 0.812,
        },
      },
      {
        name: 'a duration that is not one: left out, never guessed',
        line: 'I1201 19:09:02.182732    7959 reflector.go:978] "Exiting watch because received the bookmark that marks the end of initial events stream" reflector="r.go:1" totalItems=1 duration="soon"',
        want: { kind: 'initial-events-end', reflector: 'r.go:1', totalItems: 1 },
      },
    ];
    for (const c of cases) assert.deepStrictEqual(eventOf(c.line), c.want, c.name);
  });

  it('a WatchList request that fell back to a LIST, in every version that logs it', () => {
    // reflector.go ListAndWatch: Warning (0.29–0.32), logger.Error (0.33–0.34), V(4) Info (0.35+);
    // metadata.go List's logger.Error (0.32–0.33). Read at each release tag.
    const lines: Array<[string, string]> = [
      [
        'W0312 10:00:00.000100    4101 reflector.go:345] The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking, err = unknown (get pods)',
        'unknown (get pods)',
      ],
      [
        'E0312 10:00:00.000100    4101 reflector.go:422] "The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking" err="unknown (get pods)"',
        'unknown (get pods)',
      ],
      [
        'E0312 10:00:00.000100    4101 metadata.go:231] "The watchlist request ended with an error, falling back to the standard LIST semantics" err="unknown (get pods)" resource="/v1, Resource=pods"',
        'unknown (get pods)',
      ],
      [
        'I0312 10:00:00.000100    4101 reflector.go:430] "Data couldn\'t be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver." err="unknown (get pods)"',
        'unknown (get pods)',
      ],
    ];
    for (const [line, err] of lines)
      assert.deepStrictEqual(
        eventOf(line),
        { kind: 'watch-list-fallback', reflector: '', err },
        line,
      );
  });

  it("a WatchList watch's initial events end on the stream's latest watch; one that began before the log is a watch of its own", () => {
    const exiting =
      'I1201 19:09:02.182732    7959 reflector.go:933] "Exiting watch because received the bookmark that marks the end of initial events stream" reflector="r.go:1" totalItems=2 duration="49.600528ms"';
    const alone = parse([exiting], 'w.log');
    assert.deepStrictEqual(alone.fragments, [
      {
        source: { file: 'w.log', line: 1, format: 'client-go' },
        time: Date.UTC(2026, 11, 1, 19, 9, 2) + 182.732,
        stream: 'w.log pid 7959',
        attach: 'last-watch',
        complete: false,
        fields: {
          initialEventsEnd: {
            at: Date.UTC(2026, 11, 1, 19, 9, 2) + 182.732,
            items: 2,
            durationMs: 49.600528,
            source: { file: 'w.log', line: 1, format: 'client-go' },
          },
        },
      },
    ]);
  });

  it('rejects a structured reflector line cut short and a block left open, naming the line', () => {
    const parsed = parse([
      'I0312 14:05:00.300500    5505 reflector.go:946] "Watch close" reflector="pkg/mod/k8s.io/client-go@v0.33.0/tools/cache/refl',
      'E0312 14:09:01.600800    5505 reflector.go:200] "Failed to watch" err=<',
      '\tfailed to list *v1.Pod: boom',
    ]);
    assert.deepStrictEqual(
      parsed.rejects.map((r) => [r.line, r.reason.replace(/, got .*/, '')]),
      [
        [
          1,
          'expected a klog structured message: reflector: expected a closing quote for the string at column 25 (the line is cut short?)',
        ],
        [2, 'expected " >" closing the "key=<" block begun on line 2 before the end of the file'],
      ],
    );
  });

  it('sniffs reflector lines of every version, not a kubectl loader line', () => {
    for (const c of fixtures) {
      const lines = fixtureLines(c.file).filter((l) => l.includes(' reflector.go:'));
      assert.ok(lines.length > 0 && lines.every((l) => clientGoLogFormat.sniff(l)), c.file);
    }
    assert.ok(
      !clientGoLogFormat.sniff(
        'I1201 19:08:05.310061    6834 loader.go:373] Config loaded from file:  /tmp/kubeconfig',
      ),
    );
  });

  // The messages as each tag's format strings print them (NAME: the reflector's name).
  const N = 'pkg/mod/k8s.io/client-go@v0.29.0/tools/cache/reflector.go:229';
  const printf: Array<[string, string, ReflectorEvent | undefined]> = [
    [
      '0.17 V(3)',
      `Listing and watching *v1.Pod from ${N}`,
      { kind: 'list-start', reflector: N, type: '*v1.Pod' },
    ],
    [
      '0.30 V(2)',
      `Caches populated for *v1.Pod from ${N}`,
      { kind: 'list-done', reflector: N, type: '*v1.Pod' },
    ],
    [
      '0.17 HandleError',
      `${N}: Failed to list *v1.Pod: connection refused`,
      { kind: 'list-failed', reflector: N, type: '*v1.Pod', err: 'connection refused' },
    ],
    [
      '0.20 DefaultWatchErrorHandler',
      `${N}: Failed to watch *v1.Pod: failed to list *v1.Pod: Unauthorized`,
      { kind: 'list-failed', reflector: N, type: '*v1.Pod', err: 'Unauthorized' },
    ],
    [
      '0.27 Warning',
      `${N}: failed to list *v1.Pod: the server could not find the requested resource`,
      {
        kind: 'list-failed',
        reflector: N,
        type: '*v1.Pod',
        err: 'the server could not find the requested resource',
      },
    ],
    [
      '0.17 Warning',
      `${N}: watch of *v1.Pod ended with: too old resource version: 5 (7)`,
      {
        kind: 'watch-end',
        reflector: N,
        type: '*v1.Pod',
        message: 'watch of *v1.Pod ended with: too old resource version: 5 (7)',
        err: 'too old resource version: 5 (7)',
        code: 410,
      },
    ],
    [
      '0.20 V(1)',
      `${N}: Watch for *v1.Pod closed with unexpected EOF: unexpected EOF`,
      {
        kind: 'watch-end',
        reflector: N,
        type: '*v1.Pod',
        message: 'Watch for *v1.Pod closed with unexpected EOF: unexpected EOF',
        err: 'unexpected EOF',
      },
    ],
    [
      '0.27 V(2)',
      `${N}: watch of *v1.Pod returned 429 - backing off`,
      {
        kind: 'watch-end',
        reflector: N,
        type: '*v1.Pod',
        message: 'watch of *v1.Pod returned 429 - backing off',
        code: 429,
      },
    ],
    [
      '0.27 V(2) internal error',
      `${N}: retrying watch of *v1.Pod internal error: etcdserver: leader changed`,
      {
        kind: 'watch-end',
        reflector: N,
        type: '*v1.Pod',
        message: 'retrying watch of *v1.Pod internal error: etcdserver: leader changed',
        err: 'etcdserver: leader changed',
      },
    ],
    [
      '0.17 V(4)',
      `${N}: Watch close - *v1.Pod total 12 items received`,
      {
        kind: 'watch-end',
        reflector: N,
        type: '*v1.Pod',
        message: 'Watch close - *v1.Pod total 12 items received',
      },
    ],
    ['0.20 V(2) Starting', `Starting reflector *v1.Pod (30s) from ${N}`, undefined],
    ['0.17 V(4) forcing resync', `${N}: forcing resync`, undefined],
  ];
  for (const [name, message, want] of printf) {
    it(`printf ${name}: ${message.replace(N, 'NAME')}`, () => {
      assert.deepStrictEqual(printfReflectorEvent(message), want);
    });
  }

  const structured: Array<[string, ReflectorEvent | undefined]> = [
    [
      '"Watch close" reflector="r.go:1" type="*v1.Pod" totalItems=12',
      {
        kind: 'watch-end',
        reflector: 'r.go:1',
        type: '*v1.Pod',
        message: 'Watch close: totalItems=12',
      },
    ],
    [
      '"Warning: watch ended with error" reflector="r.go:1" type="*v1.Pod" err="too old resource version: 5 (7)"',
      {
        kind: 'watch-end',
        reflector: 'r.go:1',
        type: '*v1.Pod',
        message: 'Warning: watch ended with error: too old resource version: 5 (7)',
        err: 'too old resource version: 5 (7)',
        code: 410,
      },
    ],
    [
      '"Failed to watch" err="failed to list *v1.Pod: Unauthorized" reflector="r.go:1" type="*v1.Pod"',
      { kind: 'list-failed', reflector: 'r.go:1', type: '*v1.Pod', err: 'Unauthorized' },
    ],
    [
      '"Unhandled Error" err="r.go:1: Failed to watch *v1.Pod: context deadline exceeded"',
      {
        kind: 'watch-end',
        reflector: 'r.go:1',
        type: '*v1.Pod',
        message: 'Failed to watch *v1.Pod: context deadline exceeded',
        err: 'context deadline exceeded',
      },
    ],
    [
      '"Listing and watching" type="*v1.Pod" reflector="r.go:1"',
      { kind: 'list-start', reflector: 'r.go:1', type: '*v1.Pod' },
    ],
    [
      '"Caches populated" type="*v1.Pod" reflector="r.go:1"',
      { kind: 'list-done', reflector: 'r.go:1', type: '*v1.Pod' },
    ],
    [
      '"Stopping reflector" type="*v1.Pod" resyncPeriod="0s" reflector="r.go:1"',
      { kind: 'stop', reflector: 'r.go:1', type: '*v1.Pod' },
    ],
  ];
  for (const [message, want] of structured) {
    it(`structured ${message.slice(0, 40)}…`, () => {
      const e = readStructured(message);
      assert.strictEqual(e.kind, 'done');
      assert.deepStrictEqual(
        e.kind === 'done' ? structuredReflectorEvent(e.entry) : undefined,
        want,
      );
    });
  }

  // UnsafeGuessKindToResource's plurals, and the group of an unstructured informer's GVK.
  const types: Array<[string, ReturnType<typeof resourceOfType>]> = [
    ['*v1.Pod', { resource: 'pods' }],
    ['*v1.Endpoints', { resource: 'endpoints' }],
    ['*v1.NetworkPolicy', { resource: 'networkpolicies' }],
    ['*v1.Ingress', { resource: 'ingresses' }],
    ['*v1beta1.CSIStorageCapacity', { resource: 'csistoragecapacities' }],
    [
      'stable.example.com/v1, Kind=CronTab',
      { resource: 'crontabs', apiGroup: 'stable.example.com' },
    ],
    ['/v1, Kind=ConfigMap', { resource: 'configmaps' }],
    ['*unstructured.Unstructured', {}],
    ['*v1.PartialObjectMetadata', {}],
  ];
  for (const [type, want] of types) {
    it(`the resource of ${type}`, () => assert.deepStrictEqual(resourceOfType(type), want));
  }
});
