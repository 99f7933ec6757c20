"""What check_rows.py and check_attention.py share: their runs side by side, one line each, a
count of failures, and the exit status."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor


def run_all(run, jobs):
    """Runs run(job) for every job on a thread per CPU, prints each result line in job order and
    the count, and exits 1 when a line starts with FAIL."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(run, jobs))
    for line in results:
        print(line)
    print(f"{len(results)} runs, {sum(line.startswith('FAIL') for line in results)} failed")
    sys.exit(1 if any(line.startswith("FAIL") for line in results) else 0)
