// The hover on client-go's reflector lines, in the real VS Code extension host: a client-go log
// opened as a .log file and as the Log language, hovered through vscode.executeHoverProvider, shows
// the catalogue's explanation (src/import/client-go-log-explanations.ts); other lines show none of
// it, and a hostile line's text comes back escaped.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { activeApi } from './extension-api';
import { hoverMarkdown, hoversAt, unescapeMarkdown } from './hover-text';

const f35 = 'k8s.io/client-go/informers/factory.go:160';
const lines = [
  `I0312 16:00:00.000200    7701 reflector.go:411] "Listing and watching" type="*v1.ConfigMap" reflector="${f35}"`,
  `I0312 16:00:10.000300    7701 reflector.go:1159] "Warning: event bookmark expired" err="${f35}: awaiting required bookmark event for initial events stream, no events received for 10.000712042s"`,
  'W0312 12:07:32.060700    4303 reflector.go:533] pkg/mod/k8s.io/client-go@v0.27.0/tools/cache/reflector.go:231: failed to list *v1.Pod: the server could not find the requested resource',
  'W0312 12:07:31.030400    4303 reflector.go:456] <img src=x onerror=alert(1)>: watch of *v1.Pod ended with: [run](command:workbench.action.terminal.new)',
];

/** Our hover's text only (the continue-token and URL hovers may share a line). */
function clientGoHoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .map((h) => hoverMarkdown([h]))
    .filter((md) => md.startsWith('**client-go: '))
    .join('\n');
}

describe('the hover on client-go log lines', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-client-go-hover-'));
  const file = path.join(tmp, 'controller.log');

  before(async () => {
    await activeApi();
    fs.writeFileSync(file, lines.join('\n') + '\n');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('explains "awaiting required bookmark event" in a .log file: what, why, versions, what to run', async () => {
    const document = await vscode.workspace.openTextDocument(file);
    const hovers = await hoversAt(document.uri, new vscode.Position(1, 60));
    const md = clientGoHoverText(hovers);
    const text = unescapeMarkdown(md);
    assert.match(text, /^\*\*client-go: A WatchList watch has received nothing yet/, md);
    assert.match(text, /\*\*What happened\.\*\* The informer opened a WatchList watch/);
    assert.match(text, /\*\*Printed by\*\* client-go 0\.31–0\.32: /);
    assert.match(text, /`listwatch conform --kubeconfig KUBECONFIG`/);
    assert.match(text, /listwatch fault --kubeconfig K omit-end-bookmark`/);
    const hover = hovers.find((h) => hoverMarkdown([h]).startsWith('**client-go: '));
    assert.strictEqual(hover?.range?.start.character, lines[1].indexOf('"Warning'));
  });

  it('explains a 404 in the Log language, and names the resource to check', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'log',
      content: lines.join('\n'),
    });
    const text = unescapeMarkdown(
      clientGoHoverText(await hoversAt(document.uri, new vscode.Position(2, 10))),
    );
    assert.match(text, /The server does not serve this resource \(404\)/);
    assert.match(text, /`listwatch conform --kubeconfig KUBECONFIG --resource pods`/);
  });

  it('shows nothing of it on a line client-go did not print as one of these', async () => {
    const document = await vscode.workspace.openTextDocument(file);
    const hovers = await hoversAt(document.uri, new vscode.Position(0, 40));
    assert.strictEqual(clientGoHoverText(hovers), '');
  });

  it("shows a hostile line's text escaped: no HTML, no link", async () => {
    const document = await vscode.workspace.openTextDocument(file);
    const md = clientGoHoverText(await hoversAt(document.uri, new vscode.Position(3, 60)));
    assert.match(md, /A watch ended with an error/);
    assert.match(md, /\\<img src\\=x onerror\\=alert\\\(1\\\)\\>/, md);
    assert.ok(!/\]\(command:/.test(md), md);
  });
});
