"""program.py — tessera.Program: build a program from Python (groups, tasks,
every instruction form, labels, .data, symbols, raw assembly with macros).
One set of rules: the builder writes assembly text (spec §5, docs/USER-GUIDE.md
section 3) and the library's assembler reads it, so a mistake is the
InputError `tessera asm` would report for source(), with the same message
("NAME:LINE:COLUMN: ..."), and image() is what `tessera asm` writes for it.
tessera.run(p, ...) and tessera.sweep(p, ...) take a Program as they take a
path or text.

    p = tessera.Program("scale.s")
    p.equ("K", 3)
    with p.group(cores=0x00ff, fence="acq") as g:
        g.set_const("r0", "id")
        g.set_const("r8", "K")
        g.ld("r0", "r8", "r1")          # ld [r0, r8], r1
        g.label("loop")
        g.sub("r1", "r9", "r1")
        g.bnz("loop", "r1")
    p.data(0x300, [1, 2, 3])
    tessera.run(p, db="runs.db")
"""
import ctypes
import inspect
import keyword
import os
import subprocess
import tempfile

from . import _lib
from .errors import UsageError, codes, error_for

TM_BYTES, SM_BYTES = codes.TM_BYTES, codes.SM_BYTES  # the images' sizes (model/sizes.h)


def _text(value, what):
    """An operand as assembly text: an int as decimal, a str as written (a
    register, a symbol, an expression); nothing that would end the line."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise UsageError("%s: expected an int or a str, got %r" % (what, value))
    text = str(value)
    if any(c in text for c in "\n\r;\0"):
        raise UsageError("%s: %r holds a line break, ';' or NUL" % (what, text))
    return text


def _reg(value, what="register"):
    """A register: 0..15 as rN, or its name as written ("r8")."""
    if isinstance(value, int) and not isinstance(value, bool):
        return "r%d" % value
    return _text(value, what)


class Group:
    """The open .group of a Program: its tasks' instructions, in order. Every
    instruction of the ISA has its method (and_/or_ for and/or); operands are
    registers (8 or "r8"), numbers (ints) or expressions over .equ symbols (str)."""

    def __init__(self, program):
        self._p = program

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def _op(self, mnemonic, operands=""):
        self._p._emit("  %s%s" % (mnemonic, " " + operands if operands else ""))
        return self

    def task(self):
        """Ends the current task and starts the next one (.task); right after
        .group it starts the first."""
        self._p._emit(".task")
        return self

    def label(self, name):
        """A label for the next instruction's slot (local to its task)."""
        self._p._emit("%s:" % _text(name, "label"))
        return self

    def word(self, value):
        """A raw instruction word (.word)."""
        self._p._emit("  .word %s" % _text(value, ".word value"))
        return self


# Each operand format of the ISA (model/isa.h, ISA_FMT_*): the arguments of an instruction's
# method, its operands' text from them, and what they are.
_FORMS = {
    "NONE": ((), lambda: "", ""),
    "RRR": (("a", "b", "c"), lambda a, b, c: "%s, %s, %s" % (_reg(a), _reg(b), _reg(c)),
            "registers a, b, c (8 or \"r8\")"),
    "RIR": (("a", "amount", "c"),
            lambda a, amount, c: "%s, %s, %s" % (_reg(a), _text(amount, "shift amount"), _reg(c)),
            "registers a and c, an immediate amount (D7)"),
    "LD": (("a", "b", "c"), lambda a, b, c: "[%s, %s], %s" % (_reg(a), _reg(b), _reg(c)),
           "the address {R[b] low nibble, R[a]}, the register c"),
    "SET_CONST": (("d", "value"),
                  lambda d, value: "%s, %s" % (_reg(d), _text(value, "set_const value")),
                  "r8..r15 and a value 0..255, or r0..r7 and \"id\", the core id (D9)"),
    "BNZ": (("target", "a"), lambda target, a: "%s, %s" % (_text(target, "bnz target"), _reg(a)),
            "a label of this task or a slot 0..15, taken when R[a] != 0"),
}
_FORMS["ST"] = _FORMS["LD"]


def _instruction(mnemonic, form):
    """Group's method writing the instruction `mnemonic` of operand format `form`."""
    if form not in _FORMS:
        raise ImportError("tessera: the instruction %s has the operand format ISA_FMT_%s, which "
                          "tessera.Program does not write (python/tessera/program.py _FORMS)"
                          % (mnemonic, form))
    names, operands, what = _FORMS[form]
    signature = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("self",) + names])

    def method(self, *args, **kw):
        bound = signature.bind(self, *args, **kw)
        return self._op(mnemonic, operands(*bound.args[1:]))
    method.__name__ = method.__qualname__ = mnemonic + "_" if keyword.iskeyword(mnemonic) \
        else mnemonic
    method.__signature__ = signature
    method.__doc__ = "%s: the instruction (spec section 4)%s." % (
        " ".join((mnemonic, operands(*names))).strip(), "; " + what if what else "")
    return method


# Every instruction of the ISA (model/isa.h ISA_OPS, from _codes.py) is a method of Group, named
# after its mnemonic (and_, or_: Python's keywords); registers as 8 or "r8".
for _mnemonic, _form in codes.OPS:
    _method = _instruction(_mnemonic, _form)
    setattr(Group, _method.__name__, _method)


class Program:
    """A program being built; `name` stands for its file in messages and in
    the database's runs.program."""

    def __init__(self, name="program.s"):
        self.name = _text(name, "name")
        self._lines = []

    def _emit(self, line):
        self._lines.append(line)
        return self

    def comment(self, text):
        """A ';' comment line (one per line of text)."""
        for line in str(text).split("\n"):
            if "\0" in line or "\r" in line:
                raise UsageError("comment: %r holds a NUL or a carriage return" % line)
            self._emit("; " + line if line else ";")
        return self

    def equ(self, name, value):
        """A symbol (.equ NAME, VALUE): usable in every later operand."""
        return self._emit(".equ %s, %s" % (_text(name, "symbol"), _text(value, "value")))

    def group(self, cores, fence="no", init_r0=None, init_mask=None, hdr=None, reserved=None):
        """Opens a group (.group): its CF with the core mask, fence ("no", "acq",
        "rel"), R0 initialisation ({core: value}) and the rest of the CF.
        Returns the Group, also usable as `with p.group(...) as g:`."""
        keys = ["cores=%s" % _text(cores, "cores")]
        keys.append("fence=%s" % _text(fence, "fence"))
        if init_r0 is not None:
            keys.append("init_r0={%s}" % ", ".join(
                "%s:%s" % (_text(c, "init_r0 core"), _text(v, "init_r0 value"))
                for c, v in dict(init_r0).items()))
        for key, value in (("init_mask", init_mask), ("hdr", hdr), ("reserved", reserved)):
            if value is not None:
                keys.append("%s=%s" % (key, _text(value, key)))
        self._emit(".group " + " ".join(keys))
        return Group(self)

    def data(self, addr, values):
        """SM bytes from `addr` (.data lines of 16 bytes): bytes, or a sequence
        of ints / expressions."""
        values = list(values)
        base = _text(addr, ".data address")
        for k in range(0, len(values), 16):
            at = "0x%03x" % (addr + k) if isinstance(addr, int) and not isinstance(addr, bool) \
                else "(%s) + %d" % (base, k) if k else base
            self._emit(".data %s: %s" % (at, ", ".join(
                _text(v, ".data byte") for v in values[k:k + 16])))
        return self

    def asm(self, text):
        """Lines of assembly as written (macros, .rept, .include, anything)."""
        if "\0" in text:
            raise UsageError("asm: the text holds a NUL byte")
        for line in text.splitlines():
            self._emit(line)
        return self

    def source(self):
        """The assembly text."""
        return "\n".join(self._lines) + "\n"

    def save(self, path):
        """Writes source() to `path`."""
        with open(path, "w") as f:
            f.write(self.source())
        return path

    def _assemble(self):
        lib = _lib.lib()
        fn = lib.tessera_assemble
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                       ctypes.c_char_p, ctypes.c_size_t]
        tm = ctypes.create_string_buffer(TM_BYTES)
        sm = ctypes.create_string_buffer(SM_BYTES)
        msg = ctypes.create_string_buffer(1024)
        rc = fn(self.source().encode(), self.name.encode(), tm, sm, msg, len(msg))
        if rc:
            raise error_for(msg.value.decode(errors="replace"), rc)
        return tm.raw, sm.raw

    def check(self):
        """Assembles; raises InputError with the assembler's message if it fails."""
        self._assemble()
        return self

    def image(self):
        """The 2048-byte Task Memory image (what `tessera asm` writes)."""
        return self._assemble()[0]

    def mem(self):
        """The 4096-byte SM image of the .data lines (`tessera asm --mem-out`)."""
        return self._assemble()[1]

    def listing(self):
        """`tessera asm --listing` of the source (frame:slot and word per line)."""
        with tempfile.TemporaryDirectory(prefix="tessera-prog-") as d:
            path = os.path.join(d, os.path.basename(self.name) or "program.s")
            self.save(path)
            proc = subprocess.run([os.path.abspath(_lib.command()), "asm",
                                   os.path.basename(path), "--listing"], cwd=d,
                                  capture_output=True, text=True)
            if proc.returncode:
                raise error_for(proc.stderr.strip(), proc.returncode)
            return proc.stdout

    def __repr__(self):
        return "<tessera.Program %s: %d lines>" % (self.name, len(self._lines))


def is_program(value):
    """True for a Program (what run() and sweep() accept besides paths and text)."""
    return isinstance(value, Program)
