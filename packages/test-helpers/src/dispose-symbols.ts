/**
 * `Symbol.dispose` and `Symbol.asyncDispose` where Node lacks them: Node has them from 20.4 (and
 * 18.18), but `engines` admits 20.0–20.3, where the `using` declarations the test runner lowers
 * would find no symbol to call. `Symbol.for` names the same symbols the lowering helpers of
 * esbuild and others fall back to. The entry imports this first; it changes nothing on newer Node.
 */
const symbols = Symbol as { dispose?: symbol; asyncDispose?: symbol };
symbols.dispose ??= Symbol.for('Symbol.dispose');
symbols.asyncDispose ??= Symbol.for('Symbol.asyncDispose');
