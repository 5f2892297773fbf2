; prefix.s — inclusive prefix sum (scan) of 16 bytes, Hillis–Steele:
; four steps d = 1, 2, 4, 8, each y[i] = x[i] + x[i-d] (x[i-d] = 0 for i < d).
;
; Data: X0 = 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 at 0x100..0x10f
; (the decimal digits of pi). Step k reads buffer X(k-1) in bank k and writes
; X(k) in bank k+1 (double buffering: a step never overwrites what another
; core of the same step still has to read). x[i-d] for i < d is read from
; rows 0xf8..0xff of the input bank (i - d wraps around), which are never
; written and stay 0: the scan needs no branch.
; One group per step, each of one task, alternating between the two halves
; of the cores; core c handles elements i = c & 7 and i + 8 (a loop of two):
;   step 1, d = 1, cores 0..7,  bank 1 -> bank 2, fence=no
;   step 2, d = 2, cores 8..15, bank 2 -> bank 3, fence=rel
;   step 3, d = 4, cores 0..7,  bank 3 -> bank 4, fence=rel
;   step 4, d = 8, cores 8..15, bank 4 -> bank 5, fence=rel
; Why the fences: consecutive steps run on disjoint cores, so issue rule 1
; does not order them, and each step reads what the step before wrote. A
; rel group waits for every earlier task, i.e. the previous step. (Step 1
; needs none: nothing before it. An acq on steps 1..3 instead of the rel on
; 2..4 would do the same.)
; Expected result:
;   X1 at 0x200..0x20f = 3, 4, 5, 5, 6, 14, 11, 8, 11, 8, 8, 13, 17, 16, 16, 12
;   X2 at 0x300..0x30f = 3, 4, 8, 9, 11, 19, 17, 22, 22, 16, 19, 21, 25, 29, 33, 28
;   X3 at 0x400..0x40f = 3, 4, 8, 9, 14, 23, 25, 31, 33, 35, 36, 43, 47, 45, 52, 49
;   X4 at 0x500..0x50f = 3, 4, 8, 9, 14, 23, 25, 31, 36, 39, 44, 52, 61, 68, 77, 80
;   X4 is the scan of X0 (its last byte, 80, is the sum); X0 unchanged,
; every other SM byte 0. Race-free: each byte is written once, by one core,
; and read only by a later step.

.group cores=0x00ff fence=no
  ; step 1: X1[i] = X0[i] + X0[i-1]
  set_const r1, id
  set_const r8, 7
  and r1, r8, r1            ; r1 = i = c & 7: the first element
  set_const r9, 1           ; r9 = d
  set_const r10, 1          ; bank of X0 (input)
  set_const r11, 2          ; bank of X1 (output)
  set_const r12, 8          ; from the first element to the second
loop:
  ld [r1, r10], r2          ; r2 = x[i]
  sub r1, r9, r3            ; r3 = i - d (wraps to 0xf8..0xff below 0)
  ld [r3, r10], r4          ; r4 = x[i-d], or 0
  add r2, r4, r2
  st [r1, r11], r2          ; y[i] = x[i] + x[i-d]
  add r1, r12, r1           ; i += 8
  and r1, r12, r5           ; 8 after the first element, 0 after the second
  bnz loop, r5

.group cores=0xff00 fence=rel
  ; step 2: X2[i] = X1[i] + X1[i-2]
  set_const r1, id
  set_const r8, 7
  and r1, r8, r1            ; r1 = i = c & 7: the first element
  set_const r9, 2           ; r9 = d
  set_const r10, 2          ; bank of X1 (input)
  set_const r11, 3          ; bank of X2 (output)
  set_const r12, 8          ; from the first element to the second
loop:
  ld [r1, r10], r2          ; r2 = x[i]
  sub r1, r9, r3            ; r3 = i - d (wraps to 0xf8..0xff below 0)
  ld [r3, r10], r4          ; r4 = x[i-d], or 0
  add r2, r4, r2
  st [r1, r11], r2          ; y[i] = x[i] + x[i-d]
  add r1, r12, r1           ; i += 8
  and r1, r12, r5           ; 8 after the first element, 0 after the second
  bnz loop, r5

.group cores=0x00ff fence=rel
  ; step 3: X3[i] = X2[i] + X2[i-4]
  set_const r1, id
  set_const r8, 7
  and r1, r8, r1            ; r1 = i = c & 7: the first element
  set_const r9, 4           ; r9 = d
  set_const r10, 3          ; bank of X2 (input)
  set_const r11, 4          ; bank of X3 (output)
  set_const r12, 8          ; from the first element to the second
loop:
  ld [r1, r10], r2          ; r2 = x[i]
  sub r1, r9, r3            ; r3 = i - d (wraps to 0xf8..0xff below 0)
  ld [r3, r10], r4          ; r4 = x[i-d], or 0
  add r2, r4, r2
  st [r1, r11], r2          ; y[i] = x[i] + x[i-d]
  add r1, r12, r1           ; i += 8
  and r1, r12, r5           ; 8 after the first element, 0 after the second
  bnz loop, r5

.group cores=0xff00 fence=rel
  ; step 4: X4[i] = X3[i] + X3[i-8]
  set_const r1, id
  set_const r8, 7
  and r1, r8, r1            ; r1 = i = c & 7: the first element
  set_const r9, 8           ; r9 = d
  set_const r10, 4          ; bank of X3 (input)
  set_const r11, 5          ; bank of X4 (output)
  set_const r12, 8          ; from the first element to the second
loop:
  ld [r1, r10], r2          ; r2 = x[i]
  sub r1, r9, r3            ; r3 = i - d (wraps to 0xf8..0xff below 0)
  ld [r3, r10], r4          ; r4 = x[i-d], or 0
  add r2, r4, r2
  st [r1, r11], r2          ; y[i] = x[i] + x[i-d]
  add r1, r12, r1           ; i += 8
  and r1, r12, r5           ; 8 after the first element, 0 after the second
  bnz loop, r5

.data 0x100: 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3
