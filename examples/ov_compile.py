#!/usr/bin/env python3
"""ov_compile.py -- compile one model with OpenVINO, the way npuscope measures it.

Run it under `npuscope record` or `npuscope sweep`:

    npuscope record -n 5 --warmup 1 --mode cold -- \
        python3 examples/ov_compile.py model.xml
    npuscope sweep -o runs/npu -n 5 --modes cold,warm -P 'window=128:2048:*2' -- \
        python3 examples/ov_compile.py models/qwen2.5-7b-int8 --llm \
            --max-prompt-len '{window}'

On Windows (npuscope.exe, README "On Windows"), in PowerShell or cmd:

    npuscope record -n 5 --mode cold --preset npu -- python examples\\ov_compile.py model.xml

The script is the same there: paths may use either separator, and a
--timeout or Ctrl-C reaches it as Ctrl-Break (Python's default for it ends
the process), then npuscope ends its whole Job Object after --grace.

It reads the model, compiles it once for the device (NPU by default) and
prints one line on stdout,

    Compile model took 81234.56 ms

worded like benchmark_app's, so npuscope's built-in metric `compile_model_ms`
picks it up.  The time is the wall time of `core.compile_model()` alone
(reading the model is timed separately and reported on stderr).

How the timing report reaches npuscope
--------------------------------------
At log level LOG_INFO the NPU compiler ("vpux", MLIR-based) prints MLIR's
per-pass timing tree itself, from native code, straight to the process's
standard output (llvm::outs(), file descriptor 1) when each compilation ends.
It never passes through Python's sys.stdout, so this script does nothing with
it: npuscope captures the child's stdout and stderr at the file-descriptor
level and finds the reports there.  An NPUW LLM compile (--llm) runs several
compilations (generate variant(s), prefill, LM head, each split into
subgraphs), so one run prints several reports.  The end-of-compile lines
"Compilation memory usage: Peak N KB" and "Compile net time: N ms" (newer
compilers) come the same way and feed compiler_vmpeak_kb, compiler_vmpeak_delta_kb and compile_net_ms.
This script flushes its own output before and after the compile, so its lines
do not interleave with the native ones.

The environment npuscope exports
--------------------------------
NPUSCOPE_MODE        cold | warm | none.
  cold  every run must really compile: NPU_BYPASS_UMD_CACHING=YES (otherwise
        the NPU driver may hand back a blob from its own cache: no compile, no
        report) and no CACHE_DIR -- or, when NPUSCOPE_CACHE_DIR is set for a
        cold run (npuscope gives each cold run a fresh folder), CACHE_DIR set
        to that folder, which must be empty or absent (a non-empty one is
        refused: it would measure a cache hit).  A cold run then compiles
        and exports like a warm primer does.  --no-cold-cache keeps CACHE_DIR
        unset instead, to time the compile without the export; plain NPUW
        (which rejects CACHE_DIR, below) never gets it in cold mode.
  warm  CACHE_DIR=$NPUSCOPE_CACHE_DIR: the first run of a cell compiles and
        exports the blob, later runs import it (a cache hit prints no timing
        report; its time is the import).
  none  nothing is set for caching; you decide with --config.
NPUSCOPE_CACHE_DIR   the OpenVINO model-cache folder (see above): warm, one per
        cell, shared by its runs; cold, a fresh empty one per run.
NPUSCOPE_RUN_DIR     the folder of the run being recorded.  This script writes
        ov_compile.json there (device, mode, model, the exact config, the
        OpenVINO version) and, unless --no-chdir, makes it the working
        directory for the compile, because the compiler's debug outputs
        (NPU_COMPILATION_MODE_PARAMS enable-schedule-trace=true,
        write-strategy-to-json=true: compileTimeScheduleTrace.json,
        strategy_out.json) are written to the working directory under fixed
        names -- so they land in the run's own folder instead of overwriting
        each other.
NPUSCOPE_PARAM_<NAME> one per sweep axis.  Always logged (stderr and
        ov_compile.json).  With --params-as-config, an axis whose name starts
        with NPU_ or NPUW_ also becomes a compile property of that name
        (an explicit --config of the same key wins).  Usually you do not need
        this: put {NAME} into the arguments instead and npuscope substitutes it.

Settings it makes (all as strings; --config KEY=VALUE overrides any of them)
---------------------------------------------------------------------------
LOG_LEVEL=LOG_INFO (--log-level) -- INFO is what turns the timing report on.
--llm: NPU_USE_NPUW=YES, NPUW_LLM=YES, NPUW_LLM_MAX_PROMPT_LEN,
  NPUW_LLM_MIN_RESPONSE_LEN (NPUW aligns both up to 64; defaults 1024 / 128).
--generate-config KEY=VALUE: an entry of the generate (decode) model's config.
  By default they go to ++NPUW_LLM_GENERATE_CONFIG, which is merged on top of
  NPUW's own defaults, so `--generate-config NPUW_FUNCALL_FOR_ALL=NO` changes
  that one option.  --replace-generate-config sends them as
  NPUW_LLM_GENERATE_CONFIG instead, which REPLACES NPUW's defaults for the
  generate model (needed on OpenVINO versions without the ++ form).

Things to know
--------------
* Plain NPUW (NPU_USE_NPUW=YES without NPUW_LLM) rejects CACHE_DIR; NPUW LLM
  caches the whole LLM compiled model.  Some older NPU plugins reject CACHE_DIR
  with the MLIR (compiler-in-plugin) compiler type.
* With CACHE_DIR set, compile_model() also exports the blob, so a primer run
  (and a cold run given a fresh cache folder, unless --no-cold-cache)
  includes the export time.
* NPUW LLM sets NPU_COMPILATION_MODE_PARAMS=compute-layers-with-higher-
  precision=Sqrt,Power,ReduceMean,Add_RMSNorm for its sub-models; a value you
  pass replaces it, so append that default to your own value if you want to
  keep it (a warning says so).
* --from-path compiles from the file name, as benchmark_app does, instead of
  read_model() then compile_model(model): OpenVINO's cache then keys on the
  file and a warm hit need not read the model first.
* Ctrl-C (or npuscope forwarding SIGINT) ends the process at once, even in
  the middle of the native compile: Python would otherwise only notice it
  after compile_model() returned.

Exit codes: 0 compiled; 1 the compile (or reading the model) failed;
2 usage error; 3 OpenVINO cannot be imported.

Needs Python 3.8+ and the `openvino` package (pip install openvino), nothing
else; --help and --print-config work without OpenVINO.
"""

import argparse
import json
import os
import signal
import sys
import time

PROG = "ov_compile"

# NPUW LLM's own default for NPU_COMPILATION_MODE_PARAMS (see the header).
NPUW_LLM_DEFAULT_MODE_PARAMS = (
    "compute-layers-with-higher-precision=Sqrt,Power,ReduceMean,Add_RMSNorm")

LOG_LEVELS = ("LOG_NONE", "LOG_ERROR", "LOG_WARNING", "LOG_INFO",
              "LOG_DEBUG", "LOG_TRACE")


# ====== Messages ======

def warn(msg):
    sys.stdout.flush()
    sys.stderr.write("%s: warning: %s\n" % (PROG, msg))
    sys.stderr.flush()


def note(msg):
    sys.stdout.flush()
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.stderr.flush()


def die(code, msg):
    sys.stdout.flush()
    sys.stderr.write("%s: error: %s\n" % (PROG, msg))
    sys.stderr.flush()
    sys.exit(code)


# ====== Command line ======

def key_value(text):
    """argparse type for KEY=VALUE (VALUE may be empty or contain '=')."""
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise argparse.ArgumentTypeError("expected KEY=VALUE, got %r" % text)
    return key, value


def positive_int(text):
    try:
        n = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError("not an integer: %r" % text)
    if n <= 0:
        raise argparse.ArgumentTypeError("must be > 0: %r" % text)
    return n


def parse_args(argv):
    env_mode = os.environ.get("NPUSCOPE_MODE", "none") or "none"
    p = argparse.ArgumentParser(
        prog="ov_compile.py",
        description="Compile one model with OpenVINO and print "
                    "'Compile model took N.NN ms'. Honours NPUSCOPE_MODE, "
                    "NPUSCOPE_CACHE_DIR, NPUSCOPE_RUN_DIR and "
                    "NPUSCOPE_PARAM_<NAME> set by 'npuscope record/sweep' "
                    "(see the header of this file).",
        epilog="exit codes: 0 compiled, 1 compile or model read failed, "
               "2 usage error, 3 OpenVINO not importable "
               "(pip install openvino).")
    p.add_argument("model",
                   help="model file (OpenVINO IR .xml, or any format "
                        "read_model accepts), or a folder: "
                        "openvino_model.xml in it (optimum-intel export), "
                        "else its only .xml")
    p.add_argument("--device", default="NPU",
                   help="OpenVINO device (default NPU)")
    p.add_argument("--llm", action="store_true",
                   help="compile as an NPUW LLM (NPU_USE_NPUW=YES, "
                        "NPUW_LLM=YES); the model must be a stateful LLM")
    p.add_argument("--max-prompt-len", type=positive_int, metavar="N",
                   help="NPUW_LLM_MAX_PROMPT_LEN (with --llm)")
    p.add_argument("--min-response-len", type=positive_int, metavar="N",
                   help="NPUW_LLM_MIN_RESPONSE_LEN (with --llm)")
    p.add_argument("--config", type=key_value, action="append", default=[],
                   metavar="KEY=VALUE",
                   help="a compile property, as a string (repeatable); "
                        "overrides what this script sets")
    p.add_argument("--generate-config", type=key_value, action="append",
                   default=[], metavar="KEY=VALUE",
                   help="an entry of the generate (decode) model's config, "
                        "e.g. NPUW_FUNCALL_FOR_ALL=NO (repeatable; with "
                        "--llm); merged over NPUW's defaults via "
                        "++NPUW_LLM_GENERATE_CONFIG")
    p.add_argument("--replace-generate-config", action="store_true",
                   help="send --generate-config as NPUW_LLM_GENERATE_CONFIG, "
                        "which replaces NPUW's generate defaults")
    p.add_argument("--log-level", default="LOG_INFO",
                   choices=LOG_LEVELS + ("unset",),
                   help="LOG_LEVEL property (default LOG_INFO, which prints "
                        "the timing report; 'unset' leaves it to "
                        "OV_NPU_LOG_LEVEL)")
    p.add_argument("--mode", default=env_mode,
                   choices=("cold", "warm", "none"),
                   help="cache mode (default $NPUSCOPE_MODE, else none)")
    p.add_argument("--cache-dir",
                   default=os.environ.get("NPUSCOPE_CACHE_DIR") or None,
                   metavar="DIR",
                   help="model cache folder (default $NPUSCOPE_CACHE_DIR)")
    p.add_argument("--no-cold-cache", action="store_true",
                   help="cold mode: leave CACHE_DIR unset even when "
                        "NPUSCOPE_CACHE_DIR gives a fresh folder (times the "
                        "compile without the blob export)")
    p.add_argument("--params-as-config", action="store_true",
                   help="turn NPUSCOPE_PARAM_NPU_*/NPUW_* axes into compile "
                        "properties")
    p.add_argument("--from-path", action="store_true",
                   help="compile_model(path) like benchmark_app, instead of "
                        "read_model() + compile_model(model)")
    p.add_argument("--no-chdir", action="store_true",
                   help="do not compile inside $NPUSCOPE_RUN_DIR")
    p.add_argument("--print-config", action="store_true",
                   help="print the device, model and config that would be "
                        "used, as JSON, and exit (no OpenVINO needed)")
    args = p.parse_args(argv)
    if args.mode not in ("cold", "warm", "none"):
        p.error("NPUSCOPE_MODE must be cold, warm or none, not %r" % args.mode)
    if not args.llm:
        for flag, value in (("--max-prompt-len", args.max_prompt_len),
                            ("--min-response-len", args.min_response_len)):
            if value is not None:
                p.error("%s needs --llm" % flag)
        if args.generate_config:
            p.error("--generate-config needs --llm")
    if args.mode == "warm" and not args.cache_dir:
        p.error("warm mode needs a cache folder: NPUSCOPE_CACHE_DIR or "
                "--cache-dir")
    return args


# ====== Model and configuration ======

def resolve_model(path):
    """The model file to read: the path itself, or the IR inside a folder."""
    if os.path.isdir(path):
        first = os.path.join(path, "openvino_model.xml")
        if os.path.isfile(first):
            return first
        xmls = sorted(f for f in os.listdir(path) if f.endswith(".xml"))
        if len(xmls) == 1:
            return os.path.join(path, xmls[0])
        if not xmls:
            die(2, "%s: folder without openvino_model.xml or any .xml" % path)
        die(2, "%s: several .xml files (%s); name the one to compile"
            % (path, ", ".join(xmls)))
    if not os.path.exists(path):
        die(2, "%s: no such file or folder" % path)
    return path


def sweep_params():
    """NPUSCOPE_PARAM_<NAME> -> {NAME: value}, sorted by name."""
    prefix = "NPUSCOPE_PARAM_"
    return dict(sorted((k[len(prefix):], v) for k, v in os.environ.items()
                       if k.startswith(prefix) and len(k) > len(prefix)))


def build_config(args, params):
    """The properties passed to compile_model, in a fixed order.

    Later entries override earlier ones: mode, then log level, then --llm,
    then sweep axes (--params-as-config), then --config.
    """
    explicit = dict((k, v.strip().upper()) for k, v in args.config)
    plain_npuw = (not args.llm and explicit.get("NPU_USE_NPUW") == "YES"
                  and explicit.get("NPUW_LLM") != "YES")
    cfg = {}
    if args.mode == "cold":
        if args.device.upper().startswith("NPU"):
            cfg["NPU_BYPASS_UMD_CACHING"] = "YES"
        if args.cache_dir and not args.no_cold_cache and not plain_npuw:
            cfg["CACHE_DIR"] = os.path.abspath(args.cache_dir)
    elif args.mode == "warm":
        cfg["CACHE_DIR"] = os.path.abspath(args.cache_dir)
    if args.log_level != "unset":
        cfg["LOG_LEVEL"] = args.log_level
    if args.llm:
        cfg["NPU_USE_NPUW"] = "YES"
        cfg["NPUW_LLM"] = "YES"
        if args.max_prompt_len is not None:
            cfg["NPUW_LLM_MAX_PROMPT_LEN"] = str(args.max_prompt_len)
        if args.min_response_len is not None:
            cfg["NPUW_LLM_MIN_RESPONSE_LEN"] = str(args.min_response_len)
    if args.params_as_config:
        for name, value in params.items():
            if name.upper().startswith(("NPU_", "NPUW_")):
                cfg[name.upper()] = value
    mode_set = dict(cfg)
    for key, value in args.config:
        cfg[key] = value
    if args.generate_config:
        key = ("NPUW_LLM_GENERATE_CONFIG" if args.replace_generate_config
               else "++NPUW_LLM_GENERATE_CONFIG")
        cfg[key] = dict(args.generate_config)

    # Say so when an explicit --config undoes what the mode needs.
    for key in ("NPU_BYPASS_UMD_CACHING", "CACHE_DIR"):
        if key in mode_set and cfg.get(key) != mode_set[key]:
            warn("--config %s=%s overrides %s mode's %s=%s"
                 % (key, cfg.get(key), args.mode, key, mode_set[key]))
    if args.mode == "cold" and "CACHE_DIR" in cfg and "CACHE_DIR" not in mode_set:
        warn("cold mode with --config CACHE_DIR: a cache hit would not compile")
    if cfg.get("NPU_USE_NPUW") == "YES" and cfg.get("NPUW_LLM") != "YES" \
            and cfg.get("CACHE_DIR"):
        warn("plain NPUW (NPU_USE_NPUW=YES without NPUW_LLM) rejects CACHE_DIR")
    mp = cfg.get("NPU_COMPILATION_MODE_PARAMS")
    if args.llm and mp is not None \
            and "compute-layers-with-higher-precision" not in mp:
        warn("NPU_COMPILATION_MODE_PARAMS replaces NPUW LLM's default %r; "
             "append it to your value to keep it" % NPUW_LLM_DEFAULT_MODE_PARAMS)
    if args.log_level == "unset" and "LOG_LEVEL" not in cfg \
            and os.environ.get("OV_NPU_LOG_LEVEL") is None:
        warn("neither LOG_LEVEL nor OV_NPU_LOG_LEVEL is set: the compiler "
             "prints no timing report")
    return cfg


def prepare_cache_dir(args, cfg):
    """Check and create the cache folder the mode asked for."""
    path = cfg.get("CACHE_DIR")
    if not path:
        return
    if args.mode == "cold" and os.path.isdir(path) and os.listdir(path):
        die(2, "cold mode: cache folder %s is not empty; a cold run needs a "
            "fresh, empty folder (or none)" % path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        die(2, "cannot create cache folder %s: %s" % (path, e.strerror))


def write_run_file(run_dir, record):
    path = os.path.join(run_dir, "ov_compile.json")
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
    except OSError as e:
        warn("cannot write %s: %s" % (path, e.strerror))


# ====== OpenVINO ======

def import_openvino():
    try:
        import openvino as ov  # imported here so --help works without it
    except ImportError as e:
        die(3, "cannot import OpenVINO (%s); install it with "
            "'pip install openvino' in the Python that runs this script (%s)"
            % (e, sys.executable))
    if not hasattr(ov, "Core"):
        die(3, "the 'openvino' module found has no Core; OpenVINO 2023.1 or "
            "newer is needed ('pip install -U openvino')")
    return ov


def openvino_version(ov):
    version = getattr(ov, "__version__", None)
    if not version and hasattr(ov, "get_version"):
        version = ov.get_version()
    return version or "unknown"


def check_device(core, device):
    """Fail early, with the devices found, when a plain device is missing."""
    if ":" in device:  # AUTO:, HETERO:, MULTI:... let OpenVINO decide
        return
    try:
        available = list(core.available_devices)
    except Exception:  # noqa: BLE001 -- only a nicer message is at stake
        return
    base = device.split(".")[0].upper()
    if not any(d.split(".")[0].upper() == base for d in available):
        hint = "; is the NPU driver installed?" if base == "NPU" else ""
        die(1, "device %s not found (available: %s)%s"
            % (device, ", ".join(available) or "none", hint))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    params = sweep_params()
    model_path = os.path.abspath(resolve_model(args.model))
    cfg = build_config(args, params)
    record = {"device": args.device, "mode": args.mode, "model": model_path,
              "from_path": args.from_path, "config": cfg, "params": params}

    if args.print_config:
        json.dump(record, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0

    ov = import_openvino()
    prepare_cache_dir(args, cfg)
    record["openvino_version"] = openvino_version(ov)
    note("OpenVINO %s, device %s, mode %s, params %s"
         % (record["openvino_version"], args.device, args.mode,
            json.dumps(params, sort_keys=True)))
    note("config %s" % json.dumps(cfg))

    run_dir = os.environ.get("NPUSCOPE_RUN_DIR")
    if run_dir and os.path.isdir(run_dir):
        write_run_file(run_dir, record)
        if not args.no_chdir:
            os.chdir(run_dir)

    # Die at once on SIGINT, even inside native code (see the header).
    signal.signal(signal.SIGINT, signal.SIG_DFL)

    core = ov.Core()
    check_device(core, args.device)
    try:
        if args.from_path:
            target = model_path
        else:
            t0 = time.perf_counter()
            target = core.read_model(model_path)
            note("Read model took %.2f ms" % ((time.perf_counter() - t0) * 1e3))
    except Exception as e:  # noqa: BLE001 -- OpenVINO raises RuntimeError & co
        die(1, "reading %s failed: %s" % (model_path, e))

    sys.stdout.flush()
    sys.stderr.flush()
    try:
        t0 = time.perf_counter()
        compiled = core.compile_model(target, args.device, cfg)
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:  # noqa: BLE001
        sys.stdout.flush()
        die(1, "compile_model failed on %s: %s" % (args.device, e))
    print("Compile model took %.2f ms" % ms, flush=True)
    del compiled
    return 0


if __name__ == "__main__":
    sys.exit(main())
