;; The scan of the exact vector index (exact-index.ts): one query's dot product with every stored row,
;; rows in int8 and the query in int16, four i32x4 accumulators fed by i32x4.dot_i16x8_s (32 values a
;; step), so `stride` — values per row, the vector padded with zeros — is a multiple of 32. The index
;; rescales the sums and re-scores its best candidates exactly in float32.
;; scripts/build-dot-product-kernel.ts assembles this file (wabt) into dot-product-kernel-wasm.ts; a
;; test checks that the two agree.
(module
  (import "env" "memory" (memory 1))
  ;; out[i] = rows[i] · query as i32, for i < count; every pointer is a byte offset into memory.
  (func (export "dots")
    (param $query i32) (param $rows i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $row i32) (local $q i32) (local $queryEnd i32) (local $outEnd i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $queryEnd (i32.add (local.get $query) (i32.shl (local.get $stride) (i32.const 1))))
    (local.set $outEnd (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (local.set $row (local.get $rows))
    (block $done
      (loop $eachRow
        (br_if $done (i32.ge_u (local.get $out) (local.get $outEnd)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (block $rowDone
          (loop $eachStep
            (br_if $rowDone (i32.ge_u (local.get $q) (local.get $queryEnd)))
            (local.set $a0 (i32x4.add (local.get $a0)
              (i32x4.dot_i16x8_s (v128.load8x8_s (local.get $row)) (v128.load (local.get $q)))))
            (local.set $a1 (i32x4.add (local.get $a1)
              (i32x4.dot_i16x8_s (v128.load8x8_s offset=8 (local.get $row)) (v128.load offset=16 (local.get $q)))))
            (local.set $a2 (i32x4.add (local.get $a2)
              (i32x4.dot_i16x8_s (v128.load8x8_s offset=16 (local.get $row)) (v128.load offset=32 (local.get $q)))))
            (local.set $a3 (i32x4.add (local.get $a3)
              (i32x4.dot_i16x8_s (v128.load8x8_s offset=24 (local.get $row)) (v128.load offset=48 (local.get $q)))))
            (local.set $row (i32.add (local.get $row) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 64)))
            (br $eachStep)))
        (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1))
          (i32x4.add (local.get $a2) (local.get $a3))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
            (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $eachRow))))
)
