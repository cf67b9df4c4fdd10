// Tests for registry/service-allocators.ts: the ClusterIPs and NodePorts of one server are its own.
// Two servers in one process (as these tests, and replicas of #26, run them) each allocate from
// their own ranges, as two clusters do; one server still refuses an address it gave another Service.
import * as assert from 'assert';
import { ApiServer } from '../../../../src/server/api-server';
import { call } from '../http-client';

type Loose = Record<string, unknown>;

const services = '/api/v1/namespaces/default/services';

const service = (name: string, spec: Loose): Loose => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

const cases: Array<{
  name: string;
  /** What the first server creates, then the second (another name, the same fields). */
  first: Loose;
  second: Loose;
  /** The first server's answer to the second Service (the second server creates it). */
  sameServerMessage: string;
}> = [
  {
    name: 'the same clusterIP',
    first: service('a', { clusterIP: '10.100.0.7' }),
    second: service('b', { clusterIP: '10.100.0.7' }),
    sameServerMessage:
      'Service "b" is invalid: spec.clusterIPs: Invalid value: ["10.100.0.7"]: failed to allocate IP 10.100.0.7: provided IP is already allocated',
  },
  {
    name: 'the same nodePort',
    first: service('np-a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }),
    second: service('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }),
    sameServerMessage:
      'Service "np-b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
  },
];

describe('server/registry service allocators: one per server', () => {
  let one: ApiServer;
  let two: ApiServer;
  before(async () => {
    [one, two] = await Promise.all([ApiServer.start({ port: 0 }), ApiServer.start({ port: 0 })]);
  });
  after(async () => {
    await Promise.all([one.stop(), two.stop()]);
  });

  for (const c of cases)
    it(c.name, async () => {
      const a = await call(one, 'POST', services, c.first);
      assert.strictEqual(a.status, 201, `first server: ${a.text}`);
      const b = await call(two, 'POST', services, c.second);
      assert.strictEqual(b.status, 201, `second server: ${b.text}`);
      const again = await call(one, 'POST', services, c.second);
      assert.strictEqual(again.status, 422, `first server again: ${again.text}`);
      assert.strictEqual(again.json.message, c.sameServerMessage);
    });
});
