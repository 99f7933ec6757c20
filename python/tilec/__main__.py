"""The console scripts pip installs: `tilec` runs the executable of this package (it finds
NVIDIA's ptxas beside it: man tilec, ENVIRONMENT), `tilec-tune` the tuning script installed
with it (docs/tuning.md)."""
import os
import sys
from pathlib import Path

import tilec


def main():
    exe = tilec.executable()
    os.execv(exe, [exe] + sys.argv[1:])


def tune():
    script = str(Path(tilec.executable()).parent / "tilec-tune")
    os.execv(sys.executable, [sys.executable, script] + sys.argv[1:])


if __name__ == "__main__":
    main()
