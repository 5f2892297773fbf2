.group cores=1
  bnz 14, r1
  bnz 1, r2
