; reduce.s — sum of 64 bytes by a reduction tree on disjoint sets of cores.
;
; Data: X[0..63] at 0x100..0x13f, the first 64 octal digits of pi
; (3.1103755242...; .data below), sum 170. The tree's nodes live in bank 2,
; heap-numbered: node n at 0x200 + n, its children at 0x200 + 2n - 16 and
; 0x200 + 2n - 15.
;   level 0, group 0, cores 0..7:   node c = X[8c] + ... + X[8c+7] (a counted loop)
;   level 1, group 1, cores 8..11:  node c = node 2c-16 + node 2c-15
;   level 2, group 2, cores 12..13: the same code
;   level 3, group 3, core 14:      the same code: node 14 = the sum
; Each level reads what the level before wrote, and the levels run on
; disjoint cores, so issue rule 1 (core conflicts) does not order them: only
; fences do. Every boundary needs an acq on the group before it or a rel on
; the group after it; this file uses both kinds:
;   group 0 acq: level 1 may not start until every leaf sum is stored
;                (without it level 1 starts as soon as its code is transferred,
;                while level 0 is still summing, and reads 0s: see the test);
;   group 1 no:  the boundary 1 -> 2 is covered by group 2's rel;
;   group 2 rel: level 2 waits for every earlier task, i.e. level 1;
;   group 3 rel: level 3 waits for level 2.
; Expected result: SM[0x200..0x20e] =
;   25, 21, 18, 22, 26, 12, 16, 30   (level 0)
;   46, 40, 38, 46                   (level 1)
;   86, 84                           (level 2)
;   170 = 0xaa                       (level 3: the sum, at 0x20e)
; X unchanged, every other SM byte 0. Race-free: each node is written once,
; by one core, and read only by a later level.

.group cores=0x00ff fence=acq
  ; level 0: core c sums X[8c .. 8c+7]
  set_const r0, id          ; r0 = c = this core's node
  lshft r0, 3, r1           ; r1 = 8c = row of its first value
  set_const r8, 1           ; bank of X, and the loop step
  set_const r9, 8           ; values left
  set_const r10, 0          ; r10 = sum
loop:
  ld [r1, r8], r2
  add r10, r2, r10
  add r1, r8, r1
  sub r9, r8, r9
  bnz loop, r9
  set_const r11, 2          ; bank of the tree
  st [r0, r11], r10         ; node c = sum

.group cores=0x0f00 fence=no
  ; level 1: node c = node 2c-16 + node 2c-15
  set_const r0, id          ; r0 = c
  lshft r0, 1, r1
  set_const r8, 16
  sub r1, r8, r1            ; r1 = 2c - 16: left child
  set_const r9, 2           ; bank of the tree
  ld [r1, r9], r2
  set_const r10, 1
  add r1, r10, r1           ; right child
  ld [r1, r9], r3
  add r2, r3, r2
  st [r0, r9], r2

.group cores=0x3000 fence=rel
  ; level 2: the same as level 1
  set_const r0, id
  lshft r0, 1, r1
  set_const r8, 16
  sub r1, r8, r1
  set_const r9, 2
  ld [r1, r9], r2
  set_const r10, 1
  add r1, r10, r1
  ld [r1, r9], r3
  add r2, r3, r2
  st [r0, r9], r2

.group cores=0x4000 fence=rel
  ; level 3: the root
  set_const r0, id
  lshft r0, 1, r1
  set_const r8, 16
  sub r1, r8, r1
  set_const r9, 2
  ld [r1, r9], r2
  set_const r10, 1
  add r1, r10, r1
  ld [r1, r9], r3
  add r2, r3, r2
  st [r0, r9], r2

.data 0x100: 3, 1, 1, 0, 3, 7, 5, 5, 2, 4, 2, 1, 0, 2, 6, 4
.data 0x110: 3, 0, 2, 1, 5, 1, 4, 2, 3, 0, 6, 3, 0, 5, 0, 5
.data 0x120: 6, 0, 0, 6, 7, 0, 1, 6, 3, 2, 1, 1, 2, 2, 0, 1
.data 0x130: 1, 1, 6, 0, 2, 1, 0, 5, 1, 4, 7, 6, 3, 0, 7, 2
