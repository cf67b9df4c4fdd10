// A virtualised, keyboard-accessible table (ARIA grid): only the rows in view (plus a few) exist in
// the DOM, recycled while scrolling, so 10,000+ rows scroll and filter smoothly. Cells are written
// as text. The rows are either all here (setRows: sorted here) or fetched on demand (setRemote:
// the owner fetches the rows in view, sorted wherever they come from). No upstream counterpart.
import { h, perFrame } from './dom';

export interface TableColumn<T> {
  id: string;
  title: string;
  /** CSS grid track, e.g. '6em' or 'minmax(8em, 2fr)'. */
  width: string;
  /** Writes the cell: text (textContent) or child elements built without markup. */
  render(row: T, cell: HTMLElement): void;
  /** Sorting by this column; absent = not sortable. */
  sortKey?: (row: T) => number | string;
  align?: 'end';
  /** Hover text for the header. */
  description?: string;
  /** The text wraps onto the row's lines (VirtualTableOptions.lines) instead of being cut. */
  wrap?: boolean;
  /**
   * The column folds (is not drawn) while the table is narrower than its columns' least widths:
   * the folding columns go lowest rank first, until the others fit. What it says must be readable
   * elsewhere (the detail pane); onFold tells the owner, to say so.
   */
  fold?: number;
}

/** Rows that live elsewhere: how many there are, the ones fetched so far, and a way to ask for more. */
export interface RemoteRows<T> {
  length: number;
  /** The row at an index, if it has arrived. */
  row(index: number): T | undefined;
  /** The table shows [from, to) and lacks some of them. */
  need(from: number, to: number): void;
}

export interface VirtualTableOptions<T> {
  /** Accessible name of the grid. */
  label: string;
  columns: Array<TableColumn<T>>;
  rowKey(row: T): string;
  /** Extra classes for a row (e.g. dimmed when in the future). */
  rowClass?(row: T): string;
  /** A row was chosen (click, Enter, Space). */
  onSelect(row: T): void;
  /** Pixel height of a row; rows are fixed-height so the visible window is arithmetic. */
  rowHeight?: number;
  /**
   * Lines of text a row holds (default 1): the `wrap` columns' text wraps onto them, so a long
   * request or rule reads whole in a narrow table. Sets the row height (lineHeight per line).
   */
  lines?: number;
  emptyText?: string;
  /** Sorting is the owner's (remote rows): told of a header click instead of sorting here. */
  onSort?(columnId: string, descending: boolean): void;
  /** The columns folded for the table's width changed: their titles, in the table's order. */
  onFold?(titles: string[]): void;
}

// Rows rendered beyond the visible ones, above and below, so fast scrolling shows no gaps.
const overscan = 8;
// A line of a multi-line row (px): the editor font's 13 px with room for descenders; the row adds
// 6 px of padding so lines never touch the next row.
const lineHeight = 17;

let tableCount = 0;

/** The least width (in em) a column track takes, padding included: '6em' -> 6, 'minmax(8em, 2fr)' -> 8, anything else 4. */
function minWidthEm(track: string): number {
  const m = /^(?:minmax\()?\s*([\d.]+)em/.exec(track);
  return m ? Number(m[1]) : 4;
}

export class VirtualTable<T> {
  readonly element: HTMLElement;
  private readonly options: VirtualTableOptions<T>;
  private readonly rowHeight: number;
  private readonly body: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly headerCells: HTMLElement[] = [];
  private readonly idPrefix: string;
  private rows: T[] = [];
  private view: T[] = [];
  private remote: RemoteRows<T> | undefined;
  private pool: HTMLElement[] = [];
  private sortColumn: string | undefined;
  private sortDescending = false;
  private activeIndex = -1;
  private selectedKey: string | undefined;
  private readonly scheduleRender: () => void;
  /** The columns not drawn: the owner's (setHiddenColumns) and those folded for the width. */
  private hidden = new Set<string>();
  private ownerHidden = new Set<string>();
  private folded = new Set<string>();

  constructor(options: VirtualTableOptions<T>) {
    this.options = options;
    const lines = Math.max(1, options.lines ?? 1);
    this.rowHeight = options.rowHeight ?? (lines > 1 ? lines * lineHeight + 6 : 24);
    this.idPrefix = `vt${++tableCount}`;
    this.scheduleRender = perFrame(() => this.render());
    const header = h('div', { class: 'vt-head', attrs: { role: 'row', 'aria-rowindex': 1 } });
    for (const c of options.columns) {
      const cell = h('div', {
        class: `vt-cell vt-headcell${c.align === 'end' ? ' end' : ''}`,
        attrs: { role: 'columnheader', title: c.description ?? c.title },
      });
      if (c.sortKey || options.onSort) {
        const sortButton = h(
          'button',
          { class: 'vt-sort', attrs: { type: 'button', tabindex: -1 } },
          c.title,
        );
        sortButton.addEventListener('click', () => this.sortBy(c.id));
        cell.appendChild(sortButton);
        cell.setAttribute('aria-sort', 'none');
      } else {
        cell.textContent = c.title;
      }
      this.headerCells.push(cell);
      header.appendChild(cell);
    }
    this.spacer = h('div', { class: 'vt-spacer', attrs: { role: 'presentation' } });
    this.empty = h('div', {
      class: 'vt-empty',
      attrs: { role: 'status' },
      text: options.emptyText ?? 'Nothing to show.',
    });
    this.body = h(
      'div',
      { class: 'vt-body', attrs: { role: 'rowgroup' } },
      this.spacer,
      this.empty,
    );
    this.element = h(
      'div',
      {
        class: 'vt',
        attrs: {
          role: 'grid',
          'aria-label': options.label,
          tabindex: 0,
          'aria-rowcount': 1,
          'aria-colcount': options.columns.length,
        },
      },
      h('div', { class: 'vt-inner', attrs: { role: 'presentation' } }, header, this.body),
    );
    this.layColumns();
    this.element.style.setProperty('--vt-row-height', `${this.rowHeight}px`);
    if (lines > 1) {
      this.element.classList.add('vt-lines');
      this.element.style.setProperty('--vt-lines', String(lines));
      this.element.style.setProperty('--vt-line-height', `${lineHeight}px`);
    }
    this.body.addEventListener('scroll', this.scheduleRender, { passive: true });
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    this.element.addEventListener('focus', () => {
      if (this.activeIndex < 0 && this.length() > 0)
        this.setActive(this.selectedIndex() >= 0 ? this.selectedIndex() : 0);
      this.scheduleRender();
    });
    new ResizeObserver(this.scheduleRender).observe(this.body);
    // The table's own width does not depend on its columns (its box is the layout's): folding
    // them cannot change it, so this settles in one pass. Folded in the next frame, not inside the
    // observer's callback: the columns it hides resize the body, which another observer watches,
    // and a layout change during delivery is the browser's "ResizeObserver loop" error.
    if (options.columns.some((c) => c.fold !== undefined)) {
      const scheduleFold = perFrame(() => this.fold());
      new ResizeObserver(scheduleFold).observe(this.element);
    }
  }

  /**
   * Columns not drawn (their header and cells are hidden, their room goes to the others): a column
   * with nothing to say in the run costs a narrow table the room its text columns need.
   */
  setHiddenColumns(ids: readonly string[]): void {
    this.ownerHidden = new Set(ids);
    this.fold();
    this.applyHidden();
  }

  /**
   * Folds the folding columns, lowest rank first, while the table's width is less than the least
   * widths of the columns drawn; a table wide enough unfolds them. Not measured while hidden.
   */
  private fold(): void {
    // The rows are as wide as the body less its vertical scroll bar.
    const width = this.element.clientWidth - (this.body.offsetWidth - this.body.clientWidth);
    if (this.element.clientWidth <= 0) return;
    const em = parseFloat(getComputedStyle(this.element).fontSize) || 13;
    const drawn = this.options.columns.filter((c) => !this.ownerHidden.has(c.id));
    const folding = drawn
      .filter((c) => c.fold !== undefined)
      .sort((a, b) => (a.fold ?? 0) - (b.fold ?? 0));
    const folded = new Set<string>();
    let need = drawn.reduce((sum, c) => sum + minWidthEm(c.width), 0) * em;
    for (const c of folding) {
      if (need <= width) break;
      folded.add(c.id);
      need -= minWidthEm(c.width) * em;
    }
    if (folded.size === this.folded.size && [...folded].every((id) => this.folded.has(id))) return;
    this.folded = folded;
    this.applyHidden();
    this.options.onFold?.(this.options.columns.filter((c) => folded.has(c.id)).map((c) => c.title));
  }

  private applyHidden(): void {
    const next = new Set([...this.ownerHidden, ...this.folded]);
    if (next.size === this.hidden.size && [...next].every((id) => this.hidden.has(id))) return;
    this.hidden = next;
    this.layColumns();
    for (const row of [this.element.querySelector('.vt-head'), ...this.pool])
      if (row)
        for (const [i, c] of this.options.columns.entries())
          (row.children[i] as HTMLElement).hidden = this.hidden.has(c.id);
  }

  private layColumns(): void {
    const shown = this.options.columns.filter((c) => !this.hidden.has(c.id));
    this.element.style.setProperty('--vt-columns', shown.map((c) => c.width).join(' '));
    this.element.style.setProperty(
      '--vt-min-width',
      `${shown.reduce((sum, c) => sum + minWidthEm(c.width), 0)}em`,
    );
    this.element.setAttribute('aria-colcount', String(shown.length));
  }

  /** What the table says when it has no row (e.g. "This run has no watchers" vs "No watcher matches"). */
  setEmptyText(text: string): void {
    this.empty.textContent = text;
  }

  /**
   * Shows rows that live elsewhere (the owner fetches them when `need` asks); call again when the
   * count or the fetched rows change. Selection is kept by key, the active row by index.
   */
  setRemote(rows: RemoteRows<T>): void {
    this.remote = rows;
    this.view = [];
    if (this.activeIndex >= rows.length) this.activeIndex = rows.length - 1;
    this.element.setAttribute('aria-rowcount', String(rows.length + 1));
    this.spacer.style.height = `${rows.length * this.rowHeight}px`;
    this.empty.hidden = rows.length > 0;
    this.render();
  }

  /** Replaces the rows (filtered by the owner); selection and sort are kept. */
  setRows(rows: T[]): void {
    this.remote = undefined;
    this.rows = rows;
    const activeKey =
      this.activeIndex >= 0 && this.activeIndex < this.view.length
        ? this.options.rowKey(this.view[this.activeIndex])
        : undefined;
    this.applySort();
    this.activeIndex =
      activeKey === undefined
        ? -1
        : this.view.findIndex((r) => this.options.rowKey(r) === activeKey);
    this.element.setAttribute('aria-rowcount', String(this.view.length + 1));
    this.spacer.style.height = `${this.view.length * this.rowHeight}px`;
    this.empty.hidden = this.view.length > 0;
    this.render();
  }

  /** Rows in display order (sorted); for remote rows, those fetched of them. */
  displayed(): readonly T[] {
    if (!this.remote) return this.view;
    const out: T[] = [];
    for (let i = 0; i < this.remote.length; i++) {
      const r = this.remote.row(i);
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** How many rows the table has (fetched or not). */
  length(): number {
    return this.remote ? this.remote.length : this.view.length;
  }

  /** Scrolls row `index` into view and makes it the active one (remote rows: the owner knows the index). */
  revealIndex(index: number): void {
    if (index < 0 || index >= this.length()) return;
    this.activeIndex = index;
    this.reveal(index);
    this.render();
  }

  /** The rows in view, with the overscan: what to fetch for remote rows. */
  visibleRange(): { from: number; to: number } {
    const height = this.body.clientHeight || 400;
    const from = Math.max(0, Math.floor(this.body.scrollTop / this.rowHeight) - overscan);
    const to = Math.min(
      this.length(),
      Math.ceil((this.body.scrollTop + height) / this.rowHeight) + overscan,
    );
    return { from, to };
  }

  private rowAt(index: number): T | undefined {
    return this.remote ? this.remote.row(index) : this.view[index];
  }

  /** Re-renders the visible rows (their content depends on something else, e.g. the scrubber's time). */
  refresh(): void {
    this.render();
  }

  /** Marks a row selected (no callback) and optionally scrolls it into view. */
  select(key: string | undefined, reveal = true): void {
    this.selectedKey = key;
    const i = this.selectedIndex();
    if (i >= 0) {
      this.activeIndex = i;
      if (reveal) this.reveal(i);
    }
    this.render();
  }

  /** How many row elements exist (for tests: proves the table is virtualised). */
  renderedRowCount(): number {
    return this.pool.filter((r) => !r.hidden).length;
  }

  private selectedIndex(): number {
    if (this.selectedKey === undefined) return -1;
    if (!this.remote)
      return this.view.findIndex((r) => this.options.rowKey(r) === this.selectedKey);
    for (let i = 0; i < this.remote.length; i++) {
      const r = this.remote.row(i);
      if (r !== undefined && this.options.rowKey(r) === this.selectedKey) return i;
    }
    return -1;
  }

  private sortBy(columnId: string): void {
    if (this.sortColumn === columnId) this.sortDescending = !this.sortDescending;
    else {
      this.sortColumn = columnId;
      this.sortDescending = false;
    }
    for (const [i, c] of this.options.columns.entries()) {
      if (c.sortKey || this.options.onSort)
        this.headerCells[i].setAttribute(
          'aria-sort',
          c.id !== this.sortColumn ? 'none' : this.sortDescending ? 'descending' : 'ascending',
        );
    }
    if (this.options.onSort) this.options.onSort(columnId, this.sortDescending);
    else this.setRows(this.rows);
  }

  private applySort(): void {
    const column = this.options.columns.find((c) => c.id === this.sortColumn);
    if (!column?.sortKey) {
      this.view = this.rows;
      return;
    }
    const key = column.sortKey;
    const keyed = this.rows.map((row, i) => ({ row, k: key(row), i }));
    const dir = this.sortDescending ? -1 : 1;
    keyed.sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : a.i - b.i));
    this.view = keyed.map((x) => x.row);
  }

  private reveal(index: number): void {
    const top = index * this.rowHeight;
    const bottom = top + this.rowHeight;
    if (top < this.body.scrollTop) this.body.scrollTop = top;
    else if (bottom > this.body.scrollTop + this.body.clientHeight)
      this.body.scrollTop = bottom - this.body.clientHeight;
  }

  private setActive(index: number): void {
    if (this.length() === 0) return;
    this.activeIndex = Math.max(0, Math.min(this.length() - 1, index));
    this.reveal(this.activeIndex);
    this.render();
  }

  private onKey(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.body.clientHeight / this.rowHeight) - 1);
    const moves: Record<string, () => number> = {
      ArrowDown: () => this.activeIndex + 1,
      ArrowUp: () => this.activeIndex - 1,
      PageDown: () => this.activeIndex + page,
      PageUp: () => this.activeIndex - page,
      Home: () => 0,
      End: () => this.length() - 1,
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      this.setActive(this.activeIndex < 0 ? 0 : move());
      return;
    }
    if (
      (event.key === 'Enter' || event.key === ' ') &&
      this.activeIndex >= 0 &&
      this.activeIndex < this.length()
    ) {
      event.preventDefault();
      this.choose(this.activeIndex);
    }
  }

  private choose(index: number): void {
    const row = this.rowAt(index);
    if (row === undefined) return;
    this.selectedKey = this.options.rowKey(row);
    this.activeIndex = index;
    this.render();
    this.options.onSelect(row);
  }

  private rowElement(slot: number): HTMLElement {
    let row = this.pool[slot];
    if (!row) {
      row = h('div', { class: 'vt-row', attrs: { role: 'row' } });
      for (const c of this.options.columns) {
        row.appendChild(
          h('div', {
            class: `vt-cell${c.align === 'end' ? ' end' : ''}${c.wrap ? ' wrap' : ''}`,
            attrs: { role: 'gridcell', hidden: this.hidden.has(c.id) },
          }),
        );
      }
      row.addEventListener('click', () => {
        const index = Number(row!.dataset.index);
        if (Number.isInteger(index)) {
          this.choose(index);
          this.element.focus({ preventScroll: true });
        }
      });
      this.pool[slot] = row;
      this.spacer.appendChild(row);
    }
    return row;
  }

  private render(): void {
    const { from: first, to: last } = this.visibleRange();
    let slot = 0;
    let missing = false;
    for (let i = first; i < last; i++, slot++) {
      const row = this.rowAt(i);
      const el = this.rowElement(slot);
      if (row === undefined) {
        // Not fetched yet: an empty row in its place until it arrives.
        missing = true;
        el.hidden = false;
        el.dataset.index = String(i);
        el.id = `${this.idPrefix}-r${i}`;
        el.setAttribute('aria-rowindex', String(i + 2));
        el.setAttribute('aria-busy', 'true');
        el.className = 'vt-row loading';
        el.style.transform = `translateY(${i * this.rowHeight}px)`;
        for (const cell of Array.from(el.children)) cell.textContent = '';
        continue;
      }
      el.removeAttribute('aria-busy');
      el.hidden = false;
      el.dataset.index = String(i);
      el.id = `${this.idPrefix}-r${i}`;
      el.setAttribute('aria-rowindex', String(i + 2));
      const key = this.options.rowKey(row);
      const selected = key === this.selectedKey;
      el.setAttribute('aria-selected', String(selected));
      el.className = `vt-row${selected ? ' selected' : ''}${i === this.activeIndex ? ' active' : ''}${this.options.rowClass ? ` ${this.options.rowClass(row)}` : ''}`;
      el.style.transform = `translateY(${i * this.rowHeight}px)`;
      const cells = el.children;
      for (const [c, column] of this.options.columns.entries()) {
        const cell = cells[c] as HTMLElement;
        cell.textContent = '';
        column.render(row, cell);
      }
    }
    for (; slot < this.pool.length; slot++) this.pool[slot].hidden = true;
    if (missing && this.remote) this.remote.need(first, last);
    if (this.activeIndex >= first && this.activeIndex < last)
      this.element.setAttribute('aria-activedescendant', `${this.idPrefix}-r${this.activeIndex}`);
    else this.element.removeAttribute('aria-activedescendant');
  }
}
