// Tests for src/import/httplog-format.ts and the klog readers it uses (klog-key-values.ts).
// Real lines (public logs found with the code search): kube-apiserver 1.24 answering kubectl's
// LIST with apf keys (a 404 for metrics.k8s.io), kube-apiserver 1.28 with the CRI prefix of a
// /var/log/pods file (a kubelet GET), kube-scheduler 1.29's healthz (audit-ID=""), and 1.18's
// printf line. The WATCH, hijacked, statusStack block and JSON-format lines are written from
// httplog.go's key order (release-1.36 and release-1.20), not taken from a log.
import * as assert from 'assert';
import { httplogFormat } from '../../../src/import/httplog-format';
import { parseGoDuration, unquoteGo } from '../../../src/import/klog-key-values';
import { importText } from './import-harness';

const real = {
  list124:
    'I1008 04:37:11.770951       1 httplog.go:132] "HTTP" verb="LIST" URI="/apis/metrics.k8s.io/v1beta1/pods" latency="556.708µs" userAgent="kubectl/v1.24.3 (darwin/arm64) kubernetes/aef86a9" audit-ID="f6579fa5-e42a-4dc7-93f6-30821140806a" srcIP="172.18.0.1:60528" apf_pl="exempt" apf_fs="exempt" apf_iseats=1 apf_fseats=0 apf_additionalLatency="0s" apf_execution_time="41.167µs" resp=404',
  cri128:
    '2023-08-23T08:55:54.331196195Z stderr F I0823 08:55:54.330840       1 httplog.go:132] "HTTP" verb="GET" URI="/api/v1/namespaces/default/configmaps/nginx-cfgmap" latency="1.926865ms" userAgent="kubelet/v1.28.0 (linux/amd64) kubernetes/855e7c4" audit-ID="36cfcbe3-d76a-4a4d-b251-47cc2df060cb" srcIP="192.168.228.2:59052" apf_pl="system" apf_fs="system-nodes" apf_iseats=1 apf_fseats=0 apf_additionalLatency="0s" apf_execution_time="1.269527ms" resp=200',
  healthz129:
    'I1123 10:41:37.638471       1 httplog.go:132] "HTTP" verb="GET" URI="/healthz" latency="247.092µs" userAgent="kube-probe/1.29" audit-ID="" srcIP="10.0.2.15:60680" resp=200',
  printf118:
    'I0519 19:41:31.532593       1 httplog.go:90] verb="GET" URI="/healthz" latency=2.055089ms resp=200 UserAgent="kube-probe/1.18+" srcIP="10.0.142.32:49780": ',
};

const watch136 =
  'I1201 10:05:00.000000       1 httplog.go:134] "HTTP" verb="WATCH" URI="/api/v1/pods?allowWatchBookmarks=true&resourceVersion=41&timeoutSeconds=300&watch=true" latency="5m0s" userAgent="kube-controller-manager/v1.36.0 (linux/amd64) kubernetes/0000000/shared-informers" audit-ID="w-36" srcIP="[::1]:53211" apf_pl="workload-high" apf_fs="kube-controller-manager" apf_iseats=1 apf_fseats=0 apf_additionalLatency="0s" resp=200';

describe('import: kube-apiserver httplog lines', () => {
  it('reads each version of the line', async () => {
    const text = [
      real.list124,
      real.cri128,
      real.healthz129,
      real.printf118,
      watch136,
      // 1.20–1.21: the method as verb, no audit-ID.
      'I0312 10:15:07.146378       1 httplog.go:89] "HTTP" verb="GET" URI="/api/v1/namespaces/shop/pods?limit=500" latency="12.1ms" userAgent="kubectl/v1.20.0" srcIP="10.0.0.7:4242" resp=200',
      'I0312 10:15:08.000000       1 httplog.go:134] "HTTP" verb="APPLY" URI="/api/v1/namespaces/shop/configmaps/cm?fieldManager=kubectl" latency="3ms" userAgent="kubectl/v1.36.0" audit-ID="ap-1" srcIP="10.0.0.7:4242" resp=201',
      'I0312 10:15:09.000000       1 httplog.go:134] "HTTP" verb="DELETE" URI="/api/v1/namespaces/shop/configmaps" latency="3ms" userAgent="kubectl/v1.36.0" audit-ID="dc-1" srcIP="10.0.0.7:4242" resp=200',
      'I0312 10:15:10.000000       1 httplog.go:134] "HTTP" verb="CONNECT" URI="/api/v1/namespaces/shop/pods/p/exec?command=sh" latency="1m2.5s" userAgent="kubectl/v1.36.0" audit-ID="ex-1" srcIP="10.0.0.7:4242" hijacked=true',
      '{"ts":1764583200123.456,"caller":"httplog/httplog.go:134","msg":"HTTP","v":3,"verb":"LIST","URI":"/api/v1/pods?limit=1","latency":"2.31ms","userAgent":"client-go","audit-ID":"j-1","srcIP":"127.0.0.1:1","resp":200}',
    ].join('\n');
    const { result, requests, rejects } = await importText(text, { year: 2026 });
    assert.deepStrictEqual(rejects, []);
    assert.strictEqual(result.files[0].format, 'httplog');
    assert.deepStrictEqual(result.assumptions.year, { value: 2026, from: '--year' });
    const got = requests.map((r) => [r.verb, r.method, r.code, r.auditID, r.sourceIP, r.latencyMs]);
    assert.deepStrictEqual(got, [
      ['list', 'GET', 404, 'f6579fa5-e42a-4dc7-93f6-30821140806a', '172.18.0.1', 0.556708],
      ['get', 'GET', 200, '36cfcbe3-d76a-4a4d-b251-47cc2df060cb', '192.168.228.2', 1.926865],
      ['get', 'GET', 200, undefined, '10.0.2.15', 0.247092],
      ['get', 'GET', 200, undefined, '10.0.142.32', 2.055089],
      ['watch', 'GET', 200, 'w-36', '::1', 300_000],
      ['list', 'GET', 200, undefined, '10.0.0.7', 12.1],
      ['patch', 'PATCH', 201, 'ap-1', '10.0.0.7', 3],
      ['deletecollection', 'DELETE', 200, 'dc-1', '10.0.0.7', 3],
      ['create', undefined, undefined, 'ex-1', '10.0.0.7', 62_500],
      ['list', 'GET', 200, 'j-1', '127.0.0.1', 2.31],
    ]);
    const [list, cri, , , w] = requests;
    assert.deepStrictEqual(list.objectRef, {
      resource: 'pods',
      apiGroup: 'metrics.k8s.io',
      apiVersion: 'v1beta1',
    });
    assert.strictEqual(list.userAgent, 'kubectl/v1.24.3 (darwin/arm64) kubernetes/aef86a9');
    // The CRI prefix gives the year (2023), not --year.
    assert.strictEqual(cri.completedAt, Date.UTC(2023, 7, 23, 8, 55, 54) + 330.84);
    assert.strictEqual(w.completedAt, Date.UTC(2026, 11, 1, 10, 5, 0));
    assert.strictEqual(w.receivedAt, Date.UTC(2026, 11, 1, 10, 0, 0), 'completed minus latency');
    assert.ok(requests.every((r) => r.startInFile && r.endInFile));
    assert.strictEqual(requests[9].completedAt, 1764583200123.456);
  });

  it('reads a statusStack block over several lines, and rejects a block left open', async () => {
    const text = [
      'I1201 10:00:00.000000       1 httplog.go:134] "HTTP" verb="GET" URI="/api/v1/pods/x" latency="1ms" userAgent="a" audit-ID="s-1" srcIP="1.2.3.4:5" resp=500 statusStack=<',
      '\t',
      '\tgoroutine 1 [running]:',
      '\tk8s.io/apiserver/pkg/server/httplog.(*respLogger).recordStatus(…)',
      ' > addedInfo=<',
      '\tsomething',
      ' >',
      'I1201 10:00:01.000000       1 httplog.go:134] "HTTP" verb="GET" URI="/api/v1/pods/y" latency="1ms" userAgent="a" audit-ID="s-2" srcIP="1.2.3.4:5" resp=500 statusStack=<',
      '\tgoroutine 1 [running]:',
      'I1201 10:00:02.000000       1 httplog.go:134] "HTTP" verb="GET" URI="/api/v1/pods/z" latency="1ms" userAgent="a" audit-ID="s-3" srcIP="1.2.3.4:5" resp=500 statusStack=<',
      '\tgoroutine 1 [running]:',
    ].join('\n');
    const { requests, rejects, result } = await importText(text, { year: 2026 });
    assert.deepStrictEqual(
      requests.map((r) => [r.auditID, r.code, r.sources[0].line]),
      [['s-1', 500, 1]],
    );
    assert.deepStrictEqual(
      rejects.map((r) => [r.line, r.reason]),
      [
        [8, 'a klog value block (`key=<`) did not end with ` >`'],
        [10, 'the file ended inside a klog value block (`key=<`)'],
      ],
    );
    assert.strictEqual(result.rejected, 2);
  });

  it('skips other klog lines, rejects what is no log line and what breaks the format', async () => {
    const text = [
      'I1123 10:41:37.638248       1 pathrecorder.go:241] kube-scheduler: "/healthz" satisfied by exact match',
      real.healthz129,
      'Flag --insecure-port has been deprecated',
      'I1201 10:00:00.000000       1 httplog.go:134] "HTTP" verb="GET" latency="1ms" resp=200',
      'I1201 10:00:00.000000       1 httplog.go:134] "HTTP" verb="GET" URI="/x" latency="fast" resp=200',
      '{"ts":1,"msg":"other"}',
      'I1201 10:00:00.000000       1 httplog.go:134] "HTTP" verb="GET" URI="/x\u001b[2J" userAgent="<script>alert(1)</script>" resp=200',
    ].join('\n');
    const { requests, rejects, result } = await importText(text, { year: 2026 });
    assert.deepStrictEqual(
      rejects.map((r) => [r.line, r.reason.slice(0, 40)]),
      [
        [3, 'expected a kube-apiserver log line (`I12'],
        [4, 'expected an httplog "HTTP" line with ver'],
        [5, 'expected latency as a Go duration (2.31m'],
        [6, 'expected a JSON httplog line ("msg":"HTT'],
      ],
    );
    assert.strictEqual(result.skipped, 1);
    assert.strictEqual(requests.length, 2);
    assert.strictEqual(requests[1].userAgent, '<script>alert(1)</script>');
    assert.strictEqual(requests[1].requestURI, '/x\u001b[2J', 'kept as data');
  });

  it('sniffs httplog lines', () => {
    const cases: Array<[string, boolean]> = [
      [real.list124, true],
      [real.cri128, true],
      [real.printf118, true],
      ['{"ts":1,"msg":"HTTP","verb":"GET"}', true],
      ['I1201 10:00:00.000000   17122 round_trippers.go:553] GET https://x/api 200 OK', false],
      ['{"kind":"Event","apiVersion":"audit.k8s.io/v1"}', false],
    ];
    for (const [line, want] of cases) assert.strictEqual(httplogFormat.sniff(line), want, line);
  });

  it('decodes Go quoted strings and durations', () => {
    const quoted: Array<[string, string | undefined]> = [
      ['"plain"', 'plain'],
      ['"a\\"b\\\\c"', 'a"b\\c'],
      ['"\\a\\b\\f\\n\\r\\t\\v"', '\x07\b\f\n\r\t\v'],
      ['"\\u00e9\\U0001F600"', 'é😀'],
      ['"\\xc3\\xa9"', 'é'],
      ['"\\xff"', '\ufffd'],
      ['"\\101"', 'A'],
      ['"bad\\q"', undefined],
      ['"open', undefined],
      ['"a"b"', undefined],
    ];
    for (const [s, want] of quoted) assert.strictEqual(unquoteGo(s), want, s);
    const durations: Array<[string, number | undefined]> = [
      ['2.31ms', 2.31],
      ['5m0s', 300_000],
      ['1h2m3.5s', 3_723_500],
      ['850µs', 0.85],
      ['120ns', 0.00012],
      ['0s', 0],
      ['-1s', -1000],
      ['.5s', 500],
      ['1.5h', 5_400_000],
      ['fast', undefined],
      ['5', undefined],
    ];
    for (const [s, want] of durations) {
      const got = parseGoDuration(s);
      if (want === undefined) assert.strictEqual(got, undefined, s);
      else assert.ok(got !== undefined && Math.abs(got - want) < 1e-9, `${s}: ${got}`);
    }
  });
});
