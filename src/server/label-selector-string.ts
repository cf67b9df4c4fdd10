// Mirrors k8s.io/apimachinery pkg/labels (Set.String, FormatLabels, Requirement.String,
// internalSelector.String) and pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector,
// FormatLabelSelector) as the table printers use them. Deliberate difference: keys and values are
// not validated as label names and values (NewRequirement's checks); only the operator and the
// value counts are, so a selector upstream calls invalid may print here.
import { arr, obj, str, type Json } from './printers';

/** labels.Set.String: `k=v` pairs in key order, joined by commas. */
export function labelSetString(labels: unknown): string {
  const m = obj(labels);
  return Object.keys(m)
    .sort()
    .map((k) => `${k}=${str(m[k])}`)
    .join(',');
}

/** labels.FormatLabels: the set's string, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  return labelSetString(labels) || '<none>';
}

interface Requirement {
  key: string;
  operator: 'Equals' | 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: string[];
}

const operators: Record<string, Requirement['operator']> = {
  In: 'In',
  NotIn: 'NotIn',
  Exists: 'Exists',
  DoesNotExist: 'DoesNotExist',
};

/** Requirement.String: `k=v`, `k in (a,b)`, `k notin (a)`, `k`, `!k` (values sorted). */
function requirementString(r: Requirement): string {
  switch (r.operator) {
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
    case 'Equals':
      return `${r.key}=${r.values[0]}`;
    default: {
      const values = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
      return `${r.key} ${r.operator === 'In' ? 'in' : 'notin'} (${values})`;
    }
  }
}

/**
 * LabelSelectorAsSelector(...).String(): `''` for a nil or empty selector (labels.Nothing and
 * labels.Everything both print empty), undefined when the selector does not convert.
 */
export function labelSelectorString(selector: unknown): string | undefined {
  if (selector === undefined || selector === null) return '';
  const s: Json = obj(selector);
  const matchLabels = obj(s.matchLabels);
  const requirements: Requirement[] = Object.keys(matchLabels).map((key) => ({
    key,
    operator: 'Equals',
    values: [str(matchLabels[key])],
  }));
  for (const expr of arr(s.matchExpressions)) {
    const operator = operators[str(expr.operator)];
    if (operator === undefined) return undefined;
    const values = Array.isArray(expr.values) ? expr.values.map(str) : [];
    // NewRequirement: In and NotIn need values, Exists and DoesNotExist none.
    const wantsValues = operator === 'In' || operator === 'NotIn';
    if (wantsValues !== values.length > 0) return undefined;
    requirements.push({ key: str(expr.key), operator, values });
  }
  // Selector.Add sorts by key (a stable sort here; upstream's sort.Sort is not).
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return requirements.map(requirementString).join(',');
}

/** metav1.FormatLabelSelector: `<error>` when it does not convert, `<none>` when empty. */
export function formatLabelSelector(selector: unknown): string {
  const s = labelSelectorString(selector);
  if (s === undefined) return '<error>';
  return s || '<none>';
}
