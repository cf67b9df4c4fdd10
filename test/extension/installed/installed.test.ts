// The packaged .vsix as a user gets it: installed with --install-extension, loaded from the
// extensions folder (no extensionDevelopmentPath), activated, its commands working.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

const extensionId = 'listwatch-inspector.listwatch-inspector';
// Each feature's chunk, loaded on its first use (src/extension/lazy-feature.ts, esbuild.js).
const featureChunks = ['server', 'runs', 'import', 'probe', 'explain', 'export', 'panel'].map(
  (f) => `dist/extension-${f}.js`,
);
// dist/extension.js as README measured it before the features became chunks: the whole extension
// (the server and the engine, the importers, the replay, the explainer), minified.
const wholeBundleBytes = 831_004;

/** What the extension's API says of its activation (src/extension/extension.ts). */
interface ActivationReport {
  activationMs(): number;
  loadedFeatures(): string[];
}
const validToken = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ';

function installed(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(extensionId);
  assert.ok(extension, `${extensionId} is not installed`);
  return extension;
}

describe('the installed .vsix', () => {
  it('is loaded from the extensions folder, not from the source tree', () => {
    const expectedDir = process.env.LISTWATCH_INSTALLED_EXTENSIONS_DIR;
    assert.ok(expectedDir, 'LISTWATCH_INSTALLED_EXTENSIONS_DIR is not set by the runner');
    const extensionPath = installed().extensionUri.fsPath;
    assert.ok(
      extensionPath.startsWith(expectedDir + path.sep),
      `loaded from ${extensionPath}, expected under ${expectedDir}`,
    );
  });

  it('holds only what the extension needs', () => {
    const root = installed().extensionUri.fsPath;
    const files = (fs.readdirSync(root, { recursive: true }) as string[])
      .map((f) => f.split(path.sep).join('/'))
      .sort();
    for (const needed of [
      'dist/extension.js',
      ...featureChunks,
      'dist/run-worker.js',
      // The server's OpenAPI definitions, read by dist/extension-server.js (esbuild.js).
      'dist/kubernetes-openapi-definitions.json',
      'media/icon.png',
      'media/activity.svg',
      'package.json',
    ]) {
      assert.ok(files.includes(needed), `${needed} missing from the package: ${files.join(', ')}`);
    }
    // What the walkthrough shows and opens, and the README's images (the extension page shows them).
    const manifest = installed().packageJSON as {
      contributes: { walkthroughs: Array<{ steps: Array<{ media: Record<string, string> }> }> };
    };
    const walkthroughMedia = manifest.contributes.walkthroughs.flatMap((w) =>
      w.steps.map((s) => s.media.svg ?? s.media.markdown ?? s.media.image),
    );
    // vsce stores the README as readme.md (lower case).
    const readmeName = fs.readdirSync(root).find((f) => f.toLowerCase() === 'readme.md');
    assert.ok(readmeName, 'the package has a README');
    const readme = fs.readFileSync(path.join(root, readmeName), 'utf8');
    const readmeImages = [...readme.matchAll(/!\[[^\]]*\]\((?!https?:)([^)\s]+)\)/g)].map(
      (m) => m[1],
    );
    for (const needed of ['samples/kubectl-v8.log', ...walkthroughMedia, ...readmeImages])
      assert.ok(files.includes(needed), `${needed} missing from the package`);
    const unwanted = files.filter((f) =>
      /^(src|test|out|node_modules|scripts|\.vscode-test)(\/|$)|\.ts$|\.map$/.test(f),
    );
    assert.deepStrictEqual(unwanted, [], 'sources, tests or source maps in the package');
  });

  it('activates', async () => {
    await installed().activate();
    assert.ok(installed().isActive);
  });

  // Before any command runs: a window that never uses a feature loads only the entry.
  it('activates from a small entry, loading no feature chunk', async () => {
    const root = installed().extensionUri.fsPath;
    const entryBytes = fs.statSync(path.join(root, 'dist/extension.js')).size;
    const chunkBytes = featureChunks.map(
      (c) => `${path.basename(c)} ${fs.statSync(path.join(root, c)).size}`,
    );
    const api = (await installed().activate()) as ActivationReport;
    console.log(
      `      entry dist/extension.js: ${entryBytes} bytes (the whole extension was ${wholeBundleBytes}); activate() took ${api.activationMs().toFixed(1)} ms; chunks: ${chunkBytes.join(', ')} bytes`,
    );
    assert.ok(
      entryBytes < wholeBundleBytes / 3,
      `the entry is ${entryBytes} bytes, not under a third of ${wholeBundleBytes}`,
    );
    assert.deepStrictEqual(api.loadedFeatures(), [], 'features loaded at activation');
    const loaded = Object.keys(require.cache).filter((f) =>
      featureChunks.some((c) => f === path.join(root, c)),
    );
    assert.deepStrictEqual(loaded, [], 'feature chunks in require.cache after activation');
  });

  it('registers its commands', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const command of [
      'listwatch.decodeContinueToken',
      'listwatch.validateContinueToken',
      'listwatch.encodeContinueToken',
      'listwatch.openInDecoder',
      'listwatch.copyToken',
      'listwatch.revalidateToken',
      'listwatch.clearTokens',
    ]) {
      assert.ok(all.has(command), `${command} is not registered`);
    }
  });

  it('loads a feature chunk from the package on first use', async () => {
    const api = (await installed().activate()) as ActivationReport;
    // Stop with no server running stops nothing, but loads the server's chunk to say so.
    assert.strictEqual(await vscode.commands.executeCommand('listwatch.stopLocalApiServer'), false);
    assert.ok(api.loadedFeatures().includes('server'), api.loadedFeatures().join(', '));
  });

  it('decodes a token', async () => {
    const e = await vscode.commands.executeCommand<{
      valid: boolean;
      startKey?: { absolute: string };
    }>('listwatch.decodeContinueToken', validToken);
    assert.strictEqual(e?.valid, true);
    assert.strictEqual(e?.startKey?.absolute, '/registry/pods/key');
  });

  it('answers hovers over tokens in a .log file', async () => {
    const document = await vscode.workspace.openTextDocument(
      vscode.Uri.file(
        path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'kubectl-v8-1.33.log'),
      ),
    );
    const line = Array.from(
      { length: document.lineCount },
      (_, i) => document.lineAt(i).text,
    ).findIndex((t) => t.includes('?continue=eyJ'));
    assert.ok(line >= 0, 'no ?continue= in the fixture');
    const character = document.lineAt(line).text.indexOf('?continue=eyJ') + 15;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(line, character),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /continue token/i);
  });
});
