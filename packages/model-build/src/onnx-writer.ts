/**
 * Stage 7, the ONNX file: a static embedding graph over the quantised table, written with `onnx-proto`'s
 * protobuf classes. Inputs `input_ids`, `attention_mask`, `token_type_ids` (the latter two unused, but
 * transformers.js' BERT classes pass them) → `Gather` int8 rows → `Cast` to float → `Mul` by the gathered
 * row scales → `Add` the bias → `last_hidden_state` [batch, sequence, dims]. IR 7, opset 13.
 */
import onnxProto from 'onnx-proto';
import type { QuantizedRows } from './quantize.js';

const { onnx } = onnxProto;

type Dimension = number | string;

const shape = (dims: readonly Dimension[]) => ({
  dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
});
const valueInfo = (name: string, elemType: number, dims: readonly Dimension[]) => ({
  name,
  type: { tensorType: { elemType, shape: shape(dims) } },
});
const rawTensor = (name: string, dataType: number, dims: number[], values: ArrayBufferView) => ({
  name,
  dataType,
  dims,
  rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
});

/** The bytes of `onnx/model_quantized.onnx` for `quantized`. */
export function writeStaticEmbeddingOnnx(quantized: QuantizedRows): Uint8Array {
  const T = onnx.TensorProto.DataType;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const { values, scales, bias, count, dims } = quantized;
  const graph = {
    name: 'static_embedding',
    input: [
      valueInfo('input_ids', T.INT64, ['batch', 'sequence']),
      valueInfo('attention_mask', T.INT64, ['batch', 'sequence']),
      valueInfo('token_type_ids', T.INT64, ['batch', 'sequence']),
    ],
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch', 'sequence', dims])],
    initializer: [
      rawTensor('embedding_int8', T.INT8, [count, dims], values),
      rawTensor('embedding_scale', T.FLOAT, [count, 1], scales),
      rawTensor('bias', T.FLOAT, [dims], bias),
    ],
    node: [
      {
        name: 'gather_rows',
        opType: 'Gather',
        input: ['embedding_int8', 'input_ids'],
        output: ['rows_int8'],
        attribute: [{ name: 'axis', type: INT, i: 0 }],
      },
      {
        name: 'dequantize',
        opType: 'Cast',
        input: ['rows_int8'],
        output: ['rows_f32'],
        attribute: [{ name: 'to', type: INT, i: T.FLOAT }],
      },
      {
        name: 'gather_scales',
        opType: 'Gather',
        input: ['embedding_scale', 'input_ids'],
        output: ['scales'],
        attribute: [{ name: 'axis', type: INT, i: 0 }],
      },
      { name: 'scale_rows', opType: 'Mul', input: ['rows_f32', 'scales'], output: ['scaled'] },
      { name: 'add_bias', opType: 'Add', input: ['scaled', 'bias'], output: ['last_hidden_state'] },
    ],
  };
  const model = {
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    // Part of the file's bytes, and so of its SHA-256 in build-info.json.
    producerName: '@switchboard/model-build',
    graph,
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}
