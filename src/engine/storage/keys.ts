// Mirrors k8s.io/apiserver pkg/storage/interfaces.go PrepareKey and pkg/storage/util.go
// NamespaceKeyFunc (release-1.36): the storage key rules the etcd3 store and the cacher share.
// Deliberate difference: namespaceKeyFunc also serves cluster-scoped resources (NoNamespaceKeyFunc)
// and adds the prefix's trailing '/' itself instead of rejecting a prefix without one.
import { plainError } from './errors';
import { quote } from './go-strings';
import type { KubeObject } from './objects';

/**
 * storage.PrepareKey: rejects `.`/`..` segments and empty keys, adds "/" to a recursive key (so
 * that "/a" does not also list "/ab"), and requires the resource prefix. Errors quote as Go's %q.
 */
export function prepareKey(resourcePrefix: string, key: string, recursive: boolean): string {
  if (key === '..' || key.startsWith('../') || key.endsWith('/..') || key.includes('/../'))
    throw plainError(`invalid key: ${quote(key)}`);
  if (key === '.' || key.startsWith('./') || key.endsWith('/.') || key.includes('/./'))
    throw plainError(`invalid key: ${quote(key)}`);
  if (key === '' || key === '/') throw plainError(`empty key: ${quote(key)}`);
  let k = key;
  if (recursive && !k.endsWith('/')) k += '/';
  if (!k.startsWith(resourcePrefix))
    throw plainError(`invalid key: ${quote(k)} lacks resource prefix: ${quote(resourcePrefix)}`);
  return k;
}

/** storage.NamespaceKeyFunc: `<prefix>/<ns>/<name>` (`<prefix>/<name>` when cluster-scoped). */
export function namespaceKeyFunc(resourcePrefix: string): (obj: KubeObject) => string {
  const p = resourcePrefix.endsWith('/') ? resourcePrefix.slice(0, -1) : resourcePrefix;
  return (obj) => {
    const name = obj.metadata?.name ?? '';
    if (name === '') throw new Error('name parameter required');
    const ns = obj.metadata?.namespace ?? '';
    return ns === '' ? `${p}/${name}` : `${p}/${ns}/${name}`;
  };
}

/**
 * content.IsPathSegmentName found nothing wrong: not `.` or `..`, no `/` or `%`. The registry's
 * KeyFunc refuses such a name; the request-info factory does not take it as the object's name.
 */
export function isPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}
