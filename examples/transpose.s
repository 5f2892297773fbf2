; transpose.s — transpose of a 16×16 byte matrix, B = Aᵀ, where the bank
; mapping decides the cost.
;
; Cores: all 16 (cores=0xffff), one group of one task. Core c copies row c of
; A into column c of B with a counted loop over j = 0..15:
;   B[j][c] = A[c][j]
; Data, row-major:
;   A at 0x100..0x1ff: A[i][j] at 0x100 + 16i + j, = 0x<i><j> (.data below)
;   B at 0x200..0x2ff: B[j][i] at 0x200 + 16j + i, initially 0
; Expected result: B[j][i] = 0x<i><j>, i.e. SM[0x200 + n] = n with its two
; hex digits swapped (SM[0x201] = 0x10, SM[0x2ff] = 0xff, SM[0x2e1] = 0x1e);
; A unchanged, every other SM byte 0. Race-free: every B byte is written by
; one core, A is only read.
; The bank mapping (D13) is what this example is about. With the default
; `high` mapping (bank = addr[11:8]) all of A is bank 1 and all of B bank 2,
; so the 16 cores' loads queue at one bank and their stores at another; with
; sm.bank_map=interleaved (bank = addr[3:0]) A[c][j] is in bank j and B[j][c]
; in bank c, so the accesses spread over all 16 banks. Default timing
; otherwise (`tessera run examples/transpose.s --no-db [-s sm.bank_map=...]`):
;   mapping       run          SM accesses that waited   cycles lost waiting
;   high          340 cycles   15 of 512                 1020
;   interleaved   209 cycles   112 of 512                253
; `high` costs 4 times the waiting and 1.6 times the run time. Note the
; count of waiting accesses goes the other way: under `high` the loop of
; cores 0..9 (one load per 10 cycles each) keeps bank 1 busy every cycle,
; and the fixed arbiter (lowest core id first, T8) lets them win every
; time, so cores 10..15 wait once, about 160 cycles, for their first load
; (15 long waits); under `interleaved` the cores collide often but briefly.
; (With -s sm.arbiter=rr the waits under `high` are shared out: 255 waited,
; 1560 cycles lost, 280 cycles.) tests/test_examples.c checks the directions.

.equ N, 16                  ; the matrices are N x N, N = the number of cores
.equ A, 0x100               ; bank 1
.equ B, 0x200               ; bank 2

.group cores=(1 << N) - 1 fence=acq
  set_const r0, id          ; r0 = c
  lshft r0, 4, r1           ; r1 = 16c: row of A[c][0]
  set_const r2, id          ; r2 = c: row of B[0][c]
  set_const r8, A >> 8      ; bank of A, step along a row of A
  set_const r9, B >> 8      ; bank of B
  set_const r10, N          ; step down a column of B
  set_const r11, N          ; elements left
loop:
  ld [r1, r8], r3           ; r3 = A[c][j]
  st [r2, r9], r3           ; B[j][c] = r3
  add r1, r8, r1
  add r2, r10, r2
  sub r11, r8, r11
  bnz loop, r11
  ready

; A[i][j] = 0x<i><j> = 16i + j, at A + 16i + j: byte n of A is n.
.rept N * N
.data A + \+: \+
.endr
