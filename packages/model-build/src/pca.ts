/**
 * Stage 3, PCA: the teacher's 512-dimension vectors projected on their top principal axes, fitted on the
 * most frequent tokens after centring on their mean (single words share a large common component). The
 * symmetric eigen decomposition of the covariance is ml-matrix's (Householder tridiagonalisation + QL).
 */
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

/** Eigenvalues and unit eigenvectors of a symmetric matrix, by decreasing eigenvalue. */
export interface SymmetricEigen {
  /** Eigenvalues, largest first. */
  values: Float64Array;
  /** Eigenvectors as rows [n × n], row i for `values[i]`; each signed so that its largest-magnitude entry is positive. */
  vectors: Float64Array;
}

/**
 * Eigen decomposition of the symmetric `n × n` matrix `matrix` (row-major). The sign of each vector is
 * fixed (its entry of largest magnitude positive) and ties in the eigenvalues keep the solver's order, so
 * the result depends on the matrix only.
 */
export function symmetricEigen(matrix: Float64Array, n: number): SymmetricEigen {
  if (matrix.length !== n * n)
    throw new Error(`symmetricEigen: ${matrix.length} values for a ${n} × ${n} matrix`);
  const rows: number[][] = [];
  for (let r = 0; r < n; r++) rows.push(Array.from(matrix.subarray(r * n, r * n + n)));
  const decomposition = new EigenvalueDecomposition(new Matrix(rows), { assumeSymmetric: true });
  const eigenvalues = decomposition.realEigenvalues;
  const columns = decomposition.eigenvectorMatrix;
  const order = [...Array(n).keys()].sort(
    (x, y) => (eigenvalues[y] as number) - (eigenvalues[x] as number) || x - y,
  );
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((column, k) => {
    values[k] = eigenvalues[column] as number;
    let largest = 0;
    for (let r = 0; r < n; r++) {
      const entry = columns.get(r, column);
      if (Math.abs(entry) > Math.abs(largest)) largest = entry;
    }
    const sign = largest < 0 ? -1 : 1;
    for (let r = 0; r < n; r++) vectors[k * n + r] = sign * columns.get(r, column);
  });
  return { values, vectors };
}

/** A fitted PCA: `[mean (d), axes (k × d)]` in one float32 array, the layout teacher-projection.f32 reuses. */
export interface PcaProjection {
  /** Input width. */
  inputDims: number;
  /** Number of axes kept. */
  axes: number;
  /** `mean [d]` then `axes [k][d]`, float32. */
  data: Float32Array;
  /** Share of the sample's variance the kept axes hold, 0–1. */
  keptVariance: number;
}

/**
 * Fits a PCA on the first `sample` rows of `matrix` (rows × d, row-major): centres them on their mean,
 * accumulates the covariance in float64 and keeps the top `k` axes.
 */
export function fitPca(
  matrix: Float32Array,
  rows: number,
  d: number,
  k: number,
  sample: number,
): PcaProjection {
  const m = Math.min(rows, sample);
  const mean = new Float64Array(d);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < d; j++) mean[j] = (mean[j] as number) + (matrix[i * d + j] as number);
  for (let j = 0; j < d; j++) mean[j] = (mean[j] as number) / m;
  const covariance = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < d; j++) row[j] = (matrix[i * d + j] as number) - (mean[j] as number);
    for (let a = 0; a < d; a++) {
      const ra = row[a] as number;
      const offset = a * d;
      for (let b = a; b < d; b++)
        covariance[offset + b] = (covariance[offset + b] as number) + ra * (row[b] as number);
    }
  }
  for (let a = 0; a < d; a++) {
    for (let b = a; b < d; b++) {
      const value = (covariance[a * d + b] as number) / m;
      covariance[a * d + b] = value;
      covariance[b * d + a] = value;
    }
  }
  const { values, vectors } = symmetricEigen(covariance, d);
  const total = values.reduce((sum, value) => sum + value, 0);
  const kept = values.subarray(0, k).reduce((sum, value) => sum + value, 0);
  const data = new Float32Array(d + k * d);
  data.set(mean, 0);
  data.set(vectors.subarray(0, k * d), d);
  return { inputDims: d, axes: k, data, keptVariance: kept / total };
}

/**
 * Projects the rows of `matrix` (rows × d) on the axes of `projection`, centred on `centre` (the PCA's own
 * mean by default): rows × k, float32.
 */
export function applyProjection(
  matrix: Float32Array,
  rows: number,
  projection: PcaProjection,
  centre: ArrayLike<number> = projection.data.subarray(0, projection.inputDims),
): Float32Array {
  const { inputDims: d, axes: k } = projection;
  const axes = projection.data.subarray(d);
  const out = new Float32Array(rows * k);
  const row = new Float64Array(d);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < d; j++) row[j] = (matrix[i * d + j] as number) - (centre[j] as number);
    for (let c = 0; c < k; c++) {
      let sum = 0;
      const offset = c * d;
      for (let j = 0; j < d; j++) sum += (row[j] as number) * (axes[offset + j] as number);
      out[i * k + c] = sum;
    }
  }
  return out;
}
