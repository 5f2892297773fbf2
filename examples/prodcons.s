; prodcons.s — a producer and a consumer on disjoint cores: why fences exist.
;
; Group 0, the producer, cores 0..3: core p computes 16·(p+1) the slow way
; (16 additions of p+1, standing in for real work) and writes it to its
; message byte M[p] at 0x200 + p.
; Group 1, the consumer, cores 8..11: core 8+p reads M[p] (kept in its r2)
; and writes R[p] = M[p] + 1 at 0x300 + p.
; M holds a stale message, 0xee, from before the run (.data below).
; The consumer's cores are disjoint from the producer's, so issue rule 1 does
; not order the groups: only the producer's acq fence makes the consumer wait
; until every message is written (a rel fence on the consumer would do the
; same).
; Expected result (ISS and timed model, every configuration):
;   M = SM[0x200..0x203] = 0x10, 0x20, 0x30, 0x40
;   R = SM[0x300..0x303] = 0x11, 0x21, 0x31, 0x41; cores 8..11: r2 = M[p]
;   every other SM byte 0.
; Without the fence (this file with the producer's `fence=acq` changed to
; `fence=no`, as tests/test_examples.c does): the ISS, which runs one task at
; a time in program order, still gives the result above, but the timed model
; starts the consumer as soon as its code is transferred (D5, cycle 10):
; it reads M at about cycle 15, the producer writes M at about cycle 61
; (default timing), so every consumer reads the stale 0xee:
; R = 0xef, 0xef, 0xef, 0xef, and cores 8..11 hold r2 = 0xee.
; M ends as above either way. That program is racy (D14): its result depends
; on the timing.

.group cores=0x000f fence=acq
  ; producer: M[p] = 16 (p + 1)
  set_const r0, id          ; r0 = p
  set_const r8, 1
  add r0, r8, r1            ; r1 = p + 1
  set_const r9, 0           ; r9 = the message
  set_const r10, 16         ; additions left
work:
  add r9, r1, r9
  sub r10, r8, r10
  bnz work, r10
  set_const r11, 2          ; bank of M
  st [r0, r11], r9          ; M[p] = 16 (p + 1)

.group cores=0x0f00 fence=no
  ; consumer: R[p] = M[p] + 1
  set_const r0, id
  set_const r8, 8
  sub r0, r8, r1            ; r1 = p = core id - 8
  set_const r9, 2           ; bank of M
  ld [r1, r9], r2           ; r2 = M[p]
  set_const r10, 1
  add r2, r10, r3
  set_const r11, 3          ; bank of R
  st [r1, r11], r3          ; R[p] = M[p] + 1

.data 0x200: 0xee, 0xee, 0xee, 0xee
