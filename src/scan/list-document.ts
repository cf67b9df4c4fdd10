// No upstream counterpart: reads what a list object (`kubectl get -o json|yaml`, `kubectl get --raw`)
// says about the LIST that produced it (kind, apiVersion, the items' namespaces), line by line and
// without a YAML/JSON parser, so a long list costs one pass with a small key-path stack.

/** What a list document says about itself. */
export interface ListDocumentFacts {
  kind?: string;
  apiVersion?: string;
  /** metadata.namespace of each item that has one (distinct values). */
  itemNamespaces: Set<string>;
  /** Items seen (each item's metadata.name). */
  items: number;
}

/** What one line is, for a caller looking for the list's own metadata.continue. */
export interface ListDocumentLine {
  /** The document this line belongs to (a running number), or undefined outside any document. */
  document?: number;
  /** The key path of the line's key, e.g. ["metadata", "continue"]; "[]" stands for a list element. */
  path?: readonly string[];
}

type Mode = 'json' | 'yaml';

interface Frame {
  indent: number;
  key: string;
}

const jsonKeyRe = /^(\s*)"((?:[^"\\]|\\.)*)"\s*:\s*(.*?)\s*$/;
const jsonElementRe = /^(\s*)[{[]\s*$/;
// A YAML block-mapping key: optional "- " sequence markers, then a plain or quoted key and ": ".
const yamlKeyRe =
  /^(\s*)((?:-\s+)*)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-:][^:#]*?|-[^\s:#][^:#]*?)\s*:(?:\s+(.*?))?\s*$/;
const yamlDashRe = /^(\s*)-(?:\s|$)/;

function unquoteJson(text: string): string | undefined {
  const value = text.replace(/,$/, '');
  if (!value.startsWith('"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function unquoteYaml(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const value = text.replace(/\s+#.*$/, '');
  if (value.startsWith('"')) return unquoteJson(value);
  if (value.startsWith("'"))
    return value.endsWith("'") ? value.slice(1, -1).replace(/''/g, "'") : undefined;
  return value === '' || /^[|>{[&*!]/.test(value) ? undefined : value;
}

function yamlKey(raw: string): string {
  if (raw.startsWith('"')) return unquoteJson(raw) ?? raw;
  if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  return raw;
}

/**
 * Follows pretty-printed JSON documents (a line "{" at column 0 up to "}" at column 0) and block
 * YAML documents (from a key at column 0 up to "---", "..." or a line that is not YAML), keeping
 * the key path by indentation, as both kubectl printers indent.
 */
export class ListDocumentTracker {
  private mode: Mode | undefined;
  private stack: Frame[] = [];
  private facts: ListDocumentFacts = { itemNamespaces: new Set(), items: 0 };
  private documents = 0;

  /** The document in progress, if any. */
  get current(): number | undefined {
    return this.mode ? this.documents : undefined;
  }

  /**
   * Reads one line. `ended` is set when the line closes a document (or shows that the previous one
   * is over): its facts, and the document's number.
   */
  push(
    text: string,
  ): ListDocumentLine & { ended?: { document: number; facts: ListDocumentFacts } } {
    let ended: { document: number; facts: ListDocumentFacts } | undefined;
    if (this.mode === 'json') {
      if (/^}\s*$/.test(text)) return { document: this.documents, ended: this.finish() };
      if (/^\S/.test(text)) ended = this.finish();
      else return { document: this.documents, path: this.jsonLine(text) };
    } else if (this.mode === 'yaml') {
      if (/^(?:---|\.\.\.)(?:\s|$)/.test(text)) return { ended: this.finish() };
      if (
        /^\s*(?:#.*)?$/.test(text) ||
        /^\s/.test(text) ||
        yamlKeyRe.test(text) ||
        yamlDashRe.test(text)
      ) {
        return { document: this.documents, path: this.yamlLine(text) };
      }
      ended = this.finish();
    }
    if (/^{\s*$/.test(text)) {
      this.start('json');
      return { document: this.documents, ended };
    }
    if (/^---(?:\s|$)/.test(text)) {
      this.start('yaml');
      return { document: this.documents, ended };
    }
    if (/^[^\s#-]/.test(text) && yamlKeyRe.test(text)) {
      this.start('yaml');
      return { document: this.documents, path: this.yamlLine(text), ended };
    }
    return { ended };
  }

  /** Ends the document in progress (end of input); its facts, if there was one. */
  end(): { document: number; facts: ListDocumentFacts } | undefined {
    return this.mode ? this.finish() : undefined;
  }

  private start(mode: Mode): void {
    this.mode = mode;
    this.documents++;
    this.stack = [];
    this.facts = { itemNamespaces: new Set(), items: 0 };
  }

  private finish(): { document: number; facts: ListDocumentFacts } {
    const done = { document: this.documents, facts: this.facts };
    this.mode = undefined;
    this.stack = [];
    this.facts = { itemNamespaces: new Set(), items: 0 };
    return done;
  }

  private parentAt(indent: number): string[] {
    while (this.stack.length > 0 && this.stack[this.stack.length - 1].indent >= indent)
      this.stack.pop();
    return this.stack.map((f) => f.key);
  }

  private jsonLine(text: string): readonly string[] | undefined {
    const element = jsonElementRe.exec(text);
    if (element) {
      this.parentAt(element[1].length);
      this.stack.push({ indent: element[1].length, key: '[]' });
      return undefined;
    }
    const m = jsonKeyRe.exec(text);
    if (!m) return undefined;
    const key = unquoteJson(`"${m[2]}"`) ?? m[2];
    const path = [...this.parentAt(m[1].length), key];
    this.stack.push({ indent: m[1].length, key });
    this.record(path, unquoteJson(m[3]));
    return path;
  }

  private yamlLine(text: string): readonly string[] | undefined {
    const m = yamlKeyRe.exec(text);
    if (!m) {
      const dash = yamlDashRe.exec(text);
      if (dash) this.element(dash[1].length);
      return undefined;
    }
    let indent = m[1].length;
    // Each "- " opens a list element; the key after it sits two columns further in.
    for (const marker of m[2].match(/-\s+/g) ?? []) {
      this.element(indent);
      indent += marker.length;
    }
    const key = yamlKey(m[3]);
    const path = [...this.parentAt(indent), key];
    this.stack.push({ indent, key });
    this.record(path, unquoteYaml(m[4]));
    return path;
  }

  /** A "- " at column `indent`: a new element of the nearest key at or left of it. */
  private element(indent: number): void {
    while (this.stack.length > 0) {
      const top = this.stack[this.stack.length - 1];
      if (top.indent > indent || (top.indent === indent && top.key === '[]')) this.stack.pop();
      else break;
    }
    this.stack.push({ indent, key: '[]' });
  }

  private record(path: readonly string[], value: string | undefined): void {
    if (value === undefined) return;
    if (path.length === 1 && path[0] === 'kind') this.facts.kind = value;
    else if (path.length === 1 && path[0] === 'apiVersion') this.facts.apiVersion = value;
    else if (
      path.length === 4 &&
      path[0] === 'items' &&
      path[1] === '[]' &&
      path[2] === 'metadata'
    ) {
      if (path[3] === 'namespace') this.facts.itemNamespaces.add(value);
      else if (path[3] === 'name') this.facts.items++;
    }
  }
}

/** The same facts from a list object already parsed (a list printed on one line). */
export function listFactsOf(value: unknown): ListDocumentFacts | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const list = value as { kind?: unknown; apiVersion?: unknown; items?: unknown };
  const facts: ListDocumentFacts = { itemNamespaces: new Set(), items: 0 };
  if (typeof list.kind === 'string') facts.kind = list.kind;
  if (typeof list.apiVersion === 'string') facts.apiVersion = list.apiVersion;
  if (Array.isArray(list.items)) {
    for (const item of list.items as unknown[]) {
      const metadata = (item as { metadata?: { namespace?: unknown; name?: unknown } } | null)
        ?.metadata;
      if (typeof metadata?.name === 'string') facts.items++;
      if (typeof metadata?.namespace === 'string') facts.itemNamespaces.add(metadata.namespace);
    }
  }
  return facts;
}
