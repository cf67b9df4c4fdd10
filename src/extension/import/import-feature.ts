// No upstream counterpart: import and replay's chunk (dist/extension-import.js, loaded on the
// first Import Logs or Replay What-If, or the first hover over a client-go reflector line;
// src/extension/lazy-feature.ts).
export { importLogsCommands } from './import-logs-command';
export { provideClientGoLogHover } from './client-go-log-hover';
