# Writes one of each kind of bad line, then a good one, then waits for the end of stdin.
import sys

out = sys.stdout
out.write("this is not json\n")
out.write("[1, 2, 3]\n")
out.write('{"payload": {"no": "type"}}\n')
out.write('{"type": "Not A Valid Type"}\n')
out.write('{"type": "malformed/cause", "cause": "seven"}\n')
out.write('{"type": "malformed/long", "payload": "' + "x" * (2 << 20) + '"}\n')
out.write("\n")
out.write('{"type": "malformed/done", "payload": 1}\n')
out.flush()
sys.stdin.read()
