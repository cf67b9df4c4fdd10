// Tests for `serve --faults FILE` (src/server/fault-schedule.ts): a table of schedules, YAML and
// JSON, each parsed into the admin API's specs or refused with the file, line and column of the
// offending key or value and what was expected; then the check against the served resources.
import * as assert from 'assert';
import {
  checkFaultSchedule,
  parseFaultSchedule,
  FaultScheduleError,
} from '../../../src/server/fault-schedule';
import type { FaultSpec } from '../../../src/server/faults';

const yaml = (...lines: string[]): string => lines.join('\n') + '\n';

describe('fault schedule (src/server/fault-schedule.ts)', () => {
  const good: [string, string, FaultSpec[]][] = [
    [
      'YAML: a request fault with matchers and a trigger, and a server fault',
      yaml(
        '# what the test scripts',
        'faults:',
        '  - name: http-error',
        '    parameters: { code: 429 }',
        '    match: { verb: list, resource: pods }',
        '    trigger: { nth: 1 }',
        '  - name: cache-lag',
        '    parameters:',
        '      seconds: 2',
        '    match: { resource: pods }',
        '    trigger: { afterSeconds: 10 }',
        '  - name: blackhole',
      ),
      [
        {
          name: 'http-error',
          params: { code: 429 },
          match: { verb: 'list', resource: 'pods' },
          trigger: { nth: 1 },
        },
        // A server fault's resource matcher is its resource parameter.
        {
          name: 'cache-lag',
          params: { seconds: 2, resource: 'pods' },
          match: {},
          trigger: { afterSeconds: 10 },
        },
        { name: 'blackhole', params: {}, match: {}, trigger: {} },
      ],
    ],
    [
      'JSON',
      '{"faults": [{"name": "drop-connection", "parameters": {"afterEvents": 3}, "match": {"watchList": true}}]}',
      [
        {
          name: 'drop-connection',
          params: { afterEvents: 3 },
          match: { watchList: true },
          trigger: {},
        },
      ],
    ],
    ['no faults', 'faults: []\n', []],
  ];
  for (const [name, text, want] of good)
    it(`reads ${name}`, () => {
      const s = parseFaultSchedule(text, 'faults.yaml');
      assert.deepStrictEqual(
        s.entries.map((e) => e.spec),
        want,
      );
    });

  const bad: [string, string, string][] = [
    [
      'not YAML',
      yaml('faults:', '  - name: [latency'),
      'faults.yaml:3:1: not YAML: unexpected end of the stream within a flow collection',
    ],
    [
      'no faults key',
      yaml('fault:', '  - name: latency'),
      'faults.yaml:1:1: fault: unknown key; expected faults',
    ],
    [
      'faults not a list',
      yaml('faults:', '  name: latency'),
      'faults.yaml:2:3: expected a mapping with faults: a list of {name, parameters, match, trigger}',
    ],
    [
      'an unknown fault, at its name',
      yaml('faults:', '  - name: latency', '    parameters: {ms: 5}', '  - name: crash'),
      'faults.yaml:4:11: faults[1] (crash): unknown fault "crash"; expected one of: compact, cache-lag, expire-history, etcd-latency, etcd-unavailable, rangestream, terminate-watcher, restart, stall-watch, omit-end-bookmark, ignore-send-initial-events, drop-connection, http-error, blackhole, latency',
    ],
    [
      'an entry key that is not one',
      yaml('faults:', '  - name: latency', '    params: {ms: 5}'),
      'faults.yaml:3:5: faults[0].params: unknown key; expected one of name, parameters, match, trigger',
    ],
    [
      'no name',
      yaml('faults:', '  - parameters: {ms: 5}'),
      'faults.yaml:2:5: faults[0].name: expected a fault name',
    ],
    [
      'an unknown parameter, at its key',
      yaml('faults:', '  - name: latency', '    parameters:', '      ms: 5', '      jitter: 1'),
      'faults.yaml:5:7: faults[0] (latency): jitter: unknown parameter; latency takes ms',
    ],
    [
      'a missing parameter, at parameters',
      yaml('faults:', '  - name: stall-watch', '    parameters: {then: drop}'),
      'faults.yaml:3:5: faults[0] (stall-watch): seconds: required: expected a number > 0',
    ],
    [
      'a missing parameter and no parameters: at the entry',
      yaml('faults:', '  - name: latency'),
      'faults.yaml:2:5: faults[0] (latency): ms: required: expected a number > 0',
    ],
    [
      'a wrong value',
      yaml('faults:', '  - name: http-error', '    parameters: {code: 418}'),
      'faults.yaml:3:18: faults[0] (http-error): code: expected one of 429, 500, 503, 504, got 418',
    ],
    [
      'an unknown matcher',
      yaml('faults:', '  - name: blackhole', '    match:', '      verb: get', '      agent: curl'),
      'faults.yaml:5:7: faults[0] (blackhole): match.agent: unknown matcher; expected one of verb, resource, namespace, userAgent, watchList, replica',
    ],
    [
      'an unknown trigger',
      yaml('faults:', '  - name: blackhole', '    trigger: {first: 2}'),
      'faults.yaml:3:15: faults[0] (blackhole): trigger.first: unknown trigger; expected one of nth, count, afterSeconds',
    ],
    [
      'a matcher a server fault cannot use',
      yaml('faults:', '  - name: compact', '    match: {verb: list}'),
      'faults.yaml:3:13: faults[0] (compact): match.verb: compact acts on the server, not on requests: it takes only the replica matcher',
    ],
    [
      'a trigger a server fault cannot use',
      yaml('faults:', '  - name: restart', '    trigger: {count: 1}'),
      'faults.yaml:3:15: faults[0] (restart): trigger.count: restart acts on the server, not on requests: its only trigger is afterSeconds',
    ],
    [
      'JSON, its line',
      '{"faults": [\n  {"name": "latency", "parameters": {"ms": 5}},\n  {"name": "latency", "parameters": {"ms": -5}}\n]}\n',
      'faults.json:3:38: faults[1] (latency): ms: expected a number > 0, got -5',
    ],
  ];
  for (const [name, text, message] of bad)
    it(`refuses ${name}`, () => {
      const file = message.split(':')[0];
      assert.throws(
        () => parseFaultSchedule(text, file),
        (e: unknown) => e instanceof FaultScheduleError && e.message === message,
        (() => {
          try {
            parseFaultSchedule(text, file);
            return `${name}: no error`;
          } catch (e) {
            return `${name}: ${(e as Error).message}`;
          }
        })(),
      );
    });

  it('refuses a resource the server does not serve, at its line, before anything is applied', () => {
    const s = parseFaultSchedule(
      yaml(
        'faults:',
        '  - name: latency',
        '    parameters: {ms: 5}',
        '    match: {resource: widgets.example.com}',
      ),
      'faults.yaml',
    );
    assert.throws(() => checkFaultSchedule(s, ['pods', 'configmaps']), {
      message:
        'faults.yaml:4:13: faults[0] (latency): match.resource: "widgets.example.com" is not served; expected one of: pods, configmaps',
    });
    assert.deepStrictEqual(checkFaultSchedule(s, ['pods', 'widgets.example.com']).length, 1);
  });
});
