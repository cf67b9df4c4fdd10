// Test harness: a stand-in "VS Code executable" for @vscode/test-electron's
// runTests({ vscodeExecutablePath }). It is spawned as
//   <exe> [launchArgs...] --no-sandbox ... --extensionTestsPath=X --extensionDevelopmentPath=Y ...
// and runs the suite in the VS Code server's extension host instead, exiting with the suite's result.
import * as path from 'path';
import { runExtensionTests } from './extension-tests';

interface LauncherArgs {
  extensionDevelopmentPath: string[];
  extensionTestsPath?: string;
  folder?: string;
}

export function parseLauncherArgs(argv: readonly string[]): LauncherArgs {
  const parsed: LauncherArgs = { extensionDevelopmentPath: [] };
  for (const arg of argv) {
    let m: RegExpExecArray | null;
    if ((m = /^--extensionDevelopmentPath=(.*)$/.exec(arg)))
      parsed.extensionDevelopmentPath.push(path.resolve(m[1]));
    else if ((m = /^--extensionTestsPath=(.*)$/.exec(arg)))
      parsed.extensionTestsPath = path.resolve(m[1]);
    // The first positional argument is the workspace folder (runTests' launchArgs).
    else if (!arg.startsWith('-') && parsed.folder === undefined) parsed.folder = path.resolve(arg);
    // Every other flag (--no-sandbox, --user-data-dir=..., --disable-updates, ...) is desktop-only.
  }
  return parsed;
}

async function runFromArgs(): Promise<number> {
  const args = parseLauncherArgs(process.argv.slice(2));
  if (!args.extensionTestsPath) {
    process.stderr.write('vscode-launcher: expected --extensionTestsPath=<suite index.js>\n');
    return 2;
  }
  const result = await runExtensionTests({
    name: `extension-${path.basename(path.dirname(args.extensionTestsPath))}`,
    extensionDevelopmentPath: args.extensionDevelopmentPath,
    extensionTestsPath: args.extensionTestsPath,
    folder: args.folder,
  });
  return result.exitCode;
}

/** Entry point, called by the executable shim test/harness/bin/vscode-launcher. */
export function launch(): void {
  runFromArgs().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(
        `vscode-launcher: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
