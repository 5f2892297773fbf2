; .rept with \+, nested .rept, .irp, .irpc, symbols counted with .set
.equ A, 0x100
.group cores=0xffff fence=no
.rept 4
.task
  set_const r8, 16 * \+
.rept 2
  ld [r8, r0], r1
.endr
.irp op, add, sub
  \op r1, r1, r1
.endr
.endr
.irpc k, 123
  set_const r9, \k
.endr
i = 0
.rept 8
.data A + i: i * i
i = i + 1
.endr
