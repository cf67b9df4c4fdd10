// Runs the extension-host suite with @vscode/test-electron. By default "VS Code" is our launcher,
// which runs the suite in the VS Code server's extension host with the workbench in headless
// Chromium (works offline). LISTWATCH_VSCODE=desktop downloads and uses desktop VS Code instead
// (a machine with internet; on Linux run it under xvfb-run).
import * as path from 'path';
import { runTests } from '@vscode/test-electron';
import { projectRoot } from '../harness/paths';

async function main(): Promise<void> {
  const root = projectRoot();
  const desktop = process.env.LISTWATCH_VSCODE === 'desktop';
  await runTests({
    vscodeExecutablePath: desktop
      ? undefined
      : path.join(root, 'test', 'harness', 'bin', 'vscode-launcher'),
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out', 'test', 'extension', 'suite', 'index.js'),
    // The workspace folder holds the fixtures the suite hovers over.
    launchArgs: [path.join(root, 'test', 'fixtures'), '--disable-extensions'],
  });
}

main().catch((error) => {
  console.error(
    `extension tests failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
