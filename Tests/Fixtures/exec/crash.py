# Writes one action, then exits with the code given as the first argument (default 3).
import json, sys

print(json.dumps({"type": "crash/started"}), flush=True)
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
