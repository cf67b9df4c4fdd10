// Test harness: where the project, the VS Code server and Chromium live on this machine.
import * as fs from 'fs';
import * as path from 'path';

/** The VS Code server that ships inside this code-server release (VS Code 1.100.3). */
export const codeServerVersion = '4.100.3';

/**
 * The project root: the nearest folder above this (bundled) file whose package.json is ours.
 * Bundles land in out/test/<area>/, so walking up is sturdier than a fixed number of '..'.
 */
export function projectRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      fs.existsSync(manifest) &&
      JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'listwatch-inspector'
    ) {
      return dir;
    }
    if (path.dirname(dir) === dir)
      throw new Error(`no listwatch-inspector package.json above ${__dirname}`);
  }
}

/** Root of the unpacked code-server package (holds lib/vscode), installed by scripts/install-test-deps.sh. */
export function codeServerDir(): string {
  return (
    process.env.LISTWATCH_CODE_SERVER_DIR ??
    path.join(projectRoot(), '.vscode-test', `code-server-${codeServerVersion}`)
  );
}

/** The VS Code server's entry point, started directly ("raw" mode, no code-server wrapper). */
export function serverMain(): string {
  const main = path.join(codeServerDir(), 'lib', 'vscode', 'out', 'server-main.js');
  if (!fs.existsSync(main)) {
    throw new Error(`VS Code server not found at ${main}: run \`npm run test:setup\` first`);
  }
  return main;
}

export function chromiumPath(): string {
  const exe = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(exe))
    throw new Error(`Chromium not found at ${exe}: run \`npm run test:setup\` first`);
  return exe;
}

/** Git-ignored folder for screenshots and other artifacts a person looks at after a run. */
export function testResultsDir(...parts: string[]): string {
  const dir = path.join(projectRoot(), 'test-results', ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
