// The extension-host suite's entry point: VS Code (or the VS Code server) loads this file as
// extensionTestsPath and awaits run(); mocha runs every *.test.js bundled beside it.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import { suiteStartMarker } from '../../harness/suite-marker';

export function run(): Promise<void> {
  // Waits inside tests (editors opening, the host answering) are bounded by this, not asserted.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  // LISTWATCH_TEST_GREP=<text> runs only the matching tests (a quicker edit-test loop).
  if (process.env.LISTWATCH_TEST_GREP) mocha.grep(process.env.LISTWATCH_TEST_GREP);
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (file.endsWith('.test.js')) mocha.addFile(path.join(__dirname, file));
  }
  console.log(suiteStartMarker);
  return new Promise((resolve, reject) => {
    mocha.run(failures => (failures > 0 ? reject(new Error(`${failures} extension test(s) failed`)) : resolve()));
  });
}
