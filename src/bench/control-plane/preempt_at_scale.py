#!/usr/bin/env python3
"""Preemption's round trip on a large full cluster, the scheduler alone and with makeroom (issue 56).

NODES nodes (3 cpu) each hold PER_NODE priority-0 pods of 100m, bound at creation (spec.nodeName), so
every node is full to the last millicore; every seventh node holds one 200m pod in place of two 100m
ones. No kubelet is needed: nothing changes the pods' status, so the scheduler's and makeroom's
watches stay quiet, and the fillers' terminationGracePeriodSeconds is 0, so a victim the scheduler
deletes is gone at once.

Each round creates one 200m pod at priority 1000 and times, from just before its POST:
  nominated: the first time its status.nominatedNodeName (or spec.nodeName) is seen set;
  bound:     the first time its spec.nodeName is seen set.
Victims are counted from the fillers missing afterwards on the node it bound to. The preemptor stays
there, so the node is full again. RUNS alternate alone / with makeroom (filter, prioritize, preempt
registered as the README wires it), ROUNDS rounds each; before each run the scheduler is restarted
and the rounds wait until its cache holds every pod (scheduler_cache_size), so no round meets a
scheduler that has not synced. makeroom's own mean time per verb over each run comes from its metrics.

Env: PEER + ports, NODES (5000), PER_NODE (30), ROUNDS (10), RUNS (2), MR, MRM (makeroom's URLs),
CREATORS (threads creating pods, 8), SIDES (alone,makeroom: which runs each of RUNS makes, in order)."""
import http.client, json, os, re, ssl, statistics, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane
from throughput import makeroom_times, log

NODES = int(os.environ.get('NODES', '5000'))
PER_NODE = int(os.environ.get('PER_NODE', '30'))
ROUNDS = int(os.environ.get('ROUNDS', '10'))
RUNS = int(os.environ.get('RUNS', '2'))
MR = os.environ.get('MR', 'http://127.0.0.1:18136/scheduler')
CREATORS = int(os.environ.get('CREATORS', '8'))
SIDES = [side == 'makeroom' for side in os.environ.get('SIDES', 'alone,makeroom').split(',')]
NS = 'pas'
SCHED = '/metrics'
_local = threading.local()


def conn():
    """One keep-alive connection to the API server per thread: 150,000 creations without a handshake each."""
    if getattr(_local, 'c', None) is None:
        host, port = kapi.SERVER.split('//')[1].split(':')
        _local.c = http.client.HTTPSConnection(host, int(port), context=kapi._ssl(), timeout=30)
    return _local.c


def call(method, path, body=None):
    for attempt in range(3):
        try:
            c = conn()
            c.request(method, path, json.dumps(body) if body is not None else None,
                      {'Content-Type': 'application/json', 'Accept': 'application/json'})
            r = c.getresponse()
            data = r.read()
            if r.status >= 300 and not (method == 'POST' and r.status == 409):
                raise RuntimeError('%s %s -> %s %s' % (method, path, r.status, data[:200]))
            return json.loads(data) if data else {}
        except (http.client.HTTPException, OSError):
            _local.c = None
            if attempt == 2:
                raise


def node_name(i):
    return 'pas-%05d' % i


def fillers(i):
    """The pods node i holds: (name, millicores)."""
    sizes = [200] + [100] * (PER_NODE - 2) if i % 7 == 0 else [100] * PER_NODE
    return [('f-%05d-%02d' % (i, j), m) for j, m in enumerate(sizes)]


def filler_body(node, name, millis):
    return {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': name, 'labels': {'app': 'filler'}},
            'spec': {'nodeName': node, 'terminationGracePeriodSeconds': 0,
                     'containers': [{'name': 'c', 'image': 'busybox',
                                     'resources': {'requests': {'cpu': '%dm' % millis, 'memory': '64Mi'}}}]}}


def fill():
    have = len(kapi.req('GET', '/api/v1/nodes?labelSelector=makeroom-bench%3Dpas')['items'])
    if have < NODES:
        with ThreadPoolExecutor(CREATORS) as ex:
            list(ex.map(lambda i: kapi.make_ready_node(node_name(i), cpu='3', memory='16Gi', pods='110',
                                                        labels={'makeroom-bench': 'pas'}), range(have, NODES)))
    log('%d nodes' % NODES)
    wanted = NODES * PER_NODE - (NODES + 6) // 7  # nodes 0, 7, 14, … hold one pod fewer
    if pod_count() >= wanted * 0.99:  # an earlier invocation's victims are gone, its preemptors in their place
        return

    def node_pods(i):
        for name, millis in fillers(i):
            call('POST', '/api/v1/namespaces/%s/pods' % NS, filler_body(node_name(i), name, millis))
    t0 = time.time()
    with ThreadPoolExecutor(CREATORS) as ex:
        for k, _ in enumerate(ex.map(node_pods, range(NODES))):
            if k % 500 == 499:
                log('%d nodes filled, %.0f s' % (k + 1, time.time() - t0))


def pod_count():
    meta = call('GET', '/api/v1/namespaces/%s/pods?limit=1' % NS)
    return len(meta['items']) + int(meta['metadata'].get('remainingItemCount') or 0)


def scheduler_cached_pods():
    ctx = ssl.create_default_context()
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    ctx.load_cert_chain(os.path.join(PEER, 'pki', 'admin.crt'), os.path.join(PEER, 'pki', 'admin.key'))
    c = http.client.HTTPSConnection('127.0.0.1', int(os.environ.get('SCHED_PORT', '10259')), context=ctx, timeout=5)
    try:
        c.request('GET', SCHED)
        text = c.getresponse().read().decode()
    except OSError:
        return 0
    m = re.search(r'^scheduler_(?:scheduler_)?cache_size\{type="pods"\} (\S+)$', text, re.M)
    return float(m.group(1)) if m else 0


def start_scheduler(with_makeroom):
    control_plane.start_scheduler(MR if with_makeroom else None, qps=5000, verbosity='1', name='preempt-at-scale')
    want = pod_count()
    kapi.wait_for(lambda: scheduler_cached_pods() >= want, timeout=600, interval=1,
                  what='the scheduler caching %d pods' % want)


def one_round(tag):
    name = 'pre-%s-%s' % (STAMP, tag)
    body = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': name, 'labels': {'app': 'preemptor'}},
            'spec': {'priorityClassName': 'pas-high', 'terminationGracePeriodSeconds': 0,
                     'nodeSelector': {'makeroom-bench': 'pas'},  # other tests' nodes on the rig are not full
                     'containers': [{'name': 'c', 'image': 'busybox',
                                     'resources': {'requests': {'cpu': '200m', 'memory': '64Mi'}}}]}}
    t0 = time.time()
    call('POST', '/api/v1/namespaces/%s/pods' % NS, body)
    nominated = bound = None
    node = None
    while time.time() - t0 < 60 and bound is None:
        pod = call('GET', '/api/v1/namespaces/%s/pods/%s' % (NS, name))
        t = time.time() - t0
        node = pod['spec'].get('nodeName')
        if nominated is None and (pod['status'].get('nominatedNodeName') or node):
            nominated = t
        if node:
            bound = t
        time.sleep(0.005)
    if node is None:
        return {'pod': name, 'nominated_ms': nominated and round(1000 * nominated, 1), 'bound_ms': None}
    i = int(node.split('-')[1])
    left = {p['metadata']['name'] for p in call('GET', '/api/v1/namespaces/%s/pods?fieldSelector=spec.nodeName%%3D%s'
                                                % (NS, node))['items']}
    victims = [n for n, _ in fillers(i) if n not in left and n not in VICTIMS]
    VICTIMS.update(victims)
    return {'pod': name, 'node': node, 'nominated_ms': round(1000 * nominated, 1), 'bound_ms': round(1000 * bound, 1),
            'victims': len(victims)}


VICTIMS = set()
STAMP = time.strftime('%H%M%S')  # preemptors of an earlier invocation keep their names


def one_run(run, with_makeroom):
    start_scheduler(with_makeroom)
    before = makeroom_times()
    rounds = [one_round('%d-%s-%d' % (run, 'mr' if with_makeroom else 'alone', r)) for r in range(ROUNDS)]
    after = makeroom_times()
    control_plane.stop_scheduler()
    nominated = [r['nominated_ms'] for r in rounds if r['nominated_ms'] is not None]
    own = {v: round(1000 * (after[v][0] - before.get(v, (0, 0))[0]) / (after[v][1] - before.get(v, (0, 0))[1]), 3)
           for v in after if after[v][1] - before.get(v, (0, 0))[1] > 0}
    return {'with_makeroom': with_makeroom, 'rounds': rounds,
            'nominated_median_ms': statistics.median(nominated) if nominated else None,
            'first_nominated_ms': nominated[0] if nominated else None,
            'bound_all': all(r['bound_ms'] is not None for r in rounds),
            'victims_per_preemption': statistics.mean(r['victims'] for r in rounds if 'victims' in r),
            'makeroom_mean_ms': own,
            'makeroom_calls': {v: int(after[v][1] - before.get(v, (0, 0))[1]) for v in after}}


def main():
    kapi.wait_ready()
    control_plane.stop_scheduler()
    kapi.ensure_namespace(NS, wait_sa=False)
    if kapi.req('GET', '/api/v1/namespaces/%s/serviceaccounts/default' % NS, ok404=True) is None:
        kapi.req('POST', '/api/v1/namespaces/%s/serviceaccounts' % NS,
                 {'apiVersion': 'v1', 'kind': 'ServiceAccount', 'metadata': {'name': 'default'}})
    if kapi.req('GET', '/apis/scheduling.k8s.io/v1/priorityclasses/pas-high', ok404=True) is None:
        kapi.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses',
                 {'apiVersion': 'scheduling.k8s.io/v1', 'kind': 'PriorityClass', 'metadata': {'name': 'pas-high'},
                  'value': 1000})
    fill()
    log('%d pods' % pod_count())
    results = []
    for run in range(RUNS):
        for with_makeroom in SIDES:
            res = one_run(run, with_makeroom)
            log(json.dumps({k: v for k, v in res.items() if k != 'rounds'}))
            results.append(res)
    json.dump(results, open(os.environ.get('OUT', '.') + '/preempt-at-scale-%s.json' % os.path.basename(PEER), 'w'),
              indent=1)
    for label, flag in (('alone', False), ('with makeroom', True)):
        runs = [r for r in results if r['with_makeroom'] == flag]
        if not runs:
            continue
        log('SUMMARY %s: nomination median %s ms, first %s ms, victims per preemption %s, every preemptor bound %s'
            % (label, [r['nominated_median_ms'] for r in runs], [r['first_nominated_ms'] for r in runs],
               [round(r['victims_per_preemption'], 2) for r in runs], all(r['bound_all'] for r in runs)))


if __name__ == '__main__':
    main()
