// No upstream counterpart: the local API server's chunk (dist/extension-server.js: src/server and
// the engine), loaded on the first server command, or at activation only when
// listwatch.server.autoStart is on (src/extension/lazy-feature.ts). The log and the prompts come
// from the entry; the server made here is the one the status bar, the Server view and the live
// runs read (through the entry's LocalServerSlot).
import { LiveRun } from '../../run/live-run';
import { LiveRecorder, type RecordedServer } from '../../server/live-recorder';
import type { ExtensionLog } from '../shared/output-log';
import { LocalApiServer } from './live-server';
import { autoStartServer, serverCommands } from './server-commands';
import type { ServerPrompts } from './server-prompts';
import type { ServerSettings } from './server-settings';

export interface ServerFeatureDeps {
  /** Where the kubeconfig goes unless a start names a path. */
  storageDir: string;
  log: ExtensionLog;
  prompts: ServerPrompts;
}

export function activateServer(deps: ServerFeatureDeps) {
  const server = new LocalApiServer(deps.storageDir, deps.log);
  const serverDeps = { server, prompts: deps.prompts, log: deps.log };
  return {
    server,
    commands: serverCommands(serverDeps),
    autoStart: (settings: ServerSettings) => autoStartServer(serverDeps, settings),
    /** A live run's recording of a server (live-runs.ts). */
    recordLive: (recorded: RecordedServer) => {
      const recorder = new LiveRecorder(recorded);
      return { recorder, live: new LiveRun(recorder) };
    },
  };
}

export type ServerFeature = ReturnType<typeof activateServer>;
