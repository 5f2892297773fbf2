"""test_program.py — tessera.Program (python/tessera/program.py) against the
command: every instruction form and directive the builder writes, image()
and mem() equal to `tessera asm` of source(), errors raised as InputError with
the very message `tessera asm` prints, run() and sweep() of a Program
recorded under its name with the rows of the same text run by path, and
examples/reduction.py's generated kernels computing the right sums (tessera
iss). Run by ctest (test `python`) with TESSERA_LIB and TESSERA_EXE set."""
import os
import subprocess
import sys
import tempfile
import unittest

TREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TREE, "python"))
sys.path.insert(0, os.path.join(TREE, "examples"))
import tessera  # noqa: E402
from tessera import _lib  # noqa: E402

EXE = os.path.abspath(_lib.command())


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="tessera-prog-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def asm(self, p):
        """`tessera asm NAME -o x.tm --mem-out x.mem` of p.source() saved as p.name
        in a scratch directory: (exit code, stderr, image, mem)."""
        p.save(os.path.join(self.dir, p.name))
        proc = subprocess.run([EXE, "asm", p.name, "-o", "x.tm", "--mem-out", "x.mem"],
                              cwd=self.dir, capture_output=True, text=True)
        image = mem = None
        if proc.returncode == 0:
            with open(os.path.join(self.dir, "x.tm"), "rb") as f:
                image = f.read()
            with open(os.path.join(self.dir, "x.mem"), "rb") as f:
                mem = f.read()
        return proc.returncode, proc.stderr.strip(), image, mem


def every_form():
    """A program using every instruction and directive of the builder."""
    p = tessera.Program("every.s")
    p.comment("every form\nof the builder")
    p.equ("K", 5)
    with p.group(cores=0x00ff, fence="acq", init_r0={0: 1, 3: "K"}, hdr=2) as g:
        g.set_const("r0", "id")
        g.set_const(8, "K * 2")
        g.nop()
        g.add(1, 2, 3)
        g.sub("r4", "r5", "r6")
        g.mul(1, 2, 3)
        g.div(1, 2, 3)
        g.cmpge(1, 2, 3)
        g.rshft(1, 3, 2)
        g.lshft(1, "K - 1", 2)
        g.and_(1, 2, 3)
        g.or_(1, 2, 3)
        g.xor(1, 2, 3)
        g.label("here")
        g.bnz("here", 1)
        g.ready()
        g.task()
        g.ld(0, 8, 1)
        g.st("r0", "r8", "r1")
        g.bnz(0, 2)
        g.word(0x1234)
    with p.group(cores="K", fence="rel", init_mask=1, reserved="0x0102") as g:
        g.set_const(9, 255)
    p.data(0x100, b"\x01\x02")
    p.data("0x200 + K", range(20))
    p.asm(".rept 2\n  .data 0x300 + \\+: \\+ + 7\n.endr")
    return p


class TestForms(Base):
    def test_every_instruction_of_the_isa_has_its_method(self):
        """Group's instruction methods are made from the ISA's list (_codes.OPS,
        generated from model/isa.h): one per mnemonic (and_, or_ for Python's
        keywords), which writes that mnemonic, and nothing else is one; a wrong
        call is a TypeError naming what is missing."""
        ops = tessera.errors.codes.OPS
        self.assertEqual(len(ops), 16)
        methods = {name for name in vars(tessera.Group) if not name.startswith("_")}
        want = {m + "_" if m in ("and", "or") else m for m, _ in ops}
        self.assertEqual(methods - want, {"task", "label", "word"})
        args = {"NONE": (), "RRR": (1, 2, 3), "RIR": (1, 2, 3), "LD": (1, 2, 3),
                "ST": (1, 2, 3), "SET_CONST": (8, 1), "BNZ": (0, 1)}
        for mnemonic, form in ops:
            p = tessera.Program("one.s")
            with p.group(cores=1) as g:
                getattr(g, mnemonic + "_" if mnemonic in ("and", "or") else mnemonic)(*args[form])
            self.assertEqual(p.source().split("\n")[1].split()[0], mnemonic)
            p.check()
        with self.assertRaisesRegex(TypeError, "missing a required argument: 'c'"):
            tessera.Program().group(cores=1).add(1, 2)

    def test_every_form_assembles_like_the_command(self):
        p = every_form()
        code, err, image, mem = self.asm(p)
        self.assertEqual(code, 0, err)
        self.assertEqual(p.image(), image)
        self.assertEqual(p.mem(), mem)
        self.assertEqual(len(image), 2048)
        # the disassembly holds every mnemonic, in order (the first task's ready is
        # the one the padding rule adds, so disasm leaves it out; .word 0x1234 is an add)
        dis = subprocess.run([EXE, "disasm", os.path.join(self.dir, "x.tm")],
                             capture_output=True, text=True).stdout
        words = [line.split()[0] for line in dis.splitlines()
                 if line.startswith("  ") and not line.startswith("  ;")]
        self.assertEqual(words, ["set_const", "set_const", "nop", "add", "sub", "mul", "div",
                                 "cmpge", "rshft", "lshft", "and", "or", "xor", "bnz",
                                 "ld", "st", "bnz", "add", "set_const"])
        self.assertEqual(mem[0x100:0x102], b"\x01\x02")
        self.assertEqual(mem[0x205:0x219], bytes(range(20)))
        self.assertEqual(mem[0x300:0x302], b"\x07\x08")

    def test_source_is_plain_assembly(self):
        p = tessera.Program("s.s")
        with p.group(cores=1) as g:
            g.ld(0, "r8", 3)
            g.set_const(9, 0x10)
        self.assertEqual(p.source(), ".group cores=1 fence=no\n  ld [r0, r8], r3\n"
                                     "  set_const r9, 16\n")

    def test_listing_is_the_commands(self):
        p = every_form()
        p.save(os.path.join(self.dir, p.name))
        want = subprocess.run([EXE, "asm", p.name, "--listing"], cwd=self.dir,
                              capture_output=True, text=True).stdout
        self.assertEqual(p.listing(), want)
        self.assertIn("F01:00 c000  every.s:", want)


class TestErrors(Base):
    CASES = [
        lambda g: g.set_const(8, 300),          # range
        lambda g: g.set_const(3, 5),            # D9: r0..r7 take id
        lambda g: g.set_const(9, "id"),         # D9: r8..r15 take a constant
        lambda g: g.add(16, 1, 2),              # bad register
        lambda g: g.lshft(1, 16, 2),            # shift amount
        lambda g: g.bnz("nowhere", 1),          # undefined label
        lambda g: g.set_const(8, "UNDEFINED"),  # not a symbol
        lambda g: g.word("1 / 0"),              # division by zero
        lambda g: [g.nop() for _ in range(17)],  # a task holds 16
        lambda g: (g.label("a"), g.label("a")),  # duplicate label
    ]

    def check_same_error(self, p):
        code, err, _, _ = self.asm(p)
        self.assertEqual(code, 2)
        with self.assertRaises(tessera.InputError) as cm:
            p.image()
        self.assertEqual(cm.exception.message, err)
        self.assertEqual(cm.exception.code, 2)
        with self.assertRaises(tessera.InputError) as cm:
            tessera.run(p)
        self.assertEqual(cm.exception.message, err)
        return err

    def test_errors_are_the_commands(self):
        for i, case in enumerate(self.CASES):
            with self.subTest(case=i):
                p = tessera.Program("bad%d.s" % i)
                with p.group(cores=1) as g:
                    case(g)
                err = self.check_same_error(p)
                self.assertTrue(err.startswith("bad%d.s:" % i), err)

    def test_group_and_data_errors(self):
        p = tessera.Program("g.s")
        p.group(cores=0)
        self.assertIn("cores=0: empty core mask", self.check_same_error(p))
        p = tessera.Program("f.s")
        p.group(cores=1, fence="maybe")
        self.assertIn("bad fence 'maybe'", self.check_same_error(p))
        p = tessera.Program("d.s")
        p.data(0xfff, [1, 2])
        self.assertIn(".data runs past address 4095", self.check_same_error(p))
        p = tessera.Program("m.s")
        p.asm(".macro m r\n  add \\r, r1, r1\n.endm\n.group cores=1\n  m r99")
        self.assertIn("(in macro 'm' called at m.s:5)", self.check_same_error(p))

    def test_line_breaks_are_refused(self):
        p = tessera.Program("x.s")
        g = p.group(cores=1)
        for bad in ("r1\n.group cores=2", "r1 ; comment", "r1\0"):
            with self.assertRaises(tessera.UsageError):
                g.add(bad, 1, 1)
        with self.assertRaises(tessera.UsageError):
            g.set_const(8, 1.5)


class TestRunAndSweep(Base):
    def program(self):
        p = tessera.Program("scale.s")
        p.equ("K", 3)
        with p.group(cores=0x00ff, fence="acq") as g:
            g.set_const("r0", "id")
            g.set_const("r8", "K")
            g.set_const("r9", 1)
            g.ld("r0", "r8", "r1")
            g.label("loop")
            g.sub("r1", "r9", "r1")
            g.bnz("loop", "r1")
            g.st("r0", "r8", "r9")
        p.data(0x300, range(1, 17))
        return p

    def test_run_of_a_program_is_the_run_of_its_text(self):
        p = self.program()
        db = os.path.join(self.dir, "p.db")
        r1 = tessera.run(p, db=db)
        path = p.save(os.path.join(self.dir, "scale.s"))
        r2 = tessera.run(path, db=db)
        self.assertEqual(r1.status, "ok")
        self.assertEqual((r1.end_ps, r1.instructions), (r2.end_ps, r2.instructions))
        rows = tessera.Database(db).rows("runs")
        self.assertEqual(rows[0]["program"], "scale.s")
        self.assertEqual(rows[0]["program_sha256"], rows[1]["program_sha256"])

    def test_sweep_of_a_program(self):
        p = self.program()
        db = os.path.join(self.dir, "s.db")
        s = tessera.sweep(p, {"core.model": ["mimd", "simt"]}, db=db, jobs=1)
        self.assertEqual((s.code, s.points), (0, 2))
        rows = tessera.Database(db).rows("run_summary")
        self.assertEqual([(r["program"], r["core_model"], r["status"]) for r in rows],
                         [("scale.s", "mimd", "ok"), ("scale.s", "simt", "ok")])
        self.assertEqual(rows[0]["end_ps"], tessera.run(p).end_ps)


class TestGenerator(Base):
    def test_reduction_sums(self):
        import reduction
        for n in (16, 64, 256, 4064):
            with self.subTest(n=n):
                p = reduction.build(n)
                path = p.save(os.path.join(self.dir, p.name))
                self.assertEqual(p.image(), self.asm(p)[2])
                mem = os.path.join(self.dir, "m.mem")
                proc = subprocess.run([EXE, "iss", path, "--dump-mem", mem],
                                      capture_output=True, text=True)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                with open(mem, "rb") as f:
                    self.assertEqual(f.read()[0x0fe], reduction.expected(n))
        with self.assertRaises(ValueError):
            reduction.build(17)


if __name__ == "__main__":
    unittest.main()
