// Installs the packaged dist/listwatch-inspector.vsix into a fresh extensions folder with the VS
// Code server's own --install-extension, then runs test/extension/installed/ in a workbench that
// loads the extension from there, not from the source tree: what a user gets from the .vsix.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runExtensionTests } from '../harness/extension-tests';
import { projectRoot } from '../harness/paths';
import { installExtension } from '../harness/vscode-server';

async function main(): Promise<number> {
  const root = projectRoot();
  const vsix = path.join(root, 'dist', 'listwatch-inspector.vsix');
  if (!fs.existsSync(vsix)) {
    console.error(`${vsix} not found: run \`npm run package\` first`);
    return 1;
  }
  const extensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-vsix-'));
  // The workbench runs extensionTestsPath only in extension-development mode, so it gets a
  // development path: an empty folder, which holds no extension. Ours comes from extensionsDir.
  const emptyDevelopmentPath = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-no-extension-'));
  try {
    // The server's CLI also logs noise about optional native modules: keep the verdict line.
    const verdict = installExtension(vsix, extensionsDir)
      .split('\n')
      .filter((l) => /successfully installed/i.test(l));
    console.log(verdict.join('\n') || `installed ${vsix} into ${extensionsDir}`);
    // The extension host inherits the server's environment: tell the suite where to expect us.
    process.env.LISTWATCH_INSTALLED_EXTENSIONS_DIR = extensionsDir;
    const result = await runExtensionTests({
      name: 'extension-vsix',
      extensionDevelopmentPath: [emptyDevelopmentPath],
      extensionTestsPath: path.join(root, 'out', 'test', 'extension', 'installed', 'index.js'),
      folder: path.join(root, 'test', 'fixtures'),
      extensionsDir,
    });
    return result.exitCode;
  } finally {
    fs.rmSync(extensionsDir, { recursive: true, force: true });
    fs.rmSync(emptyDevelopmentPath, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  },
);
