// The Explain List/Watch Request command and the hover on LIST/WATCH URLs, in the real VS Code
// extension host: the command's read-only document, and the hover's short answer with its link.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { explainDocumentUri } from '../../../src/extension/explain/explain-document';
import { activeApi } from './extension-api';
import { hoverMarkdown, hoversAt, unescapeMarkdown } from './hover-text';

describe('Explain List/Watch Request', () => {
  before(async () => {
    await activeApi();
  });

  it('the command explains a URL in its read-only document', async () => {
    await vscode.commands.executeCommand(
      'listwatch.explainRequest',
      '/api/v1/namespaces/default/pods?limit=500&resourceVersion=0',
    );
    const document = vscode.workspace.textDocuments.find(
      (d) => d.uri.toString() === explainDocumentUri.toString(),
    );
    assert.ok(document, 'the explanation document is open');
    const text = document.getText();
    assert.match(text, /^LIST v1 pods in namespace default \(profile 1\.36\)$/m);
    assert.match(text, /served by: {3}the watch cache/);
    assert.match(text, /limit: {7}500, ignored/);
    assert.match(text, /assumed: {5}cacheReady=true,/);
  });

  it('the hover on a WATCH URL in a log gives the short answer, says it assumes, and links the command', async () => {
    const line =
      'I0101 00:00:00.000000 1 round_trippers.go:553] GET https://10.0.0.1:6443/api/v1/namespaces/default/pods?allowWatchBookmarks=true&resourceVersion=1&watch=true 200 OK in 3 milliseconds';
    const document = await vscode.workspace.openTextDocument({ language: 'log', content: line });
    const column = line.indexOf('/api/v1/') + 5;
    const hovers = await hoversAt(document.uri, new vscode.Position(0, column));
    const text = unescapeMarkdown(hoverMarkdown(hovers));
    assert.match(text, /WATCH served by the watch cache/);
    assert.match(text, /Assumed, not your cluster: the watch cache is ready; /);
    assert.match(text, /command:listwatch\.explainRequest\?/);
  });

  it('the hover reads the whole query of an audit line, where Go wrote & as \\u0026', async () => {
    const line =
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","verb":"list","requestURI":"/api/v1/pods?limit=500\\u0026resourceVersion=0"}';
    const document = await vscode.workspace.openTextDocument({ language: 'log', content: line });
    const column = line.indexOf('/api/v1/') + 5;
    const text = unescapeMarkdown(
      hoverMarkdown(await hoversAt(document.uri, new vscode.Position(0, column))),
    );
    assert.match(text, /LIST served by the watch cache/);
    assert.match(text, /limit 500 ignored/, 'resourceVersion=0 after the \\u0026 was read');
  });
});
