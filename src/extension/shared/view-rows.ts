// No upstream counterpart: a side-bar tree as shown, read by the extension-host tests (the API's
// `…ViewRows`), the same for every view.
import type * as vscode from 'vscode';

export interface ViewRow {
  label: string;
  description: string;
  children: ViewRow[];
}

/** Every row of `tree` from its roots, expanded (`expand` false: the roots only). */
export function treeRows<T>(
  tree: { getChildren(node?: T): T[]; getTreeItem(node: T): vscode.TreeItem },
  expand = true,
): ViewRow[] {
  const describe = (node: T): ViewRow => {
    const item = tree.getTreeItem(node);
    return {
      label: String(item.label),
      description: String(item.description ?? ''),
      children: expand ? tree.getChildren(node).map(describe) : [],
    };
  };
  return tree.getChildren().map(describe);
}
