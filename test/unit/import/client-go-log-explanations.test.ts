// The catalogue of client-go log lines (src/import/client-go-log-explanations.ts): each line as a
// client-go version prints it (the format strings of tools/cache/reflector.go, dynamic/simple.go and
// metadata/metadata.go at release-1.27 … release-1.36 and v0.17–v0.20, filled in as klog prints
// them; the lines marked recorded come from real kubectl runs in test/fixtures/import) maps to its
// explanation; near-misses map to none; hostile text stays text.
import * as assert from 'assert';
import type { ClientGoLogCall } from '../../../src/import/client-go-log-call';
import {
  clientGoLogCommands,
  clientGoLogExplanations,
  explainClientGoLogLine,
} from '../../../src/import/client-go-log-explanations';
import {
  clientGoLogExplanationMarkdown,
  clientGoLogExplanationText,
} from '../../../src/import/client-go-log-explanation-text';
import { describeFaults } from '../../../src/server/faults';
import { matcherFields } from '../../../src/server/fault-matcher';
import { triggerFields } from '../../../src/server/fault-trigger';
import { flagName } from '../../../src/cli/fault-command';

const n27 = 'pkg/mod/k8s.io/client-go@v0.27.0/tools/cache/reflector.go:231';
const n32 = 'pkg/mod/k8s.io/client-go@v0.32.0/tools/cache/reflector.go:251';
const f35 = 'k8s.io/client-go/informers/factory.go:160';

/** [case, line, explanation id (undefined: not recognised)]. */
const cases: Array<[string, string, string | undefined]> = [
  // WatchList: the initial-events-end bookmark that does not come.
  [
    '0.31–0.32 klog.Warning(err): awaiting, no events',
    `W0312 10:00:10.000100    4101 reflector.go:1054] ${n32}: awaiting required bookmark event for initial events stream, no events received for 10.000712042s`,
    'initial-events-end-not-started',
  ],
  [
    '0.33+ "Warning: event bookmark expired": awaiting, no events',
    `I0312 10:00:10.000100    4101 reflector.go:1159] "Warning: event bookmark expired" err="${f35}: awaiting required bookmark event for initial events stream, no events received for 10.001209542s"`,
    'initial-events-end-not-started',
  ],
  [
    '0.31–0.32 klog.Warning(err): events, no end bookmark',
    `W0312 10:00:20.000100    4101 reflector.go:1054] ${n32}: hasn't received required bookmark event marking the end of initial events stream, received last event 10.2s ago`,
    'initial-events-end-missing',
  ],
  [
    '0.35 "Warning: event bookmark expired": events, no end bookmark',
    `I0312 10:00:20.000100    4101 reflector.go:1159] "Warning: event bookmark expired" err="${f35}: hasn't received required bookmark event marking the end of initial events stream, received last event 12.5s ago"`,
    'initial-events-end-missing',
  ],
  [
    '0.35 "Warning: event bookmark expired" with another error',
    `I0312 10:00:20.000100    4101 reflector.go:1159] "Warning: event bookmark expired" err="something else"`,
    'initial-events-end-late',
  ],
  [
    'pasted without the klog header',
    `"Warning: event bookmark expired" err="${f35}: awaiting required bookmark event for initial events stream, no events received for 20s"`,
    'initial-events-end-not-started',
  ],
  [
    "klog's JSON format",
    `{"ts":1765100000000.1,"caller":"cache/reflector.go:1159","msg":"Warning: event bookmark expired","v":0,"err":"${f35}: awaiting required bookmark event for initial events stream, no events received for 10s"}`,
    'initial-events-end-not-started',
  ],
  // WatchList: its healthy end.
  [
    '0.30 printf, V(4)',
    'I0312 15:00:00.250300    6601 reflector.go:798] exiting pkg/mod/k8s.io/client-go@v0.30.0/tools/cache/reflector.go:232 Watch because received the bookmark that marks the end of initial events stream, total 13 items received in 250.0812ms',
    'initial-events-end',
  ],
  [
    '0.33 structured (recorded, kubectl 1.33)',
    'I1207 09:54:45.742856    2997 reflector.go:933] "Exiting watch because received the bookmark that marks the end of initial events stream" reflector="k8s.io/client-go/tools/watch/informerwatcher.go:162" totalItems=2 duration="269.799252ms"',
    'initial-events-end',
  ],
  // WatchList: the fallback to a LIST.
  [
    '0.29–0.32 reflector, Warning',
    'W0312 10:00:00.000100    4101 reflector.go:345] The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking, err = the server rejected our request due to an error in our request (get pods)',
    'watch-list-fallback',
  ],
  [
    '0.31–0.33 dynamic client, Warning',
    'W0312 10:00:00.000100    4101 simple.go:262] The watchlist request for pods ended with an error, falling back to the standard LIST semantics, err = unknown (get pods)',
    'watch-list-fallback',
  ],
  [
    '0.33 reflector, logger.Error',
    'E0312 10:00:00.000100    4101 reflector.go:416] "The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking" err="ListOptions.meta.k8s.io \\"\\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"',
    'watch-list-fallback',
  ],
  [
    '0.33 metadata client, logger.Error',
    'E0312 10:00:00.000100    4101 metadata.go:231] "The watchlist request ended with an error, falling back to the standard LIST semantics" err="the server could not find the requested resource" resource="apps/v1, Resource=deployments"',
    'watch-list-fallback',
  ],
  [
    "0.35+ V(4) Data couldn't be fetched in watchlist mode",
    `I0312 10:00:00.000100    4101 reflector.go:423] "Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver." err="very short watch: ${f35}: Unexpected watch close - watch lasted less than a second and no items received"`,
    'watch-list-fallback',
  ],
  // An expired watch.
  [
    '0.17 ended with, V(4)',
    'I0312 10:27:10.500600    4101 reflector.go:338] pkg/mod/k8s.io/client-go@v0.17.0/tools/cache/reflector.go:108: watch of *v1.Pod ended with: too old resource version: 5 (7)',
    'watch-expired',
  ],
  [
    '0.27 closed with, V(4)',
    `I1207 09:31:40.500600    7001 reflector.go:443] ${n27}: watch of *v1.Pod closed with: too old resource version: 1243 (1244)`,
    'watch-expired',
  ],
  [
    '0.33 "Watch closed" (recorded, kubectl 1.33)',
    'I1207 09:55:11.771462    2997 reflector.go:543] "Watch closed" reflector="k8s.io/client-go/tools/watch/informerwatcher.go:162" type="*unstructured.Unstructured" err="too old resource version: 13 (18)"',
    'watch-expired',
  ],
  [
    "0.33+ Warning: watch ended with error, etcd's text",
    `I0312 14:09:00.400600    5505 reflector.go:578] "Warning: watch ended with error" reflector="${f35}" type="*v1.Pod" err="The resourceVersion for the provided watch is too old."`,
    'watch-expired',
  ],
  // A resource the server does not serve.
  [
    '0.27 Failed to watch: failed to list: 404',
    `E0312 12:07:32.060800    4303 reflector.go:148] ${n27}: Failed to watch *v1.Pod: failed to list *v1.Pod: the server could not find the requested resource (get pods)`,
    'resource-not-found',
  ],
  [
    '0.27 failed to list, Warning',
    `W0312 12:07:32.060700    4303 reflector.go:533] ${n27}: failed to list example.com/v1, Kind=Widget: the server could not find the requested resource`,
    'resource-not-found',
  ],
  [
    '0.31–0.32 "Unhandled Error" wrapping Failed to watch',
    `E0312 12:07:32.060800    4303 reflector.go:158] "Unhandled Error" err="${n32}: Failed to watch *v1.Pod: failed to list *v1.Pod: the server could not find the requested resource (get pods)" logger="UnhandledError"`,
    'resource-not-found',
  ],
  [
    '0.33+ Failed to watch, structured',
    `E0312 12:07:32.060800    4303 reflector.go:204] "Failed to watch" err="failed to list *v1.Pod: the server could not find the requested resource (get pods)" logger="UnhandledError" reflector="${f35}" type="*v1.Pod"`,
    'resource-not-found',
  ],
  // Too large resource version.
  [
    '0.27 failed to list: 504',
    `W0312 12:07:32.060700    4303 reflector.go:533] ${n27}: failed to list *v1.ConfigMap: Timeout: Too large resource version: 12, current: 10`,
    'too-large-resource-version',
  ],
  // The other reflector lines.
  [
    '0.27 continue token expired',
    `E0312 12:07:32.060800    4303 reflector.go:148] ${n27}: Failed to watch *v1.ConfigMap: failed to list *v1.ConfigMap: The provided continue parameter is too old to display a consistent list result.`,
    'continue-expired',
  ],
  [
    '0.17 Failed to list, connection refused',
    'E0312 10:27:11.600800    4101 reflector.go:156] pkg/mod/k8s.io/client-go@v0.17.0/tools/cache/reflector.go:108: Failed to list *v1.Pod: Get https://10.96.0.1:443/api/v1/pods?limit=500&resourceVersion=0: dial tcp 10.96.0.1:443: connect: connection refused',
    'list-failed',
  ],
  [
    '0.33 Failed to watch: context deadline exceeded (recorded, kubectl 1.33)',
    'E1207 16:21:07.454023   10392 reflector.go:200] "Failed to watch" err="context deadline exceeded" reflector="k8s.io/client-go/tools/watch/informerwatcher.go:162" type="*unstructured.Unstructured"',
    'watch-failed',
  ],
  [
    '0.27 ended with, Warning, another error',
    `W0312 12:07:31.030400    4303 reflector.go:456] ${n27}: watch of *v1.ConfigMap ended with: an error on the server ("unable to decode an event from the watch stream: http2: client connection lost") has prevented the request from succeeding`,
    'watch-ended-with-error',
  ],
  [
    '0.33+ very short watch',
    `I0312 14:09:00.400600    5505 reflector.go:578] "Warning: watch ended with error" reflector="${f35}" type="*v1.Pod" err="very short watch: ${f35}: Unexpected watch close - watch lasted less than a second and no items received"`,
    'very-short-watch',
  ],
  [
    '0.27 unexpected EOF, V(1)',
    `I0312 14:09:00.400600    5505 reflector.go:146] ${n27}: Watch for *v1.Pod closed with unexpected EOF: unexpected EOF`,
    'watch-unexpected-eof',
  ],
  [
    '0.30 returned 429, V(2)',
    'I0312 13:03:00.300300    4404 reflector.go:459] pkg/mod/k8s.io/client-go@v0.30.0/tools/cache/reflector.go:232: watch of *v1.Endpoints returned 429 - backing off',
    'watch-backoff',
  ],
  [
    '0.27 returned ERR - backing off, V(4)',
    `I0312 13:03:00.300300    4404 reflector.go:433] ${n27}: watch of *v1.Pod returned Get "https://10.96.0.1:443/api/v1/pods?watch=true": dial tcp 10.96.0.1:443: connect: connection refused - backing off`,
    'watch-backoff',
  ],
  [
    '0.33+ watch-list failed - backing off',
    `I0312 13:03:00.300300    4404 reflector.go:723] "watch-list failed - backing off" reflector="${f35}" type="*v1.Pod" err="the server has received too many requests and has asked us to try again later"`,
    'watch-backoff',
  ],
  [
    '0.33+ Retrying watch after internal error',
    `I0312 13:03:00.300300    4404 reflector.go:571] "Retrying watch after internal error" reflector="${f35}" type="*v1.Pod" err="Internal error occurred: etcdserver: request timed out"`,
    'watch-internal-retry',
  ],
  [
    '0.17 Watch close, V(4)',
    'I0312 10:20:00.400500    4101 reflector.go:432] pkg/mod/k8s.io/client-go@v0.17.0/tools/cache/reflector.go:108: Watch close - *v1.Pod total 12 items received',
    'watch-close',
  ],
  [
    '0.33 Watch close (recorded, kubectl 1.33)',
    'I1207 09:55:11.720674    2997 reflector.go:946] "Watch close" reflector="k8s.io/client-go/tools/watch/informerwatcher.go:162" type="*unstructured.Unstructured" totalItems=0',
    'watch-close',
  ],
  // Near-misses: the words without the call that prints them.
  ['the phrase alone', 'awaiting required bookmark event', undefined],
  [
    'another file, the phrase cut short',
    'I0312 10:00:10.000100    4101 controller.go:12] my-controller: awaiting required bookmark event',
    undefined,
  ],
  [
    'a watch end without the reflector name',
    'I0312 10:00:10.000100    4101 reflector.go:443] watch of *v1.Pod ended with: too old resource version: 5 (7)',
    undefined,
  ],
  [
    'a structured Watch closed without a reflector (tools/watch retrywatcher)',
    'I0312 10:00:10.000100    4101 retrywatcher.go:129] "Watch closed with unexpected EOF" err="unexpected EOF"',
    undefined,
  ],
  [
    'a similar msg',
    `I0312 10:00:10.000100    4101 reflector.go:946] "Watch closing" reflector="${f35}" type="*v1.Pod"`,
    undefined,
  ],
  [
    'a kubectl response body holding the error text',
    'I1207 09:31:40.500600    7001 request.go:1212] Response Body: {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1243 (1244)","reason":"Expired","code":410}',
    undefined,
  ],
  [
    'the fallback words without their end',
    'W0312 10:00:00.000100    4101 reflector.go:345] The watchlist request ended with an error',
    undefined,
  ],
  [
    'an Unhandled Error of another component',
    'E0312 12:07:32.060800    4303 controller.go:158] "Unhandled Error" err="sync failed: the server could not find the requested resource"',
    undefined,
  ],
  ['JSON without msg', '{"level":"info","err":"too old resource version: 5 (7)"}', undefined],
  ['an empty line', '', undefined],
];

describe('client-go log explanations', () => {
  for (const [name, line, id] of cases) {
    it(`${name} → ${id ?? 'not recognised'}`, () => {
      assert.strictEqual(explainClientGoLogLine(line)?.explanation.id, id);
    });
  }

  it('every call has an explanation that takes any error, so a recognised line is always explained', () => {
    const calls: ClientGoLogCall[] = [
      'bookmark-expired',
      'initial-events-end',
      'watch-list-fallback',
      'watch-ended',
      'watch-unexpected-eof',
      'watch-failed',
      'list-failed',
      'watch-backoff',
      'watch-internal-retry',
      'watch-close',
    ];
    for (const call of calls)
      assert.ok(
        clientGoLogExplanations.some((e) => e.calls.includes(call) && !e.err),
        `${call} has no catch-all explanation`,
      );
    const ids = clientGoLogExplanations.map((e) => e.id);
    assert.deepStrictEqual(ids, [...new Set(ids)], 'ids are unique');
  });

  it('names only real faults, with their real parameters, matchers and triggers', () => {
    const faults = new Map(describeFaults().map((f) => [f.name, f]));
    const shared = [...matcherFields.map((m) => m.name), ...triggerFields.map((t) => t.name)];
    for (const e of clientGoLogExplanations) {
      for (const r of e.faults) {
        const fault = faults.get(r.fault);
        assert.ok(fault, `${e.id}: no fault ${r.fault}`);
        const known = new Set(
          [...fault.parameters.map((p) => p.name), ...shared].map((p) => `--${flagName(p)}`),
        );
        for (const flag of r.flags.filter((f) => f.startsWith('--')))
          assert.ok(known.has(flag), `${e.id}: ${r.fault} has no ${flag}`);
        for (const p of fault.parameters.filter((p) => p.required))
          assert.ok(
            r.flags.includes(`--${flagName(p.name)}`),
            `${e.id}: ${r.fault} needs --${p.name}`,
          );
      }
      assert.ok(
        e.faults.length > 0 || e.reproduceNote,
        `${e.id}: neither a fault nor a note on how to reproduce it`,
      );
      assert.match(e.versions, /client-go \d/, `${e.id}: names no client-go version`);
    }
  });

  it('names the resource of the reflector in the conform command, and only a resource name', () => {
    const pods = explainClientGoLogLine(
      `I0312 14:09:00.400600    5505 reflector.go:443] ${n27}: watch of *v1.Pod closed with: too old resource version: 1 (2)`,
    );
    assert.ok(pods);
    assert.strictEqual(
      clientGoLogCommands(pods).conform,
      'listwatch conform --kubeconfig KUBECONFIG --resource pods',
    );
    const hostileType = explainClientGoLogLine(
      `W0312 12:07:32.060700    4303 reflector.go:533] ${n27}: failed to list e$(rm -rf x)/v1, Kind=W: boom`,
    );
    assert.ok(hostileType);
    assert.strictEqual(
      clientGoLogCommands(hostileType).conform,
      'listwatch conform --kubeconfig KUBECONFIG',
    );
  });

  it('renders a hostile line as text: no HTML, no link, no control character', () => {
    const hostile =
      'W0312 12:07:31.030400    4303 reflector.go:456] <img src=x onerror=alert(1)>: watch of *v1.Pod ended with: [run](command:workbench.action.terminal.new) `code` <script>alert(2)</script>\u001b[31m';
    const e = explainClientGoLogLine(hostile);
    assert.strictEqual(e?.explanation.id, 'watch-ended-with-error');
    const md = clientGoLogExplanationMarkdown(e);
    // Every < and ] of the log is backslash-escaped: CommonMark shows it as the character.
    assert.ok(!/(^|[^\\])[<[\]]/.test(md.replace(/`[^`]*`/g, '')), md);
    assert.ok(!md.includes('\u001b'), 'an escape character reached the Markdown');
    assert.match(md, /\\<img src\\=x/, 'the text is shown, escaped');
    const text = clientGoLogExplanationText(e);
    assert.ok(!text.includes('\u001b'), 'an escape character reached the text');
    assert.match(text, /␛\[31m/);
  });
});
