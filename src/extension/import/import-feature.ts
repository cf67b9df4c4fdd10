// No upstream counterpart: import and replay's chunk (dist/extension-import.js, loaded on the
// first Import Logs or Replay What-If; src/extension/lazy-feature.ts).
export { importLogsCommands } from './import-logs-command';
