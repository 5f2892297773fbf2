.group cores=3
x: bnz x, r1
.task
x: y: bnz y, r2
.task
  bnz x, r3
