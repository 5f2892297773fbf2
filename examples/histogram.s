; histogram.s — histogram of 128 values in 0..7 (8 bins), private bins per
; core, then a merge.
;
; Data: X[0..127] at 0x100..0x17f, the first 128 octal digits of pi
; (3.1103755242...; .data below).
; Group 0 (count), all 16 cores, one task: core c counts its 8 values
; X[8c .. 8c+7] into its own 8 bins P[c][0..7] at 0x200 + 8c + v (a
; read-modify-write per value). Only core c touches P[c], so the counts are
; exact whatever the timing, but all 128 private bins live in bank 2: with
; the default `high` mapping the 16 cores' updates queue at that one bank
; (the run's "waited for their bank" figure; loads of X queue at bank 1).
; Group 1 (merge), cores 0..7, one task: core b sums P[0][b] .. P[15][b]
; (stride 8) into H[b] at 0x300 + b.
; Fences: group 0 is acq, so the merge does not start before every count is
; stored. (Here issue rule 1 would hold the merge back as well, since its
; cores are busy counting, D15; the fence states the dependency and keeps it
; if the groups are ever moved to disjoint cores.)
; Expected result: H = SM[0x300..0x307] = 23, 23, 19, 14, 11, 12, 15, 11
; (sum 128); P[c][v] = how many of X[8c .. 8c+7] equal v (e.g. P[0] =
; 1, 2, 0, 2, 0, 2, 0, 1 at 0x200..0x207); X unchanged, every other SM byte 0.

.group cores=0xffff fence=acq
  ; count: P[c][X[i]] += 1 for i = 8c .. 8c+7
  set_const r0, id
  lshft r0, 3, r1           ; r1 = 8c: row of this core's first value
  lshft r0, 3, r2           ; r2 = 8c: row of P[c][0]
  set_const r8, 1           ; bank of X, and the step
  set_const r9, 8           ; values left
  set_const r10, 2          ; bank of the private bins
loop:
  ld [r1, r8], r3           ; r3 = v = X[i]
  add r2, r3, r4            ; r4 = row of P[c][v]
  ld [r4, r10], r5
  add r5, r8, r5
  st [r4, r10], r5          ; P[c][v] += 1
  add r1, r8, r1
  sub r9, r8, r9
  bnz loop, r9

.group cores=0x00ff fence=acq
  ; merge: H[b] = P[0][b] + P[1][b] + ... + P[15][b]
  set_const r1, id          ; r1 = b: row of P[0][b]
  set_const r8, 8           ; from P[c][b] to P[c+1][b]
  set_const r9, 16          ; private histograms left
  set_const r10, 2          ; bank of the private bins
  set_const r11, 0          ; r11 = H[b]
  set_const r12, 1
loop:
  ld [r1, r10], r2
  add r11, r2, r11
  add r1, r8, r1
  sub r9, r12, r9
  bnz loop, r9
  set_const r0, id          ; r0 = b
  set_const r13, 3          ; bank of H
  st [r0, r13], r11

.data 0x100: 3, 1, 1, 0, 3, 7, 5, 5, 2, 4, 2, 1, 0, 2, 6, 4
.data 0x110: 3, 0, 2, 1, 5, 1, 4, 2, 3, 0, 6, 3, 0, 5, 0, 5
.data 0x120: 6, 0, 0, 6, 7, 0, 1, 6, 3, 2, 1, 1, 2, 2, 0, 1
.data 0x130: 1, 1, 6, 0, 2, 1, 0, 5, 1, 4, 7, 6, 3, 0, 7, 2
.data 0x140: 0, 0, 2, 0, 2, 7, 3, 7, 2, 4, 6, 1, 6, 6, 1, 1
.data 0x150: 6, 3, 3, 1, 0, 4, 5, 0, 5, 1, 2, 0, 2, 0, 7, 4
.data 0x160: 6, 1, 6, 1, 5, 0, 0, 2, 3, 3, 5, 7, 3, 7, 1, 2
.data 0x170: 4, 3, 1, 5, 4, 7, 4, 6, 4, 7, 2, 2, 0, 6, 1, 5
