"""Autotuning kernel templates on the timing model, and launching the tuned
instance of a shape (docs/python.md, "Autotuning").

    result = hk.autotune("gemm_bf16", shapes=[(512, 512, 4096)],
                         space={"BM": [128, 256], "BN": [128, 256]},
                         chip="gfx950", table=True)
    gemm = hk.TunedKernel("kernels/gemm_bf16/gemm_bf16.mlir", "gemm_bf16",
                          shape_of=lambda a, b, c: (a.shape[0], b.shape[0],
                                                    a.shape[1]))
    gemm(a, b, c)            # the instance tuned for the bucket of (M, N, K)

Every instance of the space (and the default) is compiled and timed by the
ISA simulator's timing mode (docs/timing.md) at each shape: a library
kernel (named) through `hk-run NAME --shape S --timing --param ...`, which
sets up its arguments; any template (a path) in process through
Device.set_timing and Device.timing_report, with `args(shape)` giving the
kernel's arguments. The instances run in parallel: on the host's cores
(concurrent.futures processes, spawned), or on a Dask distributed cluster when a
`client` is given (the same function, through the client's executor).
With device="hip" a library kernel is timed on the GPU instead (hk-run's
launch-to-completion time), and the table says so.

A shape's bucket rounds each dimension above 1 up to a power of two (as
hk-run does); the instance chosen for a bucket is the fastest over the
bucket's shapes tuned (the sum of their times). Tables are JSON, one per
kernel and chip: the user's in <cache_dir>/tuned/<kernel>/<chip>.json, the
library's in kernels/<kernel>/tuned/<chip>.json.
"""

import concurrent.futures
import itertools
import json
import multiprocessing
import os
import subprocess
import tempfile

from . import _capi
from .compiler import cache_dir
from .compiler import compile as _compile
from .errors import Error

__all__ = ["autotune", "shape_bucket", "tuned_params", "table_path", "write_table",
           "TuneResult", "TunedKernel"]


def shape_bucket(shape):
    """The bucket of `shape`: each dimension above 1 rounded up to a power
    of two (0 and 1 stay)."""
    out = []
    for d in shape:
        d = int(d)
        b = 1
        while b < d:
            b *= 2
        out.append(d if d <= 1 else b)
    return tuple(out)


def table_path(kernel, chip):
    """The user's tuned table of `kernel` on `chip` (in the cache)."""
    return os.path.join(cache_dir(), "tuned", kernel, f"{chip}.json")


def _hk_run():
    return os.environ.get("HK_RUN") or os.path.normpath(
        os.path.join(_capi._config.LIBDIR, "..", "bin", "hk-run"))


def _measure_hk_run(job):
    cmd = [_hk_run(), job["kernel"], "--shape",
           ",".join(str(d) for d in job["shape"]), "--chip", job["chip"],
           "--device", job["device"]]
    if job["device"] != "hip":
        cmd.append("--timing")
    cmd += (["--no-tuned"] if not job["params"] else
            [a for k, v in sorted(job["params"].items())
             for a in ("--param", f"{k}={v}")])
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return {"error": (run.stderr or run.stdout).strip()[-2000:]}
    for line in run.stdout.splitlines():
        if line.startswith("TIMING "):
            report = json.loads(line[len("TIMING "):])
            return {"microseconds": report["microseconds"],
                    "tflops": report.get("tflops")}
        if line.startswith("time:") and job["device"] == "hip":
            return {"microseconds": float(line.split()[1]) * 1e6,
                    "tflops": None}
    return {"error": "hk-run printed no time:\n" + run.stdout[-2000:]}


def _measure_in_process(job):
    from . import runtime
    mod = _compile(job["template"], chips=[job["chip"]],
                   params=job["params"] or None)
    dev = runtime.set_device("isa", chip=job["chip"])
    dev.set_timing(True)
    try:
        getattr(mod, job["kernel"])(*job["args"](job["shape"]))
        report = dev.timing_report()
    finally:
        dev.set_timing(False)
    return {"microseconds": report["microseconds"],
            "tflops": report.get("tflops")}


def _measure(job):
    """One instance at one shape: {"microseconds", "tflops"} or {"error"}.
    Runs in a worker process or on a Dask worker."""
    try:
        out = (_measure_hk_run(job) if job["runner"] == "hk-run" else
               _measure_in_process(job))
    except Exception as e:  # a worker reports, the search goes on
        out = {"error": f"{type(e).__name__}: {e}"}
    out.update(shape=list(job["shape"]), params=dict(job["params"]),
               worker=_dask_worker())
    return out


def _dask_worker():
    """The address of the Dask worker running this task, or None."""
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return None


class TuneResult:
    """What autotune found: `entries` (one per bucket: bucket, shapes,
    params, microseconds and default_microseconds summed over the shapes,
    speedup), `timings` (every measurement), `table` (the file written, if
    any) and `measured_on` ("model" or "hip")."""

    def __init__(self, kernel, chip, measured_on, entries, timings, table):
        self.kernel, self.chip = kernel, chip
        self.measured_on = measured_on
        self.entries, self.timings, self.table = entries, timings, table

    def best(self, shape):
        """The entry of `shape`'s bucket."""
        bucket = list(shape_bucket(shape))
        for e in self.entries:
            if e["bucket"] == bucket:
                return e
        raise KeyError(f"no bucket {bucket} was tuned")

    def __repr__(self):
        rows = [f"{e['bucket']}: {e['params'] or 'default'} "
                f"{e['microseconds']:.2f} us (default "
                f"{e['default_microseconds']:.2f} us)" for e in self.entries]
        return (f"<TuneResult {self.kernel} {self.chip} on the "
                f"{self.measured_on}: " + "; ".join(rows) + ">")


def _candidates(space):
    names = sorted(space)
    for values in itertools.product(*(list(space[n]) for n in names)):
        yield dict(zip(names, values))


def _jobs(kernel, template, shapes, space, chip, args, device):
    runner = "hk-run" if args is None else "in-process"
    if runner == "in-process" and device != "isa":
        raise Error("hk.autotune: args= times on the ISA simulator only")
    jobs = []
    for shape in shapes:
        for params in [{}] + list(_candidates(space)):
            jobs.append({"runner": runner, "kernel": kernel,
                         "template": template, "shape": tuple(shape),
                         "params": params, "chip": chip, "device": device,
                         "args": args})
    return jobs


def _choose(timings, shapes):
    """Per bucket, the fastest instance over the bucket's shapes."""
    by_bucket = {}
    for shape in shapes:
        by_bucket.setdefault(shape_bucket(shape), []).append(tuple(shape))
    entries = []
    for bucket, members in by_bucket.items():
        totals = {}
        for t in timings:
            if tuple(t["shape"]) in members and "error" not in t:
                key = json.dumps(t["params"], sort_keys=True)
                totals.setdefault(key, []).append(t["microseconds"])
        complete = {k: sum(v) for k, v in totals.items()
                    if len(v) == len(members)}
        if "{}" not in complete:
            raise Error(f"hk.autotune: the default instance failed at "
                        f"{members}: " + "; ".join(
                            t["error"] for t in timings
                            if t.get("error") and not t["params"]))
        best = min(complete, key=lambda k: (complete[k], k != "{}"))
        entries.append({"bucket": list(bucket),
                        "shapes": [list(s) for s in members],
                        "params": json.loads(best),
                        "microseconds": round(complete[best], 4),
                        "default_microseconds": round(complete["{}"], 4),
                        "speedup": round(complete["{}"] / complete[best], 4)})
    return entries


def write_table(path, kernel, chip, measured_on, entries):
    """Merges `entries` into the table at `path` (a bucket's entry
    replaced), written atomically."""
    table = {"kernel": kernel, "chip": chip, "entries": []}
    if os.path.exists(path):
        with open(path) as f:
            table = json.load(f)
    table["measured_on"] = measured_on
    table["bucketing"] = ("each dimension above 1 rounded up to a power of "
                          "two")
    keep = [e for e in table["entries"]
            if e["bucket"] not in [n["bucket"] for n in entries]]
    table["entries"] = sorted(keep + entries, key=lambda e: e["bucket"])
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                               prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        json.dump(table, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)
    return path


def autotune(template, shapes, space, chip=None, *, kernel=None,
             args=None, client=None, workers=None, table=None,
             device="isa"):
    """Searches `space` ({parameter: [values]}, every combination, plus the
    template's default instance) at each of `shapes` on `chip` (default:
    the current device's chip, hk.device().chip).

    `template` is a library kernel's name (timed through hk-run, which sets
    up its arguments) or a template's path, with `args(shape)` returning
    the arguments of `kernel` (default: the file's stem) and the timing in
    process; `args` must be a module-level function (it goes to worker
    processes). `client` (a dask.distributed Client) runs the
    measurements on its cluster, else `workers` processes (default: the
    host's cores) do. `table`: True writes the user's table
    (table_path), a path writes that file, None writes nothing. Returns a
    TuneResult."""
    shapes = [tuple(int(d) for d in s) for s in shapes]
    if not shapes or not space:
        raise Error("hk.autotune: needs shapes and a space")
    if args is None:
        name = kernel or template
        if os.sep in str(template) or str(template).endswith(".mlir"):
            raise Error("hk.autotune: a template by path needs args=")
    else:
        name = kernel or os.path.splitext(os.path.basename(template))[0]
    if chip is None:
        from . import runtime
        chip = runtime.device().chip
    jobs = _jobs(name, template, shapes, space, chip, args, device)
    if client is not None:
        executor = client.get_executor()
        timings = list(executor.map(_measure, jobs))
    else:
        # Spawned, not forked: a fork of a process whose other threads hold
        # locks (the runtime's, LLVM's, a Dask cluster's) can deadlock in
        # the child.
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=workers or os.cpu_count(),
                mp_context=multiprocessing.get_context("spawn")) as pool:
            timings = list(pool.map(_measure, jobs))
    measured_on = "hip" if device == "hip" else "model"
    entries = _choose(timings, shapes)
    path = None
    if table is True:
        path = table_path(name, chip)
    elif table:
        path = str(table)
    if path:
        write_table(path, name, chip, measured_on, entries)
    return TuneResult(name, chip, measured_on, entries, timings, path)


def _read_entries(path):
    try:
        with open(path) as f:
            return json.load(f).get("entries", [])
    except FileNotFoundError:
        return []


def tuned_params(kernel, chip, shape, library_dir=None):
    """The parameters a tuned table names for `shape`'s bucket (the user's
    table first, then the library's in `library_dir`/tuned), or {} (the
    default instance)."""
    bucket = list(shape_bucket(shape))
    tables = [table_path(kernel, chip)]
    if library_dir:
        tables.append(os.path.join(library_dir, "tuned", f"{chip}.json"))
    for path in tables:
        for e in _read_entries(path):
            if e["bucket"] == bucket:
                return {k: str(v) for k, v in e["params"].items()}
    return {}


class TunedKernel:
    """A template's kernel launched at the instance tuned for each call's
    shape: `shape_of(*args)` gives the shape, tuned_params the instance
    (compiled once per instance, through the cache). `last_params` is the
    instance of the last call ({} for the default)."""

    def __init__(self, template, kernel, shape_of, chip=None):
        self.template, self.kernel = str(template), kernel
        self.shape_of, self.chip = shape_of, chip
        self.last_params = None
        self._modules = {}

    def params_for(self, shape, chip):
        name = os.path.splitext(os.path.basename(self.template))[0]
        return tuned_params(name, chip, shape,
                            os.path.dirname(os.path.abspath(self.template)))

    def __call__(self, *args):
        from . import runtime
        chip = self.chip or runtime.device().chip
        params = self.params_for(self.shape_of(*args), chip)
        key = (chip, json.dumps(params, sort_keys=True))
        if key not in self._modules:
            self._modules[key] = _compile(self.template, chips=[chip],
                                          params=params or None)
        self.last_params = params
        return getattr(self._modules[key], self.kernel)(*args)
