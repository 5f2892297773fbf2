.group cores=0x8000
  add r0, r15, r0
  add r1, r14, r1
  add r2, r13, r2
  add r3, r12, r3
  add r4, r11, r4
  add r5, r10, r5
  add r6, r9, r6
  add r7, r8, r7
  add r8, r7, r8
  add r9, r6, r9
  add r10, r5, r10
  add r11, r4, r11
  add r12, r3, r12
  add r13, r2, r13
  add r14, r1, r14
  add r15, r0, r15
