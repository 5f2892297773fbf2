"""policy.py — Python callables as policies of one's own: the same interface
as a C plugin (api/tessera_policy.h), through ctypes callbacks, for
prototyping in a notebook (every decision is a call into Python: slow).

    def lowest(call):                     # sm.arbiter: the requester to grant
        return min(r.requester for r in call.requests)
    tessera.run("examples/histogram.s", params={"sm.arbiter": lowest})

    sm.arbiter      fn(call) -> requester   call: now_ps, cycle, bank, last,
                                            requests (requester, frame, is_store,
                                            sync, addr, request_ps, arrive_ps)
    sm.bank_map     fn(addr, banks) -> bank (asked once per address at the start)
    simt.scheduler  fn(call) -> order       call: now_ps, cycle, width, warps,
                                            waiting (slot, frame, lanes, ip, opcode,
                                            is_mem, mem_pending, age_ps,
                                            last_issue_ps, issued), last (slots);
                                            order: a permutation of range(len(warps))

Every call also has `host`: param(key) (plugin.NAME.KEY, NAME the callable's
__name__; the keys it reads listed in its attribute `params`, e.g. fn.params =
["weight"]), random() and random_below(n) (the plugin's stream, seeded by sim.seed),
seed, banks. An exception in the callable ends the run with status error; run()
then raises it again in the caller. The run records KEY = "python:QUALNAME"."""
import ctypes
import re
from collections import namedtuple

from .errors import UsageError

ABI = 1
KINDS = {"sm.arbiter": 1, "sm.bank_map": 2, "simt.scheduler": 3}

c_u8, c_u16, c_u32, c_u64 = ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64


class Host(ctypes.Structure):
    pass


_PARAM = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(Host), ctypes.c_char_p)
_RANDOM = ctypes.CFUNCTYPE(c_u64, ctypes.POINTER(Host))
_BELOW = ctypes.CFUNCTYPE(c_u64, ctypes.POINTER(Host), c_u64)
_FAIL = ctypes.CFUNCTYPE(None, ctypes.POINTER(Host), ctypes.c_char_p)
Host._fields_ = [("abi", c_u32), ("banks", ctypes.c_uint), ("period_ps", c_u64),
                 ("seed", c_u64), ("param", _PARAM), ("random", _RANDOM),
                 ("random_below", _BELOW), ("fail", _FAIL), ("impl", ctypes.c_void_p)]


class ArbRequest(ctypes.Structure):
    _fields_ = [("requester", c_u8), ("frame", c_u8), ("is_store", c_u8), ("sync", c_u8),
                ("addr", c_u16), ("request_ps", c_u64), ("arrive_ps", c_u64)]


class ArbCall(ctypes.Structure):
    _fields_ = [("now_ps", c_u64), ("cycle", c_u64), ("bank", ctypes.c_uint),
                ("last", ctypes.c_int), ("n", ctypes.c_uint),
                ("req", ctypes.POINTER(ArbRequest))]


class Warp(ctypes.Structure):
    _fields_ = [("slot", c_u8), ("frame", c_u8), ("lanes", c_u16), ("ip", c_u8),
                ("opcode", c_u8), ("is_mem", c_u8), ("mem_pending", c_u8),
                ("age_ps", c_u64), ("last_issue_ps", c_u64), ("issued", c_u64)]


class SchedCall(ctypes.Structure):
    _fields_ = [("now_ps", c_u64), ("cycle", c_u64), ("width", ctypes.c_uint),
                ("n", ctypes.c_uint), ("warp", ctypes.POINTER(Warp)),
                ("n_waiting", ctypes.c_uint), ("waiting", ctypes.POINTER(Warp)),
                ("n_last", ctypes.c_uint), ("last", ctypes.POINTER(c_u8))]


_CREATE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Host), ctypes.POINTER(ctypes.c_void_p))
_DESTROY = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_ARBITRATE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ArbCall))
_BANK_OF = ctypes.CFUNCTYPE(ctypes.c_uint, ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint)
_SCHEDULE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(SchedCall),
                             ctypes.POINTER(c_u8))


class Policy(ctypes.Structure):
    _fields_ = [("abi", c_u32), ("kind", c_u32), ("name", ctypes.c_char_p),
                ("params", ctypes.POINTER(ctypes.c_char_p)), ("create", _CREATE),
                ("destroy", _DESTROY), ("arbitrate", _ARBITRATE), ("bank_of", _BANK_OF),
                ("schedule", _SCHEDULE)]


Request = namedtuple("Request", "requester frame is_store sync addr request_ps arrive_ps")
WarpInfo = namedtuple("WarpInfo", "slot frame lanes ip opcode is_mem mem_pending age_ps "
                                  "last_issue_ps issued")
ArbiterCall = namedtuple("ArbiterCall", "now_ps cycle bank last requests host")
SchedulerCall = namedtuple("SchedulerCall", "now_ps cycle width warps waiting last host")


class HostView:
    """What the callable gets as call.host (valid during the run)."""

    def __init__(self, host):
        self._h = host

    @property
    def seed(self):
        return self._h.contents.seed

    @property
    def banks(self):
        return self._h.contents.banks

    def param(self, key):
        v = self._h.contents.param(self._h, key.encode())
        return v.decode() if v is not None else None

    def random(self):
        return self._h.contents.random(self._h)

    def random_below(self, n):
        return self._h.contents.random_below(self._h, n)


def _name_of(fn):
    raw = getattr(fn, "__name__", type(fn).__name__).lower()
    name = re.sub("[^a-z0-9_]", "_", raw)[:31] or "python"
    return name


def _warps(p, n):
    return [WarpInfo(w.slot, w.frame, w.lanes, w.ip, w.opcode, w.is_mem, w.mem_pending,
                     w.age_ps, w.last_issue_ps, w.issued) for w in (p[i] for i in range(n))]


class Binding:
    """One callable bound to one decision point for one run: the descriptor
    handed to tessera_set_policy and the callbacks it points to (kept alive
    here), and the first exception the callable raised."""

    def __init__(self, key, fn):
        if key not in KINDS:
            raise UsageError("%s does not take a Python callable (sm.arbiter, sm.bank_map, "
                             "simt.scheduler)" % key)
        self.key, self.fn, self.error, self.host = key, fn, None, None
        self.name = _name_of(fn)
        self.label = "python:" + getattr(fn, "__qualname__", self.name)
        self._keep = [_CREATE(self._create), _DESTROY(lambda state: None)]
        kind = KINDS[key]
        arb = _ARBITRATE(self._arbitrate) if kind == 1 else _ARBITRATE()
        bank = _BANK_OF(self._bank_of) if kind == 2 else _BANK_OF()
        sched = _SCHEDULE(self._schedule) if kind == 3 else _SCHEDULE()
        keys = [k.encode() for k in getattr(fn, "params", ())] + [None]
        params = (ctypes.c_char_p * len(keys))(*keys)
        self._keep += [arb, bank, sched, params, self.name.encode()]
        self.desc = Policy(ABI, kind, self._keep[-1], params, self._keep[0], self._keep[1],
                           arb, bank, sched)

    def _create(self, host, state):
        self.host = HostView(host)
        return 0

    def _failed(self, e):
        """Keeps the exception and tells the run why it ends."""
        if self.error is None:
            self.error = e
        msg = "%s raised %s: %s" % (self.label, type(e).__name__, e)
        self.host._h.contents.fail(self.host._h, msg.encode(errors="replace")[:150])

    def _arbitrate(self, state, call):
        c = call.contents
        try:
            reqs = [Request(r.requester, r.frame, r.is_store, r.sync, r.addr, r.request_ps,
                            r.arrive_ps) for r in (c.req[i] for i in range(c.n))]
            return int(self.fn(ArbiterCall(c.now_ps, c.cycle, c.bank, c.last, reqs,
                                           self.host)))
        except BaseException as e:  # noqa: B902 -- re-raised in the caller after the run
            self._failed(e)
            return -1

    def _bank_of(self, state, addr, banks):
        try:
            return int(self.fn(addr, banks))
        except BaseException as e:  # noqa: B902
            self._failed(e)
            return banks

    def _schedule(self, state, call, order):
        c = call.contents
        try:
            got = list(self.fn(SchedulerCall(
                c.now_ps, c.cycle, c.width, _warps(c.warp, c.n), _warps(c.waiting, c.n_waiting),
                [c.last[i] for i in range(c.n_last)], self.host)))
            if len(got) != c.n:
                return 1
            for i, v in enumerate(got):
                order[i] = int(v) & 0xff
            return 0
        except BaseException as e:  # noqa: B902
            self._failed(e)
            return 1


def split(params):
    """The callables of a params dict (key -> Binding) and the rest."""
    bound, rest = {}, {}
    for key, value in (params or {}).items():
        if callable(value):
            bound[key] = Binding(key, value)
        else:
            rest[key] = value
    return bound, rest
