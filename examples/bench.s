; bench.s — the long benchmark program: 16 cores, nested counted loops mixing
; ALU work with ld/st: 50 million instructions, a quarter of them ld/st.
;
; Cores: all 16 (cores=0xffff), one group of eight tasks (the four below,
; twice), no fence.
; r7 = core id, r10 = 1; every inner loop runs 256 times inside an outer loop
; of 256 (r9 inner, r8 outer; counters count down from 0, wrapping to 255).
; Data layout: core c only touches row c of each bank, i.e. byte {bank, c}
; (race-free), so the final memory does not depend on timing:
;   task 1: SM[c][r9]    += 1 ^ ...    each core in its own bank (no conflicts)
;   task 2: bank (r9 + c) & 15, row c  every core in a different bank each
;                                      iteration (no conflicts, all banks busy)
;   task 3: bank 0, row c              all cores in the same bank
;                                      (heavy bank conflicts)
;   task 4: ALU only: mul, div, shifts (no memory traffic)
; Expected: instructions per core = 8 tasks x 256 x 256 x 6 + a few; the
; SM contents are checked by the end-to-end tests against the ISS.

.group cores=0xffff fence=no
  set_const r7, id          ; r7 = core id
  set_const r10, 1
  set_const r8, 0           ; outer counter: 256 iterations
outer1:
  set_const r9, 0           ; inner counter: 256 iterations
inner1:
  ld [r9, r7], r1           ; byte r9 of bank c
  add r1, r10, r1
  xor r1, r8, r2
  st [r9, r7], r2
  sub r9, r10, r9
  bnz inner1, r9
  sub r8, r10, r8
  bnz outer1, r8
  ready
.task
  set_const r7, id
  set_const r10, 1
  set_const r8, 0
outer2:
  set_const r9, 0
inner2:
  add r9, r7, r3            ; bank (r9 + c) & 15
  ld [r7, r3], r1           ; row c
  add r1, r8, r1
  st [r7, r3], r1
  sub r9, r10, r9
  bnz inner2, r9
  sub r8, r10, r8
  bnz outer2, r8
  ready
.task
  set_const r7, id
  set_const r10, 1
  set_const r8, 0
  set_const r11, 0          ; r11 = bank 0
outer3:
  set_const r9, 0
inner3:
  ld [r7, r11], r1          ; bank 0 for every core (r11 = 0)
  add r1, r10, r1
  xor r1, r9, r1
  st [r7, r11], r1
  sub r9, r10, r9
  bnz inner3, r9
  sub r8, r10, r8
  bnz outer3, r8
  ready
.task
  set_const r7, id
  set_const r10, 1
  set_const r8, 0
outer4:
  set_const r9, 0
inner4:
  mul r9, r7, r2            ; r2, r3 = r9 * c
  add r2, r3, r4
  rshft r4, 3, r5
  div r4, r10, r6
  sub r9, r10, r9
  bnz inner4, r9
  sub r8, r10, r8
  bnz outer4, r8
  ready
.task
  set_const r7, id          ; r7 = core id
  set_const r10, 1
  set_const r8, 0           ; outer counter: 256 iterations
outer5:
  set_const r9, 0           ; inner counter: 256 iterations
inner5:
  ld [r9, r7], r1           ; byte r9 of bank c
  add r1, r10, r1
  xor r1, r8, r2
  st [r9, r7], r2
  sub r9, r10, r9
  bnz inner5, r9
  sub r8, r10, r8
  bnz outer5, r8
  ready
.task
  set_const r7, id
  set_const r10, 1
  set_const r8, 0
outer6:
  set_const r9, 0
inner6:
  add r9, r7, r3            ; bank (r9 + c) & 15
  ld [r7, r3], r1           ; row c
  add r1, r8, r1
  st [r7, r3], r1
  sub r9, r10, r9
  bnz inner6, r9
  sub r8, r10, r8
  bnz outer6, r8
  ready
.task
  set_const r7, id
  set_const r10, 1
  set_const r8, 0
  set_const r11, 0          ; r11 = bank 0
outer7:
  set_const r9, 0
inner7:
  ld [r7, r11], r1          ; bank 0 for every core (r11 = 0)
  add r1, r10, r1
  xor r1, r9, r1
  st [r7, r11], r1
  sub r9, r10, r9
  bnz inner7, r9
  sub r8, r10, r8
  bnz outer7, r8
  ready
.task
  set_const r7, id
  set_const r10, 1
  set_const r8, 0
outer8:
  set_const r9, 0
inner8:
  mul r9, r7, r2            ; r2, r3 = r9 * c
  add r2, r3, r4
  rshft r4, 3, r5
  div r4, r10, r6
  sub r9, r10, r9
  bnz inner8, r9
  sub r8, r10, r8
  bnz outer8, r8
  ready
