.group cores=1
