# Ignores SIGTERM and the end of stdin: only SIGKILL stops it.
import json, signal, sys

signal.signal(signal.SIGTERM, signal.SIG_IGN)
print(json.dumps({"type": "stubborn/started"}), flush=True)
while True:
    signal.pause()
