// The baseline of bench/serve-start.ts: a bare Node HTTP server, started as `listwatch serve
// --json` is (a node process of its own, port 0 on loopback), printing its first stdout line once
// it listens. Not a benchmark itself (bench/main.ts does not run it).
import * as http from 'http';
import type { AddressInfo } from 'net';

const server = http.createServer((_req, res) => res.end('{}'));
server.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.stdout.write(JSON.stringify({ url }) + '\n');
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
