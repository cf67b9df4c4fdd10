// The probe's Prometheus text parser (expfmt's text format 0.0.4): sample keys as the engine's
// registry writes them, so a cluster's scrape and the engine's samples read alike; the families
// kept; what is refused. No upstream counterpart beyond expfmt's own cases.
import * as assert from 'assert';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import { filterScrape } from '../../../src/probe/probe-metrics';
import { parsePrometheusText } from '../../../src/probe/prometheus-text';

describe('Prometheus text parser', () => {
  const cases: Array<[string, string, Record<string, number>]> = [
    ['a bare sample', 'up 1\n', { up: 1 }],
    [
      'labels sorted, le last',
      'h_bucket{le="0.5",b="2",a="1"} 3\n',
      { 'h_bucket{a="1",b="2",le="0.5"}': 3 },
    ],
    [
      'escapes kept as the format writes them',
      'm{p="a\\"b\\\\c\\nd"} 2\n',
      { 'm{p="a\\"b\\\\c\\nd"}': 2 },
    ],
    ['a timestamp is dropped', 'm{a="x"} 7 1700000000000\n', { 'm{a="x"}': 7 }],
    ['comments, HELP and blank lines', '# HELP m it\n# TYPE m counter\n\nm 1.5e3\n', { m: 1500 }],
    ['CRLF line ends', 'm 1\r\nn 2\r\n', { m: 1, n: 2 }],
  ];
  for (const [name, text, want] of cases)
    it(name, () => assert.deepStrictEqual(parsePrometheusText(text).samples, want));

  it('NaN and ±Inf are counted, not kept (JSON has no such numbers)', () => {
    const r = parsePrometheusText('q{quantile="0.5"} NaN\nm +Inf\nn -Inf\nok 1\n');
    assert.deepStrictEqual(r.samples, { ok: 1 });
    assert.deepStrictEqual(r.nonFinite, ['q{quantile="0.5"}', 'm', 'n']);
  });

  const bad: Array<[string, string]> = [
    ['m{a="x} 1\n', 'line 1: unterminated value of label a'],
    ['m{a=x} 1\n', 'line 1: expected ="…" after label a'],
    ['ok 1\nm one\n', 'line 2: expected a float value after m, got "one"'],
    ['{a="b"} 1\n', 'line 1: expected a metric name, got "{a=\\"b\\"} 1"'],
  ];
  for (const [text, message] of bad)
    it(`refuses ${JSON.stringify(text)}`, () =>
      assert.throws(() => parsePrometheusText(text), { message }));

  it("reads the engine's own exposition back to its samples()", () => {
    const r = new MetricsRegistry();
    const c = r.counter('apiserver_storage_list_total', 'lists', ['resource', 'group']);
    c.inc({ resource: 'pods', group: '' }, 3);
    const h = r.histogram('etcd_request_duration_seconds', 'latency', ['operation'], [0.005, 0.1]);
    h.observe({ operation: 'list' }, 0.05);
    r.gauge('watch_cache_capacity', 'a "quoted" help\\', ['resource']).set(
      { resource: 'a"b' },
      100,
    );
    assert.deepStrictEqual(parsePrometheusText(r.text()).samples, r.samples());
  });

  it('keeps the list/watch families and their lines of text', () => {
    const text = [
      '# HELP apiserver_request_total all requests',
      '# TYPE apiserver_request_total counter',
      'apiserver_request_total{verb="LIST"} 9',
      '# HELP watch_cache_capacity capacity',
      '# TYPE watch_cache_capacity gauge',
      'watch_cache_capacity{resource="pods"} 100',
      'etcd_request_duration_seconds_count{operation="get"} 4',
      '',
    ].join('\n');
    const s = filterScrape(text);
    assert.deepStrictEqual(s.samples, {
      'watch_cache_capacity{resource="pods"}': 100,
      'etcd_request_duration_seconds_count{operation="get"}': 4,
    });
    assert.strictEqual(s.totalSamples, 3);
    assert.deepStrictEqual(s.types, { watch_cache_capacity: 'gauge' });
    assert.strictEqual(
      s.text,
      '# HELP watch_cache_capacity capacity\n# TYPE watch_cache_capacity gauge\nwatch_cache_capacity{resource="pods"} 100\netcd_request_duration_seconds_count{operation="get"} 4\n',
    );
  });
});
