; simt_latency.s — latency hiding on a SIMT unit: while one warp waits
; for the Shared Memory, the scheduler issues another.
;
; Two groups on disjoint lanes, so two warps are resident at once: F1 on
; lanes 0-7, F3 on lanes 8-15 (F0 and F2 are their CFs). Each lane c reads
; three bytes of its own bank c (X[c][k] at 0x<c>00 + k, rows 0-2), adds
; them and stores the sum Y[c] at 0x<c>03. With bank = lane no access ever
; waits for its bank: every ld/st costs its 3 uncontended cycles (T7), and
; without the scoreboard (S3) the warp issues nothing while it waits.
; The two groups are one .irp over their lane masks. Compare:
;   tessera run examples/simt_latency.s -s core.model=simt   (2 warps)
;   sed 's/^\(\.irp lanes, 0x00ff\), 0xff00/\1/' examples/simt_latency.s > one.s
;   tessera run one.s -s core.model=simt                       (F1 alone)
; Reference timing, rr (tests/test_simt.c test_latency_hiding checks it):
;   F1 alone issues at cycles 6-11, 14, 17, 20, 21, 22, 25 and ends at 27:
;   12 issues in 20 cycles, the port idle 2 cycles after each ld/st.
;   With F3 (it starts at 10, after F1's code on the bus, T4) the port is
;   busy in 24 of the 28 cycles 6-33: F3's instructions fill F1's waits and
;   F1's fill F3's; the program ends at 35 — twice the work in 8 more cycles.
; Data: X[c][k] = 16k + c (.data below).
; Expected result: Y[c] = SM[0x<c>03] = c + (16 + c) + (32 + c) = 48 + 3c
; for c = 0..15 (SM[0x003] = 48, SM[0xf03] = 93); X unchanged, every other
; byte 0. Race-free: lane c touches only bank c.

.irp lanes, 0x00ff, 0xff00
.group cores=\lanes fence=no
  set_const r0, id          ; c: the lane's own bank (no conflicts)
  set_const r8, 0           ; rows 0, 1, 2 hold X[c][0..2]; row 3 is Y[c]
  set_const r9, 1
  set_const r10, 2
  set_const r11, 3
  ld [r8, r0], r1           ; X[c][0]
  ld [r9, r0], r2           ; X[c][1]
  ld [r10, r0], r3          ; X[c][2]
  add r1, r2, r4
  add r4, r3, r4
  st [r11, r0], r4          ; Y[c] = X[c][0] + X[c][1] + X[c][2]
  ready
.endr

; X[c][k] = 16k + c at 0x<c>00 + k
.rept 16
.data \+ << 8: \+, 16 + \+, 32 + \+
.endr
