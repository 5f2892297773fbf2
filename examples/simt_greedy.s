; simt_greedy.s — a case where thread groups (simt.reconvergence =
; barrier, S14) are slower than the SIMT stack on one warp: the warp's
; greedy choice of group is a list schedule, and list schedules have
; anomalies. Run with -s simt.scoreboard=on (docs/STUDY-SIMT.md, "Stack or
; barriers", explains it cycle by cycle):
;   tessera run examples/simt_greedy.s -s core.model=simt -s simt.scoreboard=on
;       stack: 26 cycles
;   tessera run examples/simt_greedy.s -s core.model=simt -s simt.scoreboard=on \
;       -s simt.reconvergence=barrier
;       barrier: 29 cycles
;
; One group on lanes 0-3. Even lanes (slots 5-8): a ld, an add that needs
; it, then a div (8 cycles) whose result nothing waits for but the warp's
; ready. Odd lanes (slots 9-14): six independent adds. The stack runs the
; even side first and issues the odd side's adds under the div; barrier
; mode gives the odd side the port while the even side waits for its ld,
; keeps it there (the group that issued last goes on while it can), and
; issues the div last, with nothing left to hide it under.
; Data: X[c] = c (.data below). Expected result: the SM unchanged (the
; program only reads it).

.group cores=0x000f fence=no
  set_const r0, id
  set_const r8, 1
  and r0, r8, r2            ; r2 = c & 1
  set_const r9, 2
  bnz odd, r2
  ld [r0, r8], r3           ; even: X[c]
  add r3, r3, r4
  div r4, r8, r5            ; 8 cycles
  bnz join, r8              ; always taken
odd:
  add r10, r8, r10
  add r11, r8, r11
  add r12, r8, r12
  add r13, r8, r13
  add r14, r8, r14
  add r15, r8, r15
join:
  ready

.data 0x100: 0, 1, 2, 3
