"""LaunchLab's Numba compile helper: one @cuda.jit kernel of a Python file to PTX, no GPU needed.

    python3 launchlab_numba.py FILE SIGNATURE CC [DISPLAY_NAME [KERNEL_NAME]]
    python3 launchlab_numba.py FILE SIGNATURE CC DISPLAY_NAME KERNEL_NAME FILE SIGNATURE CC ...   (several files)

FILE holds the student's kernel; SIGNATURE is the exercise's argument types as Numba spells them
("float32[::1], float32[::1], int64"); CC the compute capability ("9.0"); DISPLAY_NAME the file's name in messages
and in the PTX's line info (default: FILE); KERNEL_NAME picks one kernel when the file has several.

Each file's answer is one line on stdout, in order, starting with "LAUNCHLAB-NUMBA " followed by JSON:
  {"ok": true, "ptx": ..., "entry": ..., "kernel": ..., "line": DEF_LINE, "numba": VERSION}
  {"ok": false, "error": ONE_LINE, "line": LINE_OR_0, "kind": "syntax|import|kernel|contract|typing"}
  {"ok": false, "unavailable": ONE_LINE}
Everything else the file or Numba prints goes to stderr, which LaunchLab ignores.

The file is imported "safely": only its imports, function and class definitions and assignments run, so a copied
notebook cell that launches the kernel or allocates device memory at top level does not run here.
"""
import ast
import json
import linecache
import os
import re
import sys
import warnings

MARK = "LAUNCHLAB-NUMBA "
KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


class Answer(Exception):
    """A file's answer, raised from wherever it is known."""

    def __init__(self, obj):
        super().__init__()
        self.obj = obj


def answer(obj):
    raise Answer(obj)


def emit(obj):
    sys.__stdout__.write(MARK + json.dumps(obj) + "\n")
    sys.__stdout__.flush()


def fail(kind, error, line=0):
    answer({"ok": False, "kind": kind, "error": " ".join(str(error).split()), "line": int(line or 0)})


def numba_or_unavailable():
    try:
        import numpy as np
        if not hasattr(np, "row_stack"):  # removed in NumPy 2.5; numba 0.68 still names it
            np.row_stack = np.vstack
        import numba
        from numba import cuda, types
        return numba, cuda, types
    except Exception as e:  # ImportError, or a broken install
        answer({"ok": False, "unavailable": "%s has no usable numba-cuda (%s: %s)" %
                (sys.executable, type(e).__name__, " ".join(str(e).split()))})


def target_device(cc):
    """Device functions called from the kernel are compiled for "the current device" (numba-cuda 0.30 asks the
    driver), which a machine without a GPU does not have: they are compiled for the target's cc instead."""
    try:
        import numba.cuda.dispatcher as dispatcher

        class Target:
            compute_capability = cc

        dispatcher.get_current_device = lambda: Target()
    except (ImportError, AttributeError):
        pass


def is_jit(dec):
    """@cuda.jit, @cuda.jit(...), @numba.cuda.jit, @jit (from numba.cuda)."""
    node = dec.func if isinstance(dec, ast.Call) else dec
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name == "jit"


def is_device(dec):
    return isinstance(dec, ast.Call) and any(
        k.arg == "device" and isinstance(k.value, ast.Constant) and k.value.value for k in dec.keywords)


def kernels_of(tree):
    """The top-level functions decorated as kernels (not device functions), with their def lines."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            jits = [d for d in node.decorator_list if is_jit(d)]
            if jits and not any(is_device(d) for d in jits):
                found.append(node)
    return found


def same_file(name, display):
    return bool(name) and os.path.basename(str(name)) == os.path.basename(display)


def error_line(error, display):
    """The line of the student's file a Numba error is about: the last 'File "my.py", line 12' of its message, else
    the location Numba's typing or lowering held when it raised (a frame's `loc`, or an IR node's)."""
    named = [int(m.group(2)) for m in re.finditer(r'File "([^"]*)", line (\d+)', str(error))
             if same_file(m.group(1), display)]
    if named:
        return named[-1]
    line = 0
    tb = error.__traceback__
    while tb is not None:
        for key, value in list(tb.tb_frame.f_locals.items()):
            loc = value if key == "loc" else getattr(value, "loc", None)
            if same_file(getattr(loc, "filename", None), display) and isinstance(getattr(loc, "line", None), int):
                line = loc.line
        tb = tb.tb_next
    return line


def first_sentence(text):
    """Numba's error without its source excerpt, its list of candidates and its 'During: ...' trail."""
    keep = []
    for raw in str(text).splitlines():
        line = re.sub(r"\x1b?\[[0-9;]*m", "", raw).strip()
        if line.startswith(("File ", "During:", "There are ", "- Resolution failure", "<source missing")):
            break
        if line:
            keep.append(line)
    return " ".join(keep)[:400]


def compile_file(path, signature, cc, display, wanted):
    display = display or path
    with open(path, "rb") as f:
        raw = f.read()
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("syntax", "the file is not UTF-8 text (%s)" % e.reason)
    try:
        tree = ast.parse(source, display)
    except SyntaxError as e:
        fail("syntax", "SyntaxError: %s" % e.msg, e.lineno)
    kernels = kernels_of(tree)
    if wanted:
        kernels = [k for k in kernels if k.name == wanted] or kernels
    if not kernels:
        fail("kernel", "no @cuda.jit kernel in the file (a kernel is a function decorated with @cuda.jit)")
    if len(kernels) > 1:
        fail("kernel", "%d @cuda.jit kernels in the file (%s): keep one, or name it with --kernel-name" %
             (len(kernels), ", ".join("%s at line %d" % (k.name, k.lineno) for k in kernels)), kernels[1].lineno)
    kernel = kernels[0]
    numba, cuda, types = numba_or_unavailable()
    try:
        sig = eval("(" + signature + ",)", {"__builtins__": {}}, dict(vars(types)))
    except Exception as e:
        fail("contract", "the exercise's signature '%s' is not a Numba signature (%s)" % (signature, e))
    params = [a.arg for a in kernel.args.args]
    if len(params) != len(sig) or kernel.args.vararg or kernel.args.kwonlyargs:
        fail("contract", "%s(%s) takes %d argument%s; the exercise passes %d: (%s)" %
             (kernel.name, ", ".join(params), len(params), "" if len(params) == 1 else "s", len(sig), signature),
             kernel.lineno)
    safe = ast.Module(body=[n for n in tree.body if isinstance(n, KEPT)], type_ignores=[])
    linecache.cache[display] = (len(source), None, source.splitlines(True), display)
    namespace = {"__name__": "launchlab_kernel", "__file__": display}
    try:
        exec(compile(safe, display, "exec"), namespace)
    except Exception as e:
        tb = e.__traceback__
        line = 0
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == display:
                line = tb.tb_lineno
            tb = tb.tb_next
        fail("import", "%s: %s" % (type(e).__name__, e), line)
    dispatcher = namespace.get(kernel.name)
    py_func = getattr(dispatcher, "py_func", None)
    if py_func is None:
        fail("kernel", "%s is not a Numba CUDA kernel once the file is imported" % kernel.name, kernel.lineno)
    major, _, minor = cc.partition(".")
    target_device(cc=(int(major), int(minor or 0)))
    try:
        ptx, _ = cuda.compile_ptx(py_func, sig, cc=(int(major), int(minor or 0)), lineinfo=True)
    except Exception as e:
        text = str(e)
        fail("typing", "%s: %s" % (type(e).__name__, first_sentence(text)), error_line(e, display) or kernel.lineno)
    entry = re.search(r"\.entry\s+([A-Za-z0-9_$.]+)\s*\(", ptx)
    if not entry:
        fail("typing", "Numba gave PTX without a kernel entry", kernel.lineno)
    answer({"ok": True, "ptx": ptx, "entry": entry.group(1), "kernel": kernel.name, "line": kernel.lineno,
            "numba": getattr(numba, "__version__", "?")})


def main(args):
    if len(args) < 3 or (len(args) > 5 and len(args) % 5):
        emit({"ok": False, "kind": "usage", "error": "usage: launchlab_numba.py FILE SIGNATURE CC [DISPLAY [KERNEL]]",
              "line": 0})
        return
    jobs = [args[i:i + 5] for i in range(0, len(args), 5)]
    for job in jobs:
        job = (job + ["", ""])[:5]
        try:
            compile_file(*job)
        except Answer as a:
            emit(a.obj)
            if "unavailable" in a.obj:  # no numba: every file would say the same
                return
        except Exception as e:  # the helper's own failure is still one line
            emit({"ok": False, "kind": "internal", "error": "%s: %s" % (type(e).__name__, e), "line": 0})


if __name__ == "__main__":
    # Numba's warnings and the file's prints must not reach stdout, which carries the answers.
    sys.stdout = sys.stderr
    warnings.simplefilter("ignore")
    main(sys.argv[1:])
