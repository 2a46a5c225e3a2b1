/** Assembles the kernel's WebAssembly text with wabt: shared by the build script and its test. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabtModule from 'wabt';

/** The kernel's WebAssembly text. */
export const KERNEL_TEXT_FILE = fileURLToPath(new URL('../src/dot-product-kernel.wat', import.meta.url));

/** The generated module holding its bytes. */
export const KERNEL_MODULE_FILE = fileURLToPath(
  new URL('../src/dot-product-kernel-wasm.ts', import.meta.url),
);

/** The kernel's bytes, base64. */
export async function assembleDotProductKernel(): Promise<string> {
  const wabt = await wabtModule();
  const parsed = wabt.parseWat('dot-product-kernel.wat', readFileSync(KERNEL_TEXT_FILE, 'utf8'), {
    simd: true,
  });
  try {
    parsed.validate();
    const { buffer } = parsed.toBinary({ log: false, write_debug_names: false });
    return Buffer.from(buffer).toString('base64');
  } finally {
    parsed.destroy();
  }
}
