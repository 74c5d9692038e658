#!/usr/bin/env python3
"""Double-preemption check (issue 51): two full nodes, a pending high-priority pod with a hostname
spread constraint; the fake kubelet takes GRACE s to finish a termination. For ROUNDS rounds: fill,
create the pending pod, watch where it binds and who was evicted; read makeroom's decisions.
Env: PEER + ports (kapi), MR (makeroom extender URL base), MRM (management URL; several replicas:
comma-separated, each one's decisions are read and each one's simulate is asked, while the pod waits,
whether it sees the preemption in flight), MODE=names|objects."""
import json, os, sys, time, urllib.request
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane
from fake_kubelet import FakeKubelet

MR = os.environ.get('MR', 'http://127.0.0.1:18136/scheduler')
MRM = os.environ.get('MRM', 'http://127.0.0.1:18137')
MODE = os.environ.get('MODE', 'names')
ROUNDS = int(os.environ.get('ROUNDS', '10'))
GRACE = float(os.environ.get('GRACE', '6'))
NS = 'mr'

def log(*a): print(time.strftime('%H:%M:%S'), *a, flush=True)

def start_scheduler():
    control_plane.start_scheduler(MR, node_cache_capable=MODE == 'names')


def pc(name, value):
    try:
        kapi.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {'apiVersion': 'scheduling.k8s.io/v1',
                 'kind': 'PriorityClass', 'metadata': {'name': name}, 'value': value})
    except kapi.ApiError as e:
        if e.status != 409: raise

def pod(name, cpu, prio, node=None, labels=None, spread=False):
    p = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': name, 'labels': labels or {}},
         'spec': {'priorityClassName': prio, 'terminationGracePeriodSeconds': 5,
                  'nodeSelector': {'mr': 'true'},
                  'containers': [{'name': 'c', 'image': 'busybox', 'resources': {'requests': {'cpu': cpu, 'memory': '64Mi'}}}]}}
    if node: p['spec']['nodeSelector']['kubernetes.io/hostname'] = node
    if spread:
        p['spec']['topologySpreadConstraints'] = [{'maxSkew': 1, 'topologyKey': 'kubernetes.io/hostname',
            'whenUnsatisfiable': 'DoNotSchedule', 'labelSelector': {'matchLabels': {'app': 'hp'}}}]
    return p

def pods():
    return {p['metadata']['name']: p for p in kapi.req('GET', '/api/v1/namespaces/%s/pods' % NS)['items']}

REPLICAS = MRM.split(',')


def decisions():
    found = []
    for replica, url in enumerate(REPLICAS):
        with urllib.request.urlopen(url + '/debug/decisions?pod=%s/hp' % NS, timeout=5) as r:
            found += [dict(d, replica=replica) for d in json.loads(r.read())]
    return sorted(found, key=lambda d: d.get('at'))


def sees_in_flight(url):
    """Whether this replica's simulate says hp's preemption is in flight."""
    req = urllib.request.Request(url + '/debug/simulate', data=json.dumps({'pod': '%s/hp' % NS}).encode(),
                                 headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return 'is in flight' in r.read().decode()
    except Exception:
        return False

def main():
    kapi.wait_ready()
    start_scheduler()
    pc('mr-low', 100); pc('mr-mid', 500); pc('mr-high', 1000)
    for n in ('mr-a', 'mr-b'):
        if kapi.req('GET', '/api/v1/nodes/' + n, ok404=True) is None:
            kapi.make_ready_node(n, cpu='2', memory='4Gi', pods='110', labels={'mr': 'true'})
    kapi.ensure_namespace(NS)
    kubelet = FakeKubelet([NS], grace=GRACE).start()
    base = '/api/v1/namespaces/%s/pods' % NS
    summary = []
    for r in range(ROUNDS):
        if os.environ.get('PROBE'):  # a pod that fits both nodes: filter with two names, then prioritize
            probe = pod('probe', '100m', 'mr-low', labels={'app': 'probe'})
            kapi.req('POST', base, probe)
            kapi.wait_for(lambda: kapi.req('GET', base + '/probe')['spec'].get('nodeName'), timeout=30, what='probe bound')
            kapi.req('DELETE', base + '/probe?gracePeriodSeconds=0', ok404=True)
            kapi.wait_for(lambda: kapi.req('GET', base + '/probe', ok404=True) is None, timeout=30, what='probe gone')
        kapi.req('POST', base, pod('low-1', '2', 'mr-low', 'mr-a', {'app': 'fill'}))
        kapi.req('POST', base, pod('mid-1', '2', 'mr-mid', 'mr-b', {'app': 'fill'}))
        kapi.wait_for(lambda: all(p['spec'].get('nodeName') and p['status'].get('phase') == 'Running'
                                  for p in pods().values()) and len(pods()) == 2, timeout=60, what='fill running')
        removed0 = len(kubelet.removed)
        started = time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime())  # decisions of this round: made from now on
        t0 = time.time()
        kapi.req('POST', base, pod('hp', '1', 'mr-high', labels={'app': 'hp'}, spread=True))
        timeline = []
        in_flight_seen = set()
        while time.time() - t0 < 60:
            p = kapi.req('GET', base + '/hp')
            st = (p['status'].get('nominatedNodeName'), p['spec'].get('nodeName'))
            if st[0] and not st[1] and len(REPLICAS) > 1:
                in_flight_seen |= {i for i, url in enumerate(REPLICAS) if i not in in_flight_seen and sees_in_flight(url)}
            if not timeline or timeline[-1][1:] != st:
                timeline.append((round(time.time() - t0, 2),) + st)
            if p['spec'].get('nodeName'):
                break
            time.sleep(0.1)
        time.sleep(GRACE + 1.5)  # let any second eviction show
        evicted = [n for (_, n, _) in kubelet.removed[removed0:]]
        term = [n for n, p in pods().items() if p['metadata'].get('deletionTimestamp')]
        d = [x for x in decisions() if x.get('at') >= started]
        outcomes = [(x.get('at')[11:23], 'replica %d' % x['replica'], x.get('outcome'), x.get('detail')) for x in d]
        bound = kapi.req('GET', base + '/hp')['spec'].get('nodeName')
        log('round %d: hp bound to %s after %.1f s; evicted %s terminating %s; timeline %s; replicas whose simulate'
            ' named the preemption in flight %s' % (r, bound, timeline[-1][0] if timeline else -1, evicted, term,
                                                   timeline, sorted(in_flight_seen)))
        for o in outcomes[-4:]: log('    makeroom:', o)
        summary.append({'round': r, 'bound': bound, 'evicted': evicted + term, 'timeline': timeline,
                        'decisions': outcomes, 'in_flight_seen_by': sorted(in_flight_seen)})
        # clean up the round
        for n in list(pods()):
            kapi.req('DELETE', base + '/' + n + '?gracePeriodSeconds=0', ok404=True)
        kapi.wait_for(lambda: not pods(), timeout=30, what='round cleaned')
    kubelet.stop()
    json.dump(summary, open(os.environ.get('OUT', '.') + '/async-%s-%s.json' % (os.path.basename(PEER), MODE), 'w'), indent=1)
    ok = sum(1 for s in summary if s['bound'] == 'mr-a' and s['evicted'] == ['low-1'])
    log('SUMMARY %s %s: %d/%d rounds bound to mr-a with exactly low-1 evicted; preempt decisions with victims per'
        ' round %s; replicas that saw it in flight per round %s' % (
            PEER, MODE, ok, len(summary), [sum(1 for o in s['decisions'] if o[2] == 'PREEMPT') for s in summary],
            [s['in_flight_seen_by'] for s in summary]))

if __name__ == '__main__':
    main()
