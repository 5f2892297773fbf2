; stages.s — four stages on four disjoint sets of cores, three tasks each, for
; studying the Task Scheduler: issue policy (inorder, lookahead) x fences.
; Stage k runs on cores 4k..4k+3; its tasks are serialised by their common core
; mask (rule 1); stages could overlap, since their masks are disjoint — how
; much they do depends on the fences and on the issue policy (D5).
; Every task increments bytes 1..N of its core's own bank (bank = core id), so
; the result does not depend on timing: after the run, byte i of bank c holds
; 3 (three tasks) for 1 <= i <= N of c's stage (N = 60, 10, 30, 10), else 0.
; All fences are `no` here; docs/STUDY-FENCES.md makes acq and rel variants with sed.
.group cores=0x000f fence=no   ; stage 0: long tasks (60 iterations)
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 60          ; iterations: long
  set_const r10, 1
s0t0:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s0t0, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 60          ; iterations: long
  set_const r10, 1
s0t1:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s0t1, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 60          ; iterations: long
  set_const r10, 1
s0t2:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s0t2, r9
.group cores=0x00f0 fence=no   ; stage 1: short tasks (10 iterations)
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 10          ; iterations: short
  set_const r10, 1
s1t0:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s1t0, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 10          ; iterations: short
  set_const r10, 1
s1t1:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s1t1, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 10          ; iterations: short
  set_const r10, 1
s1t2:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s1t2, r9
.group cores=0x0f00 fence=no   ; stage 2: medium tasks (30 iterations)
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 30          ; iterations: medium
  set_const r10, 1
s2t0:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s2t0, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 30          ; iterations: medium
  set_const r10, 1
s2t1:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s2t1, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 30          ; iterations: medium
  set_const r10, 1
s2t2:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s2t2, r9
.group cores=0xf000 fence=no   ; stage 3: short tasks (10 iterations)
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 10          ; iterations: short
  set_const r10, 1
s3t0:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s3t0, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 10          ; iterations: short
  set_const r10, 1
s3t1:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s3t1, r9
.task
  set_const r7, id          ; r7 = core id: this core's own bank
  set_const r9, 10          ; iterations: short
  set_const r10, 1
s3t2:
  ld [r9, r7], r1
  add r1, r10, r1
  st [r9, r7], r1
  sub r9, r10, r9
  bnz s3t2, r9
