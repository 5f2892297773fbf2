; every construct of spec 5 in one file
.group cores=0x0f0f fence=acq init_r0={0:1, 3:0x7f} init_mask=0x0009 hdr=0x5a reserved=0x00112233445566778899
  set_const r8, 0x10
  set_const r0, id
loop:
  sub r1, r9, r1
  rshft r1, 15, r2
  ld [r1, r2], r3
  st [r3, r4], r5
  bnz loop, r1
  bnz 15, r2
  .word 0xe1f3
  ready
.task
  nop
.group cores=0xffff fence=rel
.group cores=1 fence=no
  mul r1, r2, r3
  div r1, r2, r3 ; comment
.data 0x100: 1, 2, 3, 0xff
.data 0xffe: 0b1, 0
.tail 0x00000000deadbeef
