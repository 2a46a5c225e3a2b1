/**
 * What a schema conversion dropped or altered. Every converter returns its result together with a
 * list of these, so that no conversion loses information silently.
 */

/** Kinds of lossy changes a conversion can make. Open-ended. */
export type LossyChangeKind =
  | 'removed-keyword'
  | 'moved-to-description'
  | 'cycle-cut'
  | 'expansion-limit'
  | 'unresolved-reference'
  | 'merge-conflict'
  | 'union-flattened'
  | 'union-approximated'
  | 'tuple-approximated'
  | 'made-nullable'
  | 'made-required'
  | 'closed-object'
  | 'type-widened'
  | 'enum-stringified'
  | 'target-limit-exceeded'
  | (string & {});

/** One change a conversion made that the target cannot represent exactly. */
export interface LossyChange {
  /** JSON pointer into the schema (through inlined references), e.g. `/properties/edits/items`. */
  path: string;
  kind: LossyChangeKind;
  /** Plain-words explanation: what was there and what became of it. */
  message: string;
}

/** The result of a conversion and everything it could not carry over. */
export interface ConversionResult<T> {
  result: T;
  lossy: LossyChange[];
}

/** Appends one segment to a JSON pointer, escaping `~` and `/` as RFC 6901 requires. */
export function appendPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** Renders a JSON pointer for messages: the root pointer `''` becomes `/`. */
export function displayPointer(pointer: string): string {
  return pointer === '' ? '/' : pointer;
}
