#!/usr/bin/env python3
"""vpux-pipeline.py -- list the passes of the NPU compiler's DefaultHW pipeline, in order.

    python3 tools/vpux-pipeline.py --profile 2026-npu50xx SOURCE > list.txt
    python3 tools/vpux-pipeline.py --list-profiles

SOURCE is a snapshot of the NPU compiler (openvinotoolkit/npu_compiler or a
fork): a checkout (the folder that holds src/vpux_compiler) or a bare git
directory, read at HEAD (or --rev).  The script reads the compiler's own
C++ pipeline builders and walks them from the entry point a profile names,
following every call into a sub-pipeline builder, in source order, and
writes one line per pass added (`pm.addPass(...create<X>Pass(...))`):
its printed name, the builder and source line it came from, and the
conditions it runs under.

Why a static walk.  No NPU compiler runs here, and none is needed to know
the pass order: the builders are plain sequences of addPass calls and
calls into other builders, under if statements on pipeline options.  The
walk reads them as such.  It does not compile C++; it knows the handful of
shapes the builders are written in, and says so where it meets anything
else ("unresolved" lines at the end: a call that takes the pass manager but
is no builder it found, an addPass whose argument is no create call).

The printed name.  MLIR's timing report prints Pass::getName(), which for a
pass declared in TableGen is the name of the `def`, as written: the def
`FuseClampPass` prints "FuseClampPass", the def `FeasibleAllocation` prints
"FeasibleAllocation".  The walk maps each create function to its def
through the `let constructor = "..."` line of the dialects' passes.td
files; passes without a def (the location verifier) and upstream MLIR
passes (Canonicalizer, CSE, ...) come from small tables below, each entry
saying where its name was read.

Conditions.  A pass under `if (options.enableX)` is listed with the
condition, rewritten into the options of the top-level pipeline (arguments
are substituted through the calls, `VPU::TilingOptions(options)` is taken as
`options`).  Each condition is then evaluated with the *declared* defaults
of the profile's option structs (`llvm::cl::init(...)` in the headers):
`on` (holds), `off` (fails) or `?` (the walk cannot decide: a function
call, an option whose default is computed, a profile fact it does not
know).  Code that changes options before the pipeline is built (the
OptionsSetup classes, `overwriteIfUnset`, TURBO, the optimization level) is
not evaluated, so `on`/`off` means "with the declared defaults", not "in
every real compile".  Branches that contradict a profile fact (the
compilation mode is DefaultHW) are not walked at all.

Variants.  Besides the defaults, each pass is evaluated in the profile's
named alternatives (the Strategy Manager pipeline, SCF tiling) and in
"extras": every option that is off by default and only ever read
un-negated turned on, so that passes behind such options (profiling,
ShaveCodeGen, ...) are checked too without bringing in a pass that excludes
another.  The `runs` column names the variants in which no condition fails.

Limits, on purpose.  The walk resolves overloads only by file and
architecture folder (NPU37XX/NPU40XX/NPU50XX), ignores the preprocessor
(both sides of an #if are read), does not expand macros or templates,
treats a loop body as running once (under a "loop:" condition), and records
a nested pass manager (`pm.nest<ModuleOp>()`) as a note, not as a deeper
level.  The names of upstream MLIR passes come from the table below, not
from this snapshot.  Anything the walk cannot follow is listed as
"unresolved" at the end of the output, never dropped silently.

What the output is for: npuscope's stage map (stages/vpux.stages) is
checked against these lists (tests/run_stagemap.sh).  The lists are data
derived from the compiler's source; the source itself is never copied.

Python 3 standard library only.
"""

import argparse
import os
import re
import subprocess
import sys

# ====== Profiles: where a walk starts ======
# entry: (scope, function) pairs walked in order; "scope" is the timing-report
# row the passes print under.  bind: an object in the entry code -> the class
# whose methods a call through it reaches (the strategy object is chosen at
# run time from the compilation mode; DefaultHW picks this one).  roots:
# variable names of the top-level option structs -> their struct, for the
# defaults.  facts: what the profile fixes (the compilation mode).
PROFILES = {
    "2024-npu40xx": {
        "desc": "NPU40XX DefaultHW, 2024 (PipelineStrategy40XX: one pass manager for the "
                "dialects, one for ELF, both timed under \"Compile network\")",
        "entry": [("main", "PipelineStrategy40XX::buildPipeline"),
                  ("elf", "PipelineStrategy40XX::buildELFPipeline")],
        "bind": {},
        "roots": {"options": ["DefaultHWOptions40XX"],
                  "initCompilerOptions": ["VPU::InitCompilerOptions"],
                  "backendCompilationOptions": ["BackendCompilationOptions40XX"]},
        "facts": {"compilationMode": "DefaultHW"},
        "variants": [("sm", {"options.enableSMPipeline": True})],
    },
    "2026-npu40xx": {
        "desc": "NPU40XX DefaultHW, 2026 (DefaultHwStrategy with DialectPipelineStrategy40XX; "
                "ELF from BackendPipelineStrategy40XX)",
        "entry": [("main", "DefaultHwStrategy::buildPipeline"),
                  ("elf", "BackendPipelineStrategy40XX::buildELFPipeline")],
        "bind": {"strategy": "DialectPipelineStrategy40XX"},
        "roots": {"options": ["DefaultHWOptions40XX"],
                  "initCompilerOptions": ["VPU::InitCompilerOptions"],
                  "backendCompilationOptions": ["BackendCompilationOptions40XX"]},
        "facts": {"compilationMode": "DefaultHW"},
        "variants": [("sm", {"options.enableSMPipeline": True}), ("scf", {"options.enableSCFTiling": True})],
    },
    "2026-npu50xx": {
        "desc": "NPU50XX DefaultHW, 2026 (DefaultHwStrategy with DialectPipelineStrategy50XX; "
                "ELF from BackendPipelineStrategy50XX)",
        "entry": [("main", "DefaultHwStrategy::buildPipeline"),
                  ("elf", "BackendPipelineStrategy50XX::buildELFPipeline")],
        "bind": {"strategy": "DialectPipelineStrategy50XX"},
        "roots": {"options": ["DefaultHWOptions50XX"],
                  "initCompilerOptions": ["VPU::InitCompilerOptions"],
                  "backendCompilationOptions": ["BackendCompilationOptions50XX"]},
        "facts": {"compilationMode": "DefaultHW"},
        "variants": [("sm", {"options.enableSMPipeline": True}), ("scf", {"options.enableSCFTiling": True})],
    },
}

# ====== Passes whose printed name is not a TableGen def ======
# Upstream MLIR passes: the def names of MLIR's own Passes.td.  They are not
# in the compiler's snapshot; the names are MLIR's (mlir/include/mlir/
# Transforms/Passes.td and the dialects' Transforms/Passes.td).
UPSTREAM = {
    "mlir::createCanonicalizerPass": ("Canonicalizer", "any"),
    "mlir::createCSEPass": ("CSE", "any"),
    "mlir::createLoopInvariantCodeMotionPass": ("LoopInvariantCodeMotion", "any"),
    "mlir::createInlinerPass": ("Inliner", "module"),
    "mlir::createSymbolDCEPass": ("SymbolDCE", "any"),
    "mlir::createSCFToControlFlowPass": ("SCFToControlFlow", "any"),
    "mlir::createLowerAffinePass": ("LowerAffinePass", "any"),
    "mlir::createReconcileUnrealizedCastsPass": ("ReconcileUnrealizedCasts", "any"),
    # renamed ResolveShapedTypeResultDimsPass in newer LLVM; older LLVM: ResolveShapedTypeResultDims
    "mlir::memref::createResolveShapedTypeResultDimsPass": ("ResolveShapedTypeResultDimsPass", "any"),
    "mlir::memref::createExpandStridedMetadataPass": ("ExpandStridedMetadataPass", "any"),
    # the Linalg passes of the ShaveCodeGen pipelines (off by default)
    "mlir::createLinalgElementwiseOpFusionPass": ("LinalgElementwiseOpFusionPass", "any"),
    "mlir::createLinalgGeneralizeNamedOpsPass": ("LinalgGeneralizeNamedOpsPass", "any"),
    "mlir::createConvertLinalgToAffineLoopsPass": ("ConvertLinalgToAffineLoopsPass", "any"),
}
# C++ passes of the compiler that override getName() themselves: create
# function -> (printed name, kind, file whose getName() returns it).  The walk
# checks that the string is in that file.
CPP_NAMED = {
    "locverif::createStartLocationVerifierPass":
        ("StartLocationVerifierPass", "module", "src/vpux_compiler/src/locverif/setup_location_verifier.cpp"),
    "locverif::createStopLocationVerifierPass":
        ("StopLocationVerifierPass", "module", "src/vpux_compiler/src/locverif/setup_location_verifier.cpp"),
}

ROOT = "src/vpux_compiler/"
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "catch", "do", "else", "case",
            "static_assert", "decltype", "alignof", "new", "delete", "throw"}


# ====== Reading a snapshot ======

class Source:
    """The files of a snapshot below src/vpux_compiler: a checkout or a git directory."""

    def __init__(self, path, rev):
        self.path, self.rev, self.git = path, rev, None
        if os.path.isdir(os.path.join(path, "objects")) and os.path.isfile(os.path.join(path, "HEAD")):
            self.git = path
        elif os.path.isdir(os.path.join(path, ".git")) and not os.path.isdir(os.path.join(path, ROOT)):
            self.git = os.path.join(path, ".git")
        if self.git:
            out = self._git("ls-tree", "-r", "--name-only", rev, "--", ROOT)
            self.files = [f for f in out.splitlines() if f]
            self.commit = self._git("rev-parse", rev + "^{commit}").strip()
            self.date = self._git("log", "-1", "--format=%cs %s", self.commit).strip()
        else:
            if not os.path.isdir(os.path.join(path, ROOT)):
                sys.exit("vpux-pipeline: %s: no %s here (a checkout of npu_compiler, or its git directory)"
                         % (path, ROOT))
            self.files = []
            for d, _, names in os.walk(os.path.join(path, ROOT)):
                for n in names:
                    self.files.append(os.path.relpath(os.path.join(d, n), path).replace(os.sep, "/"))
            self.files.sort()
            self.commit, self.date = None, None
            # a checkout of a git repository still knows its commit
            try:
                self.commit = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], check=True,
                                             capture_output=True, text=True).stdout.strip() or None
                self.date = subprocess.run(["git", "-C", path, "log", "-1", "--format=%cs %s"], check=True,
                                           capture_output=True, text=True).stdout.strip() or None
            except (OSError, subprocess.CalledProcessError):
                pass
        self._cache = {}

    def _git(self, *args):
        return subprocess.run(["git", "--git-dir", self.git] + list(args), check=True,
                              capture_output=True, text=True).stdout

    def read_all(self, names):
        """Read many files at once (one git cat-file for a git directory)."""
        names = [n for n in names if n not in self._cache]
        if not names:
            return
        if self.git:
            inp = "".join("%s:%s\n" % (self.rev, n) for n in names)
            out = subprocess.run(["git", "--git-dir", self.git, "cat-file", "--batch"], input=inp.encode(),
                                 check=True, capture_output=True).stdout
            pos = 0
            for n in names:
                nl = out.index(b"\n", pos)
                head = out[pos:nl].split()
                size = int(head[2])
                self._cache[n] = out[nl + 1:nl + 1 + size].decode("utf-8", "replace")
                pos = nl + 1 + size + 1
        else:
            for n in names:
                with open(os.path.join(self.path, n), encoding="utf-8", errors="replace") as f:
                    self._cache[n] = f.read()

    def read(self, name):
        self.read_all([name])
        return self._cache[name]


# ====== C++ text: comments, strings, tokens ======

def strip_cpp(text, keep_strings=False):
    """Blank out comments (and string contents, unless keep_strings), keeping
    every newline so that line numbers stay right."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            body = text[i:end]
            out.append(body if keep_strings else '"' + re.sub(r"[^\n]", " ", body[2:-1]) + '"')
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            lit = text[i:j]
            if c == "'" and i > 0 and (text[i - 1].isalnum()):   # digit separator 1'000
                out.append(" ")
                i += 1
                continue
            out.append(lit if keep_strings else c + " " * max(0, len(lit) - 2) + c)
            i = j
        else:
            out.append(c)
            i += 1
    # preprocessor lines (with their continuations) are no C++ to walk
    return re.sub(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                  "".join(out))


TOKEN_RE = re.compile(r'\s+|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<chr>\'[^\'\n]*\')|(?P<id>[A-Za-z_]\w*)'
                      r'|(?P<num>\.?\d[\w.]*)|(?P<op>::|->|&&|\|\||==|!=|<=|>=|\+\+|--|[^\s\w])')


class Tok:
    __slots__ = ("t", "k", "line")

    def __init__(self, t, k, line):
        self.t, self.k, self.line = t, k, line

    def __repr__(self):
        return self.t


def tokenize(text):
    toks, line = [], 1
    for m in TOKEN_RE.finditer(text):
        s = m.group(0)
        if m.lastgroup:
            toks.append(Tok(s, m.lastgroup, line))
        line += s.count("\n")
    return toks


def match_close(toks, i):
    """Index of the bracket closing toks[i] ( ( [ { )."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [toks[i].t]
    j = i + 1
    while j < len(toks):
        t = toks[j].t
        if t in pairs:
            stack.append(t)
        elif t in (")", "]", "}"):
            if pairs[stack[-1]] != t:
                # unbalanced (macro tricks): trust braces most
                while stack and pairs[stack[-1]] != t:
                    stack.pop()
                if not stack:
                    return j
            stack.pop()
            if not stack:
                return j
        j += 1
    return len(toks) - 1


def split_top(toks, sep=","):
    """Split a token list at top-level separators (not inside (), [], {}, <>)."""
    parts, cur, depth, angle = [], [], 0, 0
    for t in toks:
        if t.t in "([{":
            depth += 1
        elif t.t in ")]}":
            depth -= 1
        elif t.t == "<" and depth == 0:
            angle += 1
        elif t.t == ">" and depth == 0 and angle > 0:
            angle -= 1
        if t.t == sep and depth == 0 and angle == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur or parts:
        parts.append(cur)
    return parts


def render(toks):
    """Tokens back to compact C++ text: `options.enableX && !foo(a, b)`."""
    out = ""
    prev = None
    for t in toks:
        s = t.t
        if prev is None:
            out = s
        elif s in (".", "->", "::", ")", "]", ",", ";") or prev in (".", "->", "::", "(", "[", "!", "~", "*u", "&u"):
            out += s if s != "," else ", "
        elif s in ("(", "[") and (prev_k in ("id", "op") and prev not in ("&&", "||", "?", ":", "=", "==", "!=", ",")):
            out += s
        elif s == "<" and prev_k == "id" and prev in ("nest", "make_unique", "addNestedPass"):
            out += s
        else:
            out += (" " if not out.endswith(" ") else "") + s
        prev, prev_k = s, t.k
        if s in ("*", "&") and (len(out) == 1 or out[-2] in "(! ,"):
            prev = s + "u"
    return re.sub(r"\s+", " ", out).strip()


# ====== Scopes: namespaces, classes, functions ======

class Func:
    def __init__(self, qual, file, line, params, body, toks, ns):
        self.qual, self.file, self.line = qual, file, line
        self.params, self.body, self.toks, self.ns = params, body, toks, ns
        self.name = qual.split("::")[-1]

    def param_names(self):
        names = []
        for p in split_top(self.params):
            p = p[:next((i for i, t in enumerate(p) if t.t == "="), len(p))]
            ids = [t.t for t in p if t.k == "id"]
            names.append(ids[-1] if ids else "")
        return names

    def pm_params(self):
        out = []
        for p, name in zip(split_top(self.params), self.param_names()):
            if any(t.t in ("OpPassManager", "PassManager") for t in p):
                out.append(name)
        return out


class Klass:
    def __init__(self, qual, file, bases, body, toks, ns):
        self.qual, self.file, self.bases, self.body, self.toks, self.ns = qual, file, bases, body, toks, ns


def strip_vpux(q):
    if q == "vpux":
        return ""
    return q[6:] if q.startswith("vpux::") else q


def scan_scopes(toks, file, funcs, klasses):
    """Record functions (with a body) and classes of one file, with their
    qualified names (the vpux:: prefix dropped, anonymous namespaces
    dropped)."""
    stack = []          # (kind, name)
    start, i, n = 0, 0, len(toks)
    while i < n:
        t = toks[i].t
        if t == "{":
            pend = toks[start:i]
            kind, name, extra = classify(pend)
            scope_ns = [s[1] for s in stack if s[0] in ("ns", "class") and s[1]]
            if kind == "func" and all(s[0] in ("ns", "class") for s in stack):
                j = match_close(toks, i)
                q = strip_vpux("::".join(scope_ns + [name]))
                ns = [s[1] for s in stack if s[0] == "ns" and s[1]]
                funcs.append(Func(q, file, toks[i].line if not pend else pend[0].line, extra,
                                  (i + 1, j), toks, strip_vpux("::".join(ns + name.split("::")[:-1]))))
                i = j + 1
                start = i
                continue
            if kind == "ns":
                stack.append(("ns", name))
            elif kind == "class" and all(s[0] in ("ns", "class") for s in stack):
                j = match_close(toks, i)
                q = strip_vpux("::".join(scope_ns + [name]))
                klasses.append(Klass(q, file, extra, (i + 1, j), toks, strip_vpux("::".join(scope_ns))))
                stack.append(("class", name))
            else:
                j = match_close(toks, i)
                i = j + 1
                start = i
                continue
            i += 1
            start = i
            continue
        if t == "}":
            if stack:
                stack.pop()
            i += 1
            start = i
            continue
        if t == ";":
            start = i + 1
        elif t == ":" and i > 0 and toks[i - 1].t in ("public", "private", "protected") and i - 1 == start:
            start = i + 1
        i += 1


def classify(pend):
    """What a '{' opens, from the tokens since the last ; { or }."""
    if not pend:
        return "block", None, None
    ts = [t.t for t in pend]
    if ts[0] == "namespace" or (ts[0] == "inline" and len(ts) > 1 and ts[1] == "namespace"):
        k = ts.index("namespace")
        return "ns", "".join(ts[k + 1:]), None
    if ts[0] == "extern":
        return "ns", "", None
    if "enum" in ts:
        return "block", None, None
    # class / struct: the last such keyword outside <...>
    angle, kpos = 0, -1
    for idx, s in enumerate(ts):
        if s == "<":
            angle += 1
        elif s == ">":
            angle -= 1
        elif s in ("class", "struct", "union") and angle == 0:
            kpos = idx
    if kpos >= 0 and "=" not in ts[kpos:] and "(" not in ts[kpos:kpos + 2]:
        name = ts[kpos + 1] if kpos + 1 < len(ts) else ""
        bases = []
        if ":" in ts[kpos:]:
            c = kpos + ts[kpos:].index(":")
            for part in split_top(pend[c + 1:]):
                ids = [x.t for x in part if x.t not in ("public", "private", "protected", "virtual")]
                q = []
                for s in ids:
                    if s == "<":
                        break
                    q.append(s)
                bases.append("".join(q))
        return "class", name, bases
    # function: name ( params ) [qualifiers] [: init-list]
    depth, first = 0, -1
    for idx, s in enumerate(ts):
        if s == "=" and depth == 0 and first < 0:
            return "block", None, None
        if s == "(":
            if depth == 0 and first < 0:
                first = idx
            depth += 1
        elif s == ")":
            depth -= 1
    if first <= 0:
        return "block", None, None
    j = first - 1
    name = []
    while j >= 0 and (pend[j].k == "id" or ts[j] in ("::", "~")):
        if pend[j].k == "id" and j + 1 < first and ts[j + 1] not in ("::",) and name and name[0] != "::":
            break
        name.insert(0, ts[j])
        j -= 1
    if not name or name[-1] in KEYWORDS or name[-1] == "::":
        return "block", None, None
    close = match_close(pend, first)
    return "func", "".join(name), pend[first + 1:close]


# ====== Function bodies: statements ======

def parse_stmts(toks, i, end):
    nodes = []
    while i < end:
        node, i = parse_stmt(toks, i, end)
        if node:
            nodes.append(node)
    return nodes


def parse_stmt(toks, i, end):
    t = toks[i].t
    if t == "{":
        j = match_close(toks, i)
        return ("block", parse_stmts(toks, i + 1, j)), j + 1
    if t == ";":
        return None, i + 1
    if t == "if":
        k = i + 1
        if toks[k].t == "constexpr":
            k += 1
        c = match_close(toks, k)
        then, j = parse_stmt(toks, c + 1, end)
        els = None
        if j < end and toks[j].t == "else":
            els, j = parse_stmt(toks, j + 1, end)
        return ("if", toks[k + 1:c], then, els, toks[i].line), j
    if t in ("for", "while") and i + 1 < end and toks[i + 1].t == "(":
        c = match_close(toks, i + 1)
        body, j = parse_stmt(toks, c + 1, end)
        return ("loop", toks[i:c + 1], body, toks[i].line), j
    if t == "do":
        body, j = parse_stmt(toks, i + 1, end)
        if j < end and toks[j].t == "while":
            c = match_close(toks, j + 1)
            j = c + 2
        return ("loop", toks[i:i + 1], body, toks[i].line), j
    if t == "switch":
        c = match_close(toks, i + 1)
        body, j = parse_stmt(toks, c + 1, end)
        return ("loop", toks[i:c + 1], body, toks[i].line), j
    if t in ("case", "default") and not (i + 1 < end and toks[i + 1].t == "::"):
        j = i
        while j < end and toks[j].t != ":":
            j += 1
        return None, j + 1
    j, depth = i, 0
    while j < end:
        s = toks[j].t
        if s in "([{":
            depth += 1
        elif s in ")]}":
            depth -= 1
        elif s == ";" and depth == 0:
            break
        j += 1
    return ("stmt", toks[i:j], toks[i].line), j + 1


# ====== Option defaults ======

OPTION_RE = re.compile(r"\b(\w*Option(?:<[^;{}]*?>)?)\s+(\w+)\s*\{\s*\*this\s*,\s*\"([^\"]*)\"")


def option_decls(klass, raw_text):
    """name -> default of the options declared in a class body (raw text with strings)."""
    out = {}
    toks = klass.toks
    a, b = klass.body
    if b <= a:
        return out
    # the class body as raw text: by line range (good enough: declarations are line-based)
    lines = raw_text.split("\n")
    body = "\n".join(lines[toks[a].line - 1:toks[b].line])
    for m in OPTION_RE.finditer(body):
        # the initializer braces
        j, depth = m.end(), 1
        while j < len(body) and depth:
            if body[j] == "{":
                depth += 1
            elif body[j] == "}":
                depth -= 1
            j += 1
        init = body[m.end():j]
        v = re.search(r"llvm::cl::init\(\s*(.*?)\s*\)\s*[,}]", init, re.S) or \
            re.search(r"\bcl::init\(\s*(.*?)\s*\)\s*[,}]", init, re.S)
        out[m.group(2)] = parse_value(v.group(1)) if v else ("?", None)
    return out


def parse_value(s):
    s = s.strip()
    if s in ("true", "false"):
        return ("bool", s == "true")
    if re.fullmatch(r"-?\d+(\.\d+)?", s):
        return ("num", float(s))
    if re.fullmatch(r'"[^"]*"', s):
        return ("str", s[1:-1])
    if re.fullmatch(r"[\w:]+::\w+", s) and not s.endswith(")"):
        return ("enum", s.split("::")[-1])
    return ("?", s)


class Options:
    """Declared defaults of a profile's top-level option structs."""

    def __init__(self, klasses_by_name, raw, roots):
        self.values = {}
        self.origin = {}
        for var, structs in roots.items():
            merged = {}
            for s in structs:
                for name, val in self._collect(klasses_by_name, raw, s).items():
                    merged.setdefault(name, val)
            self.values[var] = merged

    def _collect(self, kbn, raw, start):
        """BFS over the bases, most-derived first; a name declared in two
        unrelated bases with different defaults is '?'."""
        out, level, seen = {}, [(start, "")], set()
        while level:
            nxt, here = [], {}
            for name, ns in level:
                k = resolve_name(kbn, name, ns)
                if not k or k.qual in seen:
                    continue
                seen.add(k.qual)
                for o, v in option_decls(k, raw[k.file]).items():
                    if o in out:
                        continue
                    if o in here and here[o] != v:
                        here[o] = ("?", "conflicting defaults")
                    else:
                        here.setdefault(o, v)
                for b in k.bases:
                    nxt.append((b, k.ns))
            for o, v in here.items():
                out.setdefault(o, v)
            level = nxt
        return out

    def get(self, var, name):
        return self.values.get(var, {}).get(name)


def resolve_name(table, name, ns):
    """A (possibly partly qualified) name seen in namespace ns -> the entry of table."""
    name = strip_vpux(name)
    parts = ns.split("::") if ns else []
    for k in range(len(parts), -1, -1):
        q = "::".join(parts[:k] + [name])
        if q in table:
            return table[q]
    return None


# ====== Conditions ======

class Eval:
    """Three-valued evaluation of a C++ condition: True, False or None (?)."""

    def __init__(self, opts, facts, use_options=True, over=None):
        self.opts, self.facts, self.use_options = opts, facts, use_options
        self.over = over or {}      # "root.name" -> value, and "root.name.hasValue" -> True

    def run(self, toks):
        self.t, self.i = [x.t for x in toks], 0
        try:
            v = self.expr()
            if self.i != len(self.t):
                return None
            return v
        except (IndexError, ValueError):
            return None

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def expr(self):
        v = self.land()
        while self.peek() == "||":
            self.i += 1
            w = self.land()
            v = True if (v is True or w is True) else (False if (v is False and w is False) else None)
        return v

    def land(self):
        v = self.cmp()
        while self.peek() == "&&":
            self.i += 1
            w = self.cmp()
            v = False if (v is False or w is False) else (True if (v is True and w is True) else None)
        return v

    def cmp(self):
        a = self.unary()
        op = self.peek()
        if op in ("==", "!=", "<", ">", "<=", ">="):
            self.i += 1
            b = self.unary()
            if a is None or b is None or isinstance(a, bool) != isinstance(b, bool):
                return None
            try:
                return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
            except TypeError:
                return None
        return self.truth(a)

    @staticmethod
    def truth(a):
        if a is None or isinstance(a, bool):
            return a
        if isinstance(a, float):
            return a != 0
        return None

    def unary(self):
        if self.peek() == "!":
            self.i += 1
            v = self.truth(self.unary())
            return None if v is None else not v
        if self.peek() == "(":
            self.i += 1
            v = self.expr()
            if self.peek() != ")":
                raise ValueError
            self.i += 1
            return v
        return self.atom()

    def atom(self):
        # a name: ids joined by . -> :: and calls
        start = self.i
        parts = []
        while self.i < len(self.t):
            s = self.t[self.i]
            if re.fullmatch(r"[A-Za-z_]\w*", s) or s in (".", "->", "::"):
                parts.append(s)
                self.i += 1
            elif re.fullmatch(r"\.?\d[\w.]*", s) and not parts:
                self.i += 1
                return float(s.rstrip("uUlLfF"))
            elif s == "(" and parts:
                c = self.match(self.i)
                inner = self.t[self.i + 1:c]
                self.i = c + 1
                fn = "".join(parts)
                if fn in ("isOptionEnabled",) or fn.endswith("::isOptionEnabled"):
                    return Eval(self.opts, self.facts, self.use_options, self.over).run(
                        [Tok(x, "", 0) for x in inner])
                if fn in ("getCompilationMode",):
                    return ("enum", self.facts.get("compilationMode"))
                if parts[-1] in ("getValue", "value") and len(parts) >= 3:
                    parts = parts[:-2]
                    continue
                if parts[-1] in ("hasValue", "has_value") and len(parts) >= 3 and self.use_options:
                    # an option nobody set has no value (MLIR's Option::hasValue)
                    m = re.fullmatch(r"(\w+)(?:\.|->)(\w+)", "".join(parts[:-2]))
                    if m and ("%s.%s.hasValue" % (m.group(1), m.group(2))) in self.over:
                        return True
                    if m and self.opts and self.opts.get(m.group(1), m.group(2)) is not None:
                        return False
                    return None
                return None
            else:
                break
        if self.i == start:
            raise ValueError
        name = "".join(parts)
        if name in ("true", "false"):
            return name == "true"
        if name in self.facts:
            return ("enum", self.facts[name])
        m = re.fullmatch(r"(\w+)(?:\.|->)(\w+)", name)
        if m:
            if not self.use_options:
                return None
            if "%s.%s" % (m.group(1), m.group(2)) in self.over:
                return self.over["%s.%s" % (m.group(1), m.group(2))]
            v = self.opts.get(m.group(1), m.group(2)) if self.opts else None
            if v is None or v[0] == "?":
                return None
            if v[0] == "enum":
                return ("enum", v[1])
            return v[1]
        if "::" in name:
            return ("enum", name.split("::")[-1])
        return None

    def match(self, i):
        depth = 0
        for j in range(i, len(self.t)):
            if self.t[j] == "(":
                depth += 1
            elif self.t[j] == ")":
                depth -= 1
                if depth == 0:
                    return j
        raise ValueError


# ====== The walk ======

class Walker:
    def __init__(self, src, profile):
        self.src, self.profile = src, profile
        cpp = [f for f in src.files if f.endswith((".cpp", ".hpp", ".h"))]
        self.td_files = [f for f in src.files if f.endswith(".td")]
        src.read_all(cpp + self.td_files)
        self.raw = {}
        self.funcs, klasses = [], []
        for f in cpp:
            text = src.read(f)
            self.raw[f] = strip_cpp(text, keep_strings=True)
            scan_scopes(tokenize(strip_cpp(text)), f, self.funcs, klasses)
        self.builders, self.byqual = {}, {}
        for fn in self.funcs:
            self.byqual.setdefault(fn.qual, []).append(fn)
            if fn.pm_params():
                self.builders.setdefault(fn.qual, []).append(fn)
        self.klasses = {}
        for k in klasses:
            self.klasses.setdefault(k.qual, k)
        self.opts = Options(self.klasses, self.raw, profile["roots"])
        self.facts = profile["facts"]
        self.passes = self.read_td()
        self.rows, self.unresolved = [], []
        self.allconds, self.nestconds = [], []

    # ---- TableGen: create function -> def
    def read_td(self):
        table = {}
        for f in self.td_files:
            text = re.sub(r"//[^\n]*", "", self.src.read(f))
            defs = list(re.finditer(r"^def\s+(\w+)\s*:\s*(\w+)\s*<\s*\"([^\"]*)\"\s*(?:,\s*\"([^\"]*)\")?",
                                    text, re.M))
            for d, nxt in zip(defs, defs[1:] + [None]):
                chunk = text[d.end():nxt.start() if nxt else len(text)]
                base = (d.group(4) or "") + " " + d.group(2)
                kind = "function" if ("Function" in base or "FuncOp" in base) else \
                    ("module" if "Module" in base else "any")
                m = re.search(r"let\s+constructor\s*=\s*(?:\"|\[\{)\s*([\w:]+)", chunk)
                key = strip_vpux(m.group(1).strip()) if m else None
                entry = (d.group(1), kind, "%s" % f)
                if key:
                    table.setdefault(key, []).append(entry)
        return table

    def pass_name(self, create, caller):
        """create function (as written) -> (printed name, kind, how)."""
        c = strip_vpux(create)
        if c in UPSTREAM or "mlir::" + c in UPSTREAM:
            n, k = UPSTREAM.get(c) or UPSTREAM["mlir::" + c]
            return n, k, "upstream MLIR"
        for cand in [c] + [q for q in self.qualify(c, caller.ns)]:
            if cand in self.passes:
                e = self.passes[cand]
                if len({x[0] for x in e}) > 1:
                    return "?" + c, "?", "ambiguous: " + ", ".join(x[0] for x in e)
                return e[0][0], e[0][1], "td"
            if cand in CPP_NAMED:
                n, k, f = CPP_NAMED[cand]
                if f in self.raw and ('"%s"' % n) in self.raw[f]:
                    return n, k, "getName() in " + f
                return "?" + c, "?", "getName() not found in " + f
        # no def names it: read the create function's definition
        via = self.via_cpp(c, caller, set())
        if via:
            return via
        # last component only, if unique
        last = c.split("::")[-1]
        hits = {k: v for k, v in self.passes.items() if k.split("::")[-1] == last}
        if len(hits) == 1:
            e = list(hits.values())[0]
            return e[0][0], e[0][1], "td (by name)"
        return "?" + c, "?", "no def found"

    def via_cpp(self, c, caller, seen):
        """A create function no def's constructor names: follow its body.
        `return createY(...)` -> Y's name; `std::make_unique<T>(...)` -> the
        def whose generated base class T derives from (def X generates XBase),
        or T's own getName() literal."""
        if c in seen:
            return None
        seen.add(c)
        fns = []
        for q in [c] + self.qualify(c, caller.ns):
            fns = self.byqual.get(q, [])
            if fns:
                break
        for fn in fns:
            a, b = fn.body
            ts = [t.t for t in fn.toks[a:b]]
            for k, s in enumerate(ts):
                if s == "make_unique" and k + 1 < len(ts) and ts[k + 1] == "<":
                    cls = ts[k + 2]
                    for kq, kl in self.klasses.items():
                        if kq.split("::")[-1] != cls:
                            continue
                        for base in kl.bases:
                            bn = base.split("::")[-1]
                            if bn.endswith("Base") and any(e[0] == bn[:-4] for v in self.passes.values() for e in v):
                                kind = next(e[1] for v in self.passes.values() for e in v if e[0] == bn[:-4])
                                return bn[:-4], kind, "td (via %s in %s)" % (cls, fn.file)
                    return None
                if re.fullmatch(r"create\w*", s) and k + 1 < len(ts) and ts[k + 1] == "(" and k > 0 \
                        and ts[k - 1] in ("return", "::"):
                    j = k
                    while j >= 2 and ts[j - 1] == "::":
                        j -= 2
                    inner = strip_vpux("".join(ts[j:k + 1]))
                    if inner == c.split("::")[-1] or inner == c:
                        continue
                    for cand in [inner] + self.qualify(inner, fn.ns):
                        if cand in self.passes:
                            e = self.passes[cand][0]
                            return e[0], e[1], "td (via %s in %s)" % (inner, fn.file)
                    r = self.via_cpp(inner, fn, seen)
                    if r:
                        return r
        return None

    @staticmethod
    def qualify(name, ns):
        parts = ns.split("::") if ns else []
        return ["::".join(parts[:k] + [name]) for k in range(len(parts), 0, -1)]

    def find_builder(self, callee, caller, nargs, objclass=None):
        if objclass:
            cands = self.builders.get(objclass + "::" + callee, [])
        else:
            c = strip_vpux(callee)
            cands = []
            # a method of the caller's own class first
            if "::" not in c and "::" in caller.qual:
                cls = caller.qual.rsplit("::", 1)[0]
                cands = self.builders.get(cls + "::" + c, [])
            cands = [f for f in cands if f is not caller]
            if not cands:
                for q in [c] + self.qualify(c, caller.ns):
                    if q in self.builders:
                        cands = [f for f in self.builders[q] if f is not caller]
                        if cands:
                            break
        if not cands:
            return None
        # overloads (the same name per architecture, told apart by the option
        # type): the caller's own file first, then its architecture's folder
        same = [f for f in cands if f.file == caller.file]
        arch = re.search(r"/(NPU\d\dXX)/", caller.file)
        samearch = [f for f in cands if arch and ("/%s/" % arch.group(1)) in f.file]
        cands = same or samearch or cands
        byargs = [f for f in cands if len(f.param_names()) >= nargs] or cands
        # exact arity first (defaults make >= possible)
        exact = [f for f in byargs if len(f.param_names()) == nargs]
        return (exact or byargs)[0]

    def walk(self):
        import copy
        base = copy.deepcopy(self.opts.values)
        for scope, entry in self.profile["entry"]:
            # each entry point parses its own options: start from the declared defaults
            self.opts.values = copy.deepcopy(base)
            self.entry_opts = self.opts.values
            fns = self.builders.get(entry)
            if not fns:
                self.unresolved.append(("-", "entry point %s not found" % entry))
                continue
            fn = fns[0]
            self.walk_fn(fn, scope, set(fn.pm_params()), {}, [], [fn.qual], dict(self.profile["bind"]))

    def walk_fn(self, fn, scope, pmvars, subst, conds, chain, bind):
        a, b = fn.body
        nodes = parse_stmts(fn.toks, a, b)
        self.visit(nodes, fn, scope, set(pmvars), subst, conds, chain, bind, {})

    def cond_entry(self, toks, subst, negate, fn, line):
        ctoks = canon(substitute(toks, subst))
        text = render(ctoks)
        return {"toks": ctoks, "text": ("!(%s)" % text) if negate else text, "neg": negate,
                "where": "%s:%d" % (fn.file, line)}

    def truth(self, c, use_options=True, over=None):
        v = Eval(self.opts, self.facts, use_options, over).run(c["toks"])
        if v is None:
            return None
        return (not v) if c["neg"] else v

    def visit(self, nodes, fn, scope, pmvars, subst, conds, chain, bind, notes):
        for node in nodes:
            kind = node[0]
            if kind == "block":
                self.visit(node[1], fn, scope, pmvars, subst, conds, chain, bind, notes)
            elif kind == "if":
                _, ctoks, then, els, line = node
                c = self.cond_entry(ctoks, subst, False, fn, line)
                fact = self.truth(c, use_options=False)
                # a branch a profile fact decides is walked (or not) without its condition
                if fact is None:
                    self.allconds.append(c)
                if fact is not False and then:
                    self.visit([then], fn, scope, pmvars, subst, conds + ([c] if fact is None else []),
                               chain, bind, notes)
                if els and fact is not True:
                    ce = dict(c)
                    ce["neg"] = True
                    ce["text"] = "!(%s)" % c["text"]
                    if fact is None:
                        self.allconds.append(ce)
                    self.visit([els], fn, scope, pmvars, subst, conds + ([ce] if fact is None else []),
                               chain, bind, notes)
            elif kind == "loop":
                _, head, body, line = node
                c = {"toks": [Tok("?", "", 0)], "text": "loop: " + render(head), "neg": False,
                     "where": "%s:%d" % (fn.file, line)}
                self.visit([body], fn, scope, pmvars, subst, conds + [c], chain, bind, notes)
            elif kind == "stmt":
                self.statement(node[1], node[2], fn, scope, pmvars, subst, conds, chain, bind, notes)

    def statement(self, toks, line, fn, scope, pmvars, subst, conds, chain, bind, notes):
        ts = [t.t for t in toks]
        if not ts:
            return
        # alias of the pass manager: auto& nestedPm = cond ? pm.nest<...>() : pm;
        if "=" in ts and ts.index("=") > 0 and any(v in ts[ts.index("=") + 1:] for v in pmvars) \
                and "addPass" not in ts:
            eq = ts.index("=")
            name = ts[eq - 1]
            rhs = toks[eq + 1:]
            pmvars.add(name)
            self.nestconds.append(render(substitute(rhs, subst)))
            if "nest" in [t.t for t in rhs]:
                q = [t.t for t in rhs].index("?") if "?" in [t.t for t in rhs] else -1
                notes[name] = "via %s (a nested module pass manager when %s)" % (name, render(substitute(rhs[:q], subst))) \
                    if q > 0 else "via %s (a nested pass manager)" % name
            return
        # a local the conditions below may use: [const] bool|auto NAME = EXPR;
        # (options parsed from the config string keep their name: the
        # profile's roots name them)
        m = re.fullmatch(r"(?:const )?(?:bool|auto) (\w+) = (.*)", " ".join(ts))
        if m and not any(v in ts for v in pmvars) and "addPass" not in ts:
            rhs = toks[ts.index("=") + 1:]
            if not any(t.t in ("createFromString", "parseCompilationModeParams") for t in rhs) \
                    and m.group(1) not in self.profile["roots"]:
                subst[m.group(1)] = canon(substitute(rhs, subst))
            return
        # an option set in the walked code: ROOT->NAME = VALUE; / overwriteIfUnset(ROOT->NAME, VALUE);
        m = re.fullmatch(r"(\w+) (?:\.|->) (\w+) = (.+)", " ".join(ts)) or \
            re.fullmatch(r"overwriteIfUnset \( (\w+) (?:\.|->) (\w+) , (.+) \)", " ".join(ts))
        if m and m.group(1) in self.profile["roots"]:
            val = parse_value(m.group(3).replace(" ", ""))
            src = re.fullmatch(r"(\w+)(?:\.|->)(\w+)", m.group(3).replace(" ", ""))
            if src and src.group(1) in self.profile["roots"]:
                val = self.opts.get(src.group(1), src.group(2)) or ("?", None)
            if not all(self.truth(c) is True for c in conds):
                val = ("?", "set under a condition")
            self.opts.values.setdefault(m.group(1), {})[m.group(2)] = val
            return
        # pm.nest<Op>().addPass(...) / .addNestedPass<Op>(...): a pass nested one level deeper
        for k in range(len(ts) - 2):
            if ts[k] in pmvars and ts[k + 1] in (".", "->") and ts[k + 2] == "nest":
                q = next((j for j in range(k, len(ts)) if ts[j] in ("addPass", "addNestedPass")), None)
                if q is not None:
                    p = q + 1
                    while p < len(ts) and ts[p] != "(":
                        p += 1
                    c = match_close(toks, p)
                    self.add_pass(toks[p + 1:c], line, fn, scope, conds, chain,
                                  "nested: " + render(toks[k + 2:q - 1]) + (
                                      " > " + render(toks[q + 1:p]) if ts[q] == "addNestedPass" else ""))
                    return
        # pm.addPass(...) / pm.addNestedPass<...>(...)
        for k in range(len(ts) - 2):
            if ts[k] in pmvars and ts[k + 1] in (".", "->") and ts[k + 2] in ("addPass", "addNestedPass"):
                p = k + 3
                while p < len(ts) and ts[p] != "(":
                    p += 1
                c = match_close(toks, p)
                self.add_pass(toks[p + 1:c], line, fn, scope, conds, chain, notes.get(ts[k]))
                return
        # a call that takes the pass manager: builder(pm, ...) / strategy->method(pm, ...)
        for p in range(len(ts)):
            if ts[p] != "(":
                continue
            c = match_close(toks, p)
            args = split_top(toks[p + 1:c])
            if not any(len(a) >= 1 and [t.t for t in a if t.t not in ("*", "&")] and
                       [t.t for t in a if t.t not in ("*", "&")][0] in pmvars and
                       len([t for t in a if t.t not in ("*", "&")]) == 1 for a in args):
                continue
            # the callee: ids and :: (and obj-> / obj.) before the paren
            j = p - 1
            while j >= 0 and (toks[j].k == "id" or ts[j] in ("::", "->", ".")):
                j -= 1
            callee = ts[j + 1:p]
            if not callee:
                continue
            objclass = None
            if len(callee) >= 3 and callee[1] in ("->", "."):
                obj, meth = callee[0], "".join(callee[2:])
                objclass = bind.get(obj)
                if not objclass:
                    self.unresolved.append(("%s:%d" % (fn.file, line),
                                            "call through '%s' (no class bound to it): %s" % (obj, render(toks))))
                    return
                name = meth
            else:
                name = "".join(callee)
            target = self.find_builder(name, fn, len(args), objclass)
            if not target:
                self.unresolved.append(("%s:%d" % (fn.file, line), "no builder found for %s: %s"
                                        % ("".join(callee), render(toks))))
                return
            if target.qual in chain:
                self.unresolved.append(("%s:%d" % (fn.file, line), "recursive call: " + target.qual))
                return
            # bind parameters to the (substituted, simplified) arguments
            psub = {}
            pnames = target.param_names()
            for pn, a in zip(pnames, args):
                psub[pn] = simplify_arg(substitute(a, subst))
            tpm = set(n for n in target.pm_params())
            self.walk_fn(target, scope, tpm, psub, conds, chain + [target.qual], bind)
            return
        if "addPass" in ts or any(t in pmvars for t in ts):
            self.unresolved.append(("%s:%d" % (fn.file, line), "statement uses the pass manager: " + render(toks)))

    def add_pass(self, arg, line, fn, scope, conds, chain, note):
        at = [t.t for t in arg]
        create = None
        for k, s in enumerate(at):
            # the first call that is not std::move / std::make_unique: create<X>Pass(...) as a rule
            if arg[k].k == "id" and k + 1 < len(at) and at[k + 1] == "(":
                j = k
                while j >= 2 and at[j - 1] == "::" and arg[j - 2].k == "id":
                    j -= 2
                q = "".join(at[j:k + 1])
                if q in ("std::move", "move") or (j > 0 and at[j - 1] in (".", "->")):
                    continue
                create = q
                break
        if not create:
            self.unresolved.append(("%s:%d" % (fn.file, line), "addPass without a create call: " + render(arg)))
            name, kind, how = "?" + render(arg), "?", "no create call"
        else:
            name, kind, how = self.pass_name(create, fn)
            if name.startswith("?"):
                self.unresolved.append(("%s:%d" % (fn.file, line), "%s: %s" % (create, how)))
        vals = [self.truth(c) for c in conds]
        if any(v is False for v in vals):
            default = "off"
        elif all(v is True for v in vals):
            default = "on"
        else:
            default = "?"
        self.rows.append({"scope": scope, "pass": name, "kind": kind, "default": default, "conds": list(conds),
                          "opts": self.entry_opts,
                          "builder": fn.qual, "where": "%s:%d" % (fn.file, line),
                          "cond": " && ".join(c["text"] for c in conds) or "-",
                          "chain": " > ".join(chain[1:]) or chain[0], "create": strip_vpux(create or "?"),
                          "note": note or "", "how": how})


def option_atoms(c, roots):
    """(root.name, negated) for every option a condition reads; an else
    branch negates all of them, a `!` (also `!(...)`) the ones it covers."""
    out, stack, pend = [], [c["neg"]], False
    ts = [t.t for t in c["toks"]]
    i = 0
    while i < len(ts):
        s = ts[i]
        if s == "!":
            pend = not pend
        elif s == "(":
            stack.append(stack[-1] ^ pend)
            pend = False
        elif s == ")":
            if len(stack) > 1:
                stack.pop()
        elif s in roots and i + 2 < len(ts) and ts[i + 1] in (".", "->"):
            name = "%s.%s" % (s, ts[i + 2])
            if i + 6 < len(ts) and ts[i + 3] == "." and ts[i + 4] in ("hasValue", "has_value"):
                name += ".hasValue"
            out.append((name, stack[-1] ^ pend))
            pend = False
            i += 2
        elif s not in ("::", ".", "->") and re.fullmatch(r"\w+", s) is None:
            pend = False
        i += 1
    return out


def compute_variants(w):
    """The configurations each pass is checked in: the declared defaults, the
    profile's named alternatives, and "extras": every option that is off by
    default, only ever read un-negated (so turning it on adds passes and
    removes none) and not deciding a nested pass manager, turned on."""
    roots = w.profile["roots"]
    variants = [("default", {})]
    for name, over in w.profile.get("variants", []):
        variants.append((name, dict(over)))
    pos, neg = set(), set()
    for c in w.allconds:
        for name, negated in option_atoms(c, roots):
            (neg if negated else pos).add(name)
    nested = set()
    for text in w.nestconds:
        nested.update(re.findall(r"\b(\w+)(?:\.|->)(\w+)", text))
    extras = {}
    for name in sorted(pos - neg):
        parts = name.split(".")
        if tuple(parts[:2]) in nested:
            continue
        if len(parts) == 3:
            extras[name] = True
            continue
        v = w.opts.get(parts[0], parts[1])
        if v is not None and v[0] == "bool" and v[1] is False:
            extras[name] = True
    variants.append(("extras", extras))
    for r in w.rows:
        # evaluated with the options as the row's entry point left them
        w.opts.values = r["opts"]
        runs = []
        for vname, over in variants:
            vals = [w.truth(c, over=over) for c in r["conds"]]
            if not any(v is False for v in vals):
                runs.append(vname)
            if vname == "default":
                r["default"] = "off" if any(v is False for v in vals) else (
                    "on" if all(v is True for v in vals) else "?")
        r["runs"] = ",".join(runs) or "-"
    return variants


def substitute(toks, subst):
    if not subst:
        return list(toks)
    out = []
    for i, t in enumerate(toks):
        prev = toks[i - 1].t if i else ""
        nxt = toks[i + 1].t if i + 1 < len(toks) else ""
        if t.k == "id" and t.t in subst and prev not in (".", "->", "::") and nxt != "::":
            rep = subst[t.t]
            if len(rep) > 1 and any(x.t in ("&&", "||", "?", "!", "==", "!=", "<", ">") for x in rep):
                out.append(Tok("(", "op", t.line))
                out.extend(rep)
                out.append(Tok(")", "op", t.line))
            else:
                out.extend(rep)
        else:
            out.append(t)
    return out


def canon(toks):
    """The strategy classes' options container -> the options it holds."""
    out, i = [], 0
    ts = [t.t for t in toks]
    while i < len(toks):
        if ts[i:i + 5] == ["_optionsContainer", "->", "getPipelineOptions", "(", ")"]:
            out.append(Tok("options", "id", toks[i].line))
            i += 5
        elif ts[i:i + 5] == ["_optionsContainer", "->", "getInitCompilerOptions", "(", ")"]:
            out.append(Tok("initCompilerOptions", "id", toks[i].line))
            i += 5
        else:
            out.append(toks[i])
            i += 1
    return out


def simplify_arg(toks):
    """`*options`, `VPU::TilingOptions(options)`, `std::move(x)`, the options
    container's getters -> the options they stand for."""
    ts = [t.t for t in toks]
    while ts and ts[0] in ("*", "&"):
        toks, ts = toks[1:], ts[1:]
    if len(ts) >= 3 and ts[-1] == ")" and ts[-2] == "(" and ts[-3] in ("getPipelineOptions",):
        return [Tok("options", "id", toks[0].line)]
    if len(ts) >= 3 and ts[-1] == ")" and ts[-2] == "(" and ts[-3] in ("getInitCompilerOptions",):
        return [Tok("initCompilerOptions", "id", toks[0].line)]
    if ts and ts[-1] == ")" and "(" in ts:
        p = ts.index("(")
        fn = "".join(ts[:p])
        if match_close(toks, p) == len(ts) - 1 and re.fullmatch(r"[\w:]*(Options\w*|move)", fn):
            inner = split_top(toks[p + 1:-1])
            if len(inner) == 1:
                return simplify_arg(inner[0])
    return list(toks)


# ====== Output ======

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", nargs="?", help="checkout or git directory of npu_compiler")
    ap.add_argument("--profile", help="which pipeline (--list-profiles)")
    ap.add_argument("--rev", default="HEAD", help="revision of a git directory (default HEAD)")
    ap.add_argument("--repo", default="?", help="repository name for the header (owner/name)")
    ap.add_argument("--list-profiles", action="store_true")
    a = ap.parse_args()
    if a.list_profiles:
        for k, v in PROFILES.items():
            print("%-14s %s" % (k, v["desc"]))
        return 0
    if not a.source or a.profile not in PROFILES:
        ap.error("SOURCE and --profile (%s) are needed" % ", ".join(PROFILES))
    prof = PROFILES[a.profile]
    src = Source(a.source, a.rev)
    w = Walker(src, prof)
    w.walk()
    variants = compute_variants(w)
    out = sys.stdout
    out.write("# vpux pipeline walk: %s\n" % prof["desc"])
    out.write("# source: %s %s%s\n" % (a.repo, src.commit or "(a checkout: commit unknown)",
                                        (" (%s)" % src.date) if src.date else ""))
    out.write("# made by: tools/vpux-pipeline.py --profile %s (a static walk of the pipeline builders;"
              " derived data, no source code)\n" % a.profile)
    out.write("# entry: %s\n" % "; ".join("%s: %s" % e for e in prof["entry"]))
    if prof["bind"]:
        out.write("# bound: %s\n" % ", ".join("%s -> %s" % kv for kv in prof["bind"].items()))
    out.write("# defaults: declared defaults of %s; option setup code is not evaluated\n"
              % ", ".join(", ".join(v) for v in prof["roots"].values()))
    for vname, over in variants:
        out.write("# variant %s: %s\n" % (vname, ", ".join("%s=%s" % (k, "true" if v is True else v)
                                                          for k, v in sorted(over.items())) or "the declared defaults"))
    out.write("# columns (tab-separated): seq scope pass kind default runs builder where condition chain\n")
    out.write("#   scope: main (2025+: under \"IE to VPUIP pipeline\"; 2024: \"Compile network\"),"
              " elf (2025+: under \"ELF pipeline\"; 2024: \"Compile network\", after main)\n")
    out.write("#   kind: function (runs on func.func: under 'func.func' Pipeline), module, any (op-agnostic)\n")
    out.write("#   default: on (every condition holds with the declared defaults), off (one fails), ? (undecided)\n")
    out.write("#   runs: the variants in which no condition fails (on or ?), '-' for none\n")
    for i, r in enumerate(w.rows, 1):
        cond = r["cond"] + ((" [%s]" % r["note"]) if r["note"] else "")
        out.write("\t".join([str(i), r["scope"], r["pass"], r["kind"], r["default"], r["runs"], r["builder"],
                             r["where"], cond, r["chain"]]) + "\n")
    n = len(w.rows)
    by = {d: sum(1 for r in w.rows if r["default"] == d) for d in ("on", "off", "?")}
    names = {r["pass"] for r in w.rows}
    out.write("# summary: %d passes added (%d distinct names): %d on, %d off, %d ?; main %d, elf %d\n"
              % (n, len(names), by["on"], by["off"], by["?"], sum(1 for r in w.rows if r["scope"] == "main"),
                 sum(1 for r in w.rows if r["scope"] == "elf")))
    how = {}
    for r in w.rows:
        h = re.split(r" \(| in ", r["how"])[0]
        how[h] = how.get(h, 0) + 1
    out.write("# names from: %s\n" % ", ".join("%s %d" % kv for kv in sorted(how.items())))
    seen = set()
    for where, what in w.unresolved:
        if (where, what) in seen:
            continue
        seen.add((where, what))
        out.write("# unresolved: %s: %s\n" % (where, what))
    if not w.unresolved:
        out.write("# unresolved: none\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
