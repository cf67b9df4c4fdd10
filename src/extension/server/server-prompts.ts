// No upstream counterpart: how the server commands ask (quick picks, input boxes, the open dialog);
// Probe and Scrape ask for their cluster through them too.
// Injectable, as confirmations.ts is: the extension-host tests answer a prompt with a chosen value
// (a non-default profile, a CRD file, a fault's parameters) and check its validation messages,
// which the workbench's own widgets do not let them type into.
import * as vscode from 'vscode';

export interface ServerPrompts {
  pick<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions & { title: string; active?: T },
  ): Promise<T | undefined>;
  input(options: vscode.InputBoxOptions & { title: string }): Promise<string | undefined>;
  openFiles(options: vscode.OpenDialogOptions): Promise<readonly vscode.Uri[] | undefined>;
}

/** The workbench's own widgets. */
export const workbenchPrompts: ServerPrompts = {
  pick(items, options) {
    // A QuickPick (not showQuickPick) so that the default is the active row: Enter takes it.
    const qp = vscode.window.createQuickPick<(typeof items)[number]>();
    qp.title = options.title;
    qp.placeholder = options.placeHolder;
    qp.items = items;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.ignoreFocusOut = options.ignoreFocusOut ?? false;
    if (options.active) qp.activeItems = [options.active];
    return new Promise((resolve) => {
      let picked: (typeof items)[number] | undefined;
      qp.onDidAccept(() => {
        picked = qp.activeItems[0];
        qp.hide();
      });
      qp.onDidHide(() => {
        qp.dispose();
        resolve(picked);
      });
      qp.show();
    });
  },
  input: (options) => Promise.resolve(vscode.window.showInputBox(options)),
  openFiles: (options) => Promise.resolve(vscode.window.showOpenDialog(options)),
};

/** The prompts in use: the workbench's, or some a test put in. */
export class ServerPromptsInUse implements ServerPrompts {
  private replacement: Partial<ServerPrompts> | undefined;

  /** Replaces some or all prompts (tests); undefined restores the workbench's. */
  use(replacement: Partial<ServerPrompts> | undefined): void {
    this.replacement = replacement;
  }

  pick<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions & { title: string; active?: T },
  ): Promise<T | undefined> {
    return (this.replacement?.pick ?? workbenchPrompts.pick)(items, options);
  }

  input(options: vscode.InputBoxOptions & { title: string }): Promise<string | undefined> {
    return (this.replacement?.input ?? workbenchPrompts.input)(options);
  }

  openFiles(options: vscode.OpenDialogOptions): Promise<readonly vscode.Uri[] | undefined> {
    return (this.replacement?.openFiles ?? workbenchPrompts.openFiles)(options);
  }
}
