"""A scripted HTTP server for the network-fetch tests (Python standard library only).

Usage: python3 scripted_server.py SCRIPT

SCRIPT is JSON: {"routes": {"/path": [response, ...]}}. Requests to a path take its responses
in order; the last one repeats. A response is an object with:
  status       HTTP status (default 200)
  headers      extra response headers
  json         a value sent as application/json
  body         text sent as is
  bodyBytes    this many filler bytes, paced (FILLER_PAUSE); -1 streams filler until the
               client goes away
  noLength     omit Content-Length and close the connection after the body
  hold         wait for /_control/release (or for the client to go away) before answering
  echo         answer with the request itself: {"method", "path", "query", "headers", "body"}

Control endpoints (not recorded):
  /_control/requests               every request so far, with inFlight and maxInFlight
  /_control/await?path=P&count=N[&state=S]
                                   waits (10 s at most, then 504) until N requests for P are
                                   in state S (held | aborted | done; any when omitted)
  /_control/release?path=P         lets the oldest held request for P answer

Prints "PORT <n>" on stdout once listening on 127.0.0.1 on a free port; exits when its parent
(the test process) is gone.
"""

import json
import os
import select
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# How long /_control/await waits for requests to arrive: generous, because the whole suite runs
# in parallel on small machines; scaled like every other test deadline, and kept below
# URLSession's 60 s request timeout so the test reads the verdict rather than a timeout.
try:
    AWAIT_SECONDS = min(45.0, 40.0 * max(1.0, float(os.environ.get("SWITCHYARD_TEST_TIMEOUT_SCALE", "1"))))
except ValueError:
    AWAIT_SECONDS = 40.0

# Filler is paced (64 KiB, then this pause: at most about 12 MB/s), so the server of an endless
# body does not take a core of a loaded test machine while the client cuts the transfer off.
FILLER_PAUSE = 0.005

SCRIPT = json.loads(sys.argv[1])
ROUTES = SCRIPT.get("routes", {})
LOCK = threading.Condition()
COUNTERS = {}
REQUESTS = []
HELD = {}
STATS = {"inFlight": 0, "maxInFlight": 0}


def next_response(path):
    responses = ROUTES.get(path)
    if not responses:
        return {"status": 404, "json": {"error": "no route " + path}}
    index = COUNTERS.get(path, 0)
    COUNTERS[path] = index + 1
    return responses[min(index, len(responses) - 1)]


def client_gone(connection):
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        if not readable:
            return False
        return connection.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def do_PUT(self):
        self.handle_any()

    def do_PATCH(self):
        self.handle_any()

    def do_DELETE(self):
        self.handle_any()

    def do_HEAD(self):
        self.handle_any()

    def handle_any(self):
        url = urlsplit(self.path)
        if url.path.startswith("/_control/"):
            self.control(url.path, parse_qs(url.query))
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        record = {
            "method": self.command,
            "path": url.path,
            "query": url.query,
            "target": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body,
            "state": "started",
        }
        with LOCK:
            REQUESTS.append(record)
            STATS["inFlight"] += 1
            STATS["maxInFlight"] = max(STATS["maxInFlight"], STATS["inFlight"])
            response = next_response(url.path)
            LOCK.notify_all()
        try:
            if response.get("hold") and not self.hold(url.path, record):
                return
            self.answer(response, record)
            self.set_state(record, "done")
        except (BrokenPipeError, ConnectionResetError):
            self.set_state(record, "aborted")
            self.close_connection = True
        finally:
            with LOCK:
                STATS["inFlight"] -= 1
                LOCK.notify_all()

    def set_state(self, record, state):
        with LOCK:
            record["state"] = state
            LOCK.notify_all()

    def hold(self, path, record):
        release = threading.Event()
        with LOCK:
            HELD.setdefault(path, []).append(release)
            record["state"] = "held"
            LOCK.notify_all()
        while not release.wait(0.02):
            if client_gone(self.connection):
                with LOCK:
                    if release in HELD.get(path, []):
                        HELD[path].remove(release)
                self.set_state(record, "aborted")
                self.close_connection = True
                return False
        return True

    def answer(self, response, record):
        status = response.get("status", 200)
        headers = dict(response.get("headers", {}))
        if response.get("echo"):
            payload = json.dumps({key: record[key] for key in ("method", "path", "query", "headers", "body")}).encode()
            headers.setdefault("Content-Type", "application/json")
        elif "json" in response:
            payload = json.dumps(response["json"]).encode()
            headers.setdefault("Content-Type", "application/json")
        elif "bodyBytes" in response:
            payload = None
        else:
            payload = response.get("body", "").encode()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, str(value))
        length = response["bodyBytes"] if payload is None else len(payload)
        if response.get("noLength") or length < 0:
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()
        if self.command == "HEAD":
            return
        if payload is None:
            chunk = b"x" * 65536
            sent = 0
            while length < 0 or sent < length:
                part = chunk if length < 0 else chunk[:min(len(chunk), length - sent)]
                self.wfile.write(part)
                sent += len(part)
                time.sleep(FILLER_PAUSE)
        else:
            self.wfile.write(payload)
        self.wfile.flush()

    def control(self, path, query):
        if path == "/_control/requests":
            with LOCK:
                reply = {"requests": REQUESTS, **STATS}
                self.reply(200, reply)
        elif path == "/_control/await":
            target = query.get("path", [""])[0]
            count = int(query.get("count", ["1"])[0])
            state = query.get("state", [None])[0]
            deadline = time.monotonic() + AWAIT_SECONDS
            with LOCK:
                def matching():
                    return [r for r in REQUESTS if r["path"] == target and (state is None or r["state"] == state)]
                while len(matching()) < count and time.monotonic() < deadline:
                    LOCK.wait(deadline - time.monotonic())
                found = len(matching())
            self.reply(200 if found >= count else 504, {"found": found})
        elif path == "/_control/release":
            target = query.get("path", [""])[0]
            with LOCK:
                held = HELD.get(target, [])
                released = held.pop(0) if held else None
            if released:
                released.set()
            self.reply(200, {"released": released is not None})
        else:
            self.reply(404, {"error": "unknown control " + path})

    def reply(self, status, value):
        payload = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def exit_with_parent(parent):
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


# The test process may have blocked signals, which children inherit; and if it dies without
# stopping this server, nothing else would.
signal.pthread_sigmask(signal.SIG_SETMASK, set())
threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
server = Server(("127.0.0.1", 0), Handler)
print("PORT", server.server_address[1], flush=True)
server.serve_forever()
