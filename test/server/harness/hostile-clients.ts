// Test harness: the hostile clients of issue 22 (a YAML "billion laughs" body, sockets held open
// without a request or with half of one) and the server's resident memory, for
// test/server/hostile-clients.test.ts and bench/hostile-clients.ts. No upstream counterpart.
import * as fs from 'fs';
import { connect, type Socket } from 'net';

/** Nine levels of nine aliases (432 bytes): 387,420,489 strings once expanded. */
export function yamlBomb(): string {
  const lines = [`a0: &a0 [${Array(9).fill('"lol"').join(',')}]`];
  for (let i = 1; i < 9; i++)
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]`,
    );
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: laughs}\ndata:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

/** The resident set of a process (/proc/<pid>/status VmRSS), in bytes. */
export function residentBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`/proc/${pid}/status: no VmRSS`);
  return Number(m[1]) * 1024;
}

export interface HeldSocket {
  socket: Socket;
  /** What the server sent before it closed the connection. */
  closed: Promise<string>;
}

/** Opens `count` connections (in batches, within the listen backlog), sending each `send`. */
export async function holdSockets(port: number, count: number, send = ''): Promise<HeldSocket[]> {
  const held: HeldSocket[] = [];
  const batch = 250;
  for (let i = 0; i < count; i += batch) {
    const opened = Array.from(
      { length: Math.min(batch, count - i) },
      () =>
        new Promise<HeldSocket>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let got = '';
          socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
          const closed = new Promise<string>((r) => socket.on('close', () => r(got)));
          socket.once('error', reject);
          socket.once('connect', () => {
            socket.removeListener('error', reject);
            socket.on('error', () => undefined);
            if (send !== '') socket.write(send);
            resolve({ socket, closed });
          });
        }),
    );
    held.push(...(await Promise.all(opened)));
  }
  return held;
}
