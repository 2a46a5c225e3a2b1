/**
 * Contrastive fine-tuning of a static model's token rows on query → tool pairs: the pooled query
 * vector is pulled towards its tool's pooled document and pushed from the other tools of the batch
 * and from lexical look-alikes (InfoNCE). A static model's pooling is linear in its rows, so the
 * gradient of a pair reaches exactly the rows of the tokens in its two texts: an epoch over ~20,000
 * pairs takes seconds on one core, and the result is deterministic (seeded order, no threads).
 */
import { createSeededRandom, shuffleInPlace } from './refit-corpus.js';

/** One training example: a query, the document that answers it, and what must not count as a negative. */
export interface TrainingPair {
  /** Token ids of the query (as the runtime tokenizer gives them). */
  query: Int32Array;
  /** Index of the answering document in the documents list. */
  positive: number;
  /** Every document that also answers the query (never used as its negative). */
  positives: ReadonlySet<number>;
  /** Hard negatives: documents that look like the answer (e.g. BM25's best wrong ones). */
  hardNegatives: readonly number[];
  /** Batches are drawn from one group at a time (a dataset): in-batch negatives from the same kind of tools teach more. */
  group: number;
  /** Weight of the pair in the loss (weak pairs weigh less). @default 1 */
  weight?: number;
}

/** Settings of {@link fineTuneContrastive}; the recipe records them. */
export interface ContrastiveRecipe {
  epochs: number;
  batchSize: number;
  learningRate: number;
  /** Softmax temperature over cosine similarities. */
  temperature: number;
  /** L2 pull of each updated row back to its starting value (per step, inside Adam's gradient). */
  pull: number;
  seed: number;
}

/** The model being trained: rows [vocabulary × dims], the bias every position adds, what may move. */
export interface StaticRows {
  rows: Float32Array;
  dims: number;
  bias: Float32Array;
  /** 1 where a row may change (special tokens and stopwords stay as they are). */
  trainable: Uint8Array;
  /** The last dimension is the guard (see MODEL.md): no row may gain anything there. */
  guardDimension: boolean;
}

/** Mean pooling (rows + bias) then L2 normalisation, as the runtime does; returns the norm before normalising. */
function poolInto(model: StaticRows, ids: Int32Array, out: Float32Array): number {
  const { rows, dims, bias } = model;
  out.fill(0);
  for (const id of ids) {
    const offset = id * dims;
    for (let j = 0; j < dims; j++) out[j] = (out[j] as number) + (rows[offset + j] as number);
  }
  let norm = 0;
  const count = Math.max(ids.length, 1);
  for (let j = 0; j < dims; j++) {
    out[j] = (out[j] as number) / count + (bias[j] as number);
    norm += (out[j] as number) ** 2;
  }
  norm = Math.sqrt(norm) || 1;
  for (let j = 0; j < dims; j++) out[j] = (out[j] as number) / norm;
  return norm;
}

/** Batches of pair indexes, each from one group, in a seeded order. */
function epochBatches(pairs: readonly TrainingPair[], batchSize: number, random: () => number): number[][] {
  const byGroup = new Map<number, number[]>();
  pairs.forEach((pair, index) => {
    const list = byGroup.get(pair.group) ?? [];
    list.push(index);
    byGroup.set(pair.group, list);
  });
  const batches: number[][] = [];
  for (const list of byGroup.values()) {
    const order = [...list];
    shuffleInPlace(order, random);
    for (let start = 0; start < order.length; start += batchSize)
      batches.push(order.slice(start, start + batchSize));
  }
  shuffleInPlace(batches, random);
  return batches;
}

/**
 * Trains `model.rows` in place with Adam (updates only the rows a batch touched, i.e. lazy Adam).
 * Returns the mean loss of each epoch.
 */
export function fineTuneContrastive(
  model: StaticRows,
  documents: readonly Int32Array[],
  pairs: readonly TrainingPair[],
  recipe: ContrastiveRecipe,
  onEpoch?: (epoch: number, loss: number) => void,
): number[] {
  const { rows, dims, trainable } = model;
  const learnedDims = model.guardDimension ? dims - 1 : dims;
  const start = Float32Array.from(rows);
  const firstMoment = new Float32Array(rows.length);
  const secondMoment = new Float32Array(rows.length);
  const gradient = new Float32Array(rows.length);
  const touched = new Uint8Array(rows.length / dims);
  const random = createSeededRandom(recipe.seed);
  const tau = recipe.temperature;
  const losses: number[] = [];
  let step = 0;

  // Chain rule through normalisation and mean pooling: every occurrence of a token gets (g − (g·v)v) / (‖p‖·n).
  const backward = (ids: Int32Array, vector: Float32Array, norm: number, g: Float32Array, list: number[]) => {
    let dot = 0;
    for (let j = 0; j < dims; j++) dot += (g[j] as number) * (vector[j] as number);
    const scale = 1 / (norm * Math.max(ids.length, 1));
    for (const id of ids) {
      if (!trainable[id]) continue;
      if (!touched[id]) {
        touched[id] = 1;
        list.push(id);
      }
      const offset = id * dims;
      for (let j = 0; j < learnedDims; j++)
        gradient[offset + j] =
          (gradient[offset + j] as number) + ((g[j] as number) - dot * (vector[j] as number)) * scale;
    }
  };

  for (let epoch = 0; epoch < recipe.epochs; epoch++) {
    let lossSum = 0;
    let weightSum = 0;
    for (const batch of epochBatches(pairs, recipe.batchSize, random)) {
      // Candidates: every pair's answer, then one hard negative per pair.
      const candidates: number[] = [];
      const slotOf = new Map<number, number>();
      const slot = (document: number) => {
        let found = slotOf.get(document);
        if (found === undefined) {
          found = candidates.length;
          candidates.push(document);
          slotOf.set(document, found);
        }
        return found;
      };
      const targets = batch.map((index) => slot((pairs[index] as TrainingPair).positive));
      for (const index of batch) {
        const hard = (pairs[index] as TrainingPair).hardNegatives;
        if (hard.length > 0) slot(hard[Math.floor(random() * hard.length)] as number);
      }
      const queryVectors = new Float32Array(batch.length * dims);
      const queryNorms = new Float32Array(batch.length);
      const documentVectors = new Float32Array(candidates.length * dims);
      const documentNorms = new Float32Array(candidates.length);
      const scratch = new Float32Array(dims);
      batch.forEach((index, row) => {
        queryNorms[row] = poolInto(model, (pairs[index] as TrainingPair).query, scratch);
        queryVectors.set(scratch, row * dims);
      });
      candidates.forEach((document, row) => {
        documentNorms[row] = poolInto(model, documents[document] as Int32Array, scratch);
        documentVectors.set(scratch, row * dims);
      });

      // Forward and backward of the softmax over candidates, one query at a time.
      const queryGradients = new Float32Array(queryVectors.length);
      const documentGradients = new Float32Array(documentVectors.length);
      const logits = new Float64Array(candidates.length);
      batch.forEach((index, row) => {
        const pair = pairs[index] as TrainingPair;
        const weight = pair.weight ?? 1;
        let max = Number.NEGATIVE_INFINITY;
        for (let c = 0; c < candidates.length; c++) {
          if (c !== targets[row] && pair.positives.has(candidates[c] as number)) {
            logits[c] = Number.NEGATIVE_INFINITY;
            continue;
          }
          let similarity = 0;
          for (let j = 0; j < dims; j++)
            similarity +=
              (queryVectors[row * dims + j] as number) * (documentVectors[c * dims + j] as number);
          logits[c] = similarity / tau;
          if ((logits[c] as number) > max) max = logits[c] as number;
        }
        let sum = 0;
        for (let c = 0; c < candidates.length; c++) {
          logits[c] = Number.isFinite(logits[c]) ? Math.exp((logits[c] as number) - max) : 0;
          sum += logits[c] as number;
        }
        lossSum -= Math.log((logits[targets[row] as number] as number) / sum) * weight;
        weightSum += weight;
        for (let c = 0; c < candidates.length; c++) {
          const g =
            (((logits[c] as number) / sum - (c === targets[row] ? 1 : 0)) * weight) / (batch.length * tau);
          if (g === 0) continue;
          for (let j = 0; j < dims; j++) {
            queryGradients[row * dims + j] =
              (queryGradients[row * dims + j] as number) + g * (documentVectors[c * dims + j] as number);
            documentGradients[c * dims + j] =
              (documentGradients[c * dims + j] as number) + g * (queryVectors[row * dims + j] as number);
          }
        }
      });

      const list: number[] = [];
      batch.forEach((index, row) => {
        backward(
          (pairs[index] as TrainingPair).query,
          queryVectors.subarray(row * dims, row * dims + dims),
          queryNorms[row] as number,
          queryGradients.subarray(row * dims, row * dims + dims),
          list,
        );
      });
      candidates.forEach((document, row) => {
        backward(
          documents[document] as Int32Array,
          documentVectors.subarray(row * dims, row * dims + dims),
          documentNorms[row] as number,
          documentGradients.subarray(row * dims, row * dims + dims),
          list,
        );
      });

      // Lazy Adam on the touched rows, with the pull back to the starting rows.
      step++;
      const correction1 = 1 - 0.9 ** step;
      const correction2 = 1 - 0.999 ** step;
      for (const id of list) {
        const offset = id * dims;
        for (let j = 0; j < learnedDims; j++) {
          const k = offset + j;
          const g = (gradient[k] as number) + recipe.pull * ((rows[k] as number) - (start[k] as number));
          firstMoment[k] = 0.9 * (firstMoment[k] as number) + 0.1 * g;
          secondMoment[k] = 0.999 * (secondMoment[k] as number) + 0.001 * g * g;
          rows[k] =
            (rows[k] as number) -
            (recipe.learningRate * ((firstMoment[k] as number) / correction1)) /
              (Math.sqrt((secondMoment[k] as number) / correction2) + 1e-8);
          gradient[k] = 0;
        }
        touched[id] = 0;
      }
    }
    const loss = lossSum / Math.max(weightSum, 1);
    losses.push(loss);
    onEpoch?.(epoch + 1, loss);
  }
  return losses;
}
