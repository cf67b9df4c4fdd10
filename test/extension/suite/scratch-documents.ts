// Test helpers: documents with given content, saved as real files under a fresh temp folder.
// Untitled documents are avoided: VS Code may hand back a just-closed "Untitled-1" with its old
// content when a test asks for a new one, which made the tests depend on their order.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';

let folder: string | undefined;
let counter = 0;

/** Opens `content` as a file named like `name` (its extension picks the language). */
export async function scratchDocument(name: string, content: string): Promise<vscode.TextDocument> {
  folder ??= fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-ext-tests-'));
  const file = path.join(folder, `${++counter}-${name}`);
  fs.writeFileSync(file, content);
  return vscode.workspace.openTextDocument(vscode.Uri.file(file));
}

// Root-level hook: removes this test file's scratch folder when the suite ends.
after(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});
