/* help.c -- the help texts, in one place so they stay consistent with the
 * man page (docs/npuscope.1).  The exit codes are printed from their one
 * table (base/exit.h); each command's options come from its option table
 * (cli/options.h), and the tests hold every table entry against the text
 * here and the man page (`npuscope CMD --completion-helper` lists them). */
#include "cli/cli.h"

#include <string.h>

static const char ns__general[] =
    "npuscope " NS_VERSION " -- where does compile time go, and what to change\n"
    "\n"
    "usage: npuscope COMMAND [OPTIONS] [INPUT...]\n"
    "\n"
    "commands:\n"
    "  tree     show each timing report as a tree, or export it\n"
    "           (json, csv, folded, chrome, speedscope, original)\n"
    "  top      the heaviest passes, summed across all reports of the input\n"
    "  record   run a compile command N times into write-once run folders\n"
    "  sweep    record over the cartesian product of axes (-L, -P), resumable\n"
    "  table    one row per configuration and mode from run folders\n"
    "  fit      power law of compile time over a sweep axis (run folders or CSV)\n"
    "  diff     A against B: total, passes, metrics, exact Mann-Whitney U\n"
    "  stages   show, check or apply a stage map (which stage each row is)\n"
    "  advise   the regime of each compile and what to change, with numbers\n"
    "  report   one self-contained HTML page: findings, trees, tables, figures\n"
    "  watch    follow a log still being written: the pass running now, then the tree\n"
    "  timeline the whole load in time: before, each compile, gaps, after, from\n"
    "           the NPU stack's timestamps (text, json, chrome)\n"
    "\n"
    "INPUT is a log file (any text holding MLIR --mlir-timing reports, LLVM\n"
    "-time-passes / -ftime-report tables, MLIR JSON timing output), a Chrome\n"
    "trace JSON (clang -ftime-trace), or a run folder or folder of runs made by\n"
    "record/sweep (their run.json reports; from a folder of runs only the counted\n"
    "ones: no warmups, cache primers or failed runs); '-' or no INPUT reads\n"
    "standard input.\n"
    "\n"
    "exit codes:\n";

/* after the exit codes, which come from base/exit.h */
static const char ns__general_tail[] =
    "\n"
    "Messages go to standard error as 'npuscope: FILE:LINE: message'.\n"
    "'npuscope COMMAND --help' describes a command; see also npuscope(1).\n";

#define NS__NPU_OPTIONS                                                         \
    "  --npu              attach what the NPU compiler logs around each report\n"  \
    "                     (VmPeak, Compile net time, MLIR workers, estimated\n"   \
    "                     latency, VPUIP tasks) as report metrics; without it,\n" \
    "                     done for inputs that carry the NPU stack's log lines\n" \
    "  --no-npu           only with --npu/--npuw: do not recognise NPU logs\n"    \
    "  --npuw[=LAYOUT]    an NPUW LLM compile: label reports by their order in\n"  \
    "                     LAYOUT (default generate:3,prefill:3,lm_head:1), or by\n" \
    "                     a developer build's 'Compiling Subgraph[i]: NAME'\n" \
    "  --threads N        read a regular file of 32 MB or more with N threads\n"  \
    "                     (default 1); the output is the same with any N\n"

static const char ns__tree[] =
    "usage: npuscope tree [OPTIONS] [FILE... | -]\n"
    "\n"
    "Print every timing report found in the input as a tree: wall time as the\n"
    "compiler printed it, share of the report's total with a bar, user time\n"
    "when the report has it, the NPU compiler's per-pass memory when its log\n"
    "has it (peak kB after the pass and +kB it added, from the\n"
    "memory-usage-collector's lines; with --npu; '-' on rows without one), and\n"
    "the row name indented by depth.\n"
    "\n"
    "options:\n"
    "  --format F         text (default), json, csv, folded, chrome, speedscope,\n"
    "                     original (each report re-printed in its own layout)\n"
    "  --depth N          show rows down to depth N (0 = top-level rows only)\n"
    "  --min-ms X         elide rows below X milliseconds; text output says how\n"
    "                     many were elided and their summed time\n"
    "  --report N         only the N-th report of the input (1-based)\n"
    "  --merge            inputs are run folders: one tree per configuration, mode\n"
    "                     and report position, the medians of the counted repeats;\n"
    "                     rows are matched by path (name and occurrence under their\n"
    "                     parent); text adds \"merged N runs; medians shown; M rows\n"
    "                     with outliers\", json adds n, min_s, max_s and outliers per\n"
    "                     row (every --format but original)\n"
    "  --time wall|user   time used for shares, elision and exports (default wall)\n"
    "  --label-regex RE   label each report from the nearest preceding line that\n"
    "                     matches the POSIX extended regex RE (its first capture\n"
    "                     group if it has one); default labels are #1, #2, ...\n"
    "  --color WHEN       always, never or auto (default: auto = on a terminal\n"
    "                     and NO_COLOR unset)\n"
    NS__NPU_OPTIONS
    "  -q, --quiet        no warnings\n";

static const char ns__top[] =
    "usage: npuscope top [OPTIONS] [INPUT...]\n"
    "\n"
    "Sum every row by name across all reports of the input (an NPUW LLM compile\n"
    "prints one report per sub-model) and rank them by total wall time.\n"
    "Columns: wall time, share of the summed report totals, occurrences, user\n"
    "time, self time (the row minus its children).  Containers (scopes and\n"
    "pipelines with children) are left out unless --all; Rest and Total never\n"
    "appear.  In JSON and CSV each row names its stage (\"mixed\" when its\n"
    "occurrences fall in different stages).\n"
    "\n"
    "One compile that prints several tables (clang/flang -ftime-report, opt and\n"
    "llc -time-passes) counts once: the total sums its main reports, so shares\n"
    "are of the compile's own total; rows of the tables that break a main row\n"
    "down are still ranked, indented with the row they are inside (JSON and\n"
    "CSV: within), and add nothing to the total or the stages.  A phase such a\n"
    "table breaks into passes (Optimizer) is a container: left out unless --all.\n"
    "\n"
    "--by stage: one row per stage of the stage map, in the map's order, then\n"
    "Rest.  self s is the stage's time: every row's own time (its wall minus\n"
    "its children's) summed by stage, so the stages and Rest add up to the\n"
    "total; share is self s over the total.  count, wall s and user s sum the\n"
    "rows that --by pass ranks, grouped by stage.\n"
    "\n"
    "options:\n"
    "  -n N               show the N heaviest (default 20; 0 = all; --by pass\n"
    "                     or memory)\n"
    "  --report N         take only the N-th report of the input, alone (its\n"
    "                     own total and shares, even a breakdown table)\n"
    "  --format F         text (default), json or csv\n"
    "  --by pass|stage|submodel|memory\n"
    "                     group by pass name (default), by stage, or by the\n"
    "                     sub-model kind of the report (with --npuw: generate,\n"
    "                     prefill, lm_head; the label's last non-numeric part);\n"
    "                     memory: the pass rows ranked by the kB the NPU\n"
    "                     compiler's memory-usage-collector says they raised its\n"
    "                     peak, summed (only passes with such a line; --npu)\n"
    "  --stages MAP       the stage map: a rules file, vpux, mlir or auto (the\n"
    "                     default: vpux for NPU compiler reports, mlir for the\n"
    "                     rest); see 'npuscope stages --help'\n"
    "  --all              include container rows\n"
    "  --label-regex RE   as for tree\n"
    NS__NPU_OPTIONS
    "  -q, --quiet        no warnings\n";

#define NS__RECORD_OPTIONS                                                          \
    "  -o DIR             run folders go to DIR/<run-id>/ (default: runs)\n"         \
    "  -n RUNS            counted runs, each a fresh process (default 1)\n"           \
    "  --warmup N         N runs first, kept but marked warmup (default 0)\n"         \
    "  --preset P         npu: OV_NPU_LOG_LEVEL=LOG_INFO and IE_NPU_LOG_FILTER=\n"    \
    "                     vpux-compiler (the NPU compiler then prints its report);\n" \
    "                     mlir: nothing (add --mlir-timing to the command); none\n"   \
    "  --env K=V          set a variable for the command (repeatable)\n"             \
    "  --tag K=V          label the runs (repeatable); tags name a configuration\n"  \
    "  --metric NAME=RE   a number from the output: POSIX ERE, first capture group,\n" \
    "                     last match (built-in: compile_model_ms,\n"                \
    "                     compiler_vmpeak_kb, compiler_vmpeak_delta_kb,\n"        \
    "                     compile_net_ms, tokens_per_s); a rate's NAME should end\n" \
    "                     in _per_s (diff: higher is better)\n"                    \
    "  --timeout SEC      SIGTERM to the command's process group after SEC\n"        \
    "                     (default: no timeout)\n"                                   \
    "  --grace SEC        after a timeout or an interrupt, SIGKILL the group SEC\n" \
    "                     later if it is still running (default 10)\n"             \
    "  --npuw[=LAYOUT]    label the reports of an NPUW LLM compile (as for tree;\n" \
    "                     also implied by a tag NPUW_LLM=YES)\n"                   \
    "  --collect FILE     copy FILE into the run folder when the run wrote it\n"   \
    "                     (compileTimeScheduleTrace.json, strategy_out.json and\n" \
    "                     strategy_dump_*.json also become metrics: tasks,\n"     \
    "                     tiles, ...) (repeatable); FILE is inside the working\n" \
    "                     directory (no '..', no link out), not a folder, not\n" \
    "                     run.json, stdout.log, stderr.log or a hidden name; its\n" \
    "                     file name may hold wildcards: 'strategy_dump_*.json'\n"  \
    "  --no-npu           do not read an NPU compile's facts from output that\n"  \
    "                     shows itself one (without --preset npu or --npuw,\n"   \
    "                     record reads them once an NPU logger's line comes)\n"  \
    "  --show-output      copy the command's output to the terminal as it runs\n"   \
    "  -q, --quiet        no progress or summary lines (without -q a line per\n"   \
    "                     finished run, on a terminal or not)\n"

static const char ns__record[] =
    "usage: npuscope record [OPTIONS] -- CMD [ARG...]\n"
    "\n"
    "Run CMD (no shell) RUNS times, each in its own process group with stdout and\n"
    "stderr captured at the file-descriptor level, and keep each run in a\n"
    "write-once folder DIR/<run-id>/ with run.json (times, peak RSS, exit status,\n"
    "metrics, every timing report found in the output), stdout.log, stderr.log.\n"
    "CMD sees NPUSCOPE_MODE, NPUSCOPE_CACHE_DIR (cold: a fresh empty folder per\n"
    "run; warm: one folder per configuration, filled by a first 'primer' run) and\n"
    "NPUSCOPE_RUN_DIR; cache settings are the compile script's to apply\n"
    "(examples/ov_compile.py does).  See docs/recording.md.\n"
    "\n"
    "options:\n"
    "  --mode M           cold, warm or none (default none)\n"
    NS__RECORD_OPTIONS;

static const char ns__sweep[] =
    "usage: npuscope sweep [OPTIONS] -L NAME=v1,v2,... [-P NAME=LO:HI:STEP] -- CMD {NAME}...\n"
    "\n"
    "Record CMD over the cartesian product of the axes.  {NAME} in CMD's\n"
    "arguments and in --env values is replaced by the axis value (never through\n"
    "a shell) and exported as NPUSCOPE_PARAM_NAME; axis values become tags.  Run\n"
    "ids are fixed by configuration, mode and repeat, so running the same sweep\n"
    "again skips finished runs (resume), and shards never clash.\n"
    "\n"
    "options (and all of record's):\n"
    "  -L NAME=a,b,c      an axis with these values (repeatable)\n"
    "  -P NAME=LO:HI:STEP an arithmetic axis; LO:HI:*K a geometric one\n"
    "                     (window=128:32768:*2)\n"
    "  --modes M[,M]      cold, warm, none (default none); --mode is the same\n"
    "  --order O          interleave (default: repeat r of every configuration\n"
    "                     before repeat r+1, so drift hits all alike) or grouped\n"
    "  --shard K/N        run configurations c with c % N == K (0 <= K < N), for\n"
    "                     N machines; merge the folders by plain copy\n"
    "  --dry-run          print the plan (run ids, environment, argv) and stop\n"
    NS__RECORD_OPTIONS;

static const char ns__table[] =
    "usage: npuscope table [OPTIONS] DIR...\n"
    "\n"
    "One row per configuration and mode of the runs that record and sweep\n"
    "wrote.  A configuration is the full set of a run's tags; rows sort by tag\n"
    "value in the order the tags first appear (numbers as numbers: 128 before\n"
    "1024), then cold, warm, none.  The statistics cover the counted runs:\n"
    "those that succeeded and are neither warmups nor cache primers.\n"
    "\n"
    "Each DIR is a run folder (it holds run.json) or a folder of run folders;\n"
    "names starting with '.' are runs still being written and are skipped.  A\n"
    "run.json that is broken or holds a value of the wrong type is a warning\n"
    "naming its line, and that run is left out.\n"
    "\n"
    "columns:\n"
    "  n                  counted runs\n"
    "  median ... max s   wall seconds over them: median, mean, stddev (sample,\n"
    "                     n-1; needs 2 runs), min, max\n"
    "  user/wall          median of user CPU / wall: about 1 for a serial\n"
    "                     compile, above 1 for a parallel one\n"
    "  peak MB            median peak resident memory of the process tree (MiB)\n"
    "  failed             runs that did not succeed (warmups and primers aside)\n"
    "  warmups, primers   runs kept but not counted\n"
    "  outliers           counted runs whose wall time is an outlier (modified\n"
    "                     z-score of the median absolute deviation > 3.5, and\n"
    "                     at least 5% from the median): flagged, never\n"
    "                     dropped -- the statistics include them\n"
    "  cache x            median cold / median warm of the same configuration\n"
    "  NAME               median of each metric (record --metric NAME=REGEX)\n"
    "  regime, STAGE      with --stages: the stage with the largest share, and\n"
    "                     the median share of each stage: the stage's time in\n"
    "                     the run's timing reports over their total (runs that\n"
    "                     kept no report do not count); csv and json name them\n"
    "                     regime and stage:STAGE (shares 0-1)\n"
    "\n"
    "options:\n"
    "  --format F         text (default), csv, json or markdown; csv and json\n"
    "                     have every column (missing values empty / null), text\n"
    "                     and markdown leave out columns with nothing in them\n"
    "  --tag-columns A,B  show only these tags, in this order (default: every\n"
    "                     tag, in order of first appearance); rows sort by them\n"
    "                     first and are still one per full set of tags; the\n"
    "                     derived tags size_b (params) and family, read off the\n"
    "                     model tag, may be named\n"
    "  --submodels        add a column per sub-model kind (submodel:generate,\n"
    "                     ...: the median of the run's report totals of that\n"
    "                     kind; labels from record --npuw or a tag NPUW_LLM=YES)\n"
    "  --baseline K=V     add each row's median over the median of the row that\n"
    "                     differs only in tag K, where K has the value V (x base;\n"
    "                     precision=int8), and the median of those ratios\n"
    "  --by AXIS          ... grouped by this tag (e.g. model, or the derived\n"
    "                     family or size_b)\n"
    "  --stages [MAP]     add the regime and stage share columns; MAP is a rules\n"
    "                     file, vpux, mlir or auto (the default: chosen per\n"
    "                     report); as in every command, the next argument is\n"
    "                     taken as MAP unless it is an option or a folder\n"
    "  -q, --quiet        no warnings\n"
    "\n"
    "exit codes: 0 table printed, 1 no runs found, 2 usage error or a DIR that\n"
    "cannot be read.\n";

static const char ns__fit[] =
    "usage: npuscope fit --x AXIS|metric:NAME --y FIELD [OPTIONS] INPUT...\n"
    "       npuscope fit --per report --x fact:NAME --y pass:NAME|stage:NAME|total\n"
    "                    [OPTIONS] DIR...\n"
    "\n"
    "Fit a power law y = prefactor * x^exponent by least squares in log-log\n"
    "space, one fit per group: the exponent with its 95% confidence interval\n"
    "(Student t; needs 3 points), the prefactor, R2 (in log space), each\n"
    "point's residual (ln y - ln fitted) and the local slope between\n"
    "neighbouring x values, ln(y2/y1) / ln(x2/x1).  A local slope more than\n"
    "1.0 above the exponent is flagged as a cliff: a single exponent hides it.\n"
    "\n"
    "INPUT is a run folder or a folder of run folders (record, sweep), or a\n"
    "CSV file (a header row, then records; RFC 4180 quoting; numbers written\n"
    "like 3.5); not both kinds at once.\n"
    "  run folders  one point per group and x: the median y of the counted\n"
    "               runs there (ok, neither warmups nor primers), with n, min\n"
    "               and max; each cache mode is fitted on its own unless\n"
    "               --mode picks one\n"
    "  CSV files    --x, --y and --by name columns; each record is a point\n"
    "  --per report each timing report (one sub-model compile; an NPUW LLM\n"
    "               run has seven) is a point, x and y from that report\n"
    "Points with x <= 0 or y <= 0 are shown but left out of the fit (warning).\n"
    "\n"
    "fields (run folders):\n"
    "  --x AXIS           a tag whose values are numbers (window, n, ...)\n"
    "  --x metric:NAME    a metric of each run (metric:tasks from --collect)\n"
    "  --x fact:NAME      a fact the compiler logged (fact:vpuip_tasks), summed\n"
    "                     over the run's reports; with --per report, the\n"
    "                     report's own\n"
    "  --x size_b         derived tags: size_b (params) and family, read off\n"
    "                     the model tag when the run has no such tag\n"
    "  --y wall           the run's wall seconds (user, sys: CPU seconds)\n"
    "  --y peak           its peak resident memory, MiB\n"
    "  --y pass:NAME      wall seconds of every row named NAME, summed over all\n"
    "                     of the run's reports (an NPUW compile prints one per\n"
    "                     sub-model: the pass's cost over all of them)\n"
    "  --y stage:NAME     the time of a stage (see 'npuscope stages') over the\n"
    "                     run's reports, each under the stage map of --stages\n"
    "  --y metric:NAME    a metric of the run\n"
    "  --y total          the report totals (the compiler's own time), summed\n"
    "\n"
    "options:\n"
    "  --by AXIS          one fit per value of this tag (CSV: of this column)\n"
    "  --per run|report   a point per x of the runs (default), or per report\n"
    "  --where K=V[,K=V]  only runs with these tags (repeatable; all must match)\n"
    "  --mode M           only runs of this cache mode (cold, warm or none)\n"
    "  --stages MAP       the stage map of stage:NAME: a rules file, vpux, mlir\n"
    "                     or auto (the default: vpux for NPU compiler reports,\n"
    "                     mlir for the rest)\n"
    "  --format F         text (default), csv (one line per point, the fit\n"
    "                     repeated on each) or json\n"
    "  -q, --quiet        no warnings\n"
    "\n"
    "exit codes: 0 fitted, 1 nothing to fit (no runs, or no group with two\n"
    "usable points at distinct x), 2 usage error or an INPUT that cannot be\n"
    "read.\n";

static const char ns__diff[] =
    "usage: npuscope diff [OPTIONS] A [B]\n"
    "       npuscope diff [OPTIONS] --a K=V[,K=V] --b K=V[,K=V] DIR\n"
    "\n"
    "Compare two sets of runs: A and B are run folders or folders of runs, or\n"
    "two tag selections of one folder.  Only counted runs compare (ok, neither\n"
    "warmups nor primers).  Rows, in one table so that a compile-time cost and\n"
    "a runtime gain read side by side:\n"
    "  total              wall seconds of the whole compile\n"
    "  PASS               every pass either side printed: wall seconds of the\n"
    "                     rows of that name summed over all of a run's reports\n"
    "                     (0 s in a run whose reports lack it); heaviest in A\n"
    "                     first\n"
    "  mem:PASS           every pass with per-pass memory (the NPU compiler's\n"
    "                     memory-usage-collector, read with --npu / --preset\n"
    "                     npu): kB it raised the compiler's peak, summed over a\n"
    "                     run's reports (0 in a run with such lines but none\n"
    "                     for the pass); higher is worse\n"
    "  stage:NAME         with --stages: every stage of the maps the reports are\n"
    "                     read with, wall seconds (self times of its rows)\n"
    "                     summed over a run's reports\n"
    "  metric:NAME        every metric of the runs\n"
    "\n"
    "Per row: runs on each side, the medians, ratio = B median / A median, the\n"
    "Hodges-Lehmann shift B - A, and the exact two-sided Mann-Whitney U p-value\n"
    "(no normal approximation; ties handled exactly).  The verdict is \"slower\"\n"
    "(B worse) or \"faster\" (B better) only when p < alpha and |shift| is more\n"
    "than the threshold of A's median; otherwise \"same\".  Time is better lower;\n"
    "so is a metric, unless its name says it is a rate (ends in _per_s,\n"
    "_per_sec, _per_second, _fps, _tps or _qps, or contains throughput:\n"
    "tokens_per_s).  A metric's verdict also says which way it went:\n"
    "\"slower (higher)\" for more memory, \"faster (higher)\" for more tokens/s.\n"
    "With fewer than 5 runs a side a warning gives the smallest p the test can\n"
    "reach (3 against 3: 0.1, never significant at 0.05).\n"
    "\n"
    "options:\n"
    "  --a K=V[,K=V]      side A: runs with these tags (repeatable; all must\n"
    "                     match); with two folders, narrows A\n"
    "  --b K=V[,K=V]      side B, the same way\n"
    "  --mode M           only runs of this cache mode (cold, warm or none);\n"
    "                     needed when a side holds runs of several modes\n"
    "  --alpha A          significance level (default 0.05)\n"
    "  --threshold PCT    smallest shift that counts, % of A's median (default 2)\n"
    "  --fail-if-slower PCT\n"
    "                     exit 1 when the total is \"slower\" and B's median is\n"
    "                     more than PCT % above A's (a gate for CI)\n"
    "  --all              keep passes under 0.1 ms on both sides (left out and\n"
    "                     counted by default)\n"
    "  --stages MAP       add a row per stage, under this stage map: a rules\n"
    "                     file, vpux, mlir or auto (vpux for NPU compiler\n"
    "                     reports, mlir for the rest)\n"
    "  --format F         text (default), csv, json, markdown (a table for a pull\n"
    "                     request or a CI job summary: one summary line, the\n"
    "                     significant rows first) or github (a ::warning\n"
    "                     annotation per slower row, ::notice per faster one)\n"
    "  -q, --quiet        no warnings\n"
    "\n"
    "exit codes: 0 compared (whatever the verdicts), 1 the --fail-if-slower gate\n"
    "tripped, or a side has no counted run, 2 usage error or a folder that\n"
    "cannot be read.\n";

static const char ns__stages[] =
    "usage: npuscope stages [--stages MAP] [INPUT...]\n"
    "       npuscope stages --check FILE [--check FILE]...\n"
    "\n"
    "A stage map says which stage of a compile each row of a timing report\n"
    "belongs to (frontend, tiling-search, memory-scheduling, ...); 'top --by\n"
    "stage', 'table --stages', 'fit --y stage:NAME', 'diff --stages' and advise\n"
    "use one.  MAP is a rules file or a\n"
    "built-in map: vpux (the OpenVINO NPU compiler) or mlir (any other MLIR tool,\n"
    "LLVM and clang).  auto, the default, takes vpux for a report with an\n"
    "'IE to VPUIP pipeline' or 'Compile network' row and mlir for the others.\n"
    "The rules file format is described in docs/stages.md.\n"
    "\n"
    "Without INPUT, print the map in its file syntax (default vpux), to save,\n"
    "edit and give back with --stages FILE.  With INPUT, print every row of every\n"
    "report with its stage and the rule that decided it (name:LINE, marker:LINE\n"
    "and default:LINE name the map's line; parent: inherited), to check a map\n"
    "against a log.\n"
    "\n"
    "options:\n"
    "  --stages MAP       a rules file, vpux, mlir or auto (default: vpux without\n"
    "                     INPUT, auto with INPUT)\n"
    "  --check FILE       check a rules file (repeatable): 'FILE: ok: ...' on\n"
    "                     standard output, or every problem as\n"
    "                     'npuscope: FILE:LINE: message'\n"
    "  --label-regex RE   as for tree\n"
    NS__NPU_OPTIONS
    "  -q, --quiet        no warnings\n"
    "\n"
    "exit codes: 0 done, 1 no timing report in the input, 2 usage error, a file\n"
    "that cannot be read or a map with errors.\n";

static const char ns__advise[] =
    "usage: npuscope advise [--stages [MAP]] [--format text|json] [--per-config]\n"
    "                       [--report N] INPUT...\n"
    "\n"
    "For every compile of the input -- a log (all its reports are one compile:\n"
    "an NPUW LLM compile prints several; the tables of one clang or flang\n"
    "-ftime-report are one sub-model, counted by its main report) or the configurations of run folders\n"
    "(medians over their counted runs) -- the regime (the stage with the\n"
    "largest share under the stage map) and a ranked list of fixes, each with\n"
    "the numbers behind it: a warm blob cache (the measured cold/warm factor,\n"
    "or how to measure it), strategy reuse when tiling search dominates, fewer\n"
    "and larger tiles when memory scheduling does (with the scheduled task\n"
    "count when collected), a shipped blob when ELF serialization does, vertical\n"
    "fusion for conv nets, the heaviest single pass; and, when configurations\n"
    "differ only in NPUW_FUNCALL_FOR_ALL or NPUW_FOLD and carry tokens/s, the\n"
    "trade of compile time against decode speed.\n"
    "\n"
    "On a sweep (4 or more configurations) advise leads with the study: a table\n"
    "of regimes (regime | cells | dominant pass (median share) | root cause |\n"
    "fix rule), each regime's cells in compact ranges, and the power laws the\n"
    "sweep supports (report total against each numeric axis and size_b, and\n"
    "FeasibleAllocation against the reports' vpuip_tasks), each with its\n"
    "exponent and 95% interval; the per-configuration advice follows only with\n"
    "--per-config.  JSON gains a \"study\" object beside \"cases\".\n"
    "\n"
    "options:\n"
    "  --stages [MAP]     a rules file, vpux, mlir or auto (default)\n"
    "  --format F         text (default) or json\n"
    "  --per-config       on a sweep, also the advice of every configuration\n"
    "  --report N         take only the N-th report of each log and each run,\n"
    "                     alone (a compile of its own)\n"
    "  --label-regex RE   as for tree\n"
    NS__NPU_OPTIONS
    "  -q, --quiet        no warnings\n";

static const char ns__report[] =
    "usage: npuscope report [OPTIONS] INPUT...\n"
    "\n"
    "Write one self-contained HTML page about the input: key findings as\n"
    "sentences with their numbers; an explorer of every timing tree (click or\n"
    "arrow keys to expand, search, share bars of each report's total, wall and\n"
    "user columns, a threshold that elides small rows); the heaviest passes by\n"
    "stage; and for run folders the runs table (cold/warm, cache x) and figures\n"
    "drawn as SVG: a log-log scaling plot with fitted power laws for every tag\n"
    "with 3 or more numeric values, a regime map of the dominant stage over the\n"
    "first two tags, stage fingerprints per configuration, and ratios to a\n"
    "baseline.  A sweep of 4 configurations or more is also read as a study,\n"
    "with figures of the compiler's own time (summed report totals): the\n"
    "hand-off (stage shares against cold compile time, a line per stage,\n"
    "families as marker shapes), why-costly (the dominant pass against its\n"
    "workload fact, a point per report, exponent and 95% interval), the family\n"
    "fingerprint at the window most families share, precision against model\n"
    "size (time, and the ratio to the baseline with its crossing of 1) and\n"
    "the memory-scheduling share against the window per precision; a figure\n"
    "the sweep cannot carry is named with the reason.  A plot with more\n"
    "series than the 7 colours is drawn whole as small multiples, one panel\n"
    "per value of a tag.  For run folders the explorer shows the median run of each\n"
    "configuration and mode.  The page makes no network request (its\n"
    "Content-Security-Policy forbids them), works from file://, follows the\n"
    "light or dark scheme, prints cleanly, and is the same bytes for the same\n"
    "input.\n"
    "\n"
    "options:\n"
    "  -o FILE            the page (default npuscope-report.html; - for standard\n"
    "                     output); its path is printed on standard error\n"
    "  --svg-dir DIR      also write each figure as DIR/NAME.svg (NAME is the\n"
    "                     figure's id: scaling-AXIS, regime-..., handoff,\n"
    "                     why-costly-PASS, fingerprint-family-..., precision-size-...,\n"
    "                     precision-scaling-...)\n"
    "  --stages MAP       stage map: auto (default: vpux for NPU compiler reports,\n"
    "                     mlir for the others), vpux, mlir, or a FILE\n"
    "  --a K=V[,K=V]      with --b: compare two tag selections of the runs\n"
    "  --b K=V[,K=V]      (medians, B/A, exact Mann-Whitney p, verdict)\n"
    "  --baseline K=V     ratios to this tag value (default: precision=int8 when\n"
    "                     the runs have that tag value)\n"
    "  --fingerprint-window W\n"
    "                     the window of the study's family fingerprint and of\n"
    "                     precision-size's time panel (default: the window most\n"
    "                     families share)\n"
    "  --label-regex RE   as for tree\n"
    NS__NPU_OPTIONS
    "  -q, --quiet        no warnings\n"
    "\n"
    "exit codes: 0 page written, 1 no timing report or run found, 2 usage\n"
    "error, unreadable input or unwritable output.\n";

static const char ns__watch[] =
    "usage: npuscope watch [--follow] [--format text|json] [--profile RUN] [FILE | -]\n"
    "\n"
    "Follow a log that another process is writing (a compile started by hand, an\n"
    "IDE, a CI job's log) from its start: on a terminal, one status line updated\n"
    "in place with the elapsed time, the sub-model compile, the pass running now\n"
    "(the NPU compiler's pass loggers) and, with --profile, progress against an\n"
    "earlier run; after each report its total.  When the log is finished, print\n"
    "its reports as 'npuscope tree' would.  A file is finished when no process\n"
    "has it open for writing any more (a pipe: when its writer closes it).\n"
    "\n"
    "options:\n"
    "  --follow           keep waiting at the end of the file until interrupted\n"
    "  --format F         text (default: the status line, then the tree) or json:\n"
    "                     one event a line on stdout ({\"event\":\"pass\",...},\n"
    "                     \"report\" with total_s, then \"end\"), for other tools\n"
    "  --profile RUN      a run folder (or its run.json) of the same configuration:\n"
    "                     show the share of its time done, the time left, and a\n"
    "                     warning when this compile is far slower at the same pass\n"
    "  --label-regex RE   as for tree\n"
    NS__NPU_OPTIONS
    "  -q, --quiet        no status line, no warnings\n";

static const char ns__timeline[] =
    "usage: npuscope timeline [--format text|json|chrome] FILE|RUN...\n"
    "\n"
    "The whole load in time, from the times on the NPU stack's log lines\n"
    "([LEVEL] HH:MM:SS.mmm [name]): before the first compile, each compile from\n"
    "its first line to its last (with its report's total beside its span), the\n"
    "gaps between compiles, a failed compile, after the last; compiles that ran\n"
    "at once overlap (overlap_s), and unaccounted_s is the span minus the\n"
    "summed report totals.  A run folder (or a folder of runs) uses its logs and\n"
    "its process's start and end.  Midnight is passed (a day added); a clock\n"
    "going back is held at the time before and said; lines without a time have\n"
    "none; a log with no time at all has no timeline (said).\n"
    "\n"
    "options:\n"
    "  --format F         text (default), json (npuscope-timeline, docs/formats.md)\n"
    "                     or chrome (trace events for Perfetto or speedscope: one\n"
    "                     process per input, parallel compiles on their own threads)\n"
    "  --label-regex RE   as for tree\n"
    NS__NPU_OPTIONS
    "  -q, --quiet        no warnings\n"
    "\n"
    "exit codes: 0 a timeline shown, 1 no input has a time, 2 usage error or\n"
    "unreadable input.\n";

void ns_help(const char *cmd) {
    const char *text = ns__general;
    if (cmd && strcmp(cmd, "tree") == 0) text = ns__tree;
    else if (cmd && strcmp(cmd, "top") == 0) text = ns__top;
    else if (cmd && strcmp(cmd, "record") == 0) text = ns__record;
    else if (cmd && strcmp(cmd, "sweep") == 0) text = ns__sweep;
    else if (cmd && strcmp(cmd, "table") == 0) text = ns__table;
    else if (cmd && strcmp(cmd, "stages") == 0) text = ns__stages;
    else if (cmd && strcmp(cmd, "fit") == 0) text = ns__fit;
    else if (cmd && strcmp(cmd, "diff") == 0) text = ns__diff;
    else if (cmd && strcmp(cmd, "advise") == 0) text = ns__advise;
    else if (cmd && strcmp(cmd, "report") == 0) text = ns__report;
    else if (cmd && strcmp(cmd, "watch") == 0) text = ns__watch;
    else if (cmd && strcmp(cmd, "timeline") == 0) text = ns__timeline;
    fputs(text, stdout);
    if (text != ns__general) return;
#define NS__EXIT_LINE(name, status, what) printf("  %-4d %s\n", status, what);
    NS_EXIT_TABLE(NS__EXIT_LINE)
#undef NS__EXIT_LINE
    fputs(ns__general_tail, stdout);
}
