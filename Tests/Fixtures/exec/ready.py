# Handshake fixture: says {"ready": true} unless run with "never", then echoes like echo.py.
import json, sys

if sys.argv[1:] != ["never"]:
    print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    action = json.loads(line)
    print(json.dumps({"type": "ready/echo", "payload": action["payload"], "cause": action["id"]}), flush=True)
