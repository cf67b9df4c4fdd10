// The installed-.vsix suite's entry point: loaded as extensionTestsPath by a workbench that has
// the packaged extension installed (no extensionDevelopmentPath); run() runs the *.test.js beside it.
import { runMochaSuite } from '../../harness/mocha-suite';

export function run(): Promise<void> {
  return runMochaSuite(__dirname);
}
