// The blackhole fault under many connections (issue 26): matching requests are accepted and never
// answered, but a server can leave only so many requests unanswered. Past active-faults.ts's
// maxHeldRequestsFor (kube-apiserver's in-flight limits, and never more than half the connection
// cap, so that /healthz and the admin API keep connections of their own) a matching request is
// answered as the max-in-flight filter answers one past its limit: 429, Retry-After 1. The
// server keeps answering /healthz and the requests the fault does not match, and clearing the
// fault or closing the clients frees every held request. Counted from the server's own state (the
// fault's held count, its open connections), never from the wall clock. No upstream
// counterpart.
import * as assert from 'assert';
import * as http from 'http';
import { ApiServer } from '../../src/server/api-server';
import { maxHeldRequestsFor } from '../../src/server/active-faults';
import { faultsPath } from '../../src/server/faults';
import { eventually } from './harness/eventually';

const pods = '/api/v1/namespaces/default/pods';
const userAgent = 'blackhole-test/1.0';
/** A small connection cap (the default is the open-file limit less 1024): the bound shows at 200. */
const maxConnections = 100;
const requests = 200;

/** One request on its own connection (no agent: the connection ends with its answer). */
interface Sent {
  /** 'closed', or the answer's status and Retry-After. */
  outcome: Promise<string>;
  destroy(): void;
}

const cases: { name: string; release: (server: ApiServer, id: number, sent: Sent[]) => void }[] = [
  {
    name: 'the fault cleared',
    release: (server, id) => void server.clearFault(id),
  },
  {
    name: 'the clients gone',
    release: (_server, _id, sent) => sent.forEach((s) => s.destroy()),
  },
];

describe(`blackhole under ${requests} connections (connection cap ${maxConnections}): bounded, /healthz answered, freed`, function () {
  let server: ApiServer;

  before(async () => {
    server = await ApiServer.start({ port: 0, servingLimits: { maxConnections } });
  });
  after(() => server?.stop());

  const send = (path: string): Sent => {
    let req: http.ClientRequest | undefined;
    const outcome = new Promise<string>((resolve) => {
      req = http.get(
        `${server.url}${path}`,
        {
          agent: false,
          headers: { authorization: `Bearer ${server.token}`, 'user-agent': userAgent },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(`${res.statusCode} ${res.headers['retry-after'] ?? '-'}`));
          res.on('error', () => resolve('closed'));
        },
      );
      req.on('error', () => resolve('closed'));
    });
    return { outcome, destroy: () => req?.destroy() };
  };
  const answer = async (path: string): Promise<string> => {
    const r = send(path);
    return r.outcome;
  };
  const held = (id: number) => server.activeFaults().find((f) => f.id === id)?.held;
  const connections = () => server.openConnections();

  for (const c of cases) {
    it(`holds at most maxHeldRequestsFor(${maxConnections}), answers the rest 429; /healthz and other requests answered; ${c.name}: every held request freed`, async () => {
      const cap = maxHeldRequestsFor(maxConnections);
      assert.strictEqual(cap, maxConnections / 2);
      const id = (await server.injectFault('blackhole', { match: { resource: 'pods' } })).body as {
        id: number;
      };
      const sent = Array.from({ length: requests }, () => send(pods));
      // The refused are answered at once; the held are not.
      const refused = await eventually(async () => {
        const settled = await Promise.all(
          sent.map((s) => Promise.race([s.outcome, Promise.resolve('pending')])),
        );
        assert.strictEqual(settled.filter((s) => s === 'pending').length, cap, 'held');
        assert.strictEqual(held(id.id), cap);
        return settled.filter((s) => s !== 'pending');
      });
      assert.deepStrictEqual(
        [...new Set(refused)],
        ['429 1'],
        'past the cap: the max-in-flight answer',
      );
      assert.strictEqual(refused.length, requests - cap);
      const listed = server.activeFaults().find((f) => f.id === id.id);
      assert.deepStrictEqual([listed?.held, listed?.refused], [cap, requests - cap]);
      // Bounded: the held requests' connections are all that stay open.
      await eventually(() => assert.strictEqual(connections(), cap));
      for (const p of ['/healthz', '/livez', '/readyz', '/api/v1/namespaces/default/configmaps'])
        assert.strictEqual(await answer(p), '200 -', p);
      assert.strictEqual((await answer(`${faultsPath}/active`)).split(' ')[0], '200');

      c.release(server, id.id, sent);
      await eventually(() => assert.strictEqual(connections(), 0));
      assert.ok((held(id.id) ?? 0) === 0, JSON.stringify(server.activeFaults()));
      const outcomes = await Promise.all(sent.map((s) => s.outcome));
      assert.strictEqual(outcomes.filter((o) => o === 'closed').length, cap);
      server.clearFault('all');
      // Nothing held any more: the next GET of pods is answered.
      assert.strictEqual(await answer(pods), '200 -');
    });
  }
});
