// Test harness: mocha global fixtures for the server suite (`--require` this bundle). They run in
// mocha's own process, once, also under `--parallel`: the setup prints the clients table and starts
// the clients record afresh before any worker exists, the teardown sums the workers' parts after the last one has finished
// (a part written just as another worker merged would otherwise be missing). No upstream counterpart.
import { mergeRecordParts, printClientsTable, recordStartedEnv, startRecord } from './clients';

export function mochaGlobalSetup(): void {
  startRecord();
  printClientsTable();
  process.env[recordStartedEnv] = '1';
}

export function mochaGlobalTeardown(): void {
  mergeRecordParts();
}
