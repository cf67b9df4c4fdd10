// Tests for src/server/replicas.ts: `--replicas` parsing and refusal, how the ready line says the
// spread, and the load balancer's picks (round robin per request; --sticky per connection).
// Tables, one loop each. No upstream counterpart.
import * as assert from 'assert';
import {
  ReplicaPicker,
  parseReplicas,
  replicasProblem,
  spreadText,
} from '../../../src/server/replicas';
import type { EtcdChoice } from '../../../src/server/etcd-choice';

describe('serve --replicas (src/server/replicas.ts)', () => {
  const parse: [string, number | string][] = [
    ['1', 1],
    ['3', 3],
    ['8', 8],
    ['0', '--replicas expects a number of apiservers 1..8, got "0"'],
    ['9', '--replicas expects a number of apiservers 1..8, got "9"'],
    ['-2', '--replicas expects a number of apiservers 1..8, got "-2"'],
    ['2.5', '--replicas expects a number of apiservers 1..8, got "2.5"'],
    ['', '--replicas expects a number of apiservers 1..8, got ""'],
  ];
  for (const [text, want] of parse)
    it(`parses ${JSON.stringify(text)}`, () => {
      const got = parseReplicas(text);
      assert.deepStrictEqual(typeof got === 'number' ? got : got.message, want);
    });

  const shared: [string, number, EtcdChoice | undefined, boolean][] = [
    ['one replica in memory', 1, undefined, true],
    ['three in memory (the default)', 3, undefined, false],
    ['three in memory (--etcd memory)', 3, { kind: 'memory' }, false],
    ['three in memory with --etcd-version', 3, { kind: 'memory', version: '3.6.6' }, false],
    ['three over a spawned etcd', 3, { kind: 'spawn' }, true],
    ['three over given URLs', 3, { kind: 'servers', endpoints: ['http://127.0.0.1:2379'] }, true],
  ];
  for (const [name, n, etcd, accepted] of shared)
    it(`${name}: ${accepted ? 'accepted' : 'refused'}`, () => {
      const problem = replicasProblem(n, etcd);
      if (accepted) assert.strictEqual(problem, undefined);
      else
        assert.match(
          problem ?? '',
          new RegExp(`^--replicas ${n} needs an etcd the replicas share`),
        );
    });

  const spreads: [number, boolean, string][] = [
    [1, false, '1 replica'],
    [3, false, '3 replicas, round robin per request'],
    [2, true, '2 replicas, each TCP connection kept on one (--sticky)'],
  ];
  for (const [n, sticky, want] of spreads)
    it(`says ${JSON.stringify(want)}`, () => assert.strictEqual(spreadText(n, sticky), want));

  // Each case: the connection of each request, in order, and the replicas picked.
  const picks: [string, number, boolean, string[], number[]][] = [
    ['one replica', 1, false, ['a', 'b', 'a'], [1, 1, 1]],
    ['round robin per request', 3, false, ['a', 'a', 'a', 'a', 'b'], [1, 2, 3, 1, 2]],
    ['round robin per request, two', 2, false, ['a', 'b', 'c'], [1, 2, 1]],
    [
      'sticky: a connection keeps its replica',
      3,
      true,
      ['a', 'a', 'b', 'a', 'c', 'b', 'd'],
      [1, 1, 2, 1, 3, 2, 1],
    ],
  ];
  for (const [name, n, sticky, connections, want] of picks)
    it(`picks: ${name}`, () => {
      const sockets = new Map<string, object>();
      const picker = new ReplicaPicker<object>(n, sticky);
      const got = connections.map((c) => {
        if (!sockets.has(c)) sockets.set(c, {});
        return picker.pick(sockets.get(c)!);
      });
      assert.deepStrictEqual(got, want, name);
    });
});
