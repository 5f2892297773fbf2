; .if/.elseif/.else/.endif, .ifdef/.ifndef, .ifb/.ifnb, expressions of every operator
.equ MODE, 2
X = (1 + 2) * 3 - 4 / 2 % 3 << 1 >> 1 & 0xff | 0x10 ^ ~0 & 0xf
.set Y, !X || X && X >= 1 == 1 != 0 < 5 > 0 <= 9
.group cores=1
.if MODE == 1
  add r1, r1, r1
.elseif MODE == 2
  sub r2, r2, r2
.else
  xor r3, r3, r3
.endif
.ifdef MODE
  .word X & 0xffff
.endif
.ifndef NOPE
  .word Y
.endif
.macro opt a
.ifb \a
  nop
.endif
.ifnb \a
  .word \a
.endif
.endm
  opt
  opt 9
