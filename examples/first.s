; first.s — the user guide's first program: each of 4 cores sums the 8 bytes
; of its own row of bank 1 and stores the sum after them.
; Data: core c reads 0x100 + 16c .. +7 and writes the sum at 0x100 + 16c + 8
; (mod 256). Expected: SM[0x108] = 36, [0x118] = 104 (360 mod 256), [0x128] = 148
; (404 mod 256), [0x138] = 0 (256 mod 256).
.group cores=0x000f
  set_const r0, id          ; r0 = core id
  lshft r0, 4, r1           ; r1 = 16 * id: this core's row offset
  set_const r8, 1           ; r8 = bank 1 (high address nibble)
  set_const r9, 8           ; r9 = bytes left
  set_const r10, 1
  set_const r11, 0          ; r11 = sum
loop:
  ld [r1, r8], r2           ; r2 = SM[0x100 + r1]
  add r11, r2, r11
  add r1, r10, r1
  sub r9, r10, r9
  bnz loop, r9
  st [r1, r8], r11          ; SM[0x100 + 16*id + 8] = sum
.data 0x100: 1, 2, 3, 4, 5, 6, 7, 8
.data 0x110: 10, 20, 30, 40, 50, 60, 70, 80
.data 0x120: 100, 1, 100, 1, 100, 1, 100, 1
.data 0x130: 255, 1, 0, 0, 0, 0, 0, 0
