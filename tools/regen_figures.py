"""Regenerate the curated figures in ``results/figures/`` by running the notebooks in full mode.

Usage (from the repository root; about 4 minutes on 2 cores once the kernels are compiled: every
notebook plays its full studies)::

    .venv/bin/python tools/regen_figures.py                      # every notebook
    .venv/bin/python tools/regen_figures.py 02_combat_odds       # some, by name
    .venv/bin/python tools/regen_figures.py --jobs 8             # worker processes (JOBS)

Each notebook (a jupytext py:percent file) is executed top to bottom with ``GOTSIM_QUICK=0`` in
``notebooks/``, exactly as JupyterLab would, and writes its figures through
``gotsim.analysis.notebook.figure_folder``; the executed notebook itself is not kept. A study's
own figures (``results/<study>/figures/``) are redrawn from its tables, without playing, by
``python -m gotsim.study.figures results/<study>``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks to run (default: all)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (JOBS)")
    parser.add_argument("--timeout", type=int, default=6 * 3600, help="seconds per cell")
    args = parser.parse_args(argv)

    import jupytext
    import nbclient

    paths = sorted(NOTEBOOKS.glob("*.py"))
    if args.names:
        paths = [p for p in paths if any(p.stem.startswith(n) for n in args.names)]
        if not paths:
            parser.error(f"no notebook matches {args.names}")
    os.environ["GOTSIM_QUICK"] = "0"
    if args.jobs is not None:
        os.environ["GOTSIM_JOBS"] = str(args.jobs)
    for path in paths:
        start = time.perf_counter()
        print(f"{path.name}: running in full mode…", file=sys.stderr, flush=True)
        notebook = jupytext.read(path)
        nbclient.NotebookClient(
            notebook,
            timeout=args.timeout,
            kernel_name="python3",
            resources={"metadata": {"path": str(NOTEBOOKS)}},
        ).execute()
        print(f"{path.name}: done in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"figures in {ROOT / 'results' / 'figures'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
