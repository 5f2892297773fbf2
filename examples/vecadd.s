; vecadd.s — vector add C[i] = A[i] + B[i] (mod 256) of two 64-byte vectors.
;
; Cores: all 16 (cores=0xffff), one group of one task. Core c handles the
; strided elements i = c, c+16, c+32, c+48 with a counted loop (r9 = 4 down
; to 0), so the 16 cores walk the vectors side by side.
; Data, one vector per bank (high address nibble = bank, row = i):
;   A at 0x100..0x13f: A[i] = i                 (.data below)
;   B at 0x200..0x23f: B[i] = 2i + 1            (.data below)
;   C at 0x300..0x33f, initially 0
; Expected result: C[i] = 3i + 1, i.e. SM[0x300..0x33f] = 1, 4, 7, ..., 190;
; A and B unchanged, every other SM byte 0. Race-free: core c writes only
; the C[i] it owns, and nothing else writes.
; Timing: with the default `high` mapping every access of an iteration goes
; to the same bank (A's, B's or C's) from all 16 cores, so most of them wait;
; with -s sm.bank_map=interleaved (bank = addr[3:0] = i & 15 = c) each core
; has a bank of its own and no access waits.

.group cores=0xffff fence=acq
  set_const r0, id          ; r0 = i = c (the row in every vector)
  set_const r8, 16          ; stride
  set_const r9, 4           ; elements left
  set_const r10, 1          ; bank of A, and the loop decrement
  set_const r11, 2          ; bank of B
  set_const r12, 3          ; bank of C
loop:
  ld [r0, r10], r1          ; r1 = A[i]
  ld [r0, r11], r2          ; r2 = B[i]
  add r1, r2, r3
  st [r0, r12], r3          ; C[i] = A[i] + B[i]
  add r0, r8, r0            ; i += 16
  sub r9, r10, r9
  bnz loop, r9
  ready

.data 0x100: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.data 0x110: 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
.data 0x120: 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
.data 0x130: 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63
.data 0x200: 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
.data 0x210: 33, 35, 37, 39, 41, 43, 45, 47, 49, 51, 53, 55, 57, 59, 61, 63
.data 0x220: 65, 67, 69, 71, 73, 75, 77, 79, 81, 83, 85, 87, 89, 91, 93, 95
.data 0x230: 97, 99, 101, 103, 105, 107, 109, 111, 113, 115, 117, 119, 121, 123, 125, 127
