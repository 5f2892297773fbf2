; macros: named arguments, defaults, :req, :vararg, \@ labels, nesting, .exitm, .purgem
.equ N, 3
.macro countdown reg, start=4
  set_const r10, 1
  set_const \reg, \start
loop\@:
  sub \reg, r10, \reg
  bnz loop\@, \reg
.endm
.macro emit op:req, rest:vararg
  \op \rest
.endm
.macro nops n
.if \n <= 0
.exitm
.endif
  nop
  nops \n - 1
.endm
.macro def name, reg
.macro \name
  add \reg, \reg, \reg
.endm
.endm
.group cores=(1 << N) - 1 fence=acq init_r0={0:N, 1:N * 2}
  countdown r8
  countdown r9, start=N + 1
  emit xor, r1, r2, r3
  nops 2
  def twice3, r3
  twice3
.purgem twice3
