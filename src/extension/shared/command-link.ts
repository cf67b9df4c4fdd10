// A markdown link that runs a VS Code command with JSON arguments (hovers trust only the commands
// they name). No upstream counterpart; free of the vscode API so that unit tests read hover text.

export function commandLink(
  title: string,
  command: string,
  args: readonly unknown[],
  tooltip: string,
): string {
  // encodeURIComponent leaves ( ) ' ! * ~: a ")" from an argument would end the link early.
  const query = encodeURIComponent(JSON.stringify(args)).replace(
    /[()'!*~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `[${title}](command:${command}?${query} "${tooltip}")`;
}
