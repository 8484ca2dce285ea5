/**
 * The key sequences (shapes) a node of a stream's field tree has met (unmapped.ts): the page scan
 * decides once per shape which keys can matter (unknown to the schema, enum-typed, partly or not
 * read) and then looks at those keys of each object, instead of looking up every key of every
 * object in the tree. Objects the API serializes alike list the same keys in the same order, so a
 * node meets a handful of shapes; an object is matched to its shape by walking a trie of its keys
 * (one string comparison per key, no lookup, no allocation once the shape is known).
 */

/** A node of the trie: the key sequence from the root to here. An object whose keys end here has this shape. */
export interface Shape<P> {
  key: string;
  parent: Shape<P> | undefined;
  next: Shape<P>[];
  /** What the scan does for objects of this shape, decided at the first one (unmapped.ts). */
  plan?: P;
  /** Every key of the shape, in order (built at the first ask). */
  keys?: readonly string[];
}

interface Root<P> extends Shape<P> {
  /** Trie nodes under this root: past MAX_SHAPE_KEYS the node's objects are scanned key by key. */
  size: number;
}

/**
 * Trie nodes a field node keeps: enough for dozens of shapes of a wide object; a node whose objects
 * keep listing new key sequences (keys that are values: an open map) stops growing there.
 */
const MAX_SHAPE_KEYS = 4096;

const roots = new WeakMap<object, Root<unknown>>();

/** The shape of `obj` among those `owner` (a field node) has met; undefined when it has met too many to keep another. */
export function shapeOf<P>(obj: object, owner: object): Shape<P> | undefined {
  let root = roots.get(owner) as Root<P> | undefined;
  if (root === undefined) roots.set(owner, (root = { key: '', parent: undefined, next: [], size: 0 }));
  let at: Shape<P> = root;
  for (const key in obj) {
    const kids = at.next;
    let next: Shape<P> | undefined;
    for (let i = 0; i < kids.length; i++) {
      if (kids[i].key === key) {
        next = kids[i];
        break;
      }
    }
    if (next === undefined) {
      if (root.size >= MAX_SHAPE_KEYS) return undefined;
      root.size += 1;
      kids.push((next = { key, parent: at, next: [] }));
    }
    at = next;
  }
  return at;
}

/** Every key of a shape, in the order its objects list them. */
export function keysOf<P>(shape: Shape<P>): readonly string[] {
  if (shape.keys === undefined) {
    const keys: string[] = [];
    for (let at: Shape<P> | undefined = shape; at?.parent !== undefined; at = at.parent) keys.push(at.key);
    shape.keys = keys.reverse();
  }
  return shape.keys;
}
