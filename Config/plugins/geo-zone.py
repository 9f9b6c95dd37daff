#!/usr/bin/env python3
# A Switchyard `exec` plugin: turns each location/changed action into a geo/zone action naming
# the zone the position is in (or null), the nearest zone and the distance to its centre.
# Zones come from GEO_ZONES as "name:latitude:longitude:radius-in-metres,...".
import json, math, os, sys

def distance(lat1, lon1, lat2, lon2):
    # Great-circle distance in metres (haversine, mean Earth radius).
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))

zones = []
for spec in filter(None, os.environ.get("GEO_ZONES", "").split(",")):
    name, lat, lon, radius = spec.split(":")
    zones.append((name, float(lat), float(lon), float(radius)))

print(json.dumps({"ready": True}), flush=True)
print(f"loaded {len(zones)} zone(s)", file=sys.stderr, flush=True)

for line in sys.stdin:
    action = json.loads(line)
    position = action.get("payload") or {}
    lat, lon = position.get("latitude"), position.get("longitude")
    if not isinstance(lat, (int, float)) or not isinstance(lon, (int, float)) or not zones:
        print(f"action {action['id']} has no position (or no zones are set); skipped", file=sys.stderr, flush=True)
        continue
    metres, name, radius = min((distance(lat, lon, zlat, zlon), zname, zradius) for zname, zlat, zlon, zradius in zones)
    zone = {"zone": name if metres <= radius else None, "nearest": name, "distance": round(metres, 1),
            "latitude": lat, "longitude": lon}
    print(json.dumps({"type": "geo/zone", "payload": zone, "cause": action["id"]}), flush=True)
