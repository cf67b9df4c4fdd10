// Test harness for the importers (src/import): imports in-memory text as files (written to a
// temporary directory, removed afterwards) and returns everything the sink received. Any test
// of a LineFormat or of the analysis can use it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  importFiles,
  type ImportOptions,
  type ImportResult,
} from '../../../src/import/import-files';
import type { ImportedRequest, RejectedLine } from '../../../src/run/imported-request';

/** A file's name (as the user named it) and its content. */
export interface TextFile {
  name: string;
  content: string | Buffer;
}

export interface Imported {
  result: ImportResult;
  requests: ImportedRequest[];
  rejects: RejectedLine[];
}

/** Writes the files to a fresh temporary directory, calls `fn` with their paths, removes them. */
export async function withTempFiles<T>(
  files: readonly TextFile[],
  fn: (paths: string[]) => Promise<T>,
): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-import-'));
  try {
    const paths = files.map((f, i) => {
      const p = path.join(dir, `${i}-${path.basename(f.name)}`);
      fs.writeFileSync(p, f.content);
      return p;
    });
    return await fn(paths);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Imports the files (one string: one file named `test.log`), each under its own name. */
export async function importText(
  files: string | readonly TextFile[],
  options: ImportOptions = {},
): Promise<Imported> {
  const list = typeof files === 'string' ? [{ name: 'test.log', content: files }] : files;
  return withTempFiles(list, async (paths) => {
    const requests: ImportedRequest[] = [];
    const rejects: RejectedLine[] = [];
    const result = await importFiles(
      paths.map((p, i) => ({ path: p, name: list[i].name })),
      options,
      { request: (r) => requests.push(r), reject: (r) => rejects.push(r) },
    );
    return { result, requests, rejects };
  });
}

/** JSON lines, one per object, each ending with a newline. */
export function jsonLines(objects: readonly unknown[]): string {
  return objects.map((o) => JSON.stringify(o) + '\n').join('');
}
