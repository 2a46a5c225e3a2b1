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
import { SwitchboardError } from '@switchboard/core';
import { PbfReader } from 'pbf';
import { errorReason } from './error-reason.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';

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
// The protobuf wire type of a packed repeated field (`dims` may be packed or not).
const LENGTH_DELIMITED = 2;

/** The parts of an ONNX `TensorProto` read here. */
interface Tensor {
  name: string;
  dataType: number;
  dims: number[];
  rawData: Uint8Array | undefined;
}

/** The parts of an ONNX `GraphProto` read here: the nodes' operators and inputs, the initialisers. */
interface Graph {
  nodes: Array<{ opType: string; inputs: string[] }>;
  initialisers: Map<string, Tensor>;
}

// Field numbers of onnx.proto (ModelProto.graph 7; GraphProto.node 1, .initializer 5; NodeProto.input 1,
// .op_type 4; TensorProto.dims 1, .data_type 2, .name 8, .raw_data 9). Read with pbf's wire-format
// reader rather than a generated ONNX binding: the three initialisers are all this package needs, and
// onnx-proto brought protobufjs 6 (25 MB installed, an install script) for them. pbf's readBytes
// returns views into the file's buffer: the 13 MB matrix is not copied while decoding.
function readTensor(tag: number, tensor: Tensor, pbf: PbfReader): void {
  if (tag === 1) {
    if (pbf.type === LENGTH_DELIMITED) pbf.readPackedVarint(tensor.dims);
    else tensor.dims.push(pbf.readVarint());
  } else if (tag === 2) tensor.dataType = pbf.readVarint();
  else if (tag === 8) tensor.name = pbf.readString();
  else if (tag === 9) tensor.rawData = pbf.readBytes();
}

function readNode(tag: number, node: { opType: string; inputs: string[] }, pbf: PbfReader): void {
  if (tag === 1) node.inputs.push(pbf.readString());
  else if (tag === 4) node.opType = pbf.readString();
}

function readGraph(tag: number, graph: Graph, pbf: PbfReader): void {
  if (tag === 1) graph.nodes.push(pbf.readMessage(readNode, { opType: '', inputs: [] }));
  else if (tag === 5) {
    const tensor = pbf.readMessage(readTensor, { name: '', dataType: 0, dims: [], rawData: undefined });
    graph.initialisers.set(tensor.name, tensor);
  }
}

function readModel(tag: number, model: { graph: Graph | undefined }, pbf: PbfReader): void {
  if (tag === 7) model.graph = pbf.readMessage(readGraph, { nodes: [], initialisers: new Map() });
}

function unsupported(file: string, why: string): SwitchboardError {
  return new SwitchboardError({
    code: ToolSelectionErrorCode.EmbedderUnavailable,
    message: `${file} is not a static embedding model this package can pool in JavaScript (${why}): it expects Gather(int8 matrix) → Cast → Mul(gathered per-row scale) → Add(bias), as @switchboard/model-build writes it. Load other models with createTransformersEmbedder({ model, localModelPath }).`,
    context: { file },
  });
}

function rawBytes(tensor: Tensor, file: string): Uint8Array {
  const raw = tensor.rawData;
  if (!raw || raw.length === 0) throw unsupported(file, `initialiser ${tensor.name} has no raw_data`);
  return raw;
}

/** Little-endian float32 raw_data (the ONNX encoding), copied into an aligned array. */
function floats(tensor: Tensor, file: string): Float32Array {
  const raw = rawBytes(tensor, file);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const values = new Float32Array(raw.byteLength / 4);
  for (let index = 0; index < values.length; index++) values[index] = view.getFloat32(index * 4, true);
  return values;
}

function readGraphOf(onnxFile: string): Graph | undefined {
  try {
    return new PbfReader(readFileSync(onnxFile)).readFields(readModel, { graph: undefined }).graph;
  } catch (error) {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.EmbedderUnavailable,
      message: `${onnxFile} could not be read as an ONNX model: ${errorReason(error)}. Rebuild the model (\`pnpm build:model -- --force\` at the repository root).`,
      context: { file: onnxFile },
      cause: error,
    });
  }
}

/**
 * Reads the weights of a static embedding model from its ONNX file; throws `EMBEDDER_UNAVAILABLE`
 * naming the file when its graph is another one.
 */
export function readStaticEmbeddingWeights(onnxFile: string): StaticEmbeddingWeights {
  const graph = readGraphOf(onnxFile);
  const nodes = graph?.nodes ?? [];
  const ops = nodes.map((node) => node.opType).join(',');
  if (ops !== 'Gather,Cast,Gather,Mul,Add') throw unsupported(onnxFile, `its graph is ${ops || 'empty'}`);
  const input = (node: number, position: number) =>
    graph?.initialisers.get(nodes[node]?.inputs[position] ?? '');
  const matrix = input(0, 0);
  const scale = input(2, 0);
  const bias = input(4, 1);
  if (matrix?.dataType !== INT8 || matrix.dims.length !== 2)
    throw unsupported(onnxFile, 'the first Gather does not read a 2-d int8 initialiser');
  const tokens = Number(matrix.dims[0]);
  const dimensions = Number(matrix.dims[1]);
  if (scale?.dataType !== FLOAT || Number(scale.dims[0]) !== tokens)
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
        code: ToolSelectionErrorCode.EmbedderUnavailable,
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
