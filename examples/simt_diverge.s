; simt_diverge.s — what divergence costs a SIMT unit: an if/else on lane
; parity, then a loop whose trip count depends on the lane.
;
; Cores: all 16 (cores=0xffff), two tasks on the same cores (rule 1 orders
; them). Run it both ways and compare:
;   tessera run examples/simt_diverge.s                      (MIMD)
;   tessera run examples/simt_diverge.s -s core.model=simt   (one warp per task)
; Task 1 (if/else on lane parity): even lanes compute 2c, odd lanes c + 100;
; on the SIMT unit the warp issues both paths, each for half of its lanes
; (SIMT efficiency < 1, one divergent branch), and reconverges at `join`.
; Its store sends 16 requests to bank 1 (high map): 15 replays.
; Task 2 (a data-dependent loop): lane c sums c + (c-1) + ... + 1 in c
; iterations (lane 0 skips the loop); the warp loops 15 times, with one lane
; fewer active each time, so the lanes that finished early wait idle.
; Expected result: SM[0x100 + c] = 2c for even c, c + 100 for odd c;
; SM[0x200 + c] = c(c+1)/2; every other byte 0. Race-free: lane c writes
; only its own two bytes.

.group cores=0xffff fence=no
  set_const r0, id          ; r0 = c
  set_const r8, 1
  set_const r9, 1           ; bank 1
  and r0, r8, r2            ; r2 = c & 1
  bnz odd, r2               ; odd lanes jump: the warp diverges
  add r0, r0, r3            ; even: r3 = 2c
  bnz join, r8              ; always taken
odd:
  set_const r10, 100
  add r0, r10, r3           ; odd: r3 = c + 100
join:
  st [r0, r9], r3           ; SM[0x100 + c] = r3
  ready

.group cores=0xffff fence=no
  set_const r0, id          ; row c
  set_const r1, id          ; iterations left: c
  set_const r10, 0          ; the sum
  set_const r11, 1
  set_const r12, 2          ; bank 2
  bnz loop, r1              ; lane 0 skips the loop
  bnz done, r11
loop:
  add r10, r1, r10          ; sum += n
  sub r1, r11, r1           ; n -= 1
  bnz loop, r1              ; lanes leave the loop one by one
done:
  st [r0, r12], r10         ; SM[0x200 + c] = c(c+1)/2
  ready
