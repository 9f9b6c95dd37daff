# Reads actions from stdin; for each writes "<prefix>/<event>" with the same payload and the
# action's id as cause. Exits 0 at the end of stdin. Usage: echo.py [prefix] (default "echo").
import json, sys

prefix = sys.argv[1] if len(sys.argv) > 1 else "echo"
print("echo: started", file=sys.stderr, flush=True)
for line in sys.stdin:
    action = json.loads(line)
    event = action["type"].split("/", 1)[1]
    print(json.dumps({"type": f"{prefix}/{event}", "payload": action["payload"], "cause": action["id"]}), flush=True)
print("echo: stdin closed", file=sys.stderr, flush=True)
