; simt_memory.s — memory instructions on a SIMT unit: the slowest lane, a
; broadcast, and work the scoreboard overlaps with a load.
;
; Cores: all 16 (cores=0xffff), two tasks on the same cores (rule 1 orders
; them). Compare:
;   tessera run examples/simt_memory.s                                  (MIMD)
;   tessera run examples/simt_memory.s -s core.model=simt
;   ... -s core.model=simt -s simt.broadcast=on -s simt.scoreboard=on
; Task 1 (the slowest lane): lane c loads X[c] at 0x100 + c. Under the
; default `high` map all 16 addresses are in bank 1, so the requests are
; served one per bank cycle (15 replays) and the warp goes on only when the
; last lane's answer arrives; on the MIMD machine each core goes on with
; its own answer. Three independent instructions follow the ld: with
; simt.scoreboard=on they issue while the ld is in flight.
; Task 2 (broadcast): every lane loads the same byte, 0x1ff (K = 7). With
; simt.broadcast=on the 16 lanes share one bank access; without it they
; queue at bank 1 like task 1's.
; Data: X[c] = 10 + c at 0x100..0x10f, K = 7 at 0x1ff (.data below).
; Expected result: SM[0x300 + c] = X[c] + c = 10 + 2c (task 1),
; SM[0x310 + c] = K + c = 7 + c (task 2); X, K unchanged, every other
; byte 0. Race-free: lane c writes only its own two bytes.

.group cores=0xffff fence=no
  set_const r0, id          ; c
  set_const r8, 1           ; bank 1
  set_const r9, 3           ; bank 3
  ld [r0, r8], r1           ; r1 = X[c]: 16 lanes, one bank
  set_const r5, id          ; independent of the ld: r5 <- c ...
  add r0, r0, r2            ; ... r2 = 2c
  set_const r10, 0          ; ... (the scoreboard issues these under the ld)
  ld [r0, r8], r3           ; r3 = X[c] again
  add r3, r0, r4            ; r4 = X[c] + c
  st [r0, r9], r4           ; SM[0x300 + c]
  ready

.group cores=0xffff fence=no
  set_const r0, id          ; c
  set_const r8, 1
  set_const r9, 0xff        ; row 0xff of bank 1: K
  set_const r10, 0x10
  set_const r11, 3
  ld [r9, r8], r1           ; r1 = K, the same byte for every lane
  add r1, r0, r2            ; r2 = K + c
  add r0, r10, r3           ; row 0x10 + c
  st [r3, r11], r2          ; SM[0x310 + c]
  ready

.data 0x100: 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25
.data 0x1ff: 7
