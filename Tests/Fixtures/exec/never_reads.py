# Never reads stdin; announces itself, then waits to be signalled (SIGTERM ends it).
import json, signal, sys

print(json.dumps({"type": "lazy/started"}), flush=True)
while True:
    signal.pause()
