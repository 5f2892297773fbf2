#!/usr/bin/env python3
"""study.py — a what-if study in Python: how much do bank conflicts cost the
transpose kernel as the SM bank latency grows, under each arbiter and bank
mapping? A sweep (tessera sweep underneath), a DataFrame, a figure.
Usage: examples/study.py [OUT.png [STUDY.db]] (from the source tree)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "python"))
import matplotlib
matplotlib.use("Agg")                     # no display needed
import matplotlib.pyplot as plt
import tessera

png = sys.argv[1] if len(sys.argv) > 1 else "study.png"
db = sys.argv[2] if len(sys.argv) > 2 else "study.db"
if os.path.exists(db):
    os.remove(db)                         # a fresh study each time
tessera.sweep("examples/transpose.s", db=db, jobs=2, axes={
    "sm.arbiter": ["fixed", "rr"],
    "sm.bank_map": ["high", "interleaved"],
    "sm.bank": [1, 2, 4, 8]})
df = tessera.Database(db).frame("run_summary")
print(df.pivot_table(index="sm_bank", columns=["bank_map", "arbiter"], values="end_cycles"))

fig, ax = plt.subplots(figsize=(6.4, 4))
for (bank_map, arbiter), g in df.groupby(["bank_map", "arbiter"]):
    ax.plot(g["sm_bank"], g["end_cycles"], marker="o", label=f"{bank_map}, {arbiter}")
ax.set(xlabel="SM bank latency (cycles)", ylabel="run time (cycles)",
       title="transpose.s: run time against bank latency", xticks=[1, 2, 4, 8])
ax.legend(title="bank map, arbiter")
ax.grid(alpha=0.3)
fig.tight_layout()
fig.savefig(png, dpi=100)
print("wrote", png)
