// Building DOM for the inspector webview without markup strings: every piece of text from a run
// (object names, selectors, label values, messages) enters the page as a text node or an attribute
// value, never as HTML. No upstream counterpart.

export type Child = Node | string | number | undefined | null | false;

export interface ElementProps {
  class?: string;
  /** Attributes (aria-*, role, title, tabindex, data-*): values are set with setAttribute, never parsed. */
  attrs?: Record<string, string | number | boolean | undefined>;
  /** Text content (a text node). */
  text?: string;
}

function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    parent.appendChild(
      typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c,
    );
  }
}

function setAttrs(el: Element, attrs: ElementProps['attrs']): void {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
}

/** An HTML element with class, attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  setAttrs(el, props.attrs);
  if (props.text !== undefined) el.textContent = props.text;
  append(el, children);
  return el;
}

/** A custom element (the toolkit's vscode-*), same rules as h(). */
export function custom(tag: string, props: ElementProps = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  setAttrs(el, props.attrs);
  if (props.text !== undefined) el.textContent = props.text;
  append(el, children);
  return el;
}

const svgNs = 'http://www.w3.org/2000/svg';

/** An SVG element; attribute values (numbers, paths, labels) are set with setAttribute. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | undefined> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(svgNs, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

/** SVG text (a text node inside <text>), optionally with a <title> tooltip. */
export function svgText(
  x: number,
  y: number,
  text: string,
  attrs: Record<string, string | number | undefined> = {},
): SVGTextElement {
  return s('text', { x, y, ...attrs }, text);
}

/** Removes every child. */
export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** Replaces the children of `el`. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  clear(el);
  append(el, children);
}

/** Calls fn at most once per animation frame with the latest arguments. */
export function perFrame(fn: () => void): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fn();
    });
  };
}

/**
 * Control characters made visible (Control Pictures: NUL -> ␀), as the rest of the extension shows
 * them: a continue token's start key ends in a NUL byte, which would otherwise render as nothing
 * or a box.
 */
export function visibleText(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    // Tab and line feed stay (they lay text out); other C0 controls and DEL get their picture.
    out +=
      c < 0x20 && c !== 0x09 && c !== 0x0a
        ? String.fromCharCode(0x2400 + c)
        : c === 0x7f
          ? '\u2421'
          : ch;
  }
  return out;
}

/**
 * Writes `text` into `el` as text, with a line break allowed after each `/`, `?`, `&` and `,`
 * (a <wbr> element): a URL, a User-Agent or a selector wraps between its parts before it wraps
 * inside one.
 */
export function appendBreakable(el: HTMLElement, text: string): void {
  for (const part of visibleText(text).split(/(?<=[/?&,])/)) {
    el.appendChild(document.createTextNode(part));
    el.appendChild(document.createElement('wbr'));
  }
}

/** "What the columns mean": a closed disclosure listing each column's name and meaning (text only). */
export function columnLegend(legend: ReadonlyArray<readonly [string, string]>): HTMLElement {
  return h(
    'details',
    { class: 'legend' },
    h('summary', { text: 'What the columns mean' }),
    h(
      'dl',
      { class: 'facts legend-list' },
      ...legend.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]),
    ),
  );
}
