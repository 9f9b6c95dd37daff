# Writes the number of actions given as the first argument as fast as it can, then
# "flood/done", then waits for the end of stdin.
import json, sys

count = int(sys.argv[1])
out = sys.stdout
for index in range(count):
    out.write('{"type": "flood/item", "payload": %d}\n' % index)
out.write(json.dumps({"type": "flood/done", "payload": count}) + "\n")
out.flush()
sys.stdin.read()
