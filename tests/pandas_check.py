#!/usr/bin/python3
"""pandas_check.py -- npuscope's CSV and JSON tables as pandas reads them.

Debian's python3-pandas reads what `table`, `fit`, `diff` and `tree` print
for programs (--format csv and --format json: pd.read_csv, and
pd.json_normalize of the "rows"/"fits"), on the constructed sweep in
tests/runs, tests/data/stages/runs and tests/data/seed-compile-table.csv,
and checks what a user of the frame gets:
  - dtypes: numbers numeric (float64, or int64 for counts), a missing value
    NaN -- never an empty string, never None, never a stray word in a
    number column -- and tags, modes, verdicts strings;
  - the values: the CSV and the JSON of one table are the same frame, and
    each agrees with npuscope's own text output to the digits it prints
    (a '-' there is a NaN here);
  - the recipe in docs/formats.md (2.10, "In pandas") runs as written.

Ways pandas reads npuscope's output that a user must know, found by these
checks, are not failures: they are printed as "note:" lines (tests/
run_pandas.sh shows them), so that a change in them is seen.

  pandas_check.py --npuscope BIN --out DIR    run every check; DIR gets
      NN-name.ok or NN-name.fail (first line the check's title, then what
      failed) and notes.txt
  pandas_check.py --npuscope BIN              the same, printed
Run from the repository root.  Only Debian's /usr/bin/python3 is known to
have python3-pandas.
"""

import argparse
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import traceback

NPUSCOPE = "build/npuscope"
CHECKS = []          # (name, title, fn)
NOTES = {}           # what pandas makes of npuscope's output: kind -> [where]

pd = None            # pandas, imported in main()
ptypes = None        # pandas.api.types


def check(title):
    def register(fn):
        CHECKS.append((fn.__name__, title, fn))
        return fn
    return register


NOTE_KINDS = {
    "tag-numbers": "read_csv guesses tag columns: window=128 becomes int64, tag values NA and null NaN, "
                   "007 the number 7 (read them with dtype=str, keep_default_na=False, na_values=[''])",
    "parser": "read_csv's default float parser drops digits after leading zeros "
              "(pandas-dev/pandas#39514); float_precision='round_trip' reads what npuscope wrote",
    "whole": "a float column whose values are all whole comes as int64 (%.15g writes 512, not 512.0)",
    "null-json": "a JSON key null in every row is an object column of None after json_normalize, "
                 "where read_csv gives float64 NaN (pd.to_numeric turns it into NaN)",
    "empty-strings": "a string column empty in every row is float64 NaN in read_csv, not strings",
    "bools": "fit's in_fit and cliff are 1/0 in CSV (int64; cliff float64, empty on a fit's first point) "
             "and true/false in JSON (bool)",
    "verdict": "diff: a row with no runs on one side has NaN ratio and p but the verdict 'same', not a "
               "missing verdict (now 'inconclusive')",
}


def note(kind, where):
    NOTES.setdefault(kind, [])
    if where not in NOTES[kind]:
        NOTES[kind].append(where)


def note_lines():
    return [f"{NOTE_KINDS[k]}: {'; '.join(w)}" for k, w in NOTES.items()]


def ns(*args):
    """npuscope ARGS, its standard output (exit 0 required)."""
    r = subprocess.run([NPUSCOPE, *args], capture_output=True, text=True)
    assert r.returncode == 0, f"npuscope {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}"
    return r.stdout


def csv(*args, **kw):
    """read_csv of npuscope ARGS --format csv.  float_precision="round_trip":
    pandas 1.5's default parser loses digits after leading zeros (0.00216
    450216450216 reads as 0.0021645021645021; pandas-dev/pandas#39514), so
    it would not read what npuscope wrote; default_parser_note() shows it."""
    text = ns(*args, "--format", "csv")
    df = pd.read_csv(io.StringIO(text), float_precision="round_trip", **kw)
    default_parser_note(text, df, " ".join(args[:1] + tuple(a for a in args[1:] if a.startswith("--"))), kw)
    return df


def default_parser_note(text, df, what, kw):
    d = pd.read_csv(io.StringIO(text), **kw)
    for c in df.columns:
        if not ptypes.is_float_dtype(df[c]):
            continue
        for u, v in zip(d[c], df[c]):
            if u != v and not (math.isnan(u) and math.isnan(v)):
                note("parser", f"{what}: {c} {v!r} read as {u!r}")
                return


def js(*args):
    return json.loads(ns(*args, "--format", "json"))


# ---------------------------------------------------------------- dtypes
def numeric(df, cols, where):
    """Every column in cols is a number column: float64, or int64 where all
    values are whole (npuscope writes 512.0 as 512, %.15g); a missing value
    is NaN.  A float column that arrives as int64 is noted."""
    for c in cols:
        s = df[c]
        if ptypes.is_bool_dtype(s):
            raise AssertionError(f"{where}: {c} is bool, a number was expected")
        if s.dtype == object:
            bad = [v for v in s if not (v is None or isinstance(v, float) and math.isnan(v))]
            if bad:
                raise AssertionError(f"{where}: {c} is object, with {bad[:3]!r}: a stray string in a number column")
            raise AssertionError(f"{where}: {c} is object (all None), not float64 NaN")
        assert ptypes.is_float_dtype(s) or ptypes.is_integer_dtype(s), f"{where}: {c} is {s.dtype}"


def counts(df, cols, where):
    for c in cols:
        assert ptypes.is_integer_dtype(df[c]), f"{where}: {c} is {df[c].dtype}, counts are int64"


def strings(df, cols, where):
    for c in cols:
        s = df[c]
        assert s.dtype == object, f"{where}: {c} is {s.dtype}, strings were expected"
        bad = [v for v in s if not isinstance(v, str)]
        assert not bad, f"{where}: {c} holds {bad[:3]!r}, not strings"


def whole_float_note(df, cols, where):
    for c in cols:
        if ptypes.is_integer_dtype(df[c]):
            note("whole", f"{where} {c}")


def all_null_note(df, where):
    """JSON: a key that is null in every row becomes an object column of
    None in json_normalize (read_csv gives float64 NaN for the same empty
    column).  Noted, then made NaN so that the comparisons go on."""
    for c in list(df.columns):
        s = df[c]
        if s.dtype == object and len(s) and all(v is None for v in s):
            note("null-json", f"{where} {c}")
            df[c] = pd.to_numeric(s)
    return df


def same(a, b, where):
    """Two frames hold the same numbers (NaN where the other has NaN)."""
    assert list(a.index) == list(b.index), f"{where}: rows differ"
    for c in a.columns:
        x, y = a[c], b[c]
        for i, (u, v) in enumerate(zip(x, y)):
            nu = u is None or isinstance(u, float) and math.isnan(u)
            nv = v is None or isinstance(v, float) and math.isnan(v)
            assert nu == nv and (nu or u == v), f"{where}: row {i} {c}: {u!r} against {v!r}"


# ---------------------------------------------------------------- text tables
def text_rows(text, header_re):
    """The rows of one of npuscope's text tables: a list of dicts by header
    name; columns are separated by two blanks or more."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(header_re, line))
    head = re.split(r"\s{2,}", lines[at].strip())
    rows = []
    for line in lines[at + 1:]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        # a blank last column (fit's first local slope) is no cell
        assert len(cells) <= len(head), f"text row {line!r} against header {head}"
        cells += [""] * (len(head) - len(cells))
        rows.append(dict(zip(head, cells)))
    return rows


def agrees(text, value, decimals, what):
    """A text cell against a value: '-' is NaN, else the value printed to
    `decimals` (a % share as 100x), up to the last digit's rounding."""
    nan = value is None or isinstance(value, float) and math.isnan(value)
    if text in ("-", ""):
        assert nan, f"{what}: the text shows -, pandas has {value!r}"
        return
    assert not nan, f"{what}: pandas has NaN, the text shows {text}"
    t = text
    scale = 1
    if t.endswith("%"):
        t, scale = t[:-1], 100
    t = t.replace("×", "").replace(" s", "")
    got = float(t)
    tol = 0.5 * 10 ** -decimals + 1e-9
    assert abs(got - value * scale) <= tol, f"{what}: the text shows {text}, pandas has {value!r}"


def metric_decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


# ---------------------------------------------------------------- table
TABLE_NUM = ["median_s", "mean_s", "stddev_s", "min_s", "max_s", "user_over_wall", "peak_rss_mb", "cache_x",
             "baseline_ratio"]
TABLE_COUNT = ["n", "failures", "warmups", "primers", "outliers"]
TABLE_TEXT = {"median s": ("median_s", 4), "mean s": ("mean_s", 4), "stddev s": ("stddev_s", 4),
              "min s": ("min_s", 4), "max s": ("max_s", 4), "user/wall": ("user_over_wall", 2),
              "peak MB": ("peak_rss_mb", 1), "cache x": ("cache_x", 2), "n": ("n", 0),
              "failed": ("failures", 0), "warmups": ("warmups", 0), "primers": ("primers", 0),
              "outliers": ("outliers", 0)}


def table_vs_text(df, text, tags, metrics, stages, where):
    rows = text_rows(text, r"^" + re.escape(tags[0]) + r"\s")
    assert len(rows) == len(df), f"{where}: {len(rows)} text rows, {len(df)} in pandas"
    for i, t in enumerate(rows):
        r = df.iloc[i]
        for tag in tags:
            assert t[tag] == r[tag], f"{where}: row {i} {tag}: text {t[tag]!r}, pandas {r[tag]!r}"
        assert t["mode"] == r["mode"]
        for col, cell in t.items():
            if col in TABLE_TEXT:
                k, d = TABLE_TEXT[col]
                agrees(cell, r[k], d, f"{where}: row {i} {col}")
            elif col in metrics:
                agrees(cell, r[metrics[col]], metric_decimals(cell), f"{where}: row {i} {col}")
            elif col in stages:
                agrees(cell, r[stages[col]], 1, f"{where}: row {i} {col}")
            elif col == "regime":
                assert cell == (r["regime"] if isinstance(r["regime"], str) else "-"), f"{where}: row {i} regime"
            elif col in ("cache", "status"):
                # text cells: the verdict of a warm row ("-" where the CSV is empty), the status
                want = r[col] if isinstance(r[col], str) else "-"
                assert cell == want or (col == "status" and cell.startswith(want + ":")), \
                    f"{where}: row {i} {col}: text {cell!r}, pandas {want!r}"
            else:
                assert col in tags or col == "mode", f"{where}: a text column {col!r} nobody checks"


@check("table --format csv of tests/runs: numbers numeric, missing NaN, values as the text table")
def table_csv():
    df = csv("table", "-q", "tests/runs")
    w = "table csv"
    cols = list(df.columns)
    assert cols[:3] == ["model", "window", "mode"], cols
    metrics = [c for c in cols if c.startswith("metric:")]
    assert metrics == ["metric:compile_net_ms", "metric:tokens_per_s"], metrics
    numeric(df, TABLE_NUM + metrics, w)
    counts(df, TABLE_COUNT, w)
    strings(df, ["model", "mode"], w)
    whole_float_note(df, TABLE_NUM + metrics, w)
    # a tag column is whatever read_csv infers: window 128, 1024 become int64
    if ptypes.is_integer_dtype(df["window"]):
        note("tag-numbers", "table csv window")
    assert len(df) == 8 and list(df["n"]) == [3] * 8
    # missing is NaN: tokens_per_s only on the counted m2 warm runs
    tps = df["metric:tokens_per_s"]
    assert tps.isna().sum() == 6 and sorted(tps.dropna()) == [17.51, 21.01], list(tps)
    assert df["baseline_ratio"].isna().all() and df["stddev_s"].notna().all()
    text = ns("table", "-q", "tests/runs")
    df["window"] = df["window"].astype(str)
    table_vs_text(df, text, ["model", "window"], {m[len("metric:"):]: m for m in metrics}, {}, w)


@check("table --format json of tests/runs: json_normalize of rows is the CSV's frame, tags strings")
def table_json():
    doc = js("table", "-q", "tests/runs")
    w = "table json"
    df = all_null_note(pd.json_normalize(doc["rows"]), w)
    strings(df, ["tags.model", "tags.window", "mode"], w)
    assert list(df["tags.window"]) == ["128", "128", "1024", "1024"] * 2
    metrics = [c for c in df.columns if c.startswith("metrics.")]
    numeric(df, TABLE_NUM + metrics, w)
    counts(df, TABLE_COUNT, w)
    assert df["metrics.tokens_per_s"].isna().sum() == 6
    c = csv("table", "-q", "tests/runs", dtype={"model": str, "window": str}, keep_default_na=False, na_values=[""])
    c = c.rename(columns=lambda k: "tags." + k if k in ("model", "window") else k.replace("metric:", "metrics."))
    # JSON rows always carry "config" (the label of configurations that
    # differ only in command or environment; null here, none has one);
    # the CSV has that column only when a row has a label
    assert "config" in df.columns and df["config"].isna().all(), "table json: config"
    df = df.drop(columns=["config"])
    assert sorted(c.columns) == sorted(df.columns), (sorted(c.columns), sorted(df.columns))
    same(df[c.columns], c, "table json against csv")


@check("table --stages (csv, json) of tests/data/stages/runs: shares numeric, NaN where a stage is absent")
def table_stages():
    w = "table --stages csv"
    df = csv("table", "-q", "--stages", "tests/data/stages/runs")
    stages = [c for c in df.columns if c.startswith("stage:")]
    assert len(stages) == 11, stages
    numeric(df, TABLE_NUM + stages, w)
    counts(df, TABLE_COUNT, w)
    strings(df, ["model", "mode", "regime"], w)
    whole_float_note(df, TABLE_NUM + stages, w)
    assert list(df["regime"]) == ["tiling-search", "memory-scheduling", "passes"], list(df["regime"])
    assert df.loc[0, "stage:parse"] != df.loc[0, "stage:parse"]          # NaN: no mlir stage in a vpux run
    assert df.loc[2, "stage:frontend"] == 0       # 0, not NaN: the mlir map declares a frontend stage too
    j = all_null_note(pd.json_normalize(js("table", "-q", "--stages", "tests/data/stages/runs")["rows"]), "table --stages json")
    numeric(j, stages, "table --stages json")
    j = j.rename(columns={"tags.model": "model"})
    same(j[[c for c in df.columns]], df, "table --stages json against csv")
    table_vs_text(df, ns("table", "-q", "--stages", "tests/data/stages/runs"), ["model"], {},
                  {s[len("stage:"):]: s for s in stages}, w)


# ---------------------------------------------------------------- fit
FIT_POINT_NUM = ["x", "y", "min", "max", "fitted", "residual", "local_slope"]
FIT_NUM = ["exponent", "prefactor", "r2", "ci95_lo", "ci95_hi"]
FIT_COUNT = ["n", "outliers"]


def fit_vs_text(df, text, key, where):
    """Each fit's block in the text: 'KEY: y = P * x^E', then 'exponent E,
    95% CI LO .. HI, R² R2, N points', then its points."""
    blocks = re.split(r"\n\n", text.strip())[1:]
    groups = list(df.groupby(key, dropna=False, sort=False))
    assert len(blocks) == len(groups), f"{where}: {len(blocks)} text blocks, {len(groups)} fits"
    for (k, g), block in zip(groups, blocks):
        lines = block.splitlines()
        m = re.match(r"^\s*exponent (\S+), 95% CI (.+), R² (\S+), (\d+) points$", lines[1])
        assert m, f"{where}: {lines[1]!r}"
        e, ci, r2, npts = m.groups()
        assert g["exponent"].nunique() == 1, f"{where}: one exponent per fit"
        agrees(e, g["exponent"].iloc[0], 4, f"{where} {k}: exponent")
        agrees(r2, g["r2"].iloc[0], 4, f"{where} {k}: R²")
        assert int(npts) == int(g["in_fit"].sum()), f"{where} {k}: points"
        lo, hi = (ci.split(" .. ") + ["-"])[:2] if " .. " in ci else ("-", "-")
        agrees(lo, g["ci95_lo"].iloc[0], 4, f"{where} {k}: CI low")
        agrees(hi, g["ci95_hi"].iloc[0], 4, f"{where} {k}: CI high")
        pts = text_rows(block, r"^\s+\S+\s+\S+.*residual")
        assert len(pts) == len(g), f"{where} {k}: {len(pts)} text points, {len(g)} rows"
        for t, (_, r) in zip(pts, g.iterrows()):
            xname = next(iter(t))
            agrees(t[xname], r["x"], 0, f"{where} {k}: x")
            agrees(t["residual"], r["residual"], 4, f"{where} {k} x={r['x']}: residual")
            agrees(t["local slope"], r["local_slope"], 4, f"{where} {k} x={r['x']}: local slope")


def fit_json_points(doc):
    """fit --format json flattened as the CSV is: one row per point, the
    fit's keys beside it (ci95 as ci95_lo, ci95_hi; the local slope and cliff
    of the step that ends at the point)."""
    rows = []
    for f in doc["fits"]:
        steps = {s["x1"]: s for s in f["local_slopes"]}
        for p in f["points"]:
            s = steps.get(p["x"])
            rows.append({"group": f["group"], "mode": f["mode"], **p,
                         "local_slope": s["slope"] if s else None, "cliff": s["cliff"] if s else None,
                         "exponent": f["exponent"], "prefactor": f["prefactor"], "r2": f["r2"],
                         "ci95_lo": f["ci95"][0], "ci95_hi": f["ci95"][1]})
    return pd.DataFrame(rows)


def fit_common(args, key, where):
    df = csv("fit", "-q", *args)
    numeric(df, FIT_POINT_NUM + FIT_NUM + ["cliff"], where)
    counts(df, FIT_COUNT, where)
    whole_float_note(df, [c for c in FIT_POINT_NUM + FIT_NUM if c != "x"], where)  # x: a tag's value
    assert set(df["in_fit"]) <= {0, 1}, set(df["in_fit"])
    if ptypes.is_integer_dtype(df["in_fit"]):
        note("bools", where)
    j = fit_json_points(js("fit", "-q", *args))
    for c in ("in_fit", "cliff"):
        j[c] = [None if v is None else int(v) for v in j[c]]
    j = all_null_note(j, where.replace("csv", "json"))
    same(j[df.columns].astype({c: float for c in FIT_POINT_NUM + FIT_NUM + ["cliff"]}),
         df.astype({c: float for c in FIT_POINT_NUM + FIT_NUM + ["cliff"]}), f"{where}: json against csv")
    fit_vs_text(df, ns("fit", "-q", *args), key, where)
    return df


@check("fit --format csv/json on tests/runs (--x window --y wall): numbers numeric, json = csv = text")
def fit_runs():
    w = "fit csv (runs)"
    df = fit_common(["--x", "window", "--y", "wall", "tests/runs"], "mode", w)
    strings(df, ["mode"], w)
    assert list(df["mode"]) == ["cold", "cold", "warm", "warm"]
    assert df["group"].isna().all()
    if df["group"].dtype != object:
        note("empty-strings", f"{w} group (no --by)")
    assert df["ci95_lo"].isna().all(), "two points have no confidence interval"


@check("fit --format csv/json on tests/data/seed-compile-table.csv (--by model): the published exponents")
def fit_seed():
    w = "fit csv (seed)"
    df = fit_common(["--x", "window", "--y", "cold_s", "--by", "model", "tests/data/seed-compile-table.csv"],
                    "group", w)
    strings(df, ["group"], w)
    assert df["mode"].isna().all()
    if df["mode"].dtype != object:
        note("empty-strings", f"{w} mode (a CSV input)")
    e = df.groupby("group", sort=False)["exponent"].first()
    # window^0.24 (1.5B) and window^0.55 (7B), as the study found
    assert abs(e["qwen25_1_5b"] - 0.24) < 0.01 and abs(e["qwen25_7b"] - 0.55) < 0.01, dict(e)


# ---------------------------------------------------------------- diff
DIFF_NUM = ["a_median", "b_median", "ratio", "shift", "p"]


def diff_check(args, where, want_names):
    df = csv("diff", "-q", *args)
    assert list(df.columns) == ["name", "kind", "a_n", "b_n", *DIFF_NUM, "verdict", "better",
                                "shift_lo", "shift_hi"], list(df.columns)
    numeric(df, DIFF_NUM + ["shift_lo", "shift_hi"], where)
    counts(df, ["a_n", "b_n"], where)
    strings(df, ["name", "kind", "verdict", "better"], where)
    assert set(df["verdict"]) <= {"faster", "slower", "same", "inconclusive"}
    assert list(df["name"]) == want_names, list(df["name"])
    for _, r in df.iterrows():
        if (r["a_n"] == 0 or r["b_n"] == 0) and r["verdict"] == "same":
            note("verdict", f"{where} {r['name']} (a_n {r['a_n']}, b_n {r['b_n']})")
    j = all_null_note(pd.json_normalize(js("diff", "-q", *args)["rows"]), where.replace("csv", "json"))
    numeric(j, DIFF_NUM, where.replace("csv", "json"))
    # JSON has the interval as one pair, shift_ci; CSV as shift_lo, shift_hi
    lo_hi = pd.DataFrame(j["shift_ci"].tolist(), columns=["shift_lo", "shift_hi"], index=j.index)
    j = pd.concat([j.drop(columns=["shift_ci"]), lo_hi], axis=1)
    numeric(j, ["shift_lo", "shift_hi"], where.replace("csv", "json"))
    same(j[df.columns], df, f"{where}: json against csv")
    text = ns("diff", "-q", *args)
    rows = text_rows(text, r"^name\s")
    assert [t["name"] for t in rows] == list(df["name"])
    for t, (_, r) in zip(rows, df.iterrows()):
        w = f"{where} {r['name']}"
        assert int(t["A n"]) == r["a_n"] and int(t["B n"]) == r["b_n"], w
        for col, k in (("A median", "a_median"), ("B median", "b_median")):
            agrees(t[col], r[k], metric_decimals(t[col]) if t[col] != "-" else 0, f"{w}: {col}")
        agrees(t["ratio"], r["ratio"], 3, f"{w}: ratio")
        agrees(t["shift"], r["shift"], 4 if r["kind"] != "metric" else metric_decimals(t["shift"]), f"{w}: shift")
        agrees(t["p"], r["p"], 4, f"{w}: p")
        assert t["verdict"].split(" ")[0] == r["verdict"], f"{w}: verdict {t['verdict']} against {r['verdict']}"


@check("diff --format csv/json of tests/runs (m1 against m2, cold and warm): numbers numeric, NaN, as the text")
def diff_runs():
    diff_check(["--mode", "cold", "--a", "model=m1", "--b", "model=m2", "tests/runs"], "diff csv (cold)",
               ["total", "metric:compile_net_ms"])
    diff_check(["--mode", "warm", "--a", "model=m1", "--b", "model=m2", "tests/runs"], "diff csv (warm)",
               ["total", "metric:tokens_per_s"])


@check("diff --format csv/json with pass rows (tests/data/stages/runs, cnn against llm)")
def diff_passes():
    df = csv("diff", "-q", "--a", "model=cnn", "--b", "model=llm", "tests/data/stages/runs")
    names = list(df["name"])
    assert names[0] == "total" and len(names) > 5 and "FeasibleAllocation" in names, names
    diff_check(["--a", "model=cnn", "--b", "model=llm", "tests/data/stages/runs"], "diff csv (passes)", names)


# ---------------------------------------------------------------- tree
@check("tree --format csv of real mlir-opt-22 reports: quoted names with commas, user_s NaN without a user column")
def tree_csv():
    for fx, has_user in (("mlir22-tree-mt.txt", True), ("mlir22-tree-st.txt", False)):
        f = os.path.join("tests", "fixtures", fx)
        w = f"tree csv ({fx})"
        df = csv("tree", "-q", f, keep_default_na=False, na_values=[""])
        numeric(df, ["wall_s", "user_s", "self_s"], w)
        counts(df, ["report", "depth"], w)
        strings(df, ["label", "path", "name", "kind"], w)
        if df["id"].dtype != object:
            note("tag-numbers", f"{w} id (a flat report's ids 0, 1, 2)")
        nodes = []
        for r in js("tree", "-q", f)["reports"]:
            def walk(n, depth):
                nodes.append((n["name"], n["wall_s"], n["user_s"], depth))
                for c in n["children"]:
                    walk(c, depth + 1)
            for c in r["root"]["children"]:
                walk(c, 0)
        got = list(zip(df["name"], df["wall_s"], df["user_s"], df["depth"]))
        assert len(got) == len(nodes), f"{w}: {len(got)} rows, {len(nodes)} nodes"
        for g, n in zip(got, nodes):
            assert g[0] == n[0] and g[1] == n[1] and g[3] == n[3], f"{w}: {g} against {n}"
            assert (n[2] is None and math.isnan(g[2])) or g[2] == n[2], f"{w}: user_s {g} against {n}"
        assert df["user_s"].notna().all() if has_user else df["user_s"].isna().all(), f"{w}: user_s"
        assert any("," in x for x in df["name"]), f"{w}: a name with a comma came through"


# ---------------------------------------------------------------- the docs' recipe
@check("docs/formats.md: the pandas recipe loads tests/runs with tags as strings and numbers numeric")
def docs_recipe():
    with open(os.path.join("docs", "formats.md"), encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"```sh\n(npuscope table --format csv \S+ > (\S+))\n```\n\n```python\n(.*?)```", doc, re.S)
    assert m, "no pandas recipe (a ```sh npuscope table --format csv block, then ```python) in docs/formats.md"
    shell, name, code = m.groups()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(ns("table", "-q", "tests/runs", "--format", "csv"))
        # the study with a tag whose values pandas would take for missing
        tags = os.path.join(d, "tagged")
        for v in ("NA", "null", "007"):
            ns("record", "-q", "-o", tags, "--tag", f"model={v}", "--tag", "window=1", "--", "true")
        with open(os.path.join(d, "tagged.csv"), "w", encoding="utf-8") as f:
            f.write(ns("table", "-q", tags, "--format", "csv"))
        here = os.getcwd()
        os.chdir(d)
        try:
            env = {}
            exec(code, env)
            df = env["df"]
            env2 = {}
            exec(code.replace(name, "tagged.csv"), env2)
            tagged = env2["df"]
        finally:
            os.chdir(here)
    w = "docs recipe"
    assert len(df) == 8, len(df)
    strings(df, ["model", "window", "mode"], w)
    assert list(df["window"]) == ["128", "128", "1024", "1024"] * 2
    numeric(df, TABLE_NUM + [c for c in df.columns if c.startswith("metric:")], w)
    counts(df, TABLE_COUNT, w)
    assert df["metric:tokens_per_s"].isna().sum() == 6
    assert sorted(tagged["model"]) == ["007", "NA", "null"], list(tagged["model"])


# ---------------------------------------------------------------- main
def main():
    global NPUSCOPE, pd, ptypes
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--npuscope", default=NPUSCOPE)
    ap.add_argument("--out")
    ap.add_argument("names", nargs="*", help="checks to run (default: all)")
    a = ap.parse_args()
    NPUSCOPE = os.path.abspath(a.npuscope)
    import pandas
    import pandas.api.types
    pd, ptypes = pandas, pandas.api.types
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    failed = 0
    for i, (name, title, fn) in enumerate(CHECKS):
        if a.names and name not in a.names:
            continue
        try:
            fn()
            status, detail = "ok", ""
        except Exception as e:  # a check's failure, whatever raised it
            failed += 1
            status = "fail"
            detail = (str(e) if isinstance(e, AssertionError) and str(e) else traceback.format_exc()).rstrip()
        if a.out:
            with open(os.path.join(a.out, f"{i:02d}-{name}.{status}"), "w", encoding="utf-8") as f:
                f.write(title + "\n" + (detail + "\n" if detail else ""))
        else:
            print(("ok   " if status == "ok" else "FAIL ") + title)
            if detail:
                print("\n".join("     " + line for line in detail.splitlines()))
    if a.out:
        with open(os.path.join(a.out, "notes.txt"), "w", encoding="utf-8") as f:
            f.writelines(n + "\n" for n in note_lines())
    else:
        for n in note_lines():
            print("note: " + n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
