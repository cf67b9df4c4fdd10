// Tests for ApiServer.connectedClients / clientsSeen and the status bar's text: it counts
// connections (a User-Agent on one TCP connection, any request), and says so: "clients" is the
// Clients tab's word (the connections that listed or watched), never a different number's.
import * as assert from 'assert';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import * as path from 'node:path';
import { ApiServer } from '../../../src/server/api-server';
import { statusBarText } from '../../../src/extension/server/server-status-text';
import type { LiveServerState } from '../../../src/extension/server/live-server-state';

function get(server: ApiServer, agent: Agent, userAgent: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}/api/v1/namespaces/default/pods`,
      { agent, headers: { authorization: `Bearer ${server.token}`, 'user-agent': userAgent } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('connections open and seen (User-Agent + connection), as the status bar names them', () => {
  it('one User-Agent on two connections is two connections, open and seen since the start', async () => {
    const server = await ApiServer.start({ port: 0, seed: { pods: 1 } });
    const a = new Agent({ keepAlive: true, maxSockets: 1 });
    const b = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ua = 'kubectl/v1.33.1 (linux/amd64)';
      assert.strictEqual(await get(server, a, ua), 200);
      assert.strictEqual(await get(server, a, ua), 200);
      assert.strictEqual(await get(server, b, ua), 200);
      assert.deepStrictEqual(server.connectedClients(), [ua, ua]);
      assert.strictEqual(server.clientsSeen(), 2);
      const text = statusBarText({
        port: 6443,
        connectedClients: server.connectedClients(),
        clientsSeen: server.clientsSeen(),
        watchersTotal: 0,
      } as unknown as LiveServerState);
      assert.strictEqual(
        text,
        '$(server-process) 127.0.0.1:6443 · 2 connections open (2 since the start) · 0 watchers',
      );
    } finally {
      a.destroy();
      b.destroy();
      await server.stop();
    }
  });

  it("the README quotes the status bar's counts as it writes them", () => {
    const text = statusBarText({
      port: 6443,
      connectedClients: ['a', 'b'],
      clientsSeen: 5,
      watchersTotal: 3,
    } as unknown as LiveServerState);
    const counts = text.split(' · ')[1];
    // "clients" is the Clients tab's count (LIST/WATCH clients), not this one.
    assert.doesNotMatch(text, /client/i);
    assert.strictEqual(counts, '2 connections open (5 since the start)');
    const readme = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
    assert.ok(readme.includes(`\`${counts}\``), `README.md quotes \`${counts}\``);
  });
});
