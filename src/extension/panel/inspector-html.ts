// The inspector webview's page: a strict Content Security Policy (nothing by default; scripts only
// with a fresh nonce; styles, images and fonts only from the extension's own folders), the bundled
// script and stylesheet through asWebviewUri, and no content of its own: the script draws it.
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';

/** A fresh nonce per page load (128 random bits). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Where the webview may load files from: the bundles and the media folder, nothing else. */
export function inspectorLocalResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function inspectorWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: inspectorLocalResourceRoots(extensionUri),
  };
}

/** The Content-Security-Policy the page declares. */
export function inspectorCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function inspectorHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  nonce = newNonce(),
): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.css'));
  // Only our own URIs and the nonce are interpolated; nothing from a run ever reaches this string.
  // The toolkit (FAST) reads the nonce from meta[property=csp-nonce] for the one <style> it probes with.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${inspectorCsp(webview.cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${nonce}">
<link rel="stylesheet" href="${style.toString()}" nonce="${nonce}">
<title>List/Watch Inspector</title>
</head>
<body>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
