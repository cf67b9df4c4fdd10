// Test harness: the VS Code server (from code-server's npm package) on 127.0.0.1, started in its own
// process group so that stopping it also ends its extension host and file watcher.
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { freePort } from './free-port';
import { serverMain } from './paths';

/** User settings for a quiet, deterministic workbench (no welcome page, telemetry, gallery, trust prompt). */
export const testUserSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.reduceMotion': 'on',
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'git.enabled': false,
};

// How long the server may take to answer GET /version (it usually needs well under a second).
const serverStartTimeoutMs = 60_000;

export interface VSCodeServerOptions {
  /** Extensions folder to use (e.g. one holding an installed .vsix); a fresh empty one otherwise. */
  extensionsDir?: string;
  /** Settings merged over testUserSettings. */
  settings?: Record<string, unknown>;
  log?: (message: string) => void;
}

export interface VSCodeServer {
  readonly base: string;
  readonly pid: number;
  readonly serverLog: string;
  /** Holds User/settings.json; the workbench picks up edits to it while running. */
  readonly userDataDir: string;
  stop(): Promise<void>;
}

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.setTimeout(2000, () => req.destroy(new Error(`no answer from ${url}`)));
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  // A negative pid addresses the whole process group (the server was started detached).
  try {
    if (proc.pid) process.kill(-proc.pid, signal);
  } catch {
    /* already gone */
  }
}

function exited(proc: ChildProcess): boolean {
  return proc.exitCode !== null || proc.signalCode !== null;
}

/** Starts `server-main.js` on 127.0.0.1:<free port> with a throw-away user-data dir; resolves once it answers. */
export async function startVSCodeServer(options: VSCodeServerOptions = {}): Promise<VSCodeServer> {
  const log = options.log ?? (() => undefined);
  const port = await freePort();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-vscode-'));
  const userDataDir = path.join(tmp, 'user-data');
  const extensionsDir = options.extensionsDir ?? path.join(tmp, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...testUserSettings, ...options.settings }, null, 2),
  );
  const serverLog = path.join(tmp, 'server.log');
  const out = fs.openSync(serverLog, 'a');
  const proc = spawn(
    process.execPath,
    [
      serverMain(),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--disable-workspace-trust',
      '--telemetry-level',
      'off',
      '--user-data-dir',
      userDataDir,
      '--server-data-dir',
      path.join(tmp, 'server-data'),
      '--extensions-dir',
      extensionsDir,
    ],
    {
      // No extension gallery: it is unreachable here and the workbench would stall waiting for it.
      env: { ...process.env, EXTENSIONS_GALLERY: '{}' },
      stdio: ['ignore', out, out],
      detached: true,
    },
  );
  fs.closeSync(out);
  const base = `http://127.0.0.1:${port}`;
  const removeTmp = () => {
    if (!process.env.LISTWATCH_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  };
  const started = Date.now();
  for (;;) {
    if (exited(proc)) {
      const text = fs.readFileSync(serverLog, 'utf8');
      removeTmp();
      throw new Error(
        `VS Code server exited early (${proc.exitCode ?? proc.signalCode}):\n${text}`,
      );
    }
    try {
      if ((await httpStatus(`${base}/version`)) === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - started > serverStartTimeoutMs) {
      killGroup(proc, 'SIGKILL');
      const text = fs.readFileSync(serverLog, 'utf8');
      removeTmp();
      throw new Error(
        `VS Code server not answering on ${base} after ${serverStartTimeoutMs} ms:\n${text}`,
      );
    }
    await delay(100);
  }
  log(`VS Code server pid ${proc.pid} on ${base} (ready in ${Date.now() - started} ms)`);
  let stopped = false;
  return {
    base,
    pid: proc.pid ?? 0,
    serverLog,
    userDataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (!exited(proc)) {
        killGroup(proc, 'SIGTERM');
        await Promise.race([new Promise((resolve) => proc.once('exit', resolve)), delay(5000)]);
      }
      killGroup(proc, 'SIGKILL'); // stragglers in the group, e.g. the file watcher
      removeTmp();
    },
  };
}

/** Installs a .vsix into extensionsDir with the server's own CLI, as a user would. */
export function installExtension(vsix: string, extensionsDir: string): string {
  const result = spawnSync(
    process.execPath,
    [serverMain(), '--install-extension', vsix, '--extensions-dir', extensionsDir, '--force'],
    { encoding: 'utf8', env: { ...process.env, EXTENSIONS_GALLERY: '{}' } },
  );
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0)
    throw new Error(`installing ${vsix} failed (exit ${result.status}):\n${output}`);
  return output;
}
