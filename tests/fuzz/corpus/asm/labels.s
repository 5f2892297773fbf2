.group cores=3
a: b: c:
  bnz c, r0
.task
a:
  bnz a, r1
  ready
  nop
