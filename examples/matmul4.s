; matmul4.s — 4×4 matrix product C = A × B (mod 256), one core per element.
;
; Cores: all 16 (cores=0xffff); core i computes C[r][c] with r = i >> 2,
; c = i & 3: C[r][c] = A[r][0]*B[0][c] + ... + A[r][3]*B[3][c]
; (low bytes of the products, mod 256). One group of two tasks, since a
; task holds at most 16 instructions: the first sets up the addresses, the
; second runs the counted k loop and stores; registers persist from one
; task to the next (D4).
; Data, row-major, one matrix per bank:
;   A at 0x100..0x10f = [[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,15,16]]
;   B at 0x200..0x20f = [[2,0,1,0],[1,3,0,1],[0,1,2,1],[1,0,1,3]]
;   C at 0x300..0x30f, initially 0
; Expected result: SM[0x300..0x30f] =
;   8, 9, 11, 17,  24, 25, 27, 37,  40, 41, 43, 57,  56, 57, 59, 77
; and core i's r13 = C[i] (the accumulator); A and B unchanged, every other
; SM byte 0. Race-free: core i writes only C[i].

.equ N, 4                   ; the matrices are N x N, one core per element
.equ A, 0x100               ; bank 1
.equ B, 0x200               ; bank 2
.equ C, 0x300               ; bank 3

.group cores=(1 << N * N) - 1 fence=acq
  set_const r0, id          ; r0 = i = 4r + c = row of C[r][c]
  set_const r8, (N - 1) * N
  and r0, r8, r1            ; r1 = 4r = row of A[r][0]
  set_const r9, N - 1
  and r0, r9, r2            ; r2 = c = row of B[0][c]
  set_const r10, A >> 8     ; bank of A, step along a row of A
  set_const r11, B >> 8     ; bank of B
  set_const r12, N          ; step down a column of B
  set_const r13, 0          ; r13 = accumulator
  set_const r14, N          ; k left
  ready
.task
loop:
  ld [r1, r10], r3          ; r3 = A[r][k]
  ld [r2, r11], r4          ; r4 = B[k][c]
  mul r3, r4, r5            ; r5 = low byte of the product (r6 = high)
  add r13, r5, r13
  add r1, r10, r1
  add r2, r12, r2
  sub r14, r10, r14
  bnz loop, r14
  set_const r15, C >> 8     ; bank of C
  st [r0, r15], r13         ; C[r][c] = accumulator

.rept N * N                 ; A[r][c] = 4r + c + 1
.data A + \+: \+ + 1
.endr
.data B: 2, 0, 1, 0, 1, 3, 0, 1, 0, 1, 2, 1, 1, 0, 1, 3
