// Mirrors sigs.k8s.io/yaml YAMLToJSON over go.yaml.in/yaml/v2 decode.go (allowedAliasRatio and
// decoder.unmarshal's alias count, the CVE-2019-11253 fix) as kube-apiserver's YAML serializer
// decodes a request body (release-1.36: sigs.k8s.io/yaml v1.6.0, go.yaml.in/yaml/v2 v2.4.3).
// js-yaml parses an alias into a shared reference, so parsing a "billion laughs" is cheap and
// expanding it (JSON.stringify, a clone) is what explodes. go-yaml counts its decode steps as it
// expands; here js-yaml's listener counts the same steps while parsing, in document order, with
// each alias's expansion counted from its anchor's totals, and fails before anything is expanded.
// Deliberate differences: the counts are per parsed node as go-yaml's decoder visits them, except
// that a merge key (`<<`) and a merged sequence are counted as nodes (go-yaml visits only what
// they merge); and a document with aliases whose JSON form would be larger than the request
// body limit is refused with the body limit's 413 (go-yaml has no such bound: it would build it).
import { load, type State } from 'js-yaml';
import { newRequestEntityTooLargeError } from '../engine/http-face';
import { maxRequestBodyBytes } from './filters/body-limit';

// 400,000 decode operations is ~500kb of dense object declarations, or ~5kb of dense object
// declarations with 10000% alias expansion (decode.go alias_ratio_range_low).
const aliasRatioRangeLow = 400_000;
// 4,000,000 decode operations is ~5MB of dense object declarations, or ~4.5MB of dense object
// declarations with 10% alias expansion (alias_ratio_range_high).
const aliasRatioRangeHigh = 4_000_000;
const aliasRatioRange = aliasRatioRangeHigh - aliasRatioRangeLow;

/** decode.go allowedAliasRatio: 99% of the decodes may come from aliases, scaling down to 10%. */
export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= aliasRatioRangeLow) return 0.99;
  if (decodeCount >= aliasRatioRangeHigh) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - aliasRatioRangeLow) / aliasRatioRange);
}

/** A go-yaml decode failure: its text after `yaml: ` (what YAMLToJSON's error says). */
export class YamlDecodeError extends Error {
  constructor(readonly reason: string) {
    super(`yaml: ${reason}`);
  }
}

/** How much decoding a parsed node costs when go-yaml expands it. */
interface Expansion {
  /** decoder.unmarshal calls: the node and everything in it, aliases expanded. */
  decodes: number;
  /** An estimate of its JSON form's length in bytes, aliases expanded. */
  jsonBytes: number;
}

interface OpenNode extends Expansion {
  /** The alias this node is (`*name`), read where it starts; confirmed when it closes. */
  alias?: string;
  children: number;
}

// js-yaml's loader State, with the fields @types/js-yaml leaves out that the listener reads.
interface LoaderState extends State {
  kind: string;
  anchor: string | null;
  anchorMap: Record<string, unknown>;
}

// readAlias's name: up to whitespace, a line end or a flow indicator.
const aliasNameEnd = /[\s,[\]{}]/;

// The alias name a node starts with, past the separation space composeNode skips (undefined: it
// starts with something else).
function aliasAt(input: string, from: number): string | undefined {
  let i = from;
  for (;;) {
    const c = input[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\ufeff') i++;
    else if (c === '#') while (i < input.length && input[i] !== '\n' && input[i] !== '\r') i++;
    else break;
  }
  if (input[i] !== '*') return undefined;
  let end = i + 1;
  while (end < input.length && !aliasNameEnd.test(input[end])) end++;
  return input.slice(i + 1, end);
}

/**
 * YAMLToJSON's decode of one document (as js-yaml `load` returns it), refusing excessive aliasing
 * as go-yaml does (`yaml: document contains excessive aliasing`), an alias inside its own anchor
 * (`yaml: anchor 'x' value contains itself`), and a document whose aliases would make its JSON form
 * larger than `limit` (413 `Request entity too large: limit is 3145728`), all before expanding
 * anything. Other YAML errors are js-yaml's (a YAMLException); a repeated mapping key is one unless
 * `lastKeyWins`.
 */
export function yamlToJSON(
  text: string,
  limit = maxRequestBodyBytes,
  lastKeyWins = false,
): unknown {
  // decoder.unmarshal's counters; the document node is the first decode.
  let decodeCount = 1;
  let aliasCount = 0;
  // The JSON bytes of the nodes closed so far (aliases expanded): a lower bound of the document's.
  let jsonBytes = 0;
  const anchors = new Map<string, Expansion>();
  // Collections whose node has closed: an alias to any other collection is to one still open.
  const closed = new WeakSet<object>();
  const stack: OpenNode[] = [];

  const listener = (event: 'open' | 'close', loaderState: State): void => {
    const state = loaderState as LoaderState;
    if (event === 'open') {
      const alias = aliasAt(state.input, state.position);
      stack.push({ decodes: 1, jsonBytes: 0, children: 0, alias });
      return;
    }
    const node = stack.pop() as OpenNode;
    // What its children added is counted again in the node's own total.
    jsonBytes -= node.jsonBytes;
    const name = node.alias;
    const isAlias =
      name !== undefined &&
      state.kind === null &&
      Object.prototype.hasOwnProperty.call(state.anchorMap, name) &&
      Object.is(state.result, state.anchorMap[name]);
    if (isAlias) {
      const target = state.result;
      const expanded = anchors.get(name);
      if (!expanded || (typeof target === 'object' && target !== null && !closed.has(target)))
        throw new YamlDecodeError(`anchor '${name}' value contains itself`);
      // The alias node is decoded where it stands, its target's every node under the alias.
      node.decodes = 1 + expanded.decodes;
      node.jsonBytes = expanded.jsonBytes;
      decodeCount += node.decodes;
      aliasCount += expanded.decodes;
    } else {
      decodeCount++;
      if (state.kind === 'mapping' || state.kind === 'sequence')
        // Brackets, and a comma or colon after each child.
        node.jsonBytes += 2 + node.children;
      else node.jsonBytes = (JSON.stringify(state.result) ?? 'null').length;
      if (typeof state.result === 'object' && state.result !== null) closed.add(state.result);
      if (state.anchor !== null)
        anchors.set(state.anchor, { decodes: node.decodes, jsonBytes: node.jsonBytes });
    }
    jsonBytes += node.jsonBytes;
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.decodes += node.decodes;
      parent.jsonBytes += node.jsonBytes;
      parent.children++;
    }
    if (
      aliasCount > 100 &&
      decodeCount > 1000 &&
      aliasCount / decodeCount > allowedAliasRatio(decodeCount)
    )
      throw new YamlDecodeError('document contains excessive aliasing');
    if (aliasCount > 0 && jsonBytes > limit)
      throw newRequestEntityTooLargeError(`limit is ${limit}`);
  };
  // js-yaml's `json` mode: a repeated key's last value wins, as go-yaml's non-strict decode.
  return load(text, { listener, json: lastKeyWins });
}
