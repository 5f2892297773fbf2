; simt_paths.s — diverged paths that hide each other's memory latency
; (SIMT-SPEC E7, S14): under the SIMT stack a warp runs the two sides of a
; branch one after the other and waits for each side's loads; with
; simt.reconvergence = barrier the two sides are thread groups and the warp
; issues one group's instructions while the other's load is in flight.
;
; One group on lanes 0-7. Even lanes double X[c] (0x100 + c, bank 1 under
; the default sm.bank_map = high), odd lanes add 1 to Z[c] (0x200 + c, bank
; 2): each side a ld, an add and a st, so every side waits for memory twice.
; Compare (docs/STUDY-SIMT.md, "Stack or barriers"):
;   tessera run examples/simt_paths.s -s core.model=simt                 (stack: 40)
;   tessera run examples/simt_paths.s -s core.model=simt \
;       -s simt.reconvergence=barrier                                   (barrier: 28)
;   tessera run examples/simt_paths.s                                   (MIMD: 24)
; Data: X[c] = c + 1, Z[c] = 10 + c (.data below).
; Expected result: SM[0x100 + c] = 2(c + 1) for even c, SM[0x200 + c] =
; 11 + c for odd c; every other byte as loaded. Race-free: each lane touches
; its own bytes.

.group cores=0x00ff fence=no
  set_const r0, id          ; c
  set_const r8, 1           ; bank 1 (and the constant 1)
  and r0, r8, r2            ; r2 = c & 1
  set_const r9, 2           ; bank 2
  bnz odd, r2
  ld [r0, r8], r3           ; even: X[c]
  add r3, r3, r3
  st [r0, r8], r3           ; X[c] = 2 X[c]
  bnz join, r8              ; always taken
odd:
  ld [r0, r9], r3           ; odd: Z[c]
  add r3, r8, r3
  st [r0, r9], r3           ; Z[c] = Z[c] + 1
join:
  ready

.data 0x100: 1, 2, 3, 4, 5, 6, 7, 8
.data 0x200: 10, 11, 12, 13, 14, 15, 16, 17
