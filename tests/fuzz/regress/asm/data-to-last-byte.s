.group cores=1
.data 4093: 1, 2, 3
.data 0: 0
.data 0: 5
