; example1.s — the specification's example 1 (spec §3): CF0(IF_Num=4, cores 0x0f0f,
; fence acq), IF0–IF3, CF1(IF_Num=2, cores 0xf0f0, fence acq), IF4–IF5.
;   Figure 2: group 1's tasks wait until IF3 has completed (CF0's acq fence).
;
; Every core keeps one counter byte at SM[core id] (bank 0) and touches no other
; byte, so the final memory is the same for any timing (race-free), and the
; same as in example2.s:
;   cores 0-3, 8-11 (group 0): counter starts at 1 (.data) and goes through
;     IF0 +3 (a bnz loop), IF1 <<1, IF2 +5, IF3 *3:  ((1+3)*2+5)*3 = 39 = 0x27
;   cores 4-7, 12-15 (group 1): CF1 initialises R0 to 0x10 * core id (D3);
;     IF4: counter = 0 + R0 + id = 0x11 * id; IF5: counter >>= 1
; Expected final SM[0x000..0x00f]:
;   0x27 0x27 0x27 0x27 0x22 0x2a 0x33 0x3b 0x27 0x27 0x27 0x27 0x66 0x6e 0x77 0x7f
; every other SM byte 0.

.group cores=0x0f0f fence=acq
  ; IF0: counter += 3, one at a time
  set_const r1, id          ; r1 = core id = address of this core's counter
  set_const r8, 0           ; r8 = high address nibble (bank 0)
  ld [r1, r8], r2           ; r2 = counter
  set_const r9, 3           ; r9 = iterations left
  set_const r10, 1
loop:
  add r2, r10, r2           ; counter += 1
  sub r9, r10, r9
  bnz loop, r9
  st [r1, r8], r2
.task
  ; IF1: counter <<= 1
  set_const r1, id
  set_const r8, 0
  ld [r1, r8], r2
  lshft r2, 1, r2
  st [r1, r8], r2
.task
  ; IF2: counter += 5
  set_const r1, id
  set_const r8, 0
  ld [r1, r8], r2
  set_const r9, 5
  add r2, r9, r2
  st [r1, r8], r2
.task
  ; IF3: counter *= 3 (the product's high byte goes to r3)
  set_const r1, id
  set_const r8, 0
  ld [r1, r8], r2
  set_const r9, 3
  mul r2, r9, r2
  st [r1, r8], r2

.group cores=0xf0f0 fence=acq init_r0={4:0x40, 5:0x50, 6:0x60, 7:0x70, 12:0xc0, 13:0xd0, 14:0xe0, 15:0xf0}
  ; IF4: counter += R0 + id
  set_const r1, id
  set_const r8, 0
  ld [r1, r8], r2
  add r2, r0, r2
  add r2, r1, r2
  st [r1, r8], r2
.task
  ; IF5: counter >>= 1
  set_const r1, id
  set_const r8, 0
  ld [r1, r8], r2
  rshft r2, 1, r2
  st [r1, r8], r2

.data 0x000: 1, 1, 1, 1
.data 0x008: 1, 1, 1, 1
