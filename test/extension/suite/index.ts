// The extension-host suite's entry point: VS Code (or the VS Code server) loads this file as
// extensionTestsPath and awaits run(); mocha runs every *.test.js bundled beside it.
import { runMochaSuite } from '../../harness/mocha-suite';

export function run(): Promise<void> {
  return runMochaSuite(__dirname);
}
