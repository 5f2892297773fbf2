; matadd.s — element-wise sum of two 8-byte vectors: C[i] = A[i] + B[i], i = 0..7.
;
; Cores: 0..7 (cores=0x00ff), one group with one task; core i computes element
; i, which it learns from `set_const r0, id` (D9: r0..r7 load the core id).
; Data, all in bank 0 (high address nibble 0, held in r10):
;   A at 0x000..0x007 = 0, 1, 2, 3, 4, 5, 6, 7            (.data below)
;   B at 0x010..0x017 = 0x10, 0x20, 0x30, ..., 0x80        (.data below)
;   C at 0x020..0x027, initially 0
; Expected result: SM[0x020..0x027] = 0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87;
; A and B unchanged, every other SM byte 0. Race-free: core i writes only C[i].

.equ N, 8                   ; elements, one core each
.equ A, 0x000
.equ B, 0x010
.equ C, 0x020

.group cores=(1 << N) - 1 fence=acq
  set_const r0, id          ; r0 = i = &A[i]
  set_const r8, B           ; r8 = base of B
  set_const r9, C           ; r9 = base of C
  set_const r10, 0          ; r10 = high address nibble (bank 0)
  ld [r0, r10], r1          ; r1 = A[i]
  add r0, r8, r2            ; r2 = &B[i]
  ld [r2, r10], r3          ; r3 = B[i]
  add r1, r3, r4            ; r4 = A[i] + B[i]
  add r0, r9, r5            ; r5 = &C[i]
  st [r5, r10], r4          ; C[i] = r4
  ready

.rept N                      ; A[i] = i, B[i] = 0x10 (i + 1)
.data A + \+: \+
.data B + \+: 0x10 * (\+ + 1)
.endr
