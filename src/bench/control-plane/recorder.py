#!/usr/bin/env python3
"""Recording proxy between a kube-scheduler and makeroom: forwards every POST to UPSTREAM, saves the request
body and makeroom's answer byte for byte (OUT/all-calls/NNNN-verb.json, NNNN-verb.response.json), and at the
first preempt call the cluster as a kind: List (OUT/cluster-at-preempt.json), read just before forwarding.
Usage: recorder.py OUT PORT UPSTREAM   (env: PEER + APISERVER_PORT for kapi)"""
import json, os, sys, threading, time, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
sys.path.insert(0, os.environ['PEER'])
import kapi

OUT, PORT, UPSTREAM = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(os.path.join(OUT, 'all-calls'), exist_ok=True)
lock = threading.Lock()
state = {'n': 0, 'cluster': False}

def cluster():
    items = []
    for path, kind, api in (('/api/v1/namespaces', 'Namespace', 'v1'),
                            ('/apis/scheduling.k8s.io/v1/priorityclasses', 'PriorityClass', 'scheduling.k8s.io/v1'),
                            ('/api/v1/nodes', 'Node', 'v1'), ('/api/v1/pods', 'Pod', 'v1'),
                            ('/apis/policy/v1/poddisruptionbudgets', 'PodDisruptionBudget', 'policy/v1')):
        for it in kapi.req('GET', path)['items']:
            it['apiVersion'], it['kind'] = api, kind
            it['metadata'].pop('managedFields', None)
            items.append(it)
    return {'apiVersion': 'v1', 'kind': 'List', 'items': items}

class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        verb = self.path.rstrip('/').rsplit('/', 1)[-1]
        with lock:
            state['n'] += 1
            n = state['n']
            if verb == 'preempt' and not state['cluster']:
                state['cluster'] = True
                json.dump(cluster(), open(os.path.join(OUT, 'cluster-at-preempt.json'), 'w'), indent=1)
        req = urllib.request.Request(UPSTREAM + self.path, data=body, method='POST',
                                     headers={'Content-Type': self.headers.get('Content-Type', 'application/json')})
        with urllib.request.urlopen(req, timeout=10) as r:
            answer, status = r.read(), r.status
        base = os.path.join(OUT, 'all-calls', '%04d-%s' % (n, verb))
        open(base + '.json', 'wb').write(body)
        open(base + '.response.json', 'wb').write(answer)
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

ThreadingHTTPServer(('127.0.0.1', PORT), H).serve_forever()
