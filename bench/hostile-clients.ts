// Benchmark: `listwatch serve` under the attack of issue 22 (items 9 and 10), against the same
// server idle, measured in the same run: the latency of an authenticated GET /version and the
// server's resident memory (/proc/<pid>/status VmRSS) while 5,000 idle sockets, a client that
// never finishes its headers and four YAML "billion laughs" bodies are in flight. The server is
// a process of its own (`dist/cli.js serve`), so its RSS is the server's alone.
//   node esbuild.js && node out/bench/hostile-clients.js [idle sockets]
import * as http from 'http';
import {
  below,
  fmtBytes,
  fmtInt,
  fmtMs,
  median,
  runAsScript,
  scriptArgs,
  timeAsync,
  type BenchRow,
} from './bench-util';
import { ServeProcess } from '../test/server/harness/serve-process';
import { holdSockets, residentBytes, yamlBomb } from '../test/server/harness/hostile-clients';

// GETs per latency figure (their median).
const samples = 200;

export interface HostileClientsOptions {
  idleSockets?: number;
  log?: (line: string) => void;
}

export async function runHostileClients(o: HostileClientsOptions = {}): Promise<BenchRow[]> {
  const idleCount = o.idleSockets ?? 5000;
  const log = o.log ?? console.log;
  const serve = await ServeProcess.start();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const url = new URL('/version', serve.info.url);
    const port = Number(url.port);
    const getVersion = (): Promise<void> =>
      new Promise((resolve, reject) => {
        const req = http.get(
          url,
          { agent, headers: { Authorization: `Bearer ${serve.info.token}` } },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200
                ? resolve()
                : reject(new Error(`GET /version: ${res.statusCode}`)),
            );
          },
        );
        req.on('error', reject);
      });
    const latency = async (): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) times.push(await timeAsync(getVersion));
      return median(times);
    };

    await latency(); // warm up
    const idleLatency = await latency();
    const idleRss = residentBytes(serve.pid);
    log(`idle: GET /version ${fmtMs(idleLatency)}, RSS ${fmtBytes(idleRss)}`);

    const idle = await holdSockets(port, idleCount);
    const [slow] = await holdSockets(port, 1, `GET /api HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const bombs = Array.from({ length: 4 }, () =>
      serve.request('POST', `/api/v1/namespaces/${serve.namespace}/configmaps`, {
        body: yamlBomb(),
        headers: { 'Content-Type': 'application/yaml' },
      }),
    );
    const attackedLatency = await latency();
    const statuses = (await Promise.all(bombs)).map((r) => r.status);
    const attackedRss = residentBytes(serve.pid);
    log(
      `attacked: GET /version ${fmtMs(attackedLatency)}, RSS ${fmtBytes(attackedRss)}, bombs answered ${statuses.join(',')}`,
    );
    for (const s of [...idle, slow]) s.socket.destroy();

    const latencyRatio = attackedLatency / idleLatency;
    const rssRatio = attackedRss / idleRss;
    const note = `${fmtInt(idleCount)} idle sockets, 1 slow header, 4 YAML bombs (${statuses.join(',')})`;
    return [
      {
        bench: 'hostile-clients',
        measure: 'GET /version median latency, attacked / idle server',
        figure: fmtMs(attackedLatency),
        baseline: fmtMs(idleLatency),
        ratio: latencyRatio,
        goal: below(latencyRatio, 3),
        note,
      },
      {
        bench: 'hostile-clients',
        measure: 'server RSS, attacked / idle server',
        figure: fmtBytes(attackedRss),
        baseline: fmtBytes(idleRss),
        ratio: rssRatio,
        goal: below(rssRatio, 2),
        note: 'the bombs took 2 GB before issue 22',
      },
    ];
  } finally {
    agent.destroy();
    await serve.stop();
  }
}

runAsScript('hostile-clients', () => {
  const [n] = scriptArgs();
  return runHostileClients({ idleSockets: n === undefined ? undefined : Number(n) });
});
