.group cores=1 init_r0={5:9}
.group cores=2 init_mask=0xfffe
