#!/usr/bin/env python3
"""Two (or more) makeroom replicas behind one address, as a Service spreads a scheduler's connections
over the chart's replicas, only more evenly: each request goes to the next replica in turn.

Usage: round_robin_proxy.py PORT UPSTREAM [UPSTREAM ...]   (UPSTREAM: http://127.0.0.1:18136)
It forwards method, path, body and Content-Type, and answers with the replica's status and body. It
prints one line per request: which replica, the path, the status (and, for preempt, the answer)."""
import http.client, itertools, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

UPSTREAMS = [urlparse(u) for u in sys.argv[2:]]
_turn = itertools.count()
_lock = threading.Lock()


class Forward(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', '0')))
        with _lock:
            i = next(_turn) % len(UPSTREAMS)
        up = UPSTREAMS[i]
        c = http.client.HTTPConnection(up.hostname, up.port, timeout=30)
        c.request('POST', self.path, body, {'Content-Type': self.headers.get('Content-Type', 'application/json')})
        r = c.getresponse()
        data = r.read()
        c.close()
        self.send_response(r.status)
        self.send_header('Content-Type', r.getheader('Content-Type', 'application/json'))
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        extra = ' ' + data.decode('utf-8', 'replace')[:300] if self.path.endswith('/preempt') else ''
        print('%s replica %d %s %d%s' % (time.strftime('%H:%M:%S'), i, self.path, r.status, extra), flush=True)

    def log_message(self, *args):
        pass


if __name__ == '__main__':
    ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), Forward).serve_forever()
