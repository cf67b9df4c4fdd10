// No upstream counterpart: Go maps and structs have no prototype, so every key a client sends is
// data. In JavaScript `obj[key] = v` with key `__proto__` runs Object.prototype's setter instead
// (the key is dropped, or the object's prototype changes). Every place that copies, merges or
// builds an object from a client's keys sets them through setOwn.

/**
 * obj[key] = value as an own, enumerable data property, `__proto__` included (as JSON.parse,
 * spread and Object.fromEntries make it).
 */
export function setOwn<T>(obj: Record<string, T>, key: string, value: NoInfer<T>): void {
  // Object.prototype's only accessor is __proto__: any other key assigns an own property.
  if (key === '__proto__')
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else obj[key] = value;
}
