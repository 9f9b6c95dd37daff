# Starts a long sleep as a grandchild in its own process group, reports its pid, then exits 1
# without waiting for it.
import json, subprocess, sys

sleeper = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL)
print(json.dumps({"type": "grandchild/started", "payload": sleeper.pid}), flush=True)
sys.exit(1)
