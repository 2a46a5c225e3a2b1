/** Small vector helpers shared by the embedder and the indexes. */

/**
 * Scales `vector` to unit length in place. A zero (or non-finite) vector, or one shorter than
 * `minimumNorm`, becomes all zeros: a text of only unknown words has no direction, and dividing by
 * its norm would produce NaN (or, for a nearly-zero vector, amplify noise into a confident direction).
 */
export function normalizeInPlace(vector: Float32Array, minimumNorm = 0): Float32Array {
  let sum = 0;
  for (let index = 0; index < vector.length; index++) {
    const value = vector[index] as number;
    sum += value * value;
  }
  if (!(sum > minimumNorm * minimumNorm) || !Number.isFinite(sum)) {
    vector.fill(0);
    return vector;
  }
  const scale = 1 / Math.sqrt(sum);
  for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] as number) * scale;
  return vector;
}

/** True when every component is zero. */
export function isZeroVector(vector: Float32Array): boolean {
  for (let index = 0; index < vector.length; index++) if (vector[index] !== 0) return false;
  return true;
}

/** Dot product (the cosine similarity of two unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) sum += (a[index] as number) * (b[index] as number);
  return sum;
}
