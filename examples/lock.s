; lock.s — a shared counter incremented by 16 cores under the atomic
; sequences of D16. Run with -s sm.atomics=on.
;
; Cores: all 16 (cores=0xffff), one group of one task. Every core adds 1 to
; the counter K at 0x300, 15 times, each time with the sequence
;   ld_sync K -> add 1 -> st_sync K
; The high-address register r8 = 0x43 selects bank 3 (bits [3:0]) and, with
; bits [7:6] = 01, makes the ld/st an ld_sync/st_sync (D16): the ld_sync
; locks K for the other cores until the same core's st_sync, so no increment
; can be lost between another core's read and write.
; Every core counts its increments down in r11 and keeps the last value it
; wrote in r1.
; Expected result: K = SM[0x300] = 16 x 15 = 240 (0xf0); every other SM
; byte 0; every core's r11 = 0; the 16 cores' r1 are distinct (every write
; was a new value) and the largest is 240.
;   - with sm.atomics=on: 240 in the timed model under any timing or
;     arbitration (the sequences serialise the increments);
;   - the ISS runs one core at a time, so it also gives 240;
;   - with sm.atomics=off (the default) bits [7:4] of r8 are ignored, the
;     sequences become plain ld/st, the cores read the same old K and
;     overwrite each other's increments: the timed model ends with K well
;     below 240 (60 with the default timing, 15 with sm.arbiter=rr; checked
;     by tests/test_examples.c).
; Cost of the atomicity (default timing): 1216 cycles with atomics on, the
; lock held 5 cycles per increment, against 554 cycles with them off.
; Why the D16 sequence itself is the lock, and not a test-and-set spinlock
; built from it around a plain critical section: with the default fixed
; arbiter such a spinlock livelocks from three cores on. Two spinners with
; lower ids than the holder keep the lock byte locked back to back with
; their sequences, and the holder's releasing store never wins the bank
; (the watchdog ends the run); rr, fifo and random arbitration complete.

.group cores=0xffff fence=acq
  set_const r8, 0x43        ; bank 3, sync bits [7:6] = 01
  set_const r9, 0           ; row of K
  set_const r10, 1
  set_const r11, 15         ; increments left
loop:
  ld [r9, r8], r1           ; ld_sync: lock K and read it
  add r1, r10, r1
  st [r9, r8], r1           ; st_sync: write K and unlock it
  sub r11, r10, r11
  bnz loop, r11
