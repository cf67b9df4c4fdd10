// Mirrors Go's sort.SliceStable (sort/zsortfunc.go: stable_func, insertionSort_func, symMerge_func, rotate_func).
// Ported rather than replaced by Array.prototype.sort because strategic merge patch sorts with a
// `less` that is not a strict weak order (an item missing from the order list is "less" than
// everything), so the result depends on the exact comparisons Go's algorithm makes.

/** sort.SliceStable(items, less): sorts items in place; less(i, j) compares items[i] and items[j]. */
export function sliceStable<T>(items: T[], less: (a: T, b: T) => boolean): void {
  const lt = (i: number, j: number): boolean => less(items[i], items[j]);
  const swap = (i: number, j: number): void => {
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  };
  const n = items.length;

  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && lt(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (a: number, b: number, count: number): void => {
    for (let i = 0; i < count; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const total = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = total - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = total - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = total - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}
