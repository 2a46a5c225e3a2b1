// Empties a package's dist/ before tsc writes it. tsc never deletes output whose source was
// removed or renamed, and turbo restores dist/** from its cache, so without this a stale module
// (or a .map from an older build) stays in dist/ and ships in the tarball a local publish packs.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

rmSync(resolve(process.cwd(), 'dist'), { recursive: true, force: true });
