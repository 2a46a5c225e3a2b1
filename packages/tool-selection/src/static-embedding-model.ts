/**
 * The weights of a static embedding model — one int8 row per token, a float scale per row and a
 * bias — read from the initialisers of its ONNX graph (`Gather` → `Cast` → `Mul` by the gathered
 * scale → `Add` the bias, the graph of the offline default model, MODEL.md), and mean pooling over
 * them in plain JavaScript.
 *
 * Written here rather than run by onnxruntime because the bench shows it wins (`bench:embedding`,
 * both paths in one run, README "Bench"): onnxruntime computes every *padded* position of a batch
 * through four [batch × longest × dimensions] tensors and keeps its arena at the largest batch it
 * has seen. 63 short BFCL queries batched with one long one cost 1,673 µs a query through it, 38 µs
 * pooled here; 10,000 tool documents 3.3 s against 1.0 s; peak RSS 658 MB against 204 MB (the
 * 10,000-tool StableToolBench bench reached 1 GB). Pooling the rows of the real tokens gives the
 * graph's vectors within 1e-5 (a test checks it on the real model).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SwitchboardError } from '@switchboard/core';
import type { onnx as OnnxNamespace } from 'onnx-proto';

/** The weights of a static embedding model. */
export interface StaticEmbeddingWeights {
  /** Rows in the matrix (the tokenizer's vocabulary size). */
  readonly tokens: number;
  /** Row width. */
  readonly dimensions: number;
  /** `tokens × dimensions` int8 values, row after row. */
  readonly rows: Int8Array;
  /** One scale per row. */
  readonly scales: Float32Array;
  /** Added to every position (so also to the mean). */
  readonly bias: Float32Array;
}

// ONNX TensorProto.DataType values.
const FLOAT = 1;
const INT8 = 3;

// onnx-proto is CommonJS (protobufjs' static code): loaded lazily, like hnswlib-node.
const require = createRequire(import.meta.url);
let onnxModule: typeof OnnxNamespace | undefined;
function loadOnnx(): typeof OnnxNamespace {
  onnxModule ??= (require('onnx-proto') as { onnx: typeof OnnxNamespace }).onnx;
  return onnxModule;
}

function unsupported(file: string, why: string): SwitchboardError {
  return new SwitchboardError({
    code: 'EMBEDDER_UNAVAILABLE',
    message: `${file} is not a static embedding model this package can pool in JavaScript (${why}): it expects Gather(int8 matrix) → Cast → Mul(gathered per-row scale) → Add(bias), as @switchboard/model-build writes it. Load other models with createTransformersEmbedder({ model, localModelPath }).`,
    context: { file },
  });
}

function rawBytes(tensor: OnnxNamespace.ITensorProto, file: string): Uint8Array {
  const raw = tensor.rawData;
  if (!raw || raw.length === 0) throw unsupported(file, `initialiser ${tensor.name} has no raw_data`);
  return raw;
}

/** Little-endian float32 raw_data (the ONNX encoding), copied into an aligned array. */
function floats(tensor: OnnxNamespace.ITensorProto, file: string): Float32Array {
  const raw = rawBytes(tensor, file);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const values = new Float32Array(raw.byteLength / 4);
  for (let index = 0; index < values.length; index++) values[index] = view.getFloat32(index * 4, true);
  return values;
}

/**
 * Reads the weights of a static embedding model from its ONNX file; throws `EMBEDDER_UNAVAILABLE`
 * naming the file when its graph is another one.
 */
export function readStaticEmbeddingWeights(onnxFile: string): StaticEmbeddingWeights {
  let model: OnnxNamespace.ModelProto;
  try {
    model = loadOnnx().ModelProto.decode(readFileSync(onnxFile));
  } catch (error) {
    throw new SwitchboardError({
      code: 'EMBEDDER_UNAVAILABLE',
      message: `${onnxFile} could not be read as an ONNX model: ${error instanceof Error ? error.message : String(error)}. Rebuild the model (\`pnpm build:model -- --force\` at the repository root).`,
      context: { file: onnxFile },
      cause: error,
    });
  }
  const graph = model.graph;
  const nodes = graph?.node ?? [];
  const ops = nodes.map((node) => node.opType).join(',');
  if (ops !== 'Gather,Cast,Gather,Mul,Add') throw unsupported(onnxFile, `its graph is ${ops || 'empty'}`);
  const initialisers = new Map((graph?.initializer ?? []).map((tensor) => [tensor.name ?? '', tensor]));
  const input = (node: number, position: number) =>
    initialisers.get(nodes[node]?.input?.[position] ?? '') as OnnxNamespace.ITensorProto | undefined;
  const matrix = input(0, 0);
  const scale = input(2, 0);
  const bias = input(4, 1);
  if (matrix?.dataType !== INT8 || matrix.dims?.length !== 2)
    throw unsupported(onnxFile, 'the first Gather does not read a 2-d int8 initialiser');
  const tokens = Number(matrix.dims[0]);
  const dimensions = Number(matrix.dims[1]);
  if (scale?.dataType !== FLOAT || Number(scale.dims?.[0]) !== tokens)
    throw unsupported(onnxFile, `the second Gather does not read ${tokens} float scales`);
  if (bias?.dataType !== FLOAT || Number(bias.dims?.[bias.dims.length - 1]) !== dimensions)
    throw unsupported(onnxFile, `the Add does not add a float bias of ${dimensions}`);
  const matrixBytes = rawBytes(matrix, onnxFile);
  if (matrixBytes.length !== tokens * dimensions)
    throw unsupported(
      onnxFile,
      `the matrix holds ${matrixBytes.length} bytes, not ${tokens} × ${dimensions}`,
    );
  const rows = new Int8Array(tokens * dimensions);
  rows.set(new Int8Array(matrixBytes.buffer, matrixBytes.byteOffset, matrixBytes.length));
  const weights = { tokens, dimensions, rows, scales: floats(scale, onnxFile), bias: floats(bias, onnxFile) };
  if (weights.scales.length !== tokens || weights.bias.length !== dimensions)
    throw unsupported(onnxFile, 'the scale or bias initialiser has the wrong length');
  return weights;
}

/**
 * Mean of the rows of `ids` (each `int8 × scale + bias`, as the graph computes per position), into
 * `out`. Sums in float64: no drift over thousands of tokens. Returns false for no ids.
 */
export function poolStaticEmbedding(
  weights: StaticEmbeddingWeights,
  ids: ArrayLike<number>,
  out: Float32Array,
  scratch: Float64Array,
): boolean {
  const { rows, scales, bias, dimensions, tokens } = weights;
  scratch.fill(0, 0, dimensions);
  const count = ids.length;
  for (let position = 0; position < count; position++) {
    const id = ids[position] as number;
    if (!(id >= 0 && id < tokens)) {
      throw new SwitchboardError({
        code: 'EMBEDDER_UNAVAILABLE',
        message: `Token id ${id} is outside the model's ${tokens} rows: the tokenizer and the weights do not belong together. Rebuild the model (\`pnpm build:model -- --force\` at the repository root).`,
        context: { id, tokens },
      });
    }
    const scale = scales[id] as number;
    const offset = id * dimensions;
    for (let dimension = 0; dimension < dimensions; dimension++) {
      scratch[dimension] = (scratch[dimension] as number) + (rows[offset + dimension] as number) * scale;
    }
  }
  if (count === 0) {
    out.fill(0);
    return false;
  }
  for (let dimension = 0; dimension < dimensions; dimension++) {
    out[dimension] = (scratch[dimension] as number) / count + (bias[dimension] as number);
  }
  return true;
}
