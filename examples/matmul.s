; matmul.s — 2×2 matrix product C = A × B, row-major bytes.
;
; Cores: 0..3 (cores=0x000f); core i computes C[i] = C[row][col] with
; row = i >> 1, col = i & 1:  C[row][col] = A[row][0]*B[0][col] + A[row][1]*B[1][col].
; One group of two tasks (a task holds at most 16 instructions): the first
; computes the addresses and the first product, the second the second product,
; the sum and the store. Registers persist from one task to the next (D4).
; Data, all in bank 0 (high address nibble 0, held in r10):
;   A at 0x000..0x003 = 1, 2, 3, 4   (A = [[1,2],[3,4]])
;   B at 0x010..0x013 = 1, 2, 3, 4   (B = A)
;   C at 0x020..0x023, initially 0
; Expected result: SM[0x020..0x023] = 7, 10, 15, 22; A and B unchanged, every
; other SM byte 0. Race-free: core i writes only C[i].

.equ A, 0x000
.equ B, 0x010
.equ C, 0x020

.group cores=0x000f fence=acq
  set_const r0, id          ; r0 = i
  rshft r0, 1, r1           ; r1 = row
  lshft r1, 1, r1           ; r1 = 2*row = &A[row][0]
  set_const r8, 1
  and r0, r8, r2            ; r2 = col
  set_const r9, B
  add r2, r9, r3            ; r3 = &B[0][col]
  set_const r10, 0          ; r10 = high address nibble (bank 0)
  ld [r1, r10], r4          ; r4 = A[row][0]
  ld [r3, r10], r5          ; r5 = B[0][col]
  mul r4, r5, r6            ; r6 = A[row][0]*B[0][col] (high byte in r7)
  ready
.task
  add r1, r8, r1            ; r1 = &A[row][1]
  set_const r11, 2
  add r3, r11, r3           ; r3 = &B[1][col]
  ld [r1, r10], r4          ; r4 = A[row][1]
  ld [r3, r10], r5          ; r5 = B[1][col]
  mul r4, r5, r12           ; r12 = A[row][1]*B[1][col] (high byte in r13)
  add r6, r12, r6           ; r6 = C[row][col]
  set_const r14, C
  add r0, r14, r15          ; r15 = &C[i]
  st [r15, r10], r6
  ready

.irp matrix, A, B             ; both [[1,2],[3,4]]
.data \matrix: 1, 2, 3, 4
.endr
