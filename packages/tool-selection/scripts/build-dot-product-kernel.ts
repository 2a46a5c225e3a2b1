/**
 * Assembles src/dot-product-kernel.wat (WebAssembly text, SIMD) into src/dot-product-kernel-wasm.ts
 * with wabt, a dev dependency: the package ships its bytes, not an assembler. Run after editing
 * the .wat file; test/dot-product-kernel.test.ts fails while the two disagree.
 *
 *   node --import tsx scripts/build-dot-product-kernel.ts
 */
import { writeFileSync } from 'node:fs';
import { assembleDotProductKernel, KERNEL_MODULE_FILE } from './assemble-dot-product-kernel.js';

const base64 = await assembleDotProductKernel();
writeFileSync(
  KERNEL_MODULE_FILE,
  [
    '/** The dot-product kernel (dot-product-kernel.wat) assembled by scripts/build-dot-product-kernel.ts: do not edit. */',
    // Laid out as the formatter (biome) lays it out: the file is committed.
    'export const DOT_PRODUCT_KERNEL_WASM =',
    `  '${base64}';`,
    '',
  ].join('\n'),
);
console.log(`wrote ${KERNEL_MODULE_FILE} (${Buffer.from(base64, 'base64').length} bytes of WebAssembly)`);
