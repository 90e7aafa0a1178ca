"""The tests are grouped by layer (core, formats, bot, server, web, cli); ``support`` holds
helpers several groups share, so this folder is importable from every group."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
