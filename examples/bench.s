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
; Written with macros (docs/USER-GUIDE.md, "Macros"): each task is the same
; two counted loops around a different body of four instructions; labels are
; local to their task, so every task may call its loops outer and inner.
; `tessera asm examples/bench.s --listing` shows the expansion.

; The prologue of every task: r7 = core id, r10 = 1, the outer counter (256
; iterations), `extra` (one more instruction, or nothing), the inner counter.
.macro loops_begin extra=
  set_const r7, id          ; r7 = core id
  set_const r10, 1
  set_const r8, 0           ; outer counter: 256 iterations
  \extra
outer:
  set_const r9, 0           ; inner counter: 256 iterations
inner:
.endm

; The end of both loops, and the task's ready.
.macro loops_end
  sub r9, r10, r9
  bnz inner, r9
  sub r8, r10, r8
  bnz outer, r8
  ready
.endm

; task 1: each core in its own bank (no conflicts)
.macro task_own_bank
  loops_begin
  ld [r9, r7], r1           ; byte r9 of bank c
  add r1, r10, r1
  xor r1, r8, r2
  st [r9, r7], r2
  loops_end
.endm

; task 2: every core in a different bank each iteration (all banks busy)
.macro task_every_bank
  loops_begin
  add r9, r7, r3            ; bank (r9 + c) & 15
  ld [r7, r3], r1           ; row c
  add r1, r8, r1
  st [r7, r3], r1
  loops_end
.endm

; task 3: all cores in bank 0 (heavy bank conflicts)
.macro task_bank0
  loops_begin "set_const r11, 0"    ; r11 = bank 0
  ld [r7, r11], r1          ; bank 0 for every core (r11 = 0)
  add r1, r10, r1
  xor r1, r9, r1
  st [r7, r11], r1
  loops_end
.endm

; task 4: ALU only (no memory traffic)
.macro task_alu
  loops_begin
  mul r9, r7, r2            ; r2, r3 = r9 * c
  add r2, r3, r4
  rshft r4, 3, r5
  div r4, r10, r6
  loops_end
.endm

.group cores=0xffff fence=no
.rept 2
.irp kind, own_bank, every_bank, bank0, alu
.task
  task_\kind
.endr
.endr
