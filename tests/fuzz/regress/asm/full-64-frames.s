.group cores=1 fence=rel
.task
L:
  bnz L, r0
  .word 0x0000
.task
L:
  bnz L, r1
  .word 0x03d1
.task
L:
  bnz L, r2
  .word 0x07a2
.task
L:
  bnz L, r3
  .word 0x0b73
.task
L:
  bnz L, r4
  .word 0x0f44
.task
L:
  bnz L, r5
  .word 0x1315
.task
L:
  bnz L, r6
  .word 0x16e6
.task
L:
  bnz L, r7
  .word 0x1ab7
.task
L:
  bnz L, r8
  .word 0x1e88
.task
L:
  bnz L, r9
  .word 0x2259
.task
L:
  bnz L, r10
  .word 0x262a
.task
L:
  bnz L, r11
  .word 0x29fb
.task
L:
  bnz L, r12
  .word 0x2dcc
.task
L:
  bnz L, r13
  .word 0x319d
.task
L:
  bnz L, r14
  .word 0x356e
.task
L:
  bnz L, r15
  .word 0x393f
.task
L:
  bnz L, r0
  .word 0x3d10
.task
L:
  bnz L, r1
  .word 0x40e1
.task
L:
  bnz L, r2
  .word 0x44b2
.task
L:
  bnz L, r3
  .word 0x4883
.task
L:
  bnz L, r4
  .word 0x4c54
.task
L:
  bnz L, r5
  .word 0x5025
.task
L:
  bnz L, r6
  .word 0x53f6
.task
L:
  bnz L, r7
  .word 0x57c7
.task
L:
  bnz L, r8
  .word 0x5b98
.task
L:
  bnz L, r9
  .word 0x5f69
.task
L:
  bnz L, r10
  .word 0x633a
.task
L:
  bnz L, r11
  .word 0x670b
.task
L:
  bnz L, r12
  .word 0x6adc
.task
L:
  bnz L, r13
  .word 0x6ead
.task
L:
  bnz L, r14
  .word 0x727e
.task
L:
  bnz L, r15
  .word 0x764f
.task
L:
  bnz L, r0
  .word 0x7a20
.task
L:
  bnz L, r1
  .word 0x7df1
.task
L:
  bnz L, r2
  .word 0x81c2
.task
L:
  bnz L, r3
  .word 0x8593
.task
L:
  bnz L, r4
  .word 0x8964
.task
L:
  bnz L, r5
  .word 0x8d35
.task
L:
  bnz L, r6
  .word 0x9106
.task
L:
  bnz L, r7
  .word 0x94d7
.task
L:
  bnz L, r8
  .word 0x98a8
.task
L:
  bnz L, r9
  .word 0x9c79
.task
L:
  bnz L, r10
  .word 0xa04a
.task
L:
  bnz L, r11
  .word 0xa41b
.task
L:
  bnz L, r12
  .word 0xa7ec
.task
L:
  bnz L, r13
  .word 0xabbd
.task
L:
  bnz L, r14
  .word 0xaf8e
.task
L:
  bnz L, r15
  .word 0xb35f
.task
L:
  bnz L, r0
  .word 0xb730
.task
L:
  bnz L, r1
  .word 0xbb01
.task
L:
  bnz L, r2
  .word 0xbed2
.task
L:
  bnz L, r3
  .word 0xc2a3
.task
L:
  bnz L, r4
  .word 0xc674
.task
L:
  bnz L, r5
  .word 0xca45
.task
L:
  bnz L, r6
  .word 0xce16
.task
L:
  bnz L, r7
  .word 0xd1e7
.task
L:
  bnz L, r8
  .word 0xd5b8
.task
L:
  bnz L, r9
  .word 0xd989
.task
L:
  bnz L, r10
  .word 0xdd5a
.task
L:
  bnz L, r11
  .word 0xe12b
.task
L:
  bnz L, r12
  .word 0xe4fc
.task
L:
  bnz L, r13
  .word 0xe8cd
.group cores=0xffff init_mask=0xffff
