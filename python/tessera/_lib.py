"""_lib.py — finds and loads libtessera.so (the shared build of the library)
and declares the run API of api/tessera.h for ctypes (its struct
tessera_counters_t: _structs.py). Search order: the TESSERA_LIB environment
variable, build/ of the source tree this package sits in, the install prefix
recorded by `cmake --install`, the loader's path."""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_TREE = os.path.dirname(os.path.dirname(_HERE))  # python/tessera -> the source tree
_SONAME = "libtessera.so"
_CWD = os.getcwd()  # a relative TESSERA_LIB/TESSERA_EXE is read from where we were imported


def _env(name):
    value = os.environ.get(name)
    return os.path.join(_CWD, value) if value and os.sep in value else value


def _installed():
    try:
        from . import _install  # written by `cmake --install`
        return _install.LIBDIR, _install.BINDIR
    except ImportError:
        return None, None


def _candidates():
    env = _env("TESSERA_LIB")
    if env:
        return [env]
    found = []
    if os.path.isfile(os.path.join(_TREE, "api", "tessera.h")):  # a source tree
        found.append(os.path.join(_TREE, "build", _SONAME))
    libdir, _ = _installed()
    if libdir:
        found.append(os.path.join(libdir, _SONAME))
    found.append(_SONAME + ".0")
    return found


def _declare(lib):
    from ._structs import Counters  # laid out from _codes.py, which needs _candidates()
    p, i, s = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    sigs = {
        "tessera_new": (p, []), "tessera_free": (None, [p]),
        "tessera_config_cli": (i, [p, s, ctypes.POINTER(s), i]),
        "tessera_load": (i, [p, s, s]), "tessera_load_source": (i, [p, s, s]),
        "tessera_record": (i, [p, s]), "tessera_run": (i, [p, ctypes.c_uint]),
        "tessera_stop": (None, [p, i]), "tessera_status": (s, [p]),
        "tessera_outcome_msg": (s, [p]), "tessera_errmsg": (s, [p]),
        "tessera_counters": (i, [p, ctypes.POINTER(Counters)]),
        "tessera_set_policy": (i, [p, s, p, s]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


_lib = None


def lib():
    """The loaded library (ctypes.CDLL: calls release the GIL). Raises
    TesseraError naming every place searched when it is not built."""
    global _lib
    if _lib is None:
        tried = []
        for path in _candidates():
            try:
                _lib = _declare(ctypes.CDLL(path))
                break
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
        if _lib is None:
            from .errors import TesseraError, codes
            raise TesseraError(
                "libtessera.so not found; build it first (cmake -S . -B build && "
                "cmake --build build -j2, with -DTESSERA_SHARED=ON, the default) or set "
                "TESSERA_LIB to its path. Tried: " + "; ".join(tried), codes.EIO)
    return _lib


def command():
    """The path of the `tessera` command beside the library (for sweeps):
    TESSERA_EXE, build/tessera of the source tree, the installed one, PATH."""
    import shutil
    env = _env("TESSERA_EXE")
    if env:
        return env
    libenv = _env("TESSERA_LIB")
    places = [os.path.join(os.path.dirname(libenv), "tessera")] if libenv else []
    if os.path.isfile(os.path.join(_TREE, "api", "tessera.h")):
        places.append(os.path.join(_TREE, "build", "tessera"))
    _, bindir = _installed()
    if bindir:
        places.append(os.path.join(bindir, "tessera"))
    for path in places:
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("tessera")
    if found:
        return found
    from .errors import TesseraError, codes
    raise TesseraError("the tessera command was not found (tried %s and PATH); build it "
                       "or set TESSERA_EXE" % ", ".join(places), codes.EIO)
